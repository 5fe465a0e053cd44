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

/** An organization's orders of a customer (by phone digits or loyalty id) not yet redacted. */
export function customerOrders(
  sql: Statements,
  orgId: string,
  who: { phone: string | null; loyaltyId: string | null },
): Promise<RedactableOrder[]> {
  const match = [
    ...(who.phone ? [{ sql: '"customerPhone" = ?', arg: who.phone }] : []),
    ...(who.loyaltyId ? [{ sql: '"customerLoyaltyId" = ?', arg: who.loyaltyId }] : []),
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
  sql: `SELECT "id", "body" FROM "OutboxMessage" WHERE "subjectId" = ? AND "endpointId" IS NULL`,
  args: [orderId],
});
