-- The money of an order as columns (the figures of a day are summed in SQL), and the party of a cancellation,
-- reason and sentence. A POS may take the markup of the platform as a line of its own.
ALTER TABLE "Provider" ADD COLUMN "markupLine" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Order" ADD COLUMN "subtotal" BIGINT;
ALTER TABLE "Order" ADD COLUMN "tax" BIGINT;
ALTER TABLE "Order" ADD COLUMN "taxWithheldByDsp" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "Order" ADD COLUMN "deliveryFee" BIGINT;
ALTER TABLE "Order" ADD COLUMN "deliveryFeeTax" BIGINT;
ALTER TABLE "Order" ADD COLUMN "restaurantTip" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "Order" ADD COLUMN "driverTip" BIGINT;
ALTER TABLE "Order" ADD COLUMN "discountMerchant" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "Order" ADD COLUMN "discountDsp" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "Order" ADD COLUMN "markup" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "Order" ADD COLUMN "total" BIGINT;
ALTER TABLE "Order" ADD COLUMN "canceledBy" TEXT;
ALTER TABLE "Order" ADD COLUMN "cancelReason" TEXT;
ALTER TABLE "Order" ADD COLUMN "cancelDetails" TEXT;

-- Orders taken before kept their amounts in their bodies only: the ones every order carried
-- (whole numbers since the money migration) are copied out once. Tips to the store, tax the
-- platform remits and discounts were not read before: they stay 0, as such an order was taken.
UPDATE "Order" SET
  "subtotal" = CASE WHEN json_type("body", '$.subtotal') = 'integer' THEN json_extract("body", '$.subtotal') END,
  "tax" = CASE WHEN json_type("body", '$.tax') = 'integer' THEN json_extract("body", '$.tax') END,
  "deliveryFee" = CASE WHEN json_type("body", '$.delivery_fee') = 'integer' THEN json_extract("body", '$.delivery_fee') END,
  "deliveryFeeTax" = CASE WHEN json_type("body", '$.delivery_fee_tax') = 'integer' THEN json_extract("body", '$.delivery_fee_tax') END,
  "driverTip" = CASE WHEN json_type("body", '$.driver_tip') = 'integer' THEN json_extract("body", '$.driver_tip') END,
  "total" = CASE WHEN json_type("body", '$.total') = 'integer' THEN json_extract("body", '$.total') END
WHERE json_valid("body");
