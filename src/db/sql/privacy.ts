// The statements of customers' data that expires or is erased (modules/privacy).
import { placeholders, type Statements, type Step } from '../statements.js';

export type RedactableOrder = { id: string; body: string; endedAt: Date | null };

/** Orders ended before `before` whose customer data is still there, a batch. */
export function expiredOrders(sql: Statements, before: Date, limit: number): Promise<RedactableOrder[]> {
  return sql.all(`SELECT "id", "body", "endedAt" FROM "Order" WHERE "redactedAt" IS NULL AND "endedAt" < ? LIMIT ${limit}`, [before]);
}

/** Orders an erasure was asked for that have ended since, a batch. */
export function erasedOrdersEnded(sql: Statements, limit: number): Promise<RedactableOrder[]> {
  return sql.all(
    `SELECT "id", "body", "endedAt" FROM "Order" WHERE "erasureRequestedAt" IS NOT NULL AND "redactedAt" IS NULL AND "endedAt" IS NOT NULL LIMIT ${limit}`,
  );
}

/** An organization's orders of a customer (by the digests of their phone or loyalty id) not yet redacted. */
export function customerOrders(
  sql: Statements,
  orgId: string,
  who: { customerPhone: string | null; customerLoyaltyId: string | null },
): Promise<RedactableOrder[]> {
  const match = [
    ...(who.customerPhone ? [{ sql: '"customerPhone" = ?', arg: who.customerPhone }] : []),
    ...(who.customerLoyaltyId ? [{ sql: '"customerLoyaltyId" = ?', arg: who.customerLoyaltyId }] : []),
  ];
  return sql.all(
    `SELECT "id", "body", "endedAt" FROM "Order" WHERE "orgId" = ? AND "redactedAt" IS NULL AND (${match.map((m) => m.sql).join(' OR ')})`,
    [orgId, ...match.map((m) => m.arg)],
  );
}

/** The order's customer data replaced; conditional on it not being replaced yet. */
export const redactOrder = (id: string, body: string, now: Date): Step => ({
  sql: `UPDATE "Order" SET "body" = ?, "customerPhone" = NULL, "customerLoyaltyId" = NULL, "redactedAt" = ? WHERE "id" = ? AND "redactedAt" IS NULL RETURNING "id"`,
  args: [body, now, id],
});

/** Open orders that are to be redacted when they end. */
export const markErasure = (ids: string[], now: Date): Step => ({
  sql: `UPDATE "Order" SET "erasureRequestedAt" = ? WHERE "id" IN (${placeholders(ids)}) AND "redactedAt" IS NULL`,
  args: [now, ...ids],
});

/** The outbox messages about an order (its object to the POS and the event provider, its events to
 * the DSP), by their subject. */
export const orderMessages = (orderId: string): Step => ({
  sql: `SELECT "id", "body", "headers" FROM "OutboxMessage" WHERE "subjectId" = ? AND "endpointId" IS NULL`,
  args: [orderId],
});

/** An order's customer key, deleted (never updated): no copy sealed under it opens any more. */
export const forgetCustomerKey = (orderId: string): Step => ({
  sql: `DELETE FROM "CustomerKey" WHERE "orderId" = ?`,
  args: [orderId],
});

/** The sealed keys of orders, by their ids: those that have one. */
export const customerKeysOf = (orderIds: readonly string[]): Step => ({
  sql: `SELECT "orderId", "sealedKey" FROM "CustomerKey" WHERE "orderId" IN (${placeholders([...orderIds])})`,
  args: [...orderIds],
});

// Sealing the customers stored in clear before they were sealed (modules/privacy/customer.ts): the
// tables the migration listed, each a batch at a time after the id of the last row sealed.

/** The tables still to seal, and where each stopped. */
export const tablesToSeal = (): Step => ({ sql: `SELECT "tableName", "after" FROM "CustomerSealing"` });

/** Orders after `after` that are not redacted, a batch, in the order of their ids. */
export const ordersToSeal = (after: string, limit: number): Step => ({
  sql: `SELECT "id", "orgId", "body", "customerPhone", "customerLoyaltyId" FROM "Order" WHERE "id" > ? AND "redactedAt" IS NULL ORDER BY "id" LIMIT ${limit}`,
  args: [after],
});

/** An order's customer sealed and its look-up made digests; conditional on its body being the one
 * read (another instance may have sealed it meanwhile). */
export const sealOrder = (
  id: string,
  read: string,
  sealed: { body: string; customerPhone: string | null; customerLoyaltyId: string | null },
): Step => ({
  sql: `UPDATE "Order" SET "body" = ?, "customerPhone" = ?, "customerLoyaltyId" = ? WHERE "id" = ? AND "body" = ? AND "redactedAt" IS NULL RETURNING "id"`,
  args: [sealed.body, sealed.customerPhone, sealed.customerLoyaltyId, id, read],
});

/** Messages to providers after `after` about an order that has a key, a batch, with that key. */
export const messagesToSeal = (after: string, limit: number): Step => ({
  sql: `SELECT m."id", m."body", m."headers", k."sealedKey" FROM "OutboxMessage" m JOIN "CustomerKey" k ON k."orderId" = m."subjectId"
    WHERE m."id" > ? AND m."endpointId" IS NULL ORDER BY m."id" LIMIT ${limit}`,
  args: [after],
});

/** A message's customer sealed, its key beside it; conditional on its body being the one read. */
export const sealMessage = (id: string, read: string, sealed: { body: string; headers: string }): Step => ({
  sql: `UPDATE "OutboxMessage" SET "body" = ?, "headers" = ? WHERE "id" = ? AND "body" = ? RETURNING "id"`,
  args: [sealed.body, sealed.headers, id, read],
});

/** Where a table's sealing stopped: after this id. */
export const sealedThrough = (table: string, after: string): Step => ({
  sql: `UPDATE "CustomerSealing" SET "after" = ? WHERE "tableName" = ?`,
  args: [after, table],
});

/** A table sealed to its end. */
export const sealingDone = (table: string): Step => ({ sql: `DELETE FROM "CustomerSealing" WHERE "tableName" = ?`, args: [table] });
