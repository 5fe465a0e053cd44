-- DropIndex
DROP INDEX "Order_orgId_createdAt_idx";

-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "customerLoyaltyId" TEXT,
ADD COLUMN     "customerPhone" TEXT,
ADD COLUMN     "erasureRequestedAt" TIMESTAMP(3),
ADD COLUMN     "redactedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "Erasure" (
    "id" TEXT NOT NULL,
    "partnerId" TEXT NOT NULL,
    "orgId" TEXT NOT NULL,
    "requestedBy" TEXT NOT NULL,
    "ordersRedacted" INTEGER NOT NULL,
    "ordersPending" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Erasure_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Erasure_orgId_createdAt_idx" ON "Erasure"("orgId", "createdAt");

-- CreateIndex
CREATE INDEX "Event_createdAt_idx" ON "Event"("createdAt");

-- CreateIndex
CREATE INDEX "MenuPublish_catalogVersionId_idx" ON "MenuPublish"("catalogVersionId");

-- CreateIndex
CREATE INDEX "Order_orgId_createdAt_id_idx" ON "Order"("orgId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Order_orgId_status_createdAt_id_idx" ON "Order"("orgId", "status", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Order_orgId_customerPhone_idx" ON "Order"("orgId", "customerPhone");

-- CreateIndex
CREATE INDEX "Order_orgId_customerLoyaltyId_idx" ON "Order"("orgId", "customerLoyaltyId");

-- CreateIndex
CREATE INDEX "Order_redactedAt_updatedAt_idx" ON "Order"("redactedAt", "updatedAt");

-- CreateIndex
CREATE INDEX "WebhookAttempt_attemptedAt_idx" ON "WebhookAttempt"("attemptedAt");


