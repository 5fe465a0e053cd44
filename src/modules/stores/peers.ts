// A DSP store on the wire: what its DSP is told (docs/dsp-channels.md, "Stores that stop and
// start": location.pause, location.resume, location.items.snooze or unsnooze, and the pace of a
// busy kitchen, location.prep_time.update) and how partners read it in events (our id as _id,
// the platform's as dsp_provider_id).
import { outgoingWebhook, type JsonSchema, type OpenApiOperation } from '../../http/route-docs.js';

/** The events a store's DSP is told, each numbered per store (`data.sequence`) and in order with
 * the store's menus. location.prep_time.update is the busy kitchen's (a location quoted more
 * minutes, and back to its base): its sender is the busy rule's, which this module does not have
 * yet; its wire is here so that the platforms' document and guide describe it now. */
export const STORE_EVENT_TYPES = [
  'location.pause',
  'location.resume',
  'location.items.snooze',
  'location.items.unsnooze',
  'location.prep_time.update',
] as const;
export type StoreEventType = (typeof STORE_EVENT_TYPES)[number];

/** What a store's event says: the items it concerns, the end of the pause or time off sale (none:
 * until undone), the minutes an order takes now. */
export type StoreEventData = { itemIds?: readonly string[]; until?: Date | null; prepTimeMinutes?: number };

/** A store's event as its DSP gets it: `sequence` is its number among the store's events. */
export function storeEventBody(type: StoreEventType, dspStoreId: string, sequence: number, data: StoreEventData) {
  return {
    type,
    store_id: dspStoreId,
    created_at: Date.now(),
    data: {
      sequence,
      ...(data.itemIds ? { item_ids: data.itemIds } : {}),
      ...(data.prepTimeMinutes !== undefined ? { prep_time_minutes: data.prepTimeMinutes } : {}),
      ...(data.until ? { until_ms: data.until.getTime() } : {}),
    },
  };
}

/** A store in a partner event's data (dsp_connection.bound, location.paused, location.resumed). */
export function storeWire(store: { id: string; dspStoreId: string; name: string; status: string; pausedUntil?: number | null }) {
  return {
    _id: store.id,
    dsp_provider_id: store.dspStoreId,
    dsp_store_name: store.name,
    status: store.status,
    ...(store.pausedUntil === undefined ? {} : { paused_until: store.pausedUntil }),
  };
}

/** An event to a DSP as the OpenAPI document's `webhooks` describe it, its order's or its
 * store's: the envelope every event has around its `data`, and the headers it comes with (`key`:
 * what its Idempotency-Key is made of). */
export function dspEventDoc(type: string, when: string, data: JsonSchema, key: string): OpenApiOperation {
  const body = {
    type: 'object',
    required: ['type', 'store_id', 'created_at', 'data'],
    properties: {
      type: { type: 'string', const: type },
      store_id: { type: 'string', description: "The DSP's own store id." },
      created_at: { type: 'integer', description: 'Epoch milliseconds of the change.' },
      data,
    },
  };
  const headers = {
    'X-Service-Signature': "HMAC-SHA256 of the body with the DSP's webhook secret, lower-case hex.",
    'Idempotency-Key': `The same for this event however often it is sent (${key}): drop a repeat by it.`,
  };
  return outgoingWebhook(
    `To a DSP: ${type}`,
    `${when} POST {dsp base_url}/v1/events, with the store's onboarding token as a bearer token when the store is bound.`,
    body,
    headers,
  );
}

/** The store events as the OpenAPI document's `webhooks` describe them (what a DSP receives). */
export function storeEventDocs(): Record<string, OpenApiOperation> {
  const until = (what: string) => ({ type: 'integer', minimum: 0, description: `Epoch milliseconds: ${what}.` });
  const itemIds = {
    type: 'array',
    items: { type: 'string' },
    description: 'Items or modifiers, by the provider_id of the catalog the store received.',
  };
  const more: Record<StoreEventType, [string, Record<string, JsonSchema>, string[]]> = {
    'location.pause': [
      'Take no orders at this store. With until_ms, reopen by yourself then: no location.resume follows.',
      { until_ms: until('the end of the pause; absent: until location.resume') },
      [],
    ],
    'location.resume': ['Take orders at this store again.', {}, []],
    'location.items.snooze': [
      'These items or modifiers are off sale at this store, until until_ms or until unsnoozed.',
      { item_ids: itemIds, until_ms: until('back on sale then by itself; absent: until location.items.unsnooze') },
      ['item_ids'],
    ],
    'location.items.unsnooze': ['These items or modifiers are on sale again.', { item_ids: itemIds }, ['item_ids']],
    'location.prep_time.update': [
      'The kitchen is busy (or no longer): quote this many minutes for an order from now on, until until_ms, then the base again by yourself (nothing is sent then). The end of a busy spell asked for early is told the same way, with the base.',
      {
        prep_time_minutes: { type: 'integer', minimum: 1, description: "The location's base prep time plus the busy kitchen's extra." },
        until_ms: until('when the extra ends by itself'),
      },
      ['prep_time_minutes'],
    ],
  };
  return Object.fromEntries(
    STORE_EVENT_TYPES.map((type) => {
      const [when, fields, required] = more[type];
      const sequence = {
        type: 'integer',
        minimum: 1,
        description: "1, 2, 3… per store, in the order of the changes; the store's menus (POST /v1/menus) are sent in order with them.",
      };
      const data = { type: 'object', required: ['sequence', ...required], properties: { sequence, ...fields } };
      return [type, dspEventDoc(type, when, data, 'dsp-store-event:<our store id>:<sequence>')];
    }),
  );
}
