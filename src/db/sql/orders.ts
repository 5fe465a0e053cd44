// The order path's hand-written statements and conditions (modules/orders/service.ts).
import { placeholders, type Statements, type Step } from '../statements.js';
import type { Order as OrderRow } from '../client.js';

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
  /** Its kitchen's pace: base prep minutes, and a busy extra until its end (modules/orders/kitchen.ts). */
  prepTimeMinutes: number | null;
  busyExtraMinutes: number | null;
  busyUntil: Date | null;
};

/** A DSP store's row, its location (the location's fields are null without one), and
 * what the store was offered: its last successful publish (`"<catalog version id> <menus JSON>"`)
 * and its location's latest catalog version, for the intake's checks (modules/orders/intake.ts). */
export type StoreForOrder = {
  storeStatus: string;
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

/** The store row that holds a DSP store, else the last one that did (its location deleted). One
 * statement: the order path runs it for every order. */
export async function storeForOrder(sql: Statements, source: string, storeId: string): Promise<StoreForOrder | undefined> {
  const [binding] = await sql.all<StoreForOrder>(
    `SELECT c."status" AS "storeStatus", c."onboardingId" AS "dspOnboardingId", c."assignedMenus",
       c."pausedAt", c."pausedUntil", c."dspStatus",
       l."id", l."partnerId", l."orgId", l."status", l."source", l."onboardingId", l."providerId", l."timezone", l."availabilityVersion",
       l."prepTimeMinutes", l."busyExtraMinutes", l."busyUntil",
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

/** A conditional write's condition: its POS's taking of the order is recorded (`yes`), or is not
 * (modules/orders/states.ts, `taken`): an order in one of the `open` statuses whose DSP was told
 * of it. */
export const takenIs = (yes: boolean, open: readonly string[]): Step => {
  const taken = `"status" IN (${placeholders([...open])}) AND "eventSequence" > 0`;
  return { sql: yes ? taken : `NOT (${taken})`, args: [...open] };
};

/** A conditional write's condition: the order is not one its POS failed itself (its order.updated
 * to `failed`, which records no reason, as the service's refusals and a POS out of reach do). */
export const notFailedByItsPos: Step = { sql: `NOT ("status" = 'failed' AND "failureReason" IS NULL)`, args: [] };

/** A conditional write's condition: the order is as it was read (Run.expect). Every write of an
 * order's state sets its updatedAt or counts an event or a change, and an erasure marks or
 * redacts it: a write between the read and this one changed one of these. */
export const unchangedSince = (
  order: Pick<OrderRow, 'updatedAt' | 'eventSequence' | 'changeSequence' | 'erasureRequestedAt' | 'redactedAt'>,
): Step => ({
  sql: '"updatedAt" = ? AND "eventSequence" = ? AND "changeSequence" = ? AND "erasureRequestedAt" IS NOT DISTINCT FROM ? AND "redactedAt" IS NOT DISTINCT FROM ?',
  args: [order.updatedAt, order.eventSequence, order.changeSequence, order.erasureRequestedAt, order.redactedAt],
});

/** A conditional write's condition: the order's delivery status is this one. */
export const deliveryStatusIs = (deliveryStatus: string): Step => ({ sql: '"deliveryStatus" = ?', args: [deliveryStatus] });

/** Who may deliver a merchant-delivered order of this location: the POS's id of the location, the
 * event provider its organization names (`named`; `namedKind` is its registration's kind, null
 * when it is not registered), and the registered event providers (`registered`, and `only`: the
 * one, when there is exactly one). */
export const dispatchCandidates = (locationId: string): Step => ({
  sql: `SELECT l."providerId" AS "locationId", o."eventProvider" AS "named",
      (SELECT p."kind" FROM "Provider" p WHERE p."source" = o."eventProvider") AS "namedKind",
      (SELECT COUNT(*) FROM "Provider" p WHERE p."kind" = 'event_provider') AS "registered",
      (SELECT MIN(p."source") FROM "Provider" p WHERE p."kind" = 'event_provider') AS "only"
    FROM "Location" l JOIN "Organization" o ON o."id" = l."orgId" WHERE l."id" = ?`,
  args: [locationId],
});

/** An order confirmed to this event provider, with where its order.confirmed said it is (the
 * POS's id of its location) and where that location is at its POS (to tell the POS). */
export const dispatchedOrder = (orderId: string, provider: string): Step => ({
  sql: `SELECT o.*, l."providerId" AS "dispatchLocationId", l."source" AS "posSource", l."onboardingId" AS "posOnboardingId"
    FROM "Order" o LEFT JOIN "Location" l ON l."id" = o."locationId" WHERE o."id" = ? AND o."eventProvider" = ?`,
  args: [orderId, provider],
});

/** How many open orders (not in one of the final statuses given) wait on a provider: sent by it
 * as their DSP, made by it as their location's POS, or delivered by it as their event provider. */
export const ordersWaitingOn = (source: string, finalStatuses: readonly string[]): Step => ({
  sql: `SELECT COUNT(*) AS "waiting" FROM "Order" o LEFT JOIN "Location" l ON l."id" = o."locationId"
    WHERE o."status" NOT IN (${placeholders([...finalStatuses])}) AND (o."eventProvider" = ? OR o."dspSource" = ? OR l."source" = ?)`,
  args: [...finalStatuses, source, source, source],
});

/** An order by its id. */
export const orderById = (orderId: string): Step => ({ sql: 'SELECT * FROM "Order" WHERE "id" = ?', args: [orderId] });

/** An order by its DSP and the DSP's id of it. */
export const orderBySource = (source: string, dspOrderId: string): Step => ({
  sql: 'SELECT * FROM "Order" WHERE "dspSource" = ? AND "dspOrderId" = ?',
  args: [source, dspOrderId],
});

/** An order, with the POS registration of its location (`locationSource`: null without one) and
 * the POS's id of the location. */
export const orderOfPos = (orderId: string): Step => ({
  sql: 'SELECT o.*, l."source" AS "locationSource", l."providerId" AS "locationProviderId" FROM "Order" o LEFT JOIN "Location" l ON l."id" = o."locationId" WHERE o."id" = ?',
  args: [orderId],
});

/** Where a location is at its POS: its registration, its onboarding and the POS's id of it. */
export const posLocationOf = (locationId: string): Step => ({
  sql: 'SELECT "source", "onboardingId", "providerId" FROM "Location" WHERE "id" = ?',
  args: [locationId],
});

/** The orders whose POS said it would decide later and has not by their deadline: a batch, the
 * oldest first (the index on status and deadline answers it). */
export const decisionsOverdue = (status: string, now: Date, limit: number): Step => ({
  sql: 'SELECT "id" FROM "Order" WHERE "status" = ? AND "decisionDueAt" <= ? ORDER BY "decisionDueAt" LIMIT ?',
  args: [status, now, limit],
});
