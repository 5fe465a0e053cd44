// Stores that stop and start (docs/api-guide.md, "Stopping and restarting orders"): a location's
// DSP stores paused and resumed (with an optional end), items and modifiers taken off sale and
// put back (with an optional end), and a DSP's own word about its store (store.status). Each
// change goes to every bound store concerned as an event (location.pause, location.resume,
// location.items.snooze, location.items.unsnooze) through the outbox, numbered per store
// (`sequence`) and in order with the store's menus (one ordering key per store); a publish of
// menus touches no pause and no item off sale. An end passes by itself: the order intake
// compares it with the clock (orders/intake.ts), so no timer runs and no event is sent then, on
// any instance, across restarts.
import type { Services } from '../../services.js';
import { Invalid, NotFound, someOf } from '../../common/errors.js';
import type { AuthInfo } from '../../common/scopes.js';
import { newId } from '../../common/ids.js';
import { requiredText } from '../../common/input.js';
import { statementsOf, type Run } from '../../db/statements.js';
import {
  boundStores,
  nextAvailabilityVersion,
  nextStoreEvent,
  pauseStores as pauseStep,
  putOnSale,
  resumeStores as resumeStep,
  setDspStatus,
  takeOffSale,
  storeOrderingKey,
  unavailableItems,
  type StoreCount,
  type StoreForEvents,
} from '../../db/sql/stores.js';
import type { OutboxInput } from '../../delivery/outbox.js';
import { findOrganization } from '../organizations/service.js';
import { storedOffer, storeOffer } from '../catalog/stored.js';
import { keptPer } from '../../common/kept.js';
import type { Db, Location as LocationRow } from '../../db/client.js';
import { recordChange } from '../../changes/record.js';
import { toWire } from '../../http/rest-route.js';
import { storeEventBody, storeWire, type StoreEventData, type StoreEventType } from './peers.js';
import { endOf, pausedUntilShown, type OffSale } from './rules.js';

/** How many items one call may take off sale or put back. */
export const MOST_ITEMS = 1000;

/** The caller's active location of the organization, or 404 (another tenant's is not revealed). */
export async function locationInReach(services: Services, auth: AuthInfo, orgId: string, locationId: string): Promise<LocationRow> {
  const org = await findOrganization(services, auth, orgId);
  const location = await services.db.location.findFirst({
    where: { id: requiredText(locationId, 'location_id'), orgId: org.id, status: 'active' },
  });
  if (!location) throw new NotFound(`location ${locationId} not found`);
  return location;
}

/** The location's bound stores named (all of them when none are): 404 for one it does not have. */
async function chosenStores(services: Services, locationId: string, ids: readonly string[] | null | undefined): Promise<StoreForEvents[]> {
  const stores = await boundStores(statementsOf(services.db), locationId);
  if (!ids?.length) return stores;
  const byId = new Map(stores.map((store) => [store.id, store]));
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length) throw new NotFound(`DSP stores not bound to this location: ${someOf(missing)}`);
  return [...new Set(ids)].map((id) => byId.get(id)!);
}

/** A change of the location's stores or items, recorded once: the partner hears of it (data in
 * wire names), the stores are told (`messages`), the location's dashboards see it as it is now. */
export function locationChanged(
  run: Run,
  services: Services,
  location: Pick<LocationRow, 'id' | 'orgId' | 'partnerId'>,
  type: 'location.paused' | 'location.resumed' | 'location.items.availability' | 'location.busy' | 'location.busy.ended',
  data: Record<string, unknown>,
  messages: OutboxInput[],
): Promise<void> {
  return recordChange(run, services, {
    type,
    owner: location,
    subject: { kind: 'location', id: location.id },
    data: toWire({ locationId: location.id, orgId: location.orgId, ...data }) as Record<string, unknown>,
    messages,
  });
}

/** A store's next event to its DSP, counted in the change's transaction: its `sequence` among the
 * store's events, and its place among everything the DSP is sent about the store, menus included
 * (one ordering key per store, db/sql/stores.ts). */
export async function storeEvent(run: Run, store: StoreForEvents, type: StoreEventType, data: StoreEventData): Promise<OutboxInput> {
  const [counted] = await run<StoreCount>(nextStoreEvent(store.id));
  const sequence = Number(counted!.sequence);
  return {
    kind: type,
    owner: store,
    to: { provider: store.source, operation: 'events', onboardingId: store.onboardingId },
    body: storeEventBody(type, store.dspStoreId, sequence, data),
    subject: { purpose: 'dsp-store-event', subjectId: store.id, which: [sequence] },
    ordering: { key: storeOrderingKey(store.id), position: Number(counted!.position) },
  };
}

