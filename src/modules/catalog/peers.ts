// The menus a DSP store receives (docs/dsp-channels.md, "Menus to you"): POST {dsp}/v1/menus with
// the part of the location's catalog its menus reach, each menu with its `schedule`, the
// location's `holidays`, and the `timezone` both are on, so that the platform shows the hours.
// And how a publish ends, as its POS is told (docs/pos-vendors.md, "Notifications"). The
// conformance kit sends the same bodies.
import { outgoingWebhook, providerCall, type JsonSchema, type OpenApiOperation } from '../../http/route-docs.js';
import { MAX_AMOUNT } from '../../common/money.js';

/** What a store is sent: its menus, of one catalog version, in the wire's names, as JSON text: its
 * part of the catalog comes as text already (made where the catalog's size says, ./thread.ts),
 * and goes in last, as it is. */
export function menusBody(publish: {
  dspStoreId: string;
  storeId: string;
  locationProviderId: string;
  timezone: string;
  /** The location's base prep time (a busy spell's extra is told apart: location.prep_time.update). */
  prepTimeMinutes: number | null;
  version: number;
  menus: string[];
  /** The store's part of the catalog, JSON. */
  catalog: string;
}): string {
  const head = JSON.stringify({
    store_id: publish.dspStoreId,
    dsp_location_id: publish.storeId,
    location_id: publish.locationProviderId,
    timezone: publish.timezone,
    ...(publish.prepTimeMinutes === null ? {} : { prep_time_minutes: publish.prepTimeMinutes }),
    catalog_version: publish.version,
    menu_provider_ids: publish.menus,
  });
  return `${head.slice(0, -1)},"catalog":${publish.catalog}}`;
}

/** A publish as the POS's notification names it: the location, the store, the menus, the catalog
 * version, and for a failure why. */
export type PublishNote = {
  publishId: string;
  locationProviderId: string;
  orgLocationId: string;
  storeId: string;
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
  dsp_location_id: note.storeId,
  dsp_store_id: note.dspStoreId,
  dsp_source: note.dspSource,
  menu_provider_ids: note.menus,
  catalog_version: note.version,
  ...note.failure,
});

/** An event notification to a POS (menu.publish_success, menu.publish_failure). */
export const notificationBody = (type: string, data: Record<string, unknown>) => ({ type, data, created_at: Date.now() });

/** A schema of the document's components. */
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const text = { type: 'string' };
const ids = (what: string) => ({ type: 'array', items: text, description: `The provider_ids of ${what}.` });
const providerId = (what: string) => ({ type: 'string', minLength: 1, description: `Your id of the ${what}, unique in its list.` });
const price = (what: string) => ({
  type: 'integer',
  minimum: 0,
  maximum: MAX_AMOUNT,
  description: `The ${what}'s price: a whole number of the catalog's currency's smallest unit (usd 1199 is $11.99, jpy 1280 is ¥1,280), never a fraction.`,
});
const element = (description: string, required: string[], properties: Record<string, unknown>) => ({
  type: 'object',
  description,
  required: ['provider_id', ...required],
  properties,
});

/**
 * The catalog of a location as a POS answers GET /v1/catalog (docs/pos-vendors.md, "3. The
 * catalog"), and as a DSP store receives its part of it: the document's `components.schemas`,
 * each element by name. What a schema cannot say (a reference to an element that exists, a
 * menu that reaches an item, min_selections at most max_selections, a range on the clock) the
 * service's reader says when it refuses a catalog (./validate.ts).
 */
