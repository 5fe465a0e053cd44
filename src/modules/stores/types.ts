// GraphQL for stores that stop and start: pause and resume a location's DSP stores, items off
// sale, and what organization locations show of them (pauses, the DSP's own status, the time
// zone, the closed days ahead, and whether its hours have it open now).
import { busyShown, endBusy, setLocationBusy, type Busy } from './busy.js';
import { BUSY_EXTRA_MINUTES } from './pace.js';
import { builder } from '../../graphql/builder.js';
import { loaderOf } from '../../graphql/request-scope.js';
import type { Context } from '../../graphql/context.js';
import {
  itemAvailability,
  pauseStores,
  resumeStores,
  setItemAvailability,
  unavailableNow,
  type PausedStore as PausedStoreShape,
} from './service.js';
import { pausedUntilShown } from './rules.js';
import { closedDaysAhead } from '../catalog/holidays.js';
import { locationHours, locationOpening } from '../catalog/stored.js';
import { MenuSchedule, scheduleShown } from '../catalog/types.js';

const PausedStore = builder.objectRef<PausedStoreShape>('PausedStore').implement({
  description: 'A DSP store of the location, as a pause or resume left it.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The DSP connection.' }),
    dspProviderId: t.exposeString('dspStoreId', { description: "The DSP's own id of the store." }),
    dspStoreName: t.exposeString('name'),
    status: t.exposeString('status'),
    pausedUntil: t.float({
      nullable: true,
      description: 'Epoch ms the pause ends; -1 until resumed; null when the store takes orders.',
      resolve: (s) => s.pausedUntil,
    }),
  }),
});
const PauseStoresPayload = builder.objectRef<{ locations: PausedStoreShape[] }>('PauseStoresPayload').implement({
  fields: (t) => ({ locations: t.field({ type: [PausedStore], resolve: (p) => p.locations }) }),
});

const PauseStoresInput = builder.inputType('PauseStoresInput', {
  fields: (t) => ({
    orgId: t.id({ required: true }),
    locationId: t.id({ required: true }),
    untilMs: t.float({ description: 'When the pause ends by itself (epoch ms, at most 366 days ahead); absent: until resumed.' }),
    dspLocationIds: t.idList({ description: 'The DSP connections to pause; absent: every bound store of the location.' }),
  }),
});
const ResumeStoresInput = builder.inputType('ResumeStoresInput', {
  fields: (t) => ({
    orgId: t.id({ required: true }),
    locationId: t.id({ required: true }),
    dspLocationIds: t.idList({ description: 'The DSP connections to resume; absent: every bound store of the location.' }),
  }),
});
const ids = (list: readonly (string | number)[] | null | undefined) => list?.map(String) ?? null;

builder.mutationField('pauseStores', (t) =>
  t.withAuth({ scope: 'onboarding' }).field({
    type: PauseStoresPayload,
    description: "Stop a location's DSP stores taking orders, until a time or until resumed; each store's DSP is told (location.pause).",
    args: { input: t.arg({ type: PauseStoresInput, required: true }) },
    resolve: async (_root, { input }, ctx) => ({
      locations: await pauseStores(ctx.services, ctx.auth, {
        orgId: String(input.orgId),
        locationId: String(input.locationId),
        untilMs: input.untilMs,
        storeIds: ids(input.dspLocationIds),
      }),
    }),
  }),
);

builder.mutationField('resumeStores', (t) =>
  t.withAuth({ scope: 'onboarding' }).field({
    type: PauseStoresPayload,
    description: "Let a location's DSP stores take orders again; each store's DSP is told (location.resume).",
    args: { input: t.arg({ type: ResumeStoresInput, required: true }) },
    resolve: async (_root, { input }, ctx) => ({
      locations: await resumeStores(ctx.services, ctx.auth, {
        orgId: String(input.orgId),
        locationId: String(input.locationId),
        storeIds: ids(input.dspLocationIds),
      }),
    }),
  }),
);

type OffSaleShape = { itemId: string; untilMs: number | null };
const OffSaleItem = builder.objectRef<OffSaleShape>('OffSaleItem').implement({
  description: 'An item or modifier off sale.',
  fields: (t) => ({
    itemId: t.exposeString('itemId', { description: "The catalog's provider_id of the item or modifier." }),
    untilMs: t.float({
      nullable: true,
      description: 'When it is back on sale by itself (epoch ms); null: until put back.',
      resolve: (i) => i.untilMs,
    }),
  }),
});
const ItemAvailabilityPayload = builder.objectRef<{ unavailable: OffSaleShape[] }>('ItemAvailabilityPayload').implement({
  fields: (t) => ({ unavailable: t.field({ type: [OffSaleItem], resolve: (p) => p.unavailable }) }),
});
const SetItemAvailabilityInput = builder.inputType('SetItemAvailabilityInput', {
  fields: (t) => ({
    orgId: t.id({ required: true }),
    locationId: t.id({ required: true }),
    itemIds: t.stringList({ required: true, description: "Items or modifiers of the location's catalog (at most 1,000)." }),
    available: t.boolean({ required: true, description: 'false: off sale; true: back on sale.' }),
    untilMs: t.float({ description: 'Off sale until (epoch ms, at most 366 days ahead); absent: until put back.' }),
  }),
});

