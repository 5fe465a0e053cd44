-- CreateTable
CREATE TABLE "Flag" (
    "id" TEXT NOT NULL,
    "partnerId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "variations" TEXT NOT NULL,
    "onVariation" INTEGER NOT NULL DEFAULT 0,
    "offVariation" INTEGER NOT NULL DEFAULT 1,
    "fallthroughVariation" INTEGER NOT NULL DEFAULT 1,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Flag_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FlagTarget" (
    "id" TEXT NOT NULL,
    "flagId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,

    CONSTRAINT "FlagTarget_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Segment" (
    "id" TEXT NOT NULL,
    "partnerId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Segment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SegmentMember" (
    "id" TEXT NOT NULL,
    "segmentId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,

    CONSTRAINT "SegmentMember_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FlagSegment" (
    "flagId" TEXT NOT NULL,
    "segmentId" TEXT NOT NULL,

    CONSTRAINT "FlagSegment_pkey" PRIMARY KEY ("flagId","segmentId")
);

-- CreateIndex
CREATE UNIQUE INDEX "Flag_partnerId_key_key" ON "Flag"("partnerId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "FlagTarget_flagId_kind_key_key" ON "FlagTarget"("flagId", "kind", "key");

-- CreateIndex
CREATE UNIQUE INDEX "Segment_partnerId_key_key" ON "Segment"("partnerId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "SegmentMember_segmentId_kind_key_key" ON "SegmentMember"("segmentId", "kind", "key");

-- AddForeignKey
ALTER TABLE "FlagTarget" ADD CONSTRAINT "FlagTarget_flagId_fkey" FOREIGN KEY ("flagId") REFERENCES "Flag"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SegmentMember" ADD CONSTRAINT "SegmentMember_segmentId_fkey" FOREIGN KEY ("segmentId") REFERENCES "Segment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FlagSegment" ADD CONSTRAINT "FlagSegment_flagId_fkey" FOREIGN KEY ("flagId") REFERENCES "Flag"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FlagSegment" ADD CONSTRAINT "FlagSegment_segmentId_fkey" FOREIGN KEY ("segmentId") REFERENCES "Segment"("id") ON DELETE CASCADE ON UPDATE CASCADE;
