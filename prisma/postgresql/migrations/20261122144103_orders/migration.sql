-- AlterTable
ALTER TABLE "OutboxMessage" ADD COLUMN     "partnerId" TEXT;

-- CreateTable
CREATE TABLE "Order" (
    "id" TEXT NOT NULL,
    "partnerId" TEXT,
    "orgId" TEXT,
    "locationId" TEXT,
    "dspSource" TEXT NOT NULL,
    "dspStoreId" TEXT NOT NULL,
    "dspOrderId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'in_progress',
    "deliveryStatus" TEXT NOT NULL DEFAULT 'pending',
    "fulfillmentType" TEXT,
    "posOrderId" TEXT,
    "failureReason" TEXT,
    "body" TEXT NOT NULL,
    "driver" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Order_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Order_orgId_createdAt_idx" ON "Order"("orgId", "createdAt");

-- CreateIndex
CREATE INDEX "Order_locationId_createdAt_idx" ON "Order"("locationId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "Order_dspSource_dspOrderId_key" ON "Order"("dspSource", "dspOrderId");
