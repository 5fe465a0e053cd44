-- CreateTable
CREATE TABLE "MoneyConversion" (
    "tableName" TEXT NOT NULL,
    "after" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "MoneyConversion_pkey" PRIMARY KEY ("tableName")
);

-- Amounts stored until now are in major units (11.99), money is now whole numbers of each
-- currency's smallest unit (1199). The service converts what is stored at its next start, before
-- it serves: the prices of catalog versions, the amounts of orders, and those of the messages not
-- yet delivered that carry either (src/db/money-conversion.ts, which takes each currency's
-- decimals from the platform). A table is listed here only when it holds rows to convert.
INSERT INTO "MoneyConversion" ("tableName") SELECT 'CatalogVersion' WHERE EXISTS (SELECT 1 FROM "CatalogVersion");
INSERT INTO "MoneyConversion" ("tableName") SELECT 'Order' WHERE EXISTS (SELECT 1 FROM "Order");
INSERT INTO "MoneyConversion" ("tableName") SELECT 'OutboxMessage' WHERE EXISTS (SELECT 1 FROM "OutboxMessage" WHERE "status" <> 'delivered');
