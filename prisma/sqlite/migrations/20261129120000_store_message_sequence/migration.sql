-- Every message to a store's DSP counted, its events and its menus alike: their position under the
-- store's ordering key, so that a menus publish waits behind the store events written before it.
-- It starts where the events' count is, the position of those already written.
ALTER TABLE "DspConnection" ADD COLUMN "messageSequence" INTEGER NOT NULL DEFAULT 0;
UPDATE "DspConnection" SET "messageSequence" = "eventSequence";
