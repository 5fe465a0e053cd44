// GraphQL for locations: the POS's list, ingest, bind, the organization's locations, delete.
import { pageSize } from '../../common/pages.js';
import { builder } from '../../graphql/builder.js';
import { loaderOf } from '../../graphql/request-scope.js';
import { OrganizationChange } from '../organizations/types.js';
import type { Context } from '../../graphql/context.js';
import type { Location as LocationRow, Store as StoreRow } from '../../db/client.js';
import {
  approvedStoresOf,
  bindDspLocations,
  deleteLocation,
  ingestLocations,
  listOnboardingLocations,
  organizationLocations,
} from './service.js';
import type { Address as AddressShape } from './peers.js';
import { requiredText, displayName } from '../../common/input.js';
import { Invalid } from '../../common/errors.js';

/** One statement for the stores of all the locations of a response.
 * To Pothos, Location and Store are whole rows; the organization's locations hand them only the
 * columns their fields read (see the column lists in db/sql/locations.ts): hence the casts. */
const approvedStores = (ctx: Context, locationIds: readonly string[]) =>
  approvedStoresOf(ctx.services, locationIds) as unknown as Promise<StoreRow[][]>;

/** A location's stores when they were read in the same statement as it. */
const readWith = new WeakMap<object, StoreRow[]>();

const Address = builder.objectRef<AddressShape>('Address').implement({
  description: 'A postal address, with its coordinates when known.',
  fields: (t) => ({
    formattedAddress: t.exposeString('formatted_address', { nullable: true }),
    addressLine1: t.exposeString('address_line_1', { nullable: true }),
    addressLine2: t.exposeString('address_line_2', { nullable: true }),
    addressLine3: t.exposeString('address_line_3', { nullable: true }),
    postalCode: t.exposeString('postal_code', { nullable: true }),
    locality: t.exposeString('locality', { nullable: true }),
    administrativeDistrictLevel1: t.exposeString('administrative_district_level_1', { nullable: true }),
    country: t.exposeString('country', { nullable: true }),
    latitude: t.exposeFloat('latitude', { nullable: true }),
    longitude: t.exposeFloat('longitude', { nullable: true }),
  }),
});

type OnboardingLocationShape = Awaited<ReturnType<typeof listOnboardingLocations>>[number];
const OnboardingLocation = builder.objectRef<OnboardingLocationShape>('OnboardingLocation').implement({
  fields: (t) => ({
    providerId: t.exposeString('providerId'),
    name: t.exposeString('name'),
    address: t.field({ type: Address, resolve: (l) => l.address }),
    source: t.exposeString('source'),
    isEligibleToOnboard: t.exposeBoolean('isEligibleToOnboard', { description: 'False once the location is ingested.' }),
  }),
});

const OnboardingLocationsPayload = builder.objectRef<{ locations: OnboardingLocationShape[] }>('OnboardingLocationsPayload').implement({
  fields: (t) => ({ locations: t.field({ type: [OnboardingLocation], resolve: (p) => p.locations }) }),
});

builder.queryField('onboardingLocations', (t) =>
  t.withAuth({ scope: 'onboarding' }).field({
    type: OnboardingLocationsPayload,
    description: "The locations of the onboarding's POS merchant.",
    args: { onboardingId: t.arg.id({ required: true }) },
    resolve: async (_root, { onboardingId }, ctx) => ({
      locations: await listOnboardingLocations(ctx.services, ctx.auth, String(onboardingId)),
    }),
  }),
);

const IngestLocationEntry = builder.inputType('IngestLocationEntry', { fields: (t) => ({ providerId: t.string({ required: true }) }) });
const IngestLocationsInput = builder.inputType('IngestLocationsInput', {
  fields: (t) => ({
    onboardingId: t.id({ required: true }),
    locations: t.field({ type: [IngestLocationEntry], required: true }),
  }),
});
const IngestedLocation = builder.objectRef<{ id: string; providerId: string }>('IngestedLocation').implement({
  fields: (t) => ({ id: t.exposeID('id'), providerId: t.exposeString('providerId') }),
});
const IngestLocationsPayload = builder.objectRef<{ locations: { id: string; providerId: string }[] }>('IngestLocationsPayload').implement({
  fields: (t) => ({ locations: t.field({ type: [IngestedLocation], resolve: (p) => p.locations }) }),
});

