-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "dspOnboardingId" TEXT,
ADD COLUMN     "eventSequence" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "failureDetails" TEXT;

-- AlterTable
ALTER TABLE "OutboxMessage" ADD COLUMN     "orderingKey" TEXT,
ADD COLUMN     "orderingPosition" INTEGER;

-- CreateIndex
CREATE INDEX "OutboxMessage_orderingKey_orderingPosition_idx" ON "OutboxMessage"("orderingKey", "orderingPosition");

-- Failure reasons become codes, and the sentence they were moves to failureDetails.
UPDATE "Order" SET "failureDetails" = "failureReason", "failureReason" = CASE
  WHEN "failureReason" LIKE 'the POS did not accept%' THEN 'pos_rejected'
  WHEN "failureReason" LIKE '%was deleted' THEN 'restaurant_not_accepting_orders'
  ELSE 'location_not_found' END
WHERE "failureReason" IS NOT NULL;
