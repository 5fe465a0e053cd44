-- CreateTable
CREATE TABLE "Flag" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "partnerId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "variations" TEXT NOT NULL,
    "onVariation" INTEGER NOT NULL DEFAULT 0,
    "offVariation" INTEGER NOT NULL DEFAULT 1,
    "fallthroughVariation" INTEGER NOT NULL DEFAULT 1,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "FlagTarget" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "flagId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    CONSTRAINT "FlagTarget_flagId_fkey" FOREIGN KEY ("flagId") REFERENCES "Flag" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Segment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "partnerId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "SegmentMember" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "segmentId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    CONSTRAINT "SegmentMember_segmentId_fkey" FOREIGN KEY ("segmentId") REFERENCES "Segment" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "FlagSegment" (
    "flagId" TEXT NOT NULL,
    "segmentId" TEXT NOT NULL,

    PRIMARY KEY ("flagId", "segmentId"),
    CONSTRAINT "FlagSegment_flagId_fkey" FOREIGN KEY ("flagId") REFERENCES "Flag" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "FlagSegment_segmentId_fkey" FOREIGN KEY ("segmentId") REFERENCES "Segment" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Flag_partnerId_key_key" ON "Flag"("partnerId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "FlagTarget_flagId_kind_key_key" ON "FlagTarget"("flagId", "kind", "key");

-- CreateIndex
CREATE UNIQUE INDEX "Segment_partnerId_key_key" ON "Segment"("partnerId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "SegmentMember_segmentId_kind_key_key" ON "SegmentMember"("segmentId", "kind", "key");
