-- The delivery leg: each organization names its event provider, an order counts the changes
-- its POS and event provider are sent (their ordering keys' positions) and keeps the driver's
-- expected arrival.
ALTER TABLE "Organization" ADD COLUMN "eventProvider" TEXT;

ALTER TABLE "Order" ADD COLUMN "changeSequence" INTEGER NOT NULL DEFAULT 0;

ALTER TABLE "Order" ADD COLUMN "estimatedDropoffAt" TIMESTAMP(3);
