// Catalog sync (docs/reference.md § Order states): when a POS says a location's catalog changed, fetch it, keep it as
// a new version, and publish to each DSP store exactly its assigned menus (all menus when
// it has no assignment). Publishes leave through the outbox, each in order with the store's
// events (its pauses and items off sale, which a publish leaves as they are); how each ends becomes a
// menu.publish_success or menu.publish_failure notification to the POS, when its notification
// scope includes that type. An invalid catalog is not published: the POS is told why.
// Catalog versions and publishes are written here only, by plain statements (db/statements.ts).
import type { Services } from '../../services.js';
import type { Location as LocationRow } from '../../db/client.js';
import { NotFound } from '../../common/errors.js';
import { enqueue, type OutboxInput } from '../../delivery/outbox.js';
import { statementsOf } from '../../db/statements.js';
import { lastPublish, latestCatalogVersion, type LastPublish, type LatestVersion } from '../../db/sql/catalog.js';
import { nextStoreMenus, storeOrderingKey, type StoreCount } from '../../db/sql/stores.js';
import type { OutcomeHandler } from '../../delivery/worker.js';
import type { WebhookHandler, WebhookList } from '../../webhooks/intake.js';
import { newId } from '../../common/ids.js';
import { requiredText } from '../../common/input.js';
import { coalescing } from '../../common/coalesce.js';
import { findProvider } from '../../integrations/providers.js';
import { fetchCatalog } from './service.js';
import { publishError } from './validate.js';
import { onCatalog } from './thread.js';
import { menusBody, notificationBody, publishNote } from './peers.js';
import { recordChange } from '../../changes/record.js';
import { tables } from '../../db/tables.js';

export const PUBLISH_SUCCESS = 'menu.publish_success';
export const PUBLISH_FAILURE = 'menu.publish_failure';

/** An event notification (docs/reference.md § Resources) to the location's POS, if its scope includes the type. */
function notification(
  location: LocationRow,
  scope: string[],
  type: string,
  data: Record<string, unknown>,
  publishId: string,
  which: string[] = [],
): OutboxInput | null {
  if (!scope.includes(type)) return null;
  return {
    kind: 'notification',
    owner: location,
    to: { provider: location.source, operation: 'notifications', onboardingId: location.onboardingId },
    body: notificationBody(type, data),
    subject: { purpose: 'notify', subjectId: publishId, which },
  };
}

/** Publish states after which the same catalog and menus need not go to a store again:
 * it has them, they are on their way, or they were refused as invalid and the POS was told. */
const SETTLED = new Set(['published', 'pending', 'invalid']);

/**
 * Fetches a location's catalog and publishes it. Applying it twice is applying it once (docs/reference.md
 * 7.9): a catalog equal to the latest version is not a new version, and a store whose last
 * publish had this version and these menus gets nothing new. A replayed catalog.updated, however
 * many fresh ids it comes with, so costs a fetch and no publish.
 */
export async function syncLocationCatalog(services: Services, location: LocationRow): Promise<void> {
  const { db } = services;
  const { body, problems, menuIds } = await fetchCatalog(services, location);
  const available = new Set(menuIds);
  const stores = await db.store.findMany({
    where: { locationId: location.id, status: 'APPROVED' },
    orderBy: { createdAt: 'asc' },
  });
  const scope = (await findProvider(services, location.source))?.notificationScope ?? [];
  // Each store's menus and, for a valid catalog, its part of it, made before the transaction
  // (where the catalog's size says: ./thread.ts), once for each set of menus.
  const parts = new Map<string, Promise<string>>();
  const planned = await Promise.all(
    stores.map(async (store) => {
      const assigned = store.assignedMenus ? (JSON.parse(store.assignedMenus) as string[]) : null;
      const menus = assigned ? assigned.filter((id) => available.has(id)) : [...available];
      const key = JSON.stringify(menus);
      if (!problems.length && !parts.has(key)) parts.set(key, onCatalog('storePart', body, menus));
      return { store, menus, part: problems.length ? null : await parts.get(key)! };
    }),
  );

  // The version, then each store's publish, each in a transaction of its own: a large catalog's
  // writes go to the database one at a time, the event loop free between them. Should the process
  // stop between them, the catalog.updated is applied again (the inbox keeps it until it is), and
  // only what is missing is written.
  const sql = statementsOf(db);
  const version = await sql.transaction(async (run) => {
    const [last] = await run<LatestVersion>(latestCatalogVersion(location.id));
    // The same catalog read the same way: elements it could not read are left out of the body,
    // so its problems are part of what makes it the same.
    const same = last?.body === body && last.problems === JSON.stringify(problems);
    let version: Pick<LatestVersion, 'id' | 'version'> | undefined = same ? last : undefined;
    if (!version) {
      version = { id: newId('cat'), version: (last?.version ?? 0) + 1 };
      await run(
        tables.catalogVersion.insert({
          ...version,
          locationId: location.id,
          body,
          problems: JSON.stringify(problems),
          fetchedAt: new Date(),
        }),
      );
    }
    // Its dashboards see the catalog as it is now (its items, its closed days) and each publish
    // under way.
    await recordChange(run, services, { type: null, owner: location, subject: { kind: 'location', id: location.id } });
    return version;
  });
  for (const { store, menus, part } of planned)
    await sql.transaction(async (run) => {
      const [previous] = await run<LastPublish>(lastPublish(store.id));
      if (previous?.catalogVersionId === version.id && previous.menus === JSON.stringify(menus) && SETTLED.has(previous.status)) return;
      const publishId = newId('pub');
      const common = {
        id: publishId,
        locationId: location.id,
        storeId: store.id,
        catalogVersionId: version.id,
        menus: JSON.stringify(menus),
        createdAt: new Date(),
      };
      if (part === null) {
        const error = publishError(problems);
        await run(tables.menuPublish.insert({ ...common, status: 'invalid', error, completedAt: new Date() }));
        const data = publishData(location, store, menus, version.version, publishId, { error, problems });
        const note = notification(location, scope, PUBLISH_FAILURE, data, publishId);
        await recordChange(run, services, {
          type: 'menu.publish.failed',
          owner: location,
          subject: { kind: 'location', id: location.id },
          data,
          messages: note ? [note] : [],
        });
        return;
      }
      await run(tables.menuPublish.insert({ ...common, status: 'pending' }));
      // In order with the store's events: a pause or an item off sale told before these menus
      // reaches the DSP before them, however long the DSP is down (one ordering key per store).
      const [counted] = await run<StoreCount>(nextStoreMenus(store.id));
      enqueue(run, services, {
        kind: 'menu.publish',
        owner: location,
        to: { provider: store.source, operation: 'menus', onboardingId: store.onboardingId },
        body: menusBody({
          dspStoreId: store.dspStoreId,
          storeId: store.id,
          locationProviderId: location.providerId,
          timezone: location.timezone,
          prepTimeMinutes: location.prepTimeMinutes,
          version: version.version,
          menus,
          catalog: part,
        }),
        subject: { purpose: 'publish', subjectId: publishId },
        ordering: { key: storeOrderingKey(store.id), position: Number(counted!.position) },
      });
    });
}

