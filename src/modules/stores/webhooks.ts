// The store webhooks of DSPs and POS systems (docs/reference.md § Webhooks in): their payloads
// read in the peers' wire names and handed to ./service.ts in the domain's.
import type { WebhookHandler, WebhookList } from '../../webhooks/intake.js';
import { Invalid, NotFound } from '../../common/errors.js';
import { requiredText } from '../../common/input.js';
import {
  catalogOfLocation,
  changeAvailability,
  locationsOfPos,
  MOST_ITEMS,
  pauseLocation,
  requireBoundStore,
  resumeLocation,
  setStoreStatus,
} from './service.js';
import { endOf } from './rules.js';
import { busyLocation, endLocationBusy, extraMinutesOf } from './busy.js';

const STORE_STATUSES = ['paused', 'online'] as const;
const LOCATION_STATUSES = ['active', 'inactive', 'busy'] as const;

/** A DSP pausing or reopening its own store (store.status). */
const storeStatus: WebhookHandler = {
  precheck: async (services, event) => {
    const storeId = requiredText(event.object.dsp_store_id, 'object.dsp_store_id');
    if (!STORE_STATUSES.includes(event.object.status as never))
      throw new Invalid(`object.status must be one of ${STORE_STATUSES.join(', ')}`);
    await requireBoundStore(services, event.source, storeId);
  },
  apply: (services, event) => setStoreStatus(services, event.source, String(event.object.dsp_store_id), String(event.object.status)),
};

/** A POS taking items off sale or putting them back (location.items.availability): the same as
 * the partner's call, for each location of ours that is this POS location. */
const itemsAvailability: WebhookHandler = {
  precheck: async (services, event) => {
    const posLocationId = requiredText(event.object.location_id, 'object.location_id');
    if (typeof event.object.available !== 'boolean') throw new Invalid('object.available must be true or false');
    if (!Array.isArray(event.object.item_ids) || !event.object.item_ids.length)
      throw new Invalid('object.item_ids must name at least one item');
    // The same bound as the partner's call, checked before the 2xx: past it the webhook would be
    // stored and then fail for good when applied.
    if (event.object.item_ids.length > MOST_ITEMS)
      throw new Invalid(`object.item_ids may name at most ${MOST_ITEMS} items a call (it names ${event.object.item_ids.length})`);
    if (!event.object.available) endOf(event.object.until_ms, 'object.until_ms');
    const [location] = await locationsOfPos(services, event.source, posLocationId);
    if (!location) throw new NotFound(`no active location ${posLocationId} from ${event.source}`);
    await catalogOfLocation(
      services,
      location.id,
      event.object.item_ids.map((id, i) => requiredText(id, `object.item_ids[${i}]`)),
    );
  },
  apply: async (services, event) => {
    for (const location of await locationsOfPos(services, event.source, String(event.object.location_id)))
      await changeAvailability(services, location, {
        itemIds: event.object.item_ids as unknown[],
        available: event.object.available as boolean,
        untilMs: event.object.until_ms,
      });
  },
};

/** A POS pausing (`inactive`, until `paused_until` or until it says `active`) or reopening a
 * location itself (location.status.updated): every bound store of each location of ours that is
 * this POS location, as the partner's pause and resume do. `paused_until` is read with
 * `inactive` only. */
const locationStatus: WebhookHandler = {
  precheck: async (services, event) => {
    const posLocationId = requiredText(event.object.location_id, 'object.location_id');
    if (!LOCATION_STATUSES.includes(event.object.status as never))
      throw new Invalid(`object.status must be one of ${LOCATION_STATUSES.join(', ')}`);
    if (event.object.status === 'inactive') endOf(event.object.paused_until, 'object.paused_until');
    if (event.object.status === 'busy') {
      extraMinutesOf(event.object.extra_prep_minutes, 'object.extra_prep_minutes');
      endOf(event.object.busy_until, 'object.busy_until');
    }
    const [location] = await locationsOfPos(services, event.source, posLocationId);
    if (!location) throw new NotFound(`no active location ${posLocationId} from ${event.source}`);
  },
  object: {
    type: 'object',
    required: ['location_id', 'status'],
    description:
      'The POS pauses (inactive) or reopens (active) a location itself: every DSP store bound to it is paused or resumed, each told (location.pause, location.resume), and the partner hears (location.paused, location.resumed). busy keeps it taking orders, each quoted extra_prep_minutes more until busy_until: each store is told its prep time (location.prep_time.update), the partner hears location.busy; active ends a busy spell too (location.busy.ended).',
    properties: {
      location_id: { type: 'string', description: "The POS's provider_id of the location." },
      status: { type: 'string', enum: [...LOCATION_STATUSES] },
      paused_until: {
        type: ['integer', 'null'],
        description: 'With inactive: epoch ms the pause ends by itself (in the future, at most 366 days ahead); absent: until active.',
      },
      extra_prep_minutes: { type: 'integer', minimum: 5, maximum: 120, description: 'With busy: whole minutes more per order.' },
      busy_until: {
        type: ['integer', 'null'],
        description: 'With busy: epoch ms (not seconds) the extra ends by itself; absent: until active.',
      },
    },
  },
  apply: async (services, event) => {
    const locations = await locationsOfPos(services, event.source, String(event.object.location_id));
    if (event.object.status === 'active') {
      for (const location of locations) {
        await resumeLocation(services, location);
        await endLocationBusy(services, location);
      }
      return;
    }
    if (event.object.status === 'busy') {
      const until = typeof event.object.busy_until === 'number' ? new Date(event.object.busy_until) : null;
      if (until && until.getTime() <= Date.now()) return;
      for (const location of locations) await busyLocation(services, location, event.object.extra_prep_minutes as number, until);
      return;
    }
    const until = typeof event.object.paused_until === 'number' ? new Date(event.object.paused_until) : null;
    // An end that passed between the 2xx and now leaves nothing to pause.
    if (until && until.getTime() <= Date.now()) return;
    for (const location of locations) await pauseLocation(services, location, until);
  },
};

/** The webhooks this module handles (the composition root assembles them). */
export const storeWebhooks: WebhookList = {
  dsp: { 'store.status': storeStatus },
  pos: { 'location.items.availability': itemsAvailability, 'location.status.updated': locationStatus },
};