builder.mutationField('ingestLocations', (t) =>
  t.withAuth({ scope: 'onboarding' }).field({
    type: IngestLocationsPayload,
    args: { input: t.arg({ type: IngestLocationsInput, required: true }) },
    resolve: async (_root, { input }, ctx) => ({
      locations: await ingestLocations(
        ctx.services,
        ctx.auth,
        requiredText(String(input.onboardingId), 'onboarding_id'),
        ingestIds(input.locations),
      ),
    }),
  }),
);

/** The POS's location ids to ingest, each given and named once (400 naming the entry otherwise). */
function ingestIds(locations: readonly { providerId: string }[]): string[] {
  if (!locations.length) throw new Invalid('locations must name at least one location');
  const ids = locations.map((l, i) => requiredText(l.providerId, `locations[${i}].provider_id`));
  if (new Set(ids).size !== ids.length) throw new Invalid('locations lists the same provider_id twice');
  return ids;
}

/** The stores to bind, each field given and each store named once (400 naming the entry otherwise). */
function bindEntries(locations: readonly { posLocationId: string | number; dspProviderId: string; dspStoreName: string }[]) {
  if (!locations.length) throw new Invalid('locations must name at least one store');
  const entries = locations.map((l, i) => ({
    locationId: requiredText(String(l.posLocationId), `locations[${i}].pos_location_id`),
    storeId: requiredText(l.dspProviderId, `locations[${i}].dsp_provider_id`),
    name: displayName(l.dspStoreName, `locations[${i}].dsp_store_name`),
  }));
  if (new Set(entries.map((e) => e.storeId)).size !== entries.length) throw new Invalid('locations lists the same dsp_provider_id twice');
  return entries;
}

const BindLocationEntry = builder.inputType('BindLocationEntry', {
  fields: (t) => ({
    posLocationId: t.id({ required: true, description: 'The id of an ingested location.' }),
    dspProviderId: t.string({ required: true, description: "The DSP's own store id." }),
    dspStoreName: t.string({ required: true }),
  }),
});
const BindDspLocationsInput = builder.inputType('BindDspLocationsInput', {
  fields: (t) => ({
    onboardingId: t.id({ required: true, description: 'A completed DSP onboarding.' }),
    locations: t.field({ type: [BindLocationEntry], required: true }),
  }),
});
type BoundShape = { id: string; dspStoreId: string; name: string; status: string };
const BoundLocation = builder.objectRef<BoundShape>('BoundLocation').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    dspProviderId: t.exposeString('dspStoreId', { description: "The DSP's own store id." }),
    dspStoreName: t.exposeString('name'),
    status: t.exposeString('status'),
  }),
});
const BindDspLocationsPayload = builder.objectRef<{ locations: BoundShape[] }>('BindDspLocationsPayload').implement({
  fields: (t) => ({ locations: t.field({ type: [BoundLocation], resolve: (p) => p.locations }) }),
});

builder.mutationField('bindDspLocations', (t) =>
  t.withAuth({ scope: 'onboarding' }).field({
    type: BindDspLocationsPayload,
    args: { input: t.arg({ type: BindDspLocationsInput, required: true }) },
    resolve: async (_root, { input }, ctx) => ({
      locations: await bindDspLocations(
        ctx.services,
        ctx.auth,
        requiredText(String(input.onboardingId), 'onboarding_id'),
        bindEntries(input.locations),
      ),
    }),
  }),
);

const Store = builder.prismaObject('Store', {
  name: 'DspConnection',
  description: 'A DSP store bound to a location.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    source: t.exposeString('source'),
    status: t.exposeString('status'),
    dspStoreId: t.exposeString('dspStoreId', { description: "The DSP's own store id." }),
    integrationStatus: t.string({
      description:
        'The status of the DSP onboarding the store goes through: active, or reauthorization_required once the merchant revoked the app at the DSP.',
      resolve: (d) => (d as StoreRow & { integrationStatus: string }).integrationStatus,
    }),
    changeTime: t.float({ description: 'Epoch milliseconds of the last change.', resolve: (d) => d.changeTime.getTime() }),
    menuProviderIds: t.stringList({
      nullable: true,
      description: 'The assigned menus; null when none are assigned (every menu is published).',
      resolve: (d) => (d.assignedMenus ? (JSON.parse(d.assignedMenus) as string[]) : null),
    }),
    publishes: t.relation('publishes', {
      description: 'The latest menu publishes to this store, newest first.',
      args: { last: t.arg.int({ defaultValue: 20 }) },
      query: (args) => ({ orderBy: { createdAt: 'desc' }, take: pageSize(args.last, { name: 'last', default: 20, max: 100 }) }),
    }),
  }),
});

