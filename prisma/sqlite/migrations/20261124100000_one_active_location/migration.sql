-- AlterTable
ALTER TABLE "Location" ADD COLUMN "activeProviderId" TEXT;

-- Active locations hold their POS location. Where concurrent ingests on PostgreSQL made
-- duplicates, the oldest holds it (the others stay listed until deleted).
UPDATE "Location" SET "activeProviderId" = "providerId"
WHERE "status" = 'active' AND NOT EXISTS (
  SELECT 1 FROM "Location" AS older
  WHERE older."orgId" = "Location"."orgId" AND older."source" = "Location"."source" AND older."providerId" = "Location"."providerId"
    AND older."status" = 'active' AND (older."createdAt" < "Location"."createdAt" OR (older."createdAt" = "Location"."createdAt" AND older."id" < "Location"."id"))
);

-- CreateIndex
CREATE UNIQUE INDEX "Location_orgId_source_activeProviderId_key" ON "Location"("orgId", "source", "activeProviderId");