/** A store as a pause or resume left it: its pause's end as partners see it (pausedUntilShown). */
export type PausedStore = Pick<StoreForEvents, 'id' | 'dspStoreId' | 'name' | 'status'> & { pausedUntil: number | null };
const shown = (store: StoreForEvents, paused: { pausedAt: Date | null; pausedUntil: Date | null }): PausedStore => ({
  id: store.id,
  dspStoreId: store.dspStoreId,
  name: store.name,
  status: store.status,
  pausedUntil: pausedUntilShown(paused),
});

/** Pauses a location's bound stores (or those named), until `untilMs` or until resumed. */
export async function pauseStores(
  services: Services,
  auth: AuthInfo,
  input: { orgId: string; locationId: string; untilMs?: number | null; storeIds?: readonly string[] | null },
): Promise<PausedStore[]> {
  const until = endOf(input.untilMs, 'until_ms');
  const location = await locationInReach(services, auth, input.orgId, input.locationId);
  return pauseLocation(services, location, until, input.storeIds);
}

/** Resumes a location's bound stores (or those named). */
export async function resumeStores(
  services: Services,
  auth: AuthInfo,
  input: { orgId: string; locationId: string; storeIds?: readonly string[] | null },
): Promise<PausedStore[]> {
  const location = await locationInReach(services, auth, input.orgId, input.locationId);
  return resumeLocation(services, location, input.storeIds);
}

type PausedLocation = Pick<LocationRow, 'id' | 'orgId' | 'partnerId'>;

/** Pauses a location's bound stores (or those named) until `until` (null: until resumed): whoever
 * asks (the partner, the merchant, the POS), each store's DSP is told and the partner hears. */
export async function pauseLocation(
  services: Services,
  location: PausedLocation,
  until: Date | null,
  storeIds?: readonly string[] | null,
): Promise<PausedStore[]> {
  const stores = await chosenStores(services, location.id, storeIds);
  if (!stores.length) return [];
  const now = new Date();
  await statementsOf(services.db).transaction(async (run) => {
    await run(
      pauseStep(
        stores.map((s) => s.id),
        now,
        until,
      ),
    );
    const told = [];
    for (const store of stores) told.push(await storeEvent(run, store, 'location.pause', { until }));
    const locations = stores.map((store) => shown(store, { pausedAt: now, pausedUntil: until }));
    await locationChanged(run, services, location, 'location.paused', { locations: locations.map(storeWire) }, told);
  });
  return stores.map((store) => shown(store, { pausedAt: now, pausedUntil: until }));
}

/** Resumes a location's bound stores (or those named), as pauseLocation pauses them. */
export async function resumeLocation(
  services: Services,
  location: PausedLocation,
  storeIds?: readonly string[] | null,
): Promise<PausedStore[]> {
  const stores = await chosenStores(services, location.id, storeIds);
  if (!stores.length) return [];
  await statementsOf(services.db).transaction(async (run) => {
    await run(
      resumeStep(
        stores.map((s) => s.id),
        new Date(),
      ),
    );
    const told = [];
    for (const store of stores) told.push(await storeEvent(run, store, 'location.resume', {}));
    const locations = stores.map((store) => shown(store, { pausedAt: null, pausedUntil: null }));
    await locationChanged(run, services, location, 'location.resumed', { locations: locations.map(storeWire) }, told);
  });
  return stores.map((store) => shown(store, { pausedAt: null, pausedUntil: null }));
}

const offSaleOf = keptPer<Db, string, Promise<OffSale>>({ max: 1000 });

/** A location's items off sale at one version of its availability, read once per version on each
 * instance: the order path reads only the version, with the store (orders/intake.ts). */
export function offSaleAt(services: Pick<Services, 'db'>, locationId: string, version: number): Promise<OffSale> {
  return offSaleOf(services.db).remember(`${locationId}|${version}`, () =>
    unavailableItems(statementsOf(services.db), locationId).then(
      (rows): OffSale => new Map(rows.map((row) => [row.itemId, row.offUntil?.getTime() ?? null])),
    ),
  );
}

/** The location's items and modifiers off sale now, with their ends (null: until put back). */
export async function unavailableNow(services: Services, locationId: string, now = Date.now()) {
  const items = await unavailableItems(statementsOf(services.db), locationId);
  return items
    .filter((item) => item.offUntil === null || item.offUntil.getTime() > now)
    .map((item) => ({ itemId: item.itemId, untilMs: item.offUntil?.getTime() ?? null }));
}

export async function itemAvailability(services: Services, auth: AuthInfo, orgId: string, locationId: string) {
  const location = await locationInReach(services, auth, orgId, locationId);
  return unavailableNow(services, location.id);
}