function publishData(
  location: LocationRow,
  store: { id: string; dspStoreId: string; source: string },
  menus: string[],
  version: number,
  publishId: string,
  failure?: { error: string; problems?: string[] },
) {
  return publishNote({
    publishId,
    locationProviderId: location.providerId,
    orgLocationId: location.id,
    storeId: store.id,
    dspStoreId: store.dspStoreId,
    dspSource: store.source,
    menus,
    version,
    failure,
  });
}

/** When a publish's outbox message ends: record it and tell the POS. */
const publishSettled: OutcomeHandler = async (subject, outcome, services) => {
  const publishId = subject.subjectId!;
  const publish = await services.db.menuPublish.findUnique({
    where: { id: publishId },
    include: { location: true, store: true, catalogVersion: { select: { version: true } } },
  });
  if (!publish) return undefined;
  const error = outcome.delivered ? undefined : `the DSP did not accept the menus: ${outcome.error ?? 'no answer'}`;
  const scope = (await findProvider(services, publish.location.source))?.notificationScope ?? [];
  const data = publishData(
    publish.location,
    publish.store,
    JSON.parse(publish.menus) as string[],
    publish.catalogVersion.version,
    publishId,
    error ? { error } : undefined,
  );
  const note = notification(publish.location, scope, outcome.delivered ? PUBLISH_SUCCESS : PUBLISH_FAILURE, data, publishId, [
    outcome.delivered ? 'ok' : 'failed',
  ]);
  return async (run) => {
    await run(
      tables.menuPublish.update(publishId, {
        status: outcome.delivered ? 'published' : 'failed',
        error: error ?? null,
        completedAt: new Date(),
      }),
    );
    await recordChange(run, services, {
      type: outcome.delivered ? 'menu.publish.succeeded' : 'menu.publish.failed',
      owner: publish.location,
      subject: { kind: 'location', id: publish.location.id },
      data,
      messages: note ? [note] : [],
    });
  };
};

/** Syncs of one location in this process coalesce: a burst of catalog.updated (or of replays of
 * one) costs one fetch while a sync runs, and one more after it. */
const coalescedSyncs = coalescing();

const catalogUpdated: WebhookHandler = {
  precheck: async (services, event) => {
    const locationId = requiredText(event.object.location_id, 'object.location_id');
    const count = await services.db.location.count({ where: { source: event.source, providerId: locationId, status: 'active' } });
    if (!count) throw new NotFound(`no active location ${locationId} from ${event.source}`);
  },
  apply: async (services, event) => {
    const locations = await services.db.location.findMany({
      where: { source: event.source, providerId: String(event.object.location_id), status: 'active' },
    });
    for (const location of locations) await coalescedSyncs(location.id, () => syncLocationCatalog(services, location));
  },
};

/** The webhooks and delivery outcomes this module handles (the composition root assembles them). */
export const catalogWebhooks: WebhookList = { pos: { 'location.catalog.updated': catalogUpdated } };
export const catalogOutcomes: Record<string, OutcomeHandler> = { 'menu.publish': publishSettled };
