// The statements of stores that stop and start (modules/stores): pauses, the DSP's own status,
// items taken off sale. Store (table DspConnection) and Location are written by plain statements only (the
// order path reads them); ItemAvailability likewise.
import { placeholders, type Statements, type Step } from '../statements.js';

/** A DSP store bound to a location, as a pause, a snooze and their events need it. `id` is ours
 * (the Store), `dspStoreId` the platform's own id of the store. */
export type StoreForEvents = {
  id: string;
  partnerId: string;
  orgId: string;
  source: string;
  dspStoreId: string;
  name: string;
  status: string;
  onboardingId: string;
  assignedMenus: string | null;
  pausedAt: Date | null;
  pausedUntil: Date | null;
  /** Its last successful publish, `"<catalog version id> <menus JSON>"`. */
  published: string | null;
};

/** The approved stores of a location, oldest first. */
export function boundStores(sql: Statements, locationId: string): Promise<StoreForEvents[]> {
  return sql.all<StoreForEvents>(
    `SELECT c."id", c."partnerId", c."orgId", c."source", c."dspStoreId", c."name", c."status", c."onboardingId", c."assignedMenus",
       c."pausedAt", c."pausedUntil",
       (SELECT p."catalogVersionId" || ' ' || p."menus" FROM "MenuPublish" p
         WHERE p."dspConnectionId" = c."id" AND p."status" = 'published' ORDER BY p."createdAt" DESC LIMIT 1) AS "published"
     FROM "DspConnection" c WHERE c."locationId" = ? AND c."status" = 'APPROVED' ORDER BY c."createdAt"`,
    [locationId],
  );
}

/** Stores paused from now on, until a time (null: until resumed). */
export const pauseStores = (ids: string[], now: Date, until: Date | null): Step => ({
  sql: `UPDATE "DspConnection" SET "pausedAt" = ?, "pausedUntil" = ?, "changeTime" = ? WHERE "id" IN (${placeholders(ids)}) RETURNING "id", "pausedAt", "pausedUntil"`,
  args: [now, until, now, ...ids],
});

/** Stores taking orders again. */
export const resumeStores = (ids: string[], now: Date): Step => ({
  sql: `UPDATE "DspConnection" SET "pausedAt" = NULL, "pausedUntil" = NULL, "changeTime" = ? WHERE "id" IN (${placeholders(ids)}) RETURNING "id", "pausedAt", "pausedUntil"`,
  args: [now, ...ids],
});

/** The ordering key of every message to a store's DSP, its events and its menus alike: they go
 * out one at a time, in the order they were written (../../delivery/outbox.ts). */
export const storeOrderingKey = (connectionId: string) => `store:${connectionId}`;

/** Where a store's next message to its DSP stands: `sequence`, a store event's number (1, 2, 3…
 * of the events alone, what the DSP reads), and `position`, the message's place under the
 * store's ordering key (events and menus counted together). */
export type StoreCount = { sequence: number; position: number };

/** A store's next event to its DSP: its event count and its message count up by one, read back. */
export const nextStoreEvent = (connectionId: string): Step => ({
  sql: 'UPDATE "DspConnection" SET "eventSequence" = "eventSequence" + 1, "messageSequence" = "messageSequence" + 1 WHERE "id" = ? RETURNING "eventSequence" AS "sequence", "messageSequence" AS "position"',
  args: [connectionId],
});

/** A store's next menus publish: its message count up by one, read back (its position, behind
 * the store's events written before it). */
export const nextStoreMenus = (connectionId: string): Step => ({
  sql: 'UPDATE "DspConnection" SET "messageSequence" = "messageSequence" + 1 WHERE "id" = ? RETURNING "eventSequence" AS "sequence", "messageSequence" AS "position"',
  args: [connectionId],
});

/** What the DSP says of its own store (store.status): the connections that hold it. */
export const setDspStatus = (source: string, storeId: string, status: string, now: Date): Step => ({
  sql: `UPDATE "DspConnection" SET "dspStatus" = ?, "changeTime" = ? WHERE "source" = ? AND "boundStoreId" = ? RETURNING "id", "orgId", "partnerId", "locationId", "dspStoreId", "dspStatus"`,
  args: [status, now, source, storeId],
});

/** A location's items off sale, with their ends (null: until put back). */
export function unavailableItems(sql: Statements, locationId: string): Promise<{ itemId: string; offUntil: Date | null }[]> {
  return sql.all('SELECT "itemId", "offUntil" FROM "ItemAvailability" WHERE "locationId" = ? ORDER BY "itemId"', [locationId]);
}

/** Items off sale until a time (null: until put back); an item already off sale takes the new end. */
export const takeOffSale = (rows: { id: string; itemId: string }[], locationId: string, until: Date | null, now: Date): Step => ({
  sql: `INSERT INTO "ItemAvailability" ("id", "locationId", "itemId", "offUntil", "createdAt") VALUES ${rows.map(() => '(?, ?, ?, ?, ?)').join(', ')}
    ON CONFLICT ("locationId", "itemId") DO UPDATE SET "offUntil" = excluded."offUntil"`,
  args: rows.flatMap((row) => [row.id, locationId, row.itemId, until, now]),
});

/** Items back on sale. */
export const putOnSale = (locationId: string, itemIds: string[]): Step => ({
  sql: `DELETE FROM "ItemAvailability" WHERE "locationId" = ? AND "itemId" IN (${placeholders(itemIds)})`,
  args: [locationId, ...itemIds],
});

/** A change of a location's availability: instances that kept its items off sale read them again. */
export const nextAvailabilityVersion = (locationId: string): Step => ({
  sql: 'UPDATE "Location" SET "availabilityVersion" = "availabilityVersion" + 1 WHERE "id" = ?',
  args: [locationId],
});