builder.mutationField('setItemAvailability', (t) =>
  t.withAuth({ scope: 'onboarding' }).field({
    type: ItemAvailabilityPayload,
    description:
      'Take items or modifiers off sale, or put them back; every bound store whose menus hold them is told (location.items.snooze or unsnooze).',
    args: { input: t.arg({ type: SetItemAvailabilityInput, required: true }) },
    resolve: async (_root, { input }, ctx) => ({
      unavailable: await setItemAvailability(ctx.services, ctx.auth, {
        orgId: String(input.orgId),
        locationId: String(input.locationId),
        itemIds: input.itemIds,
        available: input.available,
        untilMs: input.untilMs,
      }),
    }),
  }),
);

builder.queryField('itemAvailability', (t) =>
  t.withAuth({ scope: 'onboarding' }).field({
    type: ItemAvailabilityPayload,
    description: "The location's items and modifiers off sale now.",
    args: { orgId: t.arg.id({ required: true }), locationId: t.arg.id({ required: true }) },
    resolve: async (_root, { orgId, locationId }, ctx) => ({
      unavailable: await itemAvailability(ctx.services, ctx.auth, String(orgId), String(locationId)),
    }),
  }),
);

// What organization locations show of it. The columns are read with the locations
// (db/sql/locations.ts); the closed days, the menus' hours and the opening come from each
// location's latest valid catalog, kept per catalog version, its id read for all the locations
// of an answer at once.
builder.prismaObjectField('Store', 'pausedUntil', (t) =>
  t.float({
    nullable: true,
    description: 'Epoch ms a pause of ours ends; -1 while paused until resumed; null when the store takes orders (from us).',
    resolve: (c) => pausedUntilShown(c),
  }),
);
builder.prismaObjectField('Store', 'dspStatus', (t) =>
  t.exposeString('dspStatus', { description: 'What the DSP says of its own store: online or paused (its store.status webhook).' }),
);
builder.prismaObjectField('Location', 'timezone', (t) =>
  t.string({ description: "The IANA time zone of the location's POS (UTC when it gives none).", resolve: (l) => l.timezone }),
);

type ClosedDay = { date: string; name: string };
const ClosedDayRef = builder.objectRef<ClosedDay>('ClosedDay').implement({
  description: 'A day the location takes no orders, in its time zone.',
  fields: (t) => ({ date: t.exposeString('date', { description: 'YYYY-MM-DD.' }), name: t.exposeString('name') }),
});

/** The latest valid catalog version of many locations, in one statement: a catalog that breaks a
 * rule is not taken (nothing of it is published), so it changes none of what these show. */
const latestVersions = async (ctx: Context, locationIds: readonly string[]) => {
  const versions = await ctx.db.catalogVersion.findMany({
    where: { locationId: { in: [...locationIds] }, problems: '[]' },
    orderBy: { version: 'desc' },
    distinct: ['locationId'],
    select: { id: true, locationId: true },
  });
  const byLocation = new Map(versions.map((v) => [v.locationId, v.id]));
  return locationIds.map((id) => byLocation.get(id) ?? null);
};

/** A location's latest valid catalog version, and its hours (that catalog's menus and holidays,
 * in its time zone); null before its first valid catalog. */
const hoursOf = async (ctx: Context, location: { id: string; timezone: string }) => {
  const versionId = await loaderOf(ctx, latestVersions).load(location.id);
  return versionId ? locationHours(ctx.db, versionId, location.timezone) : null;
};

/** Its opening now (three fields read it; kept while it holds). Before its first valid catalog
 * nothing about time refuses its orders: open. */
const openingOf = async (ctx: Context, location: { id: string; timezone: string }) => {
  const versionId = await loaderOf(ctx, latestVersions).load(location.id);
  return versionId ? locationOpening(ctx.db, versionId, location.timezone) : { open: true, opensAt: null, closesAt: null };
};

builder.prismaObjectField('Location', 'closedDays', (t) =>
  t.field({
    type: [ClosedDayRef],
    description: 'The days its latest valid catalog closes all day, from today (in its time zone) on, for the next 60 days.',
    resolve: async (location, _args, ctx) => {
      const hours = await hoursOf(ctx, location);
      return hours ? closedDaysAhead(hours.holidays, hours.timeZone, Date.now()) : [];
    },
  }),
);
builder.prismaObjectField('Location', 'openNow', (t) =>
  t.boolean({
    description:
      "Whether its hours have it open now: some menu of its latest valid catalog open on its clock, no holiday closing it (a store's own pause is its DSP connection's pausedUntil).",
    resolve: async (location, _args, ctx) => (await openingOf(ctx, location)).open,
  }),
);
builder.prismaObjectField('Location', 'opensAt', (t) =>
  t.float({
    nullable: true,
    description: 'When closed: epoch ms it opens next (null when no menu opens in the next 400 days). Null when open.',
    resolve: async (location, _args, ctx) => (await openingOf(ctx, location)).opensAt,
  }),
);
builder.prismaObjectField('Location', 'closesAt', (t) =>
  t.float({
    nullable: true,
    description: 'When open: epoch ms it closes next, within a week (null when it stays open all week). Null when closed.',
    resolve: async (location, _args, ctx) => (await openingOf(ctx, location)).closesAt,
  }),
);