/** The location's latest catalog version, once every id is known to be an item or modifier of
 * it (else 400 naming the first that is not). */
export async function catalogOfLocation(
  services: Services,
  locationId: string,
  itemIds: readonly string[],
): Promise<{ id: string } | null> {
  const latest = await services.db.catalogVersion.findFirst({ where: { locationId }, orderBy: { version: 'desc' }, select: { id: true } });
  const catalog = latest ? await storedOffer(services.db, latest.id, null) : null;
  const unknown = itemIds.find((id) => !catalog?.items.has(id) && !catalog?.modifiers.has(id));
  if (unknown) throw new Invalid(`item_ids: ${unknown} is not an item or modifier of this location's catalog`);
  return latest;
}

/**
 * Takes items or modifiers of a location's catalog off sale (until `untilMs`, or until put back)
 * or puts them back. Each must be in the location's latest catalog (400 naming the first that is
 * not). Each bound store whose menus hold any of them is told (location.items.snooze or
 * unsnooze, with those it holds).
 */
export async function changeAvailability(
  services: Services,
  location: Pick<LocationRow, 'id' | 'orgId' | 'partnerId'>,
  input: { itemIds: readonly unknown[]; available: boolean; untilMs?: unknown },
) {
  if (!Array.isArray(input.itemIds) || !input.itemIds.length) throw new Invalid('item_ids must name at least one item or modifier');
  if (input.itemIds.length > MOST_ITEMS) throw new Invalid(`item_ids may name at most ${MOST_ITEMS} items a call`);
  const itemIds = [...new Set(input.itemIds.map((id, i) => requiredText(id, `item_ids[${i}]`)))];
  const until = input.available ? null : endOf(input.untilMs, 'until_ms');
  const latest = await catalogOfLocation(services, location.id, itemIds);
  const stores = await boundStores(statementsOf(services.db), location.id);
  const told: { store: StoreForEvents; ids: string[] }[] = [];
  for (const store of stores) {
    const offer = await storeOffer(services.db, store, latest?.id ?? null);
    const held = itemIds.filter((id) => offer?.items.has(id) || offer?.modifiers.has(id));
    if (held.length) told.push({ store, ids: held });
  }
  const now = new Date();
  await statementsOf(services.db).transaction(async (run) => {
    if (input.available) await run(putOnSale(location.id, itemIds));
    else
      await run(
        takeOffSale(
          itemIds.map((itemId) => ({ id: newId('avl'), itemId })),
          location.id,
          until,
          now,
        ),
      );
    await run(nextAvailabilityVersion(location.id));
    const messages = [];
    for (const { store, ids } of told)
      messages.push(
        input.available
          ? await storeEvent(run, store, 'location.items.unsnooze', { itemIds: ids })
          : await storeEvent(run, store, 'location.items.snooze', { itemIds: ids, until }),
      );
    const data = { itemIds, available: input.available, untilMs: until?.getTime() ?? null };
    await locationChanged(run, services, location, 'location.items.availability', data, messages);
  });
  return unavailableNow(services, location.id);
}

export async function setItemAvailability(
  services: Services,
  auth: AuthInfo,
  input: { orgId: string; locationId: string; itemIds: readonly string[]; available: boolean; untilMs?: number | null },
) {
  const location = await locationInReach(services, auth, input.orgId, input.locationId);
  return changeAvailability(services, location, input);
}

/** A DSP pausing or reopening its own store (store.status): recorded and shown, not echoed back. */
export async function setStoreStatus(services: Services, source: string, dspStoreId: string, status: string): Promise<void> {
  await statementsOf(services.db).transaction(async (run) => {
    const stores = await run<{ id: string; orgId: string; partnerId: string; locationId: string; dspStoreId: string; dspStatus: string }>(
      setDspStatus(source, dspStoreId, status, new Date()),
    );
    for (const { partnerId, ...store } of stores)
      await recordChange(run, services, {
        type: 'dsp_connection.status',
        owner: { partnerId, orgId: store.orgId },
        subject: { kind: 'location', id: store.locationId },
        data: toWire({ ...store, source }) as Record<string, unknown>,
      });
  });
}

/** Whether a DSP's store is bound to a location of ours (404 otherwise). */
export async function requireBoundStore(services: Services, source: string, dspStoreId: string): Promise<void> {
  const held = await services.db.store.count({ where: { source, boundStoreId: dspStoreId } });
  if (!held) throw new NotFound(`store ${dspStoreId} is not bound`);
}

/** The active locations of ours that are this POS location. */
export const locationsOfPos = (services: Services, source: string, posLocationId: string): Promise<LocationRow[]> =>
  services.db.location.findMany({ where: { source, providerId: posLocationId, status: 'active' } });
