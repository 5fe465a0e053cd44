-- AlterTable
ALTER TABLE "OutboxMessage" ADD COLUMN     "headers" TEXT;

-- AlterTable
ALTER TABLE "Provider" ADD COLUMN     "orderUpdates" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "tokenFormat" TEXT NOT NULL DEFAULT 'json';

-- AlterTable
ALTER TABLE "WebhookEvent" ADD COLUMN     "bodyHash" TEXT;

-- CreateIndex
CREATE INDEX "WebhookEvent_source_bodyHash_createdAt_idx" ON "WebhookEvent"("source", "bodyHash", "createdAt");
