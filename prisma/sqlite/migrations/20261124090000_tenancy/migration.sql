-- DropIndex
DROP INDEX "DspConnection_source_dspStoreId_key";

-- AlterTable
ALTER TABLE "DspConnection" ADD COLUMN "boundStoreId" TEXT;

-- AlterTable
ALTER TABLE "Onboarding" ADD COLUMN "codeHash" TEXT;
ALTER TABLE "Onboarding" ADD COLUMN "pkceVerifierEnc" TEXT;

-- AlterTable
ALTER TABLE "OutboxMessage" ADD COLUMN "orgId" TEXT;

-- CreateIndex
CREATE INDEX "DspConnection_source_dspStoreId_idx" ON "DspConnection"("source", "dspStoreId");

-- CreateIndex
CREATE UNIQUE INDEX "DspConnection_source_boundStoreId_key" ON "DspConnection"("source", "boundStoreId");



-- Stores held by approved connections stay held.
UPDATE "DspConnection" SET "boundStoreId" = "dspStoreId" WHERE "status" = 'APPROVED';