export function catalogSchemas(): Record<string, JsonSchema> {
  const weekdays = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
  return {
    Catalog: {
      type: 'object',
      description:
        'A location’s catalog. Every list may be empty but is an array when given; there is at least one menu. Amounts are whole numbers of the currency’s smallest unit.',
      required: ['menu'],
      properties: {
        default_language: { type: 'string', description: 'e.g. en-US, de-DE.' },
        currency: {
          type: 'string',
          pattern: '^[a-z]{3}$',
          description: 'The location’s currency, a lower-case ISO 4217 code (usd, eur, jpy).',
        },
        menu: { type: 'array', minItems: 1, items: ref('CatalogMenu') },
        category: { type: 'array', items: ref('CatalogCategory') },
        item: { type: 'array', items: ref('CatalogItem') },
        item_family: { type: 'array', items: ref('CatalogItemFamily') },
        modifier_group: { type: 'array', items: ref('CatalogModifierGroup') },
        modifier: { type: 'array', items: ref('CatalogModifier') },
        tax: { type: 'array', items: ref('CatalogTax') },
        tax_rate: { type: 'number', minimum: 0, maximum: 100, description: 'Percent.' },
        holidays: { type: 'array', items: ref('CatalogHoliday') },
      },
    },
    CatalogMenu: element('A menu: its categories, and its opening hours.', ['category_ids'], {
      provider_id: providerId('menu'),
      name: text,
      category_ids: ids('its categories'),
      schedule: ref('Schedule'),
    }),
    CatalogCategory: element('A category: its items, unless the items name their categories.', [], {
      provider_id: providerId('category'),
      name: text,
      item_ids: ids('its items'),
    }),
    CatalogItem: element('An item an order names by its provider_id (service_id).', ['price'], {
      provider_id: providerId('item'),
      name: text,
      description: text,
      price: price('item'),
      modifier_group_ids: ids('its modifier groups'),
      tax_ids: ids('its taxes'),
      item_family_id: { type: ['string', 'null'], description: 'Its item family; null or left out: none.' },
      category_id: { type: 'string', description: 'Its category, when the categories do not list their items.' },
      category_ids: ids('its categories, when the categories do not list their items'),
    }),
    CatalogItemFamily: element('A family of items.', [], { provider_id: providerId('item family'), name: text }),
    CatalogModifierGroup: element('A group of modifiers to choose from.', ['modifier_ids'], {
      provider_id: providerId('modifier group'),
      name: text,
      min_selections: { type: 'integer', minimum: 0, description: 'At most max_selections.' },
      max_selections: { type: 'integer', minimum: 0 },
      modifier_ids: ids('its modifiers'),
    }),
    CatalogModifier: element('A modifier an order names by its provider_id (service_id).', ['price'], {
      provider_id: providerId('modifier'),
      name: text,
      price: price('modifier'),
      modifier_group_ids: ids('modifier groups nested in it'),
    }),
    CatalogTax: element('A tax of the items that name it.', [], {
      provider_id: providerId('tax'),
      name: text,
      rate: { type: 'number', minimum: 0, maximum: 100, description: 'Percent.' },
      inclusive: {
        type: 'boolean',
        description: 'true: the tax is in the prices already (VAT); false or left out: it is added to them.',
      },
    }),
    CatalogHoliday: {
      type: 'object',
      description:
        'A day the location keeps other hours: closed all day (closed: true, or hours empty), or open only its hours, which replace that day’s ranges (past midnight too). closed: false and no hours: an ordinary day.',
      required: ['date'],
      properties: {
        date: {
          type: 'string',
          pattern: '^\\d{4}-\\d{2}-\\d{2}$',
          description: 'YYYY-MM-DD on the location clock; any other form makes the catalog invalid.',
        },
        name: text,
        closed: { type: 'boolean' },
        hours: ref('Ranges'),
      },
    },
    Schedule: {
      type: 'object',
      description: "A menu's hours: each weekday's ranges; a weekday left out is closed. No schedule: open whenever the location is.",
      properties: Object.fromEntries(weekdays.map((day) => [day, ref('Ranges')])),
      additionalProperties: false,
    },
    Ranges: {
      type: 'array',
      maxItems: 48,
      items: { type: 'string', pattern: '^\\d{1,2}:\\d{2}\\s*-\\s*\\d{1,2}:\\d{2}$' },
      description:
        '"HH:MM-HH:MM" on the location clock (24-hour; 24:00 only as an end). A range belongs to the day it starts on; one ending at or before its start runs past midnight into the next day.',
    },
  };
}

