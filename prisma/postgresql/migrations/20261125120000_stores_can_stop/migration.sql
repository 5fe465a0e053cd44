-- AlterTable
ALTER TABLE "DspConnection" ADD COLUMN     "dspStatus" TEXT NOT NULL DEFAULT 'online',
ADD COLUMN     "eventSequence" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "pausedAt" TIMESTAMP(3),
ADD COLUMN     "pausedUntil" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "Location" ADD COLUMN     "availabilityVersion" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "timezone" TEXT NOT NULL DEFAULT 'UTC';

-- CreateTable
CREATE TABLE "ItemAvailability" (
    "id" TEXT NOT NULL,
    "locationId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "offUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ItemAvailability_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ItemAvailability_locationId_itemId_key" ON "ItemAvailability"("locationId", "itemId");

-- AddForeignKey
ALTER TABLE "ItemAvailability" ADD CONSTRAINT "ItemAvailability_locationId_fkey" FOREIGN KEY ("locationId") REFERENCES "Location"("id") ON DELETE CASCADE ON UPDATE CASCADE;
