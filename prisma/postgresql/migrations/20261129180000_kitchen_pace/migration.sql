-- The kitchen's pace: a location's prep time and its busy extra, an order's quoted prep time and
-- ready time, and the deadline of a decision its POS said it would take later.
ALTER TABLE "Location" ADD COLUMN "prepTimeMinutes" INTEGER,
ADD COLUMN "busyExtraMinutes" INTEGER,
ADD COLUMN "busyUntil" TIMESTAMP(3);

ALTER TABLE "Order" ADD COLUMN "prepTimeMinutes" INTEGER,
ADD COLUMN "estimatedReadyAt" TIMESTAMP(3),
ADD COLUMN "decisionDueAt" TIMESTAMP(3);

-- The confirmations sweep finds the orders past their deadline by this index.
CREATE INDEX "Order_status_decisionDueAt_idx" ON "Order"("status", "decisionDueAt");