/** The menus a DSP receives, as the OpenAPI document's `webhooks` describe them. */
export function menusDocs(): Record<string, OpenApiOperation> {
  const body = {
    type: 'object',
    required: ['store_id', 'dsp_location_id', 'location_id', 'timezone', 'catalog_version', 'menu_provider_ids', 'catalog'],
    properties: {
      store_id: { type: 'string', description: "The DSP's own store id." },
      dsp_location_id: { type: 'string', description: 'Our id of the store (its DSP connection).' },
      location_id: { type: 'string', description: "The POS's id of the location." },
      timezone: { type: 'string', description: 'The IANA time zone of the location: the clock its schedules and holidays are on.' },
      prep_time_minutes: {
        type: 'integer',
        minimum: 1,
        maximum: 240,
        description:
          "The kitchen's usual minutes per order, as its POS lists it; absent when it gives none. A busy kitchen's extra comes apart (location.prep_time.update).",
      },
      catalog_version: { type: 'integer', description: 'Counts up with each new catalog of the location.' },
      menu_provider_ids: { type: 'array', items: { type: 'string' }, description: 'The menus the store sells.' },
      catalog: {
        ...ref('Catalog'),
        description:
          'The part of the POS catalog these menus reach (docs/pos-vendors.md, "3. The catalog"): menu, category (each listing its item_ids), item, item_family, modifier_group, modifier, tax, with the catalog-wide fields.',
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

/** What the service asks of a POS about catalogs, and tells it of their publishes, as the
 * OpenAPI document's `webhooks` describe them (docs/pos-vendors.md, sections 2 and 3). */
export function posCatalogDocs(): Record<string, OpenApiOperation> {
  const data = {
    type: 'object',
    required: [
      'publish_id',
      'location_id',
      'org_location_id',
      'dsp_location_id',
      'dsp_store_id',
      'dsp_source',
      'menu_provider_ids',
      'catalog_version',
    ],
    properties: {
      publish_id: text,
      location_id: { type: 'string', description: 'Your location.' },
      org_location_id: { type: 'string', description: 'Our id of the location.' },
      dsp_location_id: { type: 'string', description: 'Our id of the delivery store.' },
      dsp_store_id: { type: 'string', description: "The platform's id of the store." },
      dsp_source: { type: 'string', description: 'The platform.' },
      menu_provider_ids: ids('the menus published'),
      catalog_version: { type: 'integer', minimum: 1 },
    },
  };
  const failure = {
    ...data,
    required: [...data.required, 'error'],
    properties: {
      ...data.properties,
      error: { type: 'string', description: 'Why: the first problem of a catalog and its rule, or how the platform refused.' },
      problems: { type: 'array', items: text, maxItems: 51, description: 'Every problem of a catalog that breaks a rule.' },
    },
  };
  const notification = (type: string, schema: JsonSchema, when: string) =>
    providerCall('post', `To a POS: ${type}`, `${when} POST {pos base_url}/v1/notifications, only for the types its registration names.`, {
      headers: { 'Idempotency-Key': 'The same for this notification however often it is sent.' },
      body: {
        type: 'object',
        required: ['type', 'data', 'created_at'],
        properties: {
          type: { type: 'string', const: type },
          data: schema,
          created_at: { type: 'integer', description: 'Epoch milliseconds.' },
        },
      },
      answers: { '2XX': { description: 'Taken.' } },
    });
  return {
    'pos catalog': providerCall(
      'get',
      'To a POS: the catalog of one of its locations',
      'GET {pos base_url}/v1/catalog, one call per location, when the POS says its catalog changed (location.catalog.updated) and when a partner ingests the location.',
      {
        headers: { 'X-Provider-Location-Id': 'The provider_id of a location your GET /v1/locations listed.' },
        answers: {
          '200': { description: 'The catalog of that location.', schema: ref('Catalog') },
          '404': { description: 'A location you did not list: answer so, never with a catalog.' },
        },
      },
    ),
    'pos menu.publish_success': notification('menu.publish_success', data, 'The menus reached that platform’s store.'),
    'pos menu.publish_failure': notification(
      'menu.publish_failure',
      failure,
      'The store refused the menus or never answered, or the catalog breaks a rule (then nothing of it is published).',
    ),
  };
}
