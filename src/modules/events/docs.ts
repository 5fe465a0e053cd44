// What a partner's webhook endpoint receives, as the OpenAPI document's `webhooks` describe it:
// one entry per event type, the event's body and the Standard Webhooks headers.
import { outgoingWebhook, type JsonSchema, type OpenApiOperation } from '../../http/route-docs.js';
import { EVENT_TYPES, type EventType } from '../../changes/types.js';

const text = { type: 'string' };
const nullableText = { type: ['string', 'null'] };
const ms = { type: 'integer', description: 'Epoch milliseconds.' };
/** Required are the properties always there and never null; one that may be null is optional. */
const alwaysThere = (properties: Record<string, JsonSchema>) =>
  Object.keys(properties).filter((key) => !(Array.isArray(properties[key]!.type) && (properties[key]!.type as string[]).includes('null')));
const object = (properties: Record<string, JsonSchema>, required = alwaysThere(properties)): JsonSchema => ({
  type: 'object',
  required,
  properties,
});

const order = object(
  {
    _id: text,
    org_id: text,
    location_id: text,
    source: { type: 'string', description: 'The DSP.' },
    dsp_store_id: text,
    dsp_order_id: text,
    pos_order_id: nullableText,
    status: text,
    delivery_status: text,
    fulfillment_type: nullableText,
    failure_reason: { ...nullableText, description: 'Why the order will not be made (order.failed).' },
    failure_details: nullableText,
    driver: {
      type: ['object', 'null'],
      description: 'The driver its event provider assigned (merchant-delivered orders).',
      properties: {
        name: text,
        phone: { type: ['object', 'null'], properties: { number: text, code: nullableText } },
        source: nullableText,
        vehicle_info: {
          type: ['object', 'null'],
          properties: { make: nullableText, model: nullableText, color: nullableText, license_plate: nullableText },
        },
      },
    },
    estimated_dropoff_time: {
      type: ['integer', 'null'],
      description: 'When its event provider expects the driver at the customer, epoch ms.',
    },
    note: { ...text, description: 'What the fields do not say: why a merchant-delivered order went to no event provider.' },
    created_at: ms,
    updated_at: ms,
  },
  ['_id', 'org_id', 'status', 'delivery_status', 'dsp_order_id', 'created_at', 'updated_at'],
);
const location = object(
  {
    _id: text,
    org_id: text,
    source: text,
    provider_id: { type: 'string', description: "The POS's id of the location." },
    name: text,
    address: { type: 'object' },
    status: { type: 'string', enum: ['active', 'deleted'] },
    timezone: text,
    created_at: ms,
    deleted_at: ms,
  },
  ['_id', 'org_id', 'source', 'provider_id', 'name', 'status', 'created_at'],
);
const stores = object({
  location_id: text,
  org_id: text,
  locations: {
    type: 'array',
    description: 'The DSP stores paused or resumed.',
    items: object({
      _id: text,
      dsp_provider_id: text,
      dsp_store_name: text,
      status: text,
      paused_until: { type: ['integer', 'null'], description: 'Epoch ms the pause ends; -1 until resumed; null: taking orders.' },
    }),
  },
});
const publish = object(
  {
    publish_id: text,
    location_id: { type: 'string', description: "The POS's id of the location." },
    org_location_id: text,
    dsp_location_id: text,
    dsp_store_id: text,
    dsp_source: text,
    menu_provider_ids: { type: 'array', items: text },
    catalog_version: { type: 'integer' },
    error: text,
    problems: { type: 'array', items: text },
  },
  ['publish_id', 'org_location_id', 'dsp_location_id', 'menu_provider_ids', 'catalog_version'],
);

