// The order path's hand-written statements and conditions (modules/orders/service.ts).
import { placeholders, type Statements, type Step } from '../statements.js';

/** A DSP store's connection and its location (the location's fields are null without one). */
export type BoundLocation = {
  id: string;
  partnerId: string;
  orgId: string;
  status: string;
  source: string;
  onboardingId: string;
  /** The POS's id of the location. */
  providerId: string;
};
export type StoreBinding = { connectionStatus: string } & (BoundLocation | { [K in keyof BoundLocation]: null });

/** The connection that holds a DSP store, else the last one that did (its location deleted). */
export async function storeBinding(sql: Statements, source: string, storeId: string): Promise<StoreBinding | undefined> {
  const [binding] = await sql.all<StoreBinding>(
    `SELECT c."status" AS "connectionStatus", l."id", l."partnerId", l."orgId", l."status", l."source", l."onboardingId", l."providerId"
     FROM "DspConnection" c LEFT JOIN "Location" l ON l."id" = c."locationId" WHERE c."source" = ? AND c."dspStoreId" = ?
     ORDER BY c."boundStoreId" IS NULL, c."createdAt" DESC LIMIT 1`,
    [source, storeId],
  );
  return binding;
}

/** The order's status, if it was confirmed to this event provider. */
export async function confirmedTo(sql: Statements, orderId: string, provider: string): Promise<{ status: string } | undefined> {
  const [order] = await sql.all<{ status: string }>('SELECT "status" FROM "Order" WHERE "id" = ? AND "eventProvider" = ?', [
    orderId,
    provider,
  ]);
  return order;
}

/** A conditional write's condition: the order was confirmed to this event provider. */
export const confirmedBy = (provider: string): Step => ({ sql: '"eventProvider" = ?', args: [provider] });

/** Conditions that must all hold. */
export const allOf = (...steps: Step[]): Step => ({
  sql: steps.map((step) => `(${step.sql})`).join(' AND '),
  args: steps.flatMap((step) => step.args ?? []),
});

/** A conditional write's condition: the order's status is one of these. */
export const statusIn = (statuses: readonly string[]): Step => ({
  sql: `"status" IN (${placeholders([...statuses])})`,
  args: [...statuses],
});

/** A conditional write's condition: the order has no driver, or another one. */
export const driverIsNot = (driver: string): Step => ({ sql: '("driver" IS NULL OR "driver" <> ?)', args: [driver] });
