-- CreateTable
CREATE TABLE "CustomerKey" (
    "orderId" TEXT NOT NULL PRIMARY KEY,
    "sealedKey" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "CustomerSealing" (
    "tableName" TEXT NOT NULL PRIMARY KEY,
    "after" TEXT NOT NULL DEFAULT ''
);

-- Customers were stored in clear until now: in orders' bodies, as the digits of their phones and
-- their loyalty ids (the erasure look-up), and in the messages that carry an order to its POS and
-- its event provider. The service seals them at its next start, before it serves: each order's
-- customer under a key of its own (CustomerKey), the look-up as keyed digests, and each message
-- under its order's key (src/modules/privacy/customer.ts, which holds the service's key). A table
-- is listed here only when it holds rows to seal: orders not redacted yet, messages about orders.
INSERT INTO "CustomerSealing" ("tableName") SELECT 'Order' WHERE EXISTS (SELECT 1 FROM "Order" WHERE "redactedAt" IS NULL);
INSERT INTO "CustomerSealing" ("tableName") SELECT 'OutboxMessage' WHERE EXISTS (SELECT 1 FROM "OutboxMessage" WHERE "endpointId" IS NULL AND "kind" IN ('order.created', 'order.updated', 'order.confirmed'));
