// The menus a DSP store receives (docs/dsp-channels.md, "Menus to you"): POST {dsp}/v1/menus with
// the part of the location's catalog its menus reach, each menu with its `schedule`, the
// location's `holidays`, and the `timezone` both are on, so that the platform shows the hours.
// And how a publish ends, as its POS is told (docs/pos-vendors.md, "Notifications"). The
// conformance kit sends the same bodies.
import { outgoingWebhook, type OpenApiOperation } from '../../http/route-docs.js';
import type { Catalog } from './validate.js';
import { MAX_AMOUNT } from '../../common/money.js';

/** What a store is sent: its menus, of one catalog version, in the wire's names. */
export function menusBody(publish: {
  storeId: string;
  connectionId: string;
  locationProviderId: string;
  timezone: string;
  version: number;
  menus: string[];
  catalog: Catalog;
}) {
  return {
    store_id: publish.storeId,
    dsp_location_id: publish.connectionId,
    location_id: publish.locationProviderId,
    timezone: publish.timezone,
    catalog_version: publish.version,
    menu_provider_ids: publish.menus,
    catalog: publish.catalog,
  };
}

/** A publish as the POS's notification names it: the location, the store, the menus, the catalog
 * version, and for a failure why. */
export type PublishNote = {
  publishId: string;
  locationProviderId: string;
  orgLocationId: string;
  connectionId: string;
  dspStoreId: string;
  dspSource: string;
  menus: string[];
  version: number;
  failure?: { error: string; problems?: string[] };
};

/** A notification's `data`, in the wire's names. */
export const publishNote = (note: PublishNote) => ({
  publish_id: note.publishId,
  location_id: note.locationProviderId,
  org_location_id: note.orgLocationId,
  dsp_location_id: note.connectionId,
  dsp_store_id: note.dspStoreId,
  dsp_source: note.dspSource,
  menu_provider_ids: note.menus,
  catalog_version: note.version,
  ...note.failure,
});

/** An event notification to a POS (menu.publish_success, menu.publish_failure). */
export const notificationBody = (type: string, data: Record<string, unknown>) => ({ type, data, created_at: Date.now() });

const RANGES = {
  type: 'array',
  items: { type: 'string', pattern: '^\\d{2}:\\d{2}-\\d{2}:\\d{2}$' },
  description: 'HH:MM-HH:MM on the location clock; a range ending at or before its start runs past midnight into the next day.',
};

/** The menus a DSP receives, as the OpenAPI document's `webhooks` describe them. */
export function menusDocs(): Record<string, OpenApiOperation> {
  const schedule = {
    type: 'object',
    description: "The menu's hours: each weekday's ranges; a weekday left out is closed. No schedule: open whenever the location is.",
    properties: Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, RANGES])),
    additionalProperties: false,
  };
  const priced = (what: string) => ({
    type: 'array',
    items: {
      type: 'object',
      required: ['provider_id', 'price'],
      properties: {
        provider_id: { type: 'string', description: `What an order's service_id names of this ${what}.` },
        name: { type: 'string' },
        price: {
          type: 'integer',
          minimum: 0,
          maximum: MAX_AMOUNT,
          description: "A whole number of the catalog's currency's smallest unit: usd 1199 is $11.99, jpy 1280 is ¥1,280.",
        },
      },
    },
  });
  const body = {
    type: 'object',
    required: ['store_id', 'dsp_location_id', 'location_id', 'timezone', 'catalog_version', 'menu_provider_ids', 'catalog'],
    properties: {
      store_id: { type: 'string', description: "The DSP's own store id." },
      dsp_location_id: { type: 'string', description: 'Our id of the store (its DSP connection).' },
      location_id: { type: 'string', description: "The POS's id of the location." },
      timezone: { type: 'string', description: 'The IANA time zone of the location: the clock its schedules and holidays are on.' },
      catalog_version: { type: 'integer', description: 'Counts up with each new catalog of the location.' },
      menu_provider_ids: { type: 'array', items: { type: 'string' }, description: 'The menus the store sells.' },
      catalog: {
        type: 'object',
        description:
          'The part of the POS catalog these menus reach (docs/pos-vendors.md, "3. The catalog"): menu, category, item, item_family, modifier_group, modifier, tax, with the catalog-wide fields.',
        properties: {
          currency: { type: 'string', pattern: '^[a-z]{3}$', description: 'Lower-case ISO 4217 code of every price.' },
          item: priced('item'),
          modifier: priced('modifier'),
          menu: {
            type: 'array',
            items: {
              type: 'object',
              required: ['provider_id', 'category_ids'],
              properties: {
                provider_id: { type: 'string' },
                name: { type: 'string' },
                category_ids: { type: 'array', items: { type: 'string' } },
                schedule,
              },
            },
          },
          holidays: {
            type: 'array',
            description: 'Days the location keeps other hours: closed all day (closed: true), or open only its hours.',
            items: {
              type: 'object',
              properties: {
                date: { type: 'string', description: 'YYYY-MM-DD on the location clock.' },
                name: { type: 'string' },
                closed: { type: 'boolean' },
                hours: RANGES,
              },
            },
          },
        },
      },
    },
  };
  return {
    menus: outgoingWebhook(
      'To a DSP: its store menus, with their hours',
      "POST {dsp base_url}/v1/menus (the registration's menus path), with the store's onboarding token as a bearer token, each time the location's catalog or the store's menu assignment changes. A 2xx takes them (menu.publish_success to the POS); a refusal fails the publish (menu.publish_failure).",
      body,
      {
        'X-Service-Signature': "HMAC-SHA256 of the body with the DSP's webhook secret, lower-case hex.",
        'Idempotency-Key': 'The same for this publish however often it is sent.',
      },
    ),
  };
}
