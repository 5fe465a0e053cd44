-- AlterTable
ALTER TABLE "Order" ADD COLUMN "eventProvider" TEXT;

-- AlterTable
ALTER TABLE "SsoToken" ADD COLUMN "scopes" TEXT NOT NULL DEFAULT 'user,onboarding';

-- Orders already confirmed to an event provider: it is the one that may assign their driver.
UPDATE "Order" SET "eventProvider" = (SELECT m."source" FROM "OutboxMessage" m WHERE m."idempotencyKey" = 'order.confirmed:' || "Order"."id");
