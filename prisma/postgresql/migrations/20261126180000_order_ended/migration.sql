-- When an order ended: what its customer's data is kept from (set once, so the index on it is
-- written once an order, where the one on updatedAt was written at every change).
ALTER TABLE "Order" ADD COLUMN "endedAt" TIMESTAMP(3);

UPDATE "Order" SET "endedAt" = "updatedAt" WHERE "status" IN ('completed', 'failed', 'merchant_canceled', 'dsp_canceled');

DROP INDEX "Order_redactedAt_updatedAt_idx";

CREATE INDEX "Order_redactedAt_endedAt_idx" ON "Order"("redactedAt", "endedAt");
