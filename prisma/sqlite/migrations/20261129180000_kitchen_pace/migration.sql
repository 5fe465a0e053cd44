-- The kitchen's pace: a location's prep time and its busy extra, an order's quoted prep time and
-- ready time, and the deadline of a decision its POS said it would take later.
ALTER TABLE "Location" ADD COLUMN "prepTimeMinutes" INTEGER;
ALTER TABLE "Location" ADD COLUMN "busyExtraMinutes" INTEGER;
ALTER TABLE "Location" ADD COLUMN "busyUntil" DATETIME;
ALTER TABLE "Order" ADD COLUMN "prepTimeMinutes" INTEGER;
ALTER TABLE "Order" ADD COLUMN "estimatedReadyAt" DATETIME;
ALTER TABLE "Order" ADD COLUMN "decisionDueAt" DATETIME;

-- The confirmations sweep finds the orders past their deadline by this index.
CREATE INDEX "Order_status_decisionDueAt_idx" ON "Order"("status", "decisionDueAt");
