-- The money of an order as columns (the figures of a day are summed in SQL), and the party of a cancellation,
-- reason and sentence. A POS may take the markup of the platform as a line of its own.
ALTER TABLE "Provider" ADD COLUMN     "markupLine" BOOLEAN NOT NULL DEFAULT false;

ALTER TABLE "Order" ADD COLUMN     "subtotal" BIGINT,
ADD COLUMN     "tax" BIGINT,
ADD COLUMN     "taxWithheldByDsp" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "deliveryFee" BIGINT,
ADD COLUMN     "deliveryFeeTax" BIGINT,
ADD COLUMN     "restaurantTip" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "driverTip" BIGINT,
ADD COLUMN     "discountMerchant" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "discountDsp" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "markup" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "total" BIGINT,
ADD COLUMN     "canceledBy" TEXT,
ADD COLUMN     "cancelReason" TEXT,
ADD COLUMN     "cancelDetails" TEXT;

-- Orders taken before kept their amounts in their bodies only: the ones every order carried
-- (whole numbers since the money migration) are copied out once. Tips to the store, tax the
-- platform remits and discounts were not read before: they stay 0, as such an order was taken.
UPDATE "Order" SET
  "subtotal" = CASE WHEN jsonb_typeof("body"::jsonb -> 'subtotal') = 'number' THEN round(("body"::jsonb ->> 'subtotal')::numeric)::bigint END,
  "tax" = CASE WHEN jsonb_typeof("body"::jsonb -> 'tax') = 'number' THEN round(("body"::jsonb ->> 'tax')::numeric)::bigint END,
  "deliveryFee" = CASE WHEN jsonb_typeof("body"::jsonb -> 'delivery_fee') = 'number' THEN round(("body"::jsonb ->> 'delivery_fee')::numeric)::bigint END,
  "deliveryFeeTax" = CASE WHEN jsonb_typeof("body"::jsonb -> 'delivery_fee_tax') = 'number' THEN round(("body"::jsonb ->> 'delivery_fee_tax')::numeric)::bigint END,
  "driverTip" = CASE WHEN jsonb_typeof("body"::jsonb -> 'driver_tip') = 'number' THEN round(("body"::jsonb ->> 'driver_tip')::numeric)::bigint END,
  "total" = CASE WHEN jsonb_typeof("body"::jsonb -> 'total') = 'number' THEN round(("body"::jsonb ->> 'total')::numeric)::bigint END;