type LocationMenuShape = { providerId: string; name: string; schedule: ReturnType<typeof scheduleShown> };
const LocationMenu = builder.objectRef<LocationMenuShape>('LocationMenu').implement({
  description: 'A menu of the location with its opening hours.',
  fields: (t) => ({
    providerId: t.exposeString('providerId', { description: "The POS's id of the menu (what menu assignment takes)." }),
    name: t.exposeString('name'),
    schedule: t.field({
      type: MenuSchedule,
      nullable: true,
      description: 'Its hours on the location clock; null: open whenever the location is.',
      resolve: (m) => m.schedule,
    }),
  }),
});
builder.prismaObjectField('Location', 'menus', (t) =>
  t.field({
    type: [LocationMenu],
    description: 'The menus of its latest valid catalog, each with its schedule.',
    resolve: async (location, _args, ctx) => {
      const hours = await hoursOf(ctx, location);
      return [...(hours?.menus ?? [])].map(([providerId, menu]) => ({ providerId, name: menu.name, schedule: scheduleShown(menu.week) }));
    },
  }),
);

builder.prismaObjectField('Location', 'offSale', (t) =>
  t.field({
    type: [OffSaleItem],
    description: 'Its items and modifiers off sale now.',
    resolve: (location, _args, ctx) => unavailableNow(ctx.services, location.id),
  }),
);

// Busy: slower, not closed (./busy.ts).
const LocationBusyRef = builder.objectRef<Busy>('LocationBusy').implement({
  description: 'A location’s busy spell as a set or an end left it.',
  fields: (t) => ({
    locationId: t.exposeID('locationId'),
    extraPrepMinutes: t.exposeInt('extraPrepMinutes', { nullable: true, description: 'Minutes more per order; null when not busy.' }),
    untilMs: t.float({ nullable: true, description: 'Epoch ms the extra ends by itself; null: until ended.', resolve: (b) => b.untilMs }),
    prepTimeMinutes: t.exposeInt('prepTimeMinutes', {
      nullable: true,
      description: 'What each bound store quotes now: the base prep time plus the extra.',
    }),
  }),
});
const SetLocationBusyInput = builder.inputType('SetLocationBusyInput', {
  fields: (t) => ({
    orgId: t.id({ required: true }),
    locationId: t.id({ required: true }),
    extraPrepMinutes: t.int({
      required: true,
      description: `Whole minutes more per order, ${BUSY_EXTRA_MINUTES.min} to ${BUSY_EXTRA_MINUTES.max}.`,
    }),
    untilMs: t.float({ description: 'When the extra ends by itself (epoch ms, at most 366 days ahead); absent: until ended.' }),
  }),
});
const EndLocationBusyInput = builder.inputType('EndLocationBusyInput', {
  fields: (t) => ({ orgId: t.id({ required: true }), locationId: t.id({ required: true }) }),
});
builder.mutationField('setLocationBusy', (t) =>
  t.withAuth({ scope: 'onboarding' }).field({
    type: LocationBusyRef,
    description:
      'Keep a location taking orders, each quoted extra_prep_minutes more, until a time or until ended; each bound store’s DSP is told its prep time (location.prep_time.update).',
    args: { input: t.arg({ type: SetLocationBusyInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      setLocationBusy(ctx.services, ctx.auth, {
        orgId: String(input.orgId),
        locationId: String(input.locationId),
        extraPrepMinutes: input.extraPrepMinutes,
        untilMs: input.untilMs,
      }),
  }),
);
builder.mutationField('endLocationBusy', (t) =>
  t.withAuth({ scope: 'onboarding' }).field({
    type: LocationBusyRef,
    description: 'End a location’s busy spell: each bound store’s DSP is told the base prep time again.',
    args: { input: t.arg({ type: EndLocationBusyInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      endBusy(ctx.services, ctx.auth, { orgId: String(input.orgId), locationId: String(input.locationId) }),
  }),
);
const BusyShownRef = builder.objectRef<{ extraPrepMinutes: number; untilMs: number | null }>('Busy').implement({
  description: 'A busy spell: each order quoted extraPrepMinutes more, until untilMs (null: until ended).',
  fields: (t) => ({
    extraPrepMinutes: t.exposeInt('extraPrepMinutes'),
    untilMs: t.float({ nullable: true, resolve: (b) => b.untilMs }),
  }),
});
builder.prismaObjectField('Location', 'prepTimeMinutes', (t) =>
  t.int({
    nullable: true,
    description: 'The kitchen’s usual minutes per order, as its POS lists it (1-240); null when it gives none.',
    resolve: (l) => l.prepTimeMinutes,
  }),
);
builder.prismaObjectField('Location', 'busy', (t) =>
  t.field({ type: BusyShownRef, nullable: true, description: 'Its busy spell now; null when not busy.', resolve: (l) => busyShown(l) }),
);
