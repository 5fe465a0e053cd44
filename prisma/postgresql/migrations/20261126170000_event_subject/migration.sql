-- Every change is recorded once, with what it is about: an order's timeline is its events.
ALTER TABLE "Event" ADD COLUMN "subjectId" TEXT;

-- Order events kept from before: their order, from their data (its _id).
UPDATE "Event" SET "subjectId" = ("data"::json ->> '_id') WHERE "type" IN ('order.created', 'order.updated', 'order.failed');

CREATE INDEX "Event_subjectId_createdAt_idx" ON "Event"("subjectId", "createdAt");
