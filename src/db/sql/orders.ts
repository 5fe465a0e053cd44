// The order path's hand-written statements and conditions (modules/orders/service.ts).
import { placeholders, type Statements, type Step } from '../statements.js';

/** The location a DSP store is bound to. */
export type BoundLocation = {
  id: string;
  partnerId: string;
  orgId: string;
  status: string;
  source: string;
  onboardingId: string;
  /** The POS's id of the location. */
  providerId: string;
  timezone: string;
  /** Its items off sale are read again when this changes (modules/stores). */
  availabilityVersion: number;
};

/** A DSP store's connection, its location (the location's fields are null without one), and
 * what the store was offered: its last successful publish (`"<catalog version id> <menus JSON>"`)
 * and its location's latest catalog version, for the intake's checks (modules/orders/intake.ts). */
export type StoreBinding = {
  connectionStatus: string;
  /** The DSP onboarding the store was bound through: its token goes with the DSP's events. */
  dspOnboardingId: string;
  assignedMenus: string | null;
  /** Paused by us since, until (modules/stores); and what the DSP says of it. */
  pausedAt: Date | null;
  pausedUntil: Date | null;
  dspStatus: string;
  published: string | null;
  latestVersionId: string | null;
  /** 1 when the location's partner has a webhook endpoint enabled, else 0: without one, the
   * order's partner event has no endpoint to look for (modules/events, `unheard`). */
  partnerListens: number;
} & (BoundLocation | { [K in keyof BoundLocation]: null });

/** The connection that holds a DSP store, else the last one that did (its location deleted). One
 * statement: the order path runs it for every order. */
export async function storeBinding(sql: Statements, source: string, storeId: string): Promise<StoreBinding | undefined> {
  const [binding] = await sql.all<StoreBinding>(
    `SELECT c."status" AS "connectionStatus", c."onboardingId" AS "dspOnboardingId", c."assignedMenus",
       c."pausedAt", c."pausedUntil", c."dspStatus",
       l."id", l."partnerId", l."orgId", l."status", l."source", l."onboardingId", l."providerId", l."timezone", l."availabilityVersion",
       (SELECT p."catalogVersionId" || ' ' || p."menus" FROM "MenuPublish" p
         WHERE p."dspConnectionId" = c."id" AND p."status" = 'published' ORDER BY p."createdAt" DESC LIMIT 1) AS "published",
       (SELECT v."id" FROM "CatalogVersion" v WHERE v."locationId" = l."id" ORDER BY v."version" DESC LIMIT 1) AS "latestVersionId",
       CASE WHEN EXISTS (SELECT 1 FROM "WebhookEndpoint" w WHERE w."partnerId" = l."partnerId" AND w."status" = 'enabled') THEN 1 ELSE 0 END AS "partnerListens"
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

/** Where a merchant-delivered order of this location is confirmed: the POS's id of the location,
 * and the event provider (the first one registered, while one deployment has one). */
export const confirmationTarget = (locationId: string): Step => ({
  sql: `SELECT l."providerId" AS "locationId",
      (SELECT p."source" FROM "Provider" p WHERE p."kind" = 'event_provider' ORDER BY p."createdAt" LIMIT 1) AS "source"
    FROM "Location" l WHERE l."id" = ?`,
  args: [locationId],
});

/** An order by its DSP and the DSP's id of it. */
export const orderBySource = (source: string, dspOrderId: string): Step => ({
  sql: 'SELECT * FROM "Order" WHERE "dspSource" = ? AND "dspOrderId" = ?',
  args: [source, dspOrderId],
});

/** An order, with the POS registration of its location (`locationSource`: null without one). */
export const orderOfPos = (orderId: string): Step => ({
  sql: 'SELECT o.*, l."source" AS "locationSource" FROM "Order" o LEFT JOIN "Location" l ON l."id" = o."locationId" WHERE o."id" = ?',
  args: [orderId],
});

/** Where a location is at its POS: its registration, its onboarding and the POS's id of it. */
export const posLocationOf = (locationId: string): Step => ({
  sql: 'SELECT "source", "onboardingId", "providerId" FROM "Location" WHERE "id" = ?',
  args: [locationId],
});
