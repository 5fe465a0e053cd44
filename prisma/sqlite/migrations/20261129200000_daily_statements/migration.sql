-- The end-of-day statement (modules/reports): an order's currency as a column, so that a day's
-- figures are summed per currency in SQL, taken from the order as its platform sent it for the
-- orders stored before. The statement reads a location's day by the index on locationId and
-- createdAt, which exists.
ALTER TABLE "Order" ADD COLUMN "currency" TEXT;
UPDATE "Order" SET "currency" = json_extract("body", '$.currency')
  WHERE json_valid("body") AND json_type("body", '$.currency') = 'text';

-- What a platform keeps of an organization's orders, in hundredths of a percent.
CREATE TABLE "PlatformCommission" (
    "orgId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "basisPoints" INTEGER NOT NULL,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("orgId", "source"),
    CONSTRAINT "PlatformCommission_orgId_fkey" FOREIGN KEY ("orgId") REFERENCES "Organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