const Location = builder.prismaObject('Location', {
  description: 'A location of an organization.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    source: t.exposeString('source'),
    status: t.exposeString('status'),
    providerId: t.exposeString('providerId', { description: "The POS's id of the location." }),
    integrationStatus: t.string({
      description:
        'The status of the POS onboarding the location goes through: active, or reauthorization_required once the merchant revoked the app at the POS (its orders wait until a new onboarding of the same account).',
      resolve: (l) => (l as LocationRow & { integrationStatus: string }).integrationStatus,
    }),
    address: t.field({ type: Address, resolve: (l) => JSON.parse(l.address) as AddressShape }),
    dsps: t.field({
      type: [Store],
      description: 'The approved DSP connections, oldest first.',
      resolve: (location, _args, ctx) => readWith.get(location) ?? loaderOf(ctx, approvedStores).load(location.id),
    }),
    catalog: t.relation('catalogs', {
      description: 'The current catalog (the latest version fetched from the POS), as a one-element list, or empty before the first fetch.',
      query: { orderBy: { version: 'desc' }, take: 1 },
    }),
  }),
});

const OrganizationLocationsPayload = builder
  .objectRef<Pick<Awaited<ReturnType<typeof organizationLocations>>, 'locations'>>('OrganizationLocationsPayload')
  .implement({
    fields: (t) => ({ locations: t.field({ type: [Location], resolve: (parent) => parent.locations as unknown as LocationRow[] }) }),
  });

builder.queryField('organizationLocations', (t) =>
  t.withAuth({ scope: 'onboarding' }).field({
    type: OrganizationLocationsPayload,
    args: {
      orgId: t.arg.id({ required: true }),
      locationId: t.arg.id({ description: 'Only this location (our id or the POS provider_id).' }),
    },
    resolve: async (_root, { orgId, locationId }, ctx) => {
      const { locations, stores } = await organizationLocations(
        ctx.services,
        ctx.auth,
        String(orgId),
        locationId ? String(locationId) : null,
      );
      // Read with the locations (PostgreSQL): Location.dsps takes them from here.
      if (stores) for (const location of locations) readWith.set(location, (stores.get(location.id) ?? []) as unknown as StoreRow[]);
      return { locations };
    },
  }),
);

builder.objectField(OrganizationChange, 'location', (t) =>
  t.withAuth({ scope: 'onboarding' }).field({
    type: Location,
    nullable: true,
    description: 'For a location that changed: the location as it is now (null once it is deleted).',
    resolve: async (change, _args, ctx) => {
      if (change.kind !== 'location') return null;
      const { locations, stores } = await organizationLocations(ctx.services, ctx.auth, change.orgId, change.id);
      const [location] = locations;
      if (!location) return null;
      if (stores) readWith.set(location, (stores.get(location.id) ?? []) as unknown as StoreRow[]);
      return location as unknown as LocationRow;
    },
  }),
);

const DeleteLocationInput = builder.inputType('DeleteLocationInput', {
  fields: (t) => ({ orgId: t.id({ required: true }), locationId: t.id({ required: true }) }),
});
const DeleteLocationPayload = builder.objectRef<{ id: string }>('DeleteLocationPayload').implement({
  fields: (t) => ({ id: t.exposeID('id'), deleted: t.boolean({ resolve: () => true }) }),
});

builder.mutationField('deleteLocation', (t) =>
  t.withAuth({ scope: 'onboarding' }).field({
    type: DeleteLocationPayload,
    description: 'Retire a location: its POS gets the disconnection notice and no further order events.',
    args: { input: t.arg({ type: DeleteLocationInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      await deleteLocation(ctx.services, ctx.auth, String(input.orgId), String(input.locationId));
      return { id: String(input.locationId) };
    },
  }),
);
