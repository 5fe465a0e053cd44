// The store webhooks of DSPs and POS systems (docs/api-guide.md, "Webhooks in"): their payloads
// read in the peers' wire names and handed to ./service.ts in the domain's.
import type { WebhookHandler, WebhookList } from '../../webhooks/intake.js';
import { Invalid, NotFound } from '../../common/errors.js';
import { requiredText } from '../../common/input.js';
import { catalogOfLocation, changeAvailability, locationsOfPos, MOST_ITEMS, requireBoundStore, setStoreStatus } from './service.js';
import { endOf } from './rules.js';

const STORE_STATUSES = ['paused', 'online'] as const;

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

/** The webhooks this module handles (the composition root assembles them). */
export const storeWebhooks: WebhookList = {
  dsp: { 'store.status': storeStatus },
  pos: { 'location.items.availability': itemsAvailability },
};
