-- AlterTable
ALTER TABLE "OutboxMessage" ADD COLUMN "subjectId" TEXT;

-- Messages written before: their subject, for the outcome handlers that read it.
UPDATE "OutboxMessage" SET "subjectId" = substr("idempotencyKey", length('order.created:') + 1) WHERE "idempotencyKey" LIKE 'order.created:%';
UPDATE "OutboxMessage" SET "subjectId" = substr("idempotencyKey", length('publish:') + 1) WHERE "idempotencyKey" LIKE 'publish:%';
