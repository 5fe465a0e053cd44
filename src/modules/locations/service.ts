// Locations: the POS's stores (listed, ingested), DSP stores bound to them, and deletion
// (docs/reference.md § Resources; docs/reference.md § Partner API). Connection and disconnection notices leave through the
// outbox, in the transaction of the change. A DSP store can be bound only if the DSP lists it for
// the merchant's account (GET /v1/locations with that onboarding's token), and one store row
// at a time holds it (boundStoreId); deleting its location releases it. Locations and stores
// are written here (and the menu assignment in ../menus), by plain statements only.
import { storeWire } from '../stores/peers.js';
import type { Services } from '../../services.js';
import { Conflict, Invalid, NotFound, UpstreamFailed, someOf } from '../../common/errors.js';
import { isUniqueViolation } from '../../db/client.js';
import { statementsOf } from '../../db/statements.js';
import {
  activeLocations,
  approvedStores,
  organizationLocationsAtOnce,
  releaseStores,
  stillActive,
  type ShownStore,
  type ShownLocation,
} from '../../db/sql/locations.js';
import { providerOf } from '../../db/url.js';
import { assertOrgInReach } from '../access/index.js';
import { notice, providerLocationsOf, type ProviderLocation } from './peers.js';
import { callForOnboarding, describeFailure } from '../../integrations/provider-client.js';
import { newId } from '../../common/ids.js';
import type { AuthInfo } from '../../common/scopes.js';
import { findOrganization } from '../organizations/service.js';
import { activeOnboarding } from '../onboarding/service.js';
import { findProvider, type ProviderInfo } from '../../integrations/providers.js';
import { CONNECTION_NOTICES_FLAG } from '../flags/openfeature.js';
import { isTimeZone } from '../catalog/local-time.js';
import { recordChange } from '../../changes/record.js';
import { toWire } from '../../http/rest-route.js';
import type { Location as LocationRow } from '../../db/client.js';
import { tables } from '../../db/tables.js';

/** Whether a POS gets connection and disconnection notices (docs/reference.md § POS interface): the service flag
 * `pos-connection-notices` for context {kind: provider, key: source} when it is defined, the
 * provider registration's switch otherwise. */
async function sendsNotices(services: Services, provider: ProviderInfo | null): Promise<boolean> {
  if (!provider) return false;
  return services.features.getBooleanValue(CONNECTION_NOTICES_FLAG, provider.connectionNotices, {
    targetingKey: provider.source,
    kind: 'provider',
  });
}

/** A location as partner events carry it: its row in the REST wire names. */
export function locationData(
  location: Pick<LocationRow, 'id' | 'orgId' | 'source' | 'providerId' | 'name' | 'address' | 'status' | 'timezone' | 'createdAt'> & {
    deletedAt?: Date | null;
  },
): Record<string, unknown> {
  return toWire({
    id: location.id,
    orgId: location.orgId,
    source: location.source,
    providerId: location.providerId,
    name: location.name,
    address: JSON.parse(location.address) as unknown,
    status: location.status,
    timezone: location.timezone,
    createdAt: location.createdAt.getTime(),
    ...(location.deletedAt ? { deletedAt: location.deletedAt.getTime() } : {}),
  }) as Record<string, unknown>;
}

/** A provider's locations for an onboarding's merchant (GET /locations): a POS's restaurants,
 * or a DSP's stores. */
async function providerLocations(services: Services, source: string, onboardingId: string): Promise<ProviderLocation[]> {
  const response = await callForOnboarding(services, source, onboardingId, 'locations');
  const locations = response.status === 200 ? providerLocationsOf(response.body as { locations?: unknown } | undefined) : null;
  if (!locations) throw new UpstreamFailed(`${source} did not list its locations: ${describeFailure(response)}`);
  return locations;
}

/** The DSP stores that are held by a store row now, of these ids. */
async function boundStores(services: Services, source: string, storeIds: string[]): Promise<Set<string>> {
  const held = await services.db.store.findMany({
    where: { source, boundStoreId: { in: storeIds } },
    select: { dspStoreId: true },
  });
  return new Set(held.map((c) => c.dspStoreId));
}

/** The POS locations this organization has ingested and not deleted. */
async function ingestedLocations(services: Services, orgId: string, source: string): Promise<Set<string>> {
  const ingested = await services.db.location.findMany({ where: { orgId, source, status: 'active' }, select: { providerId: true } });
  return new Set(ingested.map((l) => l.providerId));
}