const DATA: Record<EventType, [string, JsonSchema]> = {
  'onboarding.updated': [
    'An onboarding began, completed, needs the merchant to authorize the provider again (reauthorization_required), or was replaced by a newer one of the same account.',
    object(
      {
        _id: text,
        org_id: text,
        type: { type: 'string', enum: ['pos', 'dsp'] },
        status: { type: 'string', enum: ['pending', 'active', 'reauthorization_required', 'replaced'] },
        source: text,
        entry_url: text,
        return_url: text,
        integration_id: nullableText,
      },
      ['_id', 'org_id', 'type', 'status', 'source'],
    ),
  ],
  'location.ingested': ['A POS location became one of the organization’s.', location],
  'location.deleted': ['A location was deleted; its DSP stores were released.', location],
  'location.paused': ['Stores of a location were paused (by the partner, the merchant, or its POS).', stores],
  'location.resumed': ['Stores of a location take orders again.', stores],
  'location.busy': [
    'A location is busy: its orders keep coming, each quoted extra_prep_minutes more (by the partner, the merchant, or its POS); each bound store was told its prep time.',
    object(
      {
        location_id: text,
        org_id: text,
        extra_prep_minutes: { type: 'integer', minimum: 5, maximum: 120 },
        until_ms: { type: ['integer', 'null'] },
        prep_time_minutes: { type: ['integer', 'null'], description: "The location's base plus the extra." },
      },
      ['location_id', 'org_id', 'extra_prep_minutes'],
    ),
  ],
  'location.busy.ended': [
    'A busy spell was ended before its end (one that ends by itself at until_ms is not announced).',
    object({ location_id: text, org_id: text, prep_time_minutes: { type: ['integer', 'null'], description: 'The base again.' } }, [
      'location_id',
      'org_id',
    ]),
  ],
  'location.items.availability': [
    'Items or modifiers were taken off sale, or put back.',
    object(
      {
        location_id: text,
        org_id: text,
        item_ids: { type: 'array', items: text },
        available: { type: 'boolean' },
        until_ms: { type: ['integer', 'null'] },
      },
      ['location_id', 'org_id', 'item_ids', 'available'],
    ),
  ],
  'dsp_connection.bound': [
    'A DSP store was bound to a location.',
    object({ _id: text, location_id: text, org_id: text, source: text, dsp_provider_id: text, dsp_store_name: text, status: text }),
  ],
  'dsp_connection.status': [
    'A DSP paused or reopened its own store.',
    object({
      _id: text,
      org_id: text,
      location_id: text,
      dsp_store_id: text,
      dsp_status: { type: 'string', enum: ['online', 'paused'] },
      source: text,
    }),
  ],
  'menu.publish.succeeded': ['A DSP store took its menus.', publish],
  'menu.publish.failed': ['Menus could not be published to a DSP store: the catalog broke its rules, or the DSP refused it.', publish],
  'order.created': ['An order came in and went on to the POS.', order],
  'order.updated': ['An order’s status, delivery status or driver changed (each step its event provider reports).', order],
  'order.failed': ['An order will not be made: refused at intake (failure_reason), by the POS, or the POS never took it.', order],
  'delivery.dead': [
    'A message to a provider, or to another of your endpoints, failed for good after its attempts.',
    object(
      {
        delivery_id: text,
        kind: { type: 'string', description: 'What it carried: an event type, order.created to a POS, ...' },
        destination: { type: 'string', description: 'The provider it went to.' },
        endpoint_id: { type: 'string', description: 'The endpoint it went to (a partner event).' },
        event_id: text,
        attempts: { type: 'integer' },
        last_status: { type: ['integer', 'null'] },
        last_error: nullableText,
      },
      ['delivery_id', 'kind', 'attempts'],
    ),
  ],
};

const HEADERS = {
  'webhook-id': 'The event’s _id: the same however often it is sent; drop a repeat by it.',
  'webhook-timestamp': 'When this call was signed, epoch seconds.',
  'webhook-signature':
    'v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>"> with the endpoint’s secret (whsec_<base64 key>); during a rotation two, space-separated.',
};

/** The money an order event carries, as the orders module describes it (its properties, and what
 * its amounts count, said once where a reader meets them): given by the composition root. */
export type OrderMoneyDocs = { properties: Record<string, JsonSchema>; said: string };

/** The events a partner's webhook endpoints receive. */
export function partnerEventDocs(orderMoney: OrderMoneyDocs): Record<string, OpenApiOperation> {
  return Object.fromEntries(
    EVENT_TYPES.map((type) => {
      const [told, about] = DATA[type];
      const withMoney = about === order;
      const when = withMoney ? `${told} Its currency and amounts are the order's. ${orderMoney.said}` : told;
      const data = withMoney ? { ...order, properties: { ...(order.properties as object), ...orderMoney.properties } } : about;
      const body = object({ _id: text, type: { type: 'string', const: type }, created_at: ms, org_id: nullableText, data });
      return [
        type,
        outgoingWebhook(
          `To a partner's endpoint: ${type}`,
          `${when} POST {endpoint url}, signed per Standard Webhooks; the same event is in GET /v1/events.`,
          body,
          HEADERS,
          'Taken. Anything else (a 3xx too: redirects are not followed), or no answer within the timeout, is sent again later with the same webhook-id, with backoff, until the attempts run out.',
        ),
      ];
    }),
  );
}
