-- AlterTable
ALTER TABLE "DspConnection" ADD COLUMN "dspStatus" TEXT NOT NULL DEFAULT 'online';
ALTER TABLE "DspConnection" ADD COLUMN "eventSequence" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "DspConnection" ADD COLUMN "pausedAt" DATETIME;
ALTER TABLE "DspConnection" ADD COLUMN "pausedUntil" DATETIME;

-- AlterTable
ALTER TABLE "Location" ADD COLUMN "availabilityVersion" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Location" ADD COLUMN "timezone" TEXT NOT NULL DEFAULT 'UTC';

-- CreateTable
CREATE TABLE "ItemAvailability" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "locationId" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "offUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ItemAvailability_locationId_fkey" FOREIGN KEY ("locationId") REFERENCES "Location" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "ItemAvailability_locationId_itemId_key" ON "ItemAvailability"("locationId", "itemId");