/** A POS onboarding's locations (eligible unless ingested by this organization), or a DSP
 * onboarding's stores (eligible unless bound). */
export async function listOnboardingLocations(services: Services, auth: AuthInfo, onboardingId: string) {
  const onboarding = await activeOnboarding(services, auth, onboardingId);
  const locations = await providerLocations(services, onboarding.source, onboarding.id);
  const taken =
    onboarding.type === 'dsp'
      ? await boundStores(
          services,
          onboarding.source,
          locations.map((l) => l.providerId),
        )
      : await ingestedLocations(services, onboarding.orgId, onboarding.source);
  return locations.map(({ timezone: _timezone, prepTimeMinutes: _prep, ...l }) => ({
    ...l,
    source: onboarding.source,
    isEligibleToOnboard: !taken.has(l.providerId),
  }));
}

/** POS locations ingested as locations of the onboarding's organization (the POS's ids,
 * checked non-empty and distinct at the edge): each made, told to the partner, and to its POS when that POS
 * takes connection notices. */
export async function ingestLocations(services: Services, auth: AuthInfo, onboardingId: string, wanted: string[]) {
  const onboarding = await activeOnboarding(services, auth, onboardingId, 'pos');
  const available = new Map((await providerLocations(services, onboarding.source, onboarding.id)).map((l) => [l.providerId, l]));
  const unknown = wanted.filter((providerId) => !available.has(providerId));
  if (unknown.length) throw new Invalid(`not locations of this POS merchant: ${someOf(unknown)}`);
  const notices = await sendsNotices(services, await findProvider(services, onboarding.source));
  const created = wanted.map((providerId) => ({ id: newId('loc'), providerId }));
  // The check above answers the common case; the unique (org, source, activeProviderId) answers
  // two ingests at the same moment, whichever database (the loser's transaction writes nothing).
  try {
    await statementsOf(services.db).transaction(async (run) => {
      const now = new Date();
      for (const { id, providerId } of created) {
        const pos = available.get(providerId)!;
        // The POS's IANA time zone for the location's closed days; UTC when it gives none or one
        // the platform does not know (said in the log, the location ingested all the same).
        if (pos.timezone !== undefined && !isTimeZone(pos.timezone))
          services.log.warn(
            { source: onboarding.source, location: providerId, timezone: pos.timezone },
            'unknown time zone from the POS: UTC used',
          );
        const location = {
          id,
          partnerId: auth.partnerId,
          orgId: onboarding.orgId,
          onboardingId: onboarding.id,
          source: onboarding.source,
          providerId,
          activeProviderId: providerId,
          name: pos.name,
          address: JSON.stringify(pos.address),
          timezone: isTimeZone(pos.timezone) ? pos.timezone : 'UTC',
          prepTimeMinutes: pos.prepTimeMinutes ?? null,
          availabilityVersion: 0,
          status: 'active',
          createdAt: now,
        };
        await run(tables.location.insert(location));
        await recordChange(run, services, {
          type: 'location.ingested',
          owner: location,
          subject: { kind: 'location', id },
          data: locationData(location),
          messages: notices ? [notice(location, 'connect')] : [],
        });
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new Conflict(`already ingested: ${someOf(wanted)}`);
    throw error;
  }
  return created;
}

/** DSP stores bound to locations of the onboarding's organization (fields checked non-empty,
 * stores distinct, at the edge): each store only if the merchant's DSP account lists it. */
export async function bindDspLocations(
  services: Services,
  auth: AuthInfo,
  onboardingId: string,
  entries: { locationId: string; storeId: string; name: string }[],
) {
  const onboarding = await activeOnboarding(services, auth, onboardingId, 'dsp');
  const locations = await services.db.location.findMany({
    where: { id: { in: entries.map((e) => e.locationId) }, orgId: onboarding.orgId, status: 'active' },
    select: { id: true },
  });
  const found = new Set(locations.map((l) => l.id));
  const missing = entries.filter((e) => !found.has(e.locationId)).map((e) => e.locationId);
  if (missing.length) throw new NotFound(`locations not found in this organization: ${someOf(missing)}`);
  // Only the merchant's own stores, as the DSP lists them: any other id is not found, the same
  // whether or not someone else holds it, so the answer reveals nothing about other merchants.
  const listed = new Set((await providerLocations(services, onboarding.source, onboarding.id)).map((l) => l.providerId));
  const unlisted = entries.filter((e) => !listed.has(e.storeId)).map((e) => e.storeId);
  if (unlisted.length) throw new NotFound(`not stores of this DSP merchant account: ${someOf(unlisted)}`);

  const created = entries.map((e) => ({ ...e, id: newId('dsp') }));
  try {
    await statementsOf(services.db).transaction(async (run) => {
      const now = new Date();
      for (const e of created) {
        await run(
          tables.store.insert({
            id: e.id,
            partnerId: auth.partnerId,
            orgId: onboarding.orgId,
            locationId: e.locationId,
            onboardingId: onboarding.id,
            source: onboarding.source,
            dspStoreId: e.storeId,
            boundStoreId: e.storeId,
            name: e.name,
            status: 'APPROVED',
            changeTime: now,
            createdAt: now,
          }),
        );
        await recordChange(run, services, {
          type: 'dsp_connection.bound',
          owner: { partnerId: auth.partnerId, orgId: onboarding.orgId },
          subject: { kind: 'location', id: e.locationId },
          data: {
            ...storeWire({ id: e.id, dspStoreId: e.storeId, name: e.name, status: 'APPROVED' }),
            ...(toWire({ locationId: e.locationId, orgId: onboarding.orgId, source: onboarding.source }) as Record<string, unknown>),
          },
        });
      }
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new Conflict('one of these DSP stores is already bound to a location');
    throw error;
  }
  return created.map((e) => ({ id: e.id, dspStoreId: e.storeId, name: e.name, status: 'APPROVED' }));
}

/** The organization's active locations (or the one with this id or POS provider_id), oldest
 * first, after checking the caller may see the organization: plain statements, as this is the
 * read operators and partners make most. On PostgreSQL their approved stores come in the same
 * round-trip, by location (else the caller loads them: `approvedStoresOf`). */
export async function organizationLocations(
  services: Services,
  auth: AuthInfo,
  orgId: string,
  locationId?: string | null,
): Promise<{ locations: ShownLocation[]; stores?: Map<string, ShownStore[]> }> {
  const sql = statementsOf(services.db);
  if (providerOf(services.config.databaseUrl) === 'postgresql') {
    assertOrgInReach(auth, orgId);
    const read = await organizationLocationsAtOnce(sql, orgId, auth.partnerId, locationId);
    if (!read) throw new NotFound(`organization ${orgId} not found`);
    return {
      locations: read.locations,
      stores: byLocation(
        read.locations.map((l) => l.id),
        read.stores,
      ),
    };
  }
  const org = await findOrganization(services, auth, orgId);
  return { locations: await activeLocations(sql, org.id, locationId) };
}

function byLocation(locationIds: readonly string[], rows: ShownStore[]): Map<string, ShownStore[]> {
  const grouped = new Map<string, ShownStore[]>(locationIds.map((id) => [id, []]));
  for (const row of rows) grouped.get(row.locationId)?.push(row);
  return grouped;
}

/** The approved stores of many locations, each location's oldest first. */
export async function approvedStoresOf(services: Services, locationIds: readonly string[]): Promise<ShownStore[][]> {
  const grouped = byLocation(locationIds, await approvedStores(statementsOf(services.db), locationIds));
  return locationIds.map((id) => grouped.get(id)!);
}

/** Deletes (retires) a location: no order event goes to it any more; its POS is told. */
export async function deleteLocation(services: Services, auth: AuthInfo, orgId: string, locationId: string): Promise<void> {
  const org = await findOrganization(services, auth, orgId);
  const location = await services.db.location.findFirst({ where: { id: locationId, orgId: org.id, status: 'active' } });
  if (!location) throw new NotFound(`location ${locationId} not found`);
  const notices = await sendsNotices(services, await findProvider(services, location.source));
  await statementsOf(services.db).transaction(async (run) => {
    // Only one of several deletes at the same moment retires it (the row lock makes the others
    // wait, then find it deleted): the rest are 404, as a later delete would be.
    const [retired] = await run<LocationRow>(
      tables.location.update(
        location.id,
        { status: 'deleted', activeProviderId: null, deletedAt: new Date() },
        { and: stillActive, returning: true },
      ),
    );
    if (!retired) throw new NotFound(`location ${locationId} not found`);
    // Its stores are released: they can be bound again, by this merchant or a later owner.
    await run(releaseStores(location.id, new Date()));
    await recordChange(run, services, {
      type: 'location.deleted',
      owner: location,
      subject: { kind: 'location', id: location.id },
      data: locationData(retired),
      messages: notices ? [notice(location, 'disconnect')] : [],
    });
  });
}
