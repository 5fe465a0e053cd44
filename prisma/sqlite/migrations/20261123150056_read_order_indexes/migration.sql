-- DropIndex
DROP INDEX "DspConnection_locationId_idx";

-- CreateIndex
CREATE INDEX "DspConnection_locationId_createdAt_idx" ON "DspConnection"("locationId", "createdAt");

-- CreateIndex
CREATE INDEX "Location_orgId_status_createdAt_idx" ON "Location"("orgId", "status", "createdAt");
