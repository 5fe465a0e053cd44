-- An order's messages are found by their subject (erasure, the timeline), not by rebuilding their keys.
CREATE INDEX "OutboxMessage_subjectId_idx" ON "OutboxMessage"("subjectId");

-- Messages written before subjects were kept, that carry an order: their order, found by subject.
UPDATE "OutboxMessage" SET "subjectId" = substr("idempotencyKey", length('order.confirmed:') + 1) WHERE "subjectId" IS NULL AND "idempotencyKey" LIKE 'order.confirmed:%';
UPDATE "OutboxMessage" SET "subjectId" = substr("idempotencyKey", length('order.canceled:') + 1) WHERE "subjectId" IS NULL AND "idempotencyKey" LIKE 'order.canceled:%';
