-- The end-of-day statement (modules/reports): an order's currency as a column, so that a day's
-- figures are summed per currency in SQL, taken from the order as its platform sent it for the
-- orders stored before (bodies are written by JSON.stringify). The statement reads a location's
-- day by the index on locationId and createdAt, which exists.
ALTER TABLE "Order" ADD COLUMN "currency" TEXT;
UPDATE "Order" SET "currency" = "body"::jsonb ->> 'currency'
  WHERE jsonb_typeof("body"::jsonb -> 'currency') = 'string';

-- What a platform keeps of an organization's orders, in hundredths of a percent.
CREATE TABLE "PlatformCommission" (
    "orgId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "basisPoints" INTEGER NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PlatformCommission_pkey" PRIMARY KEY ("orgId","source")
);

ALTER TABLE "PlatformCommission" ADD CONSTRAINT "PlatformCommission_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "Organization"("id") ON DELETE CASCADE ON UPDATE CASCADE;
