// The conformance kit's POS checks (docs/pos-vendors.md, "6. Certify your server"): the OAuth hop
// and the token call (./oauth.ts), then every call the service makes on a POS, made by the
// provider client as the service makes it, on the POS's own terms: its catalog checks use the
// locations it listed (one it did not list must be refused), the German rule runs only where it
// has a German catalog, and the test order is one of the catalog it has just answered, to one of
// its locations (--location chooses). Its webhook is answered as the service answers it.
import crypto from 'node:crypto';
import { send, type ProviderResponse } from '../integrations/provider-client.js';
import { providerUrl, type Operation } from '../integrations/providers.js';
import { amountRule, currencyRule, isAmount, isCurrency } from '../common/money.js';
import { NotFound } from '../common/errors.js';
import { readRanges, readWeek } from '../modules/catalog/hours.js';
import { notificationBody, publishNote } from '../modules/catalog/peers.js';
import { publishError } from '../modules/catalog/validate.js';
import { posOrderIdOf } from '../modules/orders/peers.js';
import {
  answered,
  listedTarget,
  locationsCheck,
  ok2xx,
  runChecks,
  type CheckRun,
  type KitOptions,
  type Listed,
  type Report,
  type Skipped,
} from './kit.js';
import { oauthChecks, type Grant } from './oauth.js';
import { orderOf } from './orders.js';
import { DECISIONS, kitchenChecks } from './kitchen.js';
import { answeringAsTheService, ofType, signing, WITHOUT_WAIT, webhookDetail } from './webhooks.js';

const CATALOG_FIELDS: [string, 'string' | 'number' | 'array'][] = [
  ['default_language', 'string'],
  ['category', 'array'],
  ['item_family', 'array'],
  ['item', 'array'],
  ['modifier_group', 'array'],
  ['modifier', 'array'],
  ['menu', 'array'],
  ['tax', 'array'],
  ['tax_rate', 'number'],
  ['holidays', 'array'],
];
const typeOf = (value: unknown) => (Array.isArray(value) ? 'array' : typeof value);

/** What is wrong with the opening hours a catalog gives, read as the service reads them: each
 * menu's `schedule` and each holiday's `hours`, where given. */
function hoursProblems(body: Record<string, unknown>): string[] {
  const named = (list: unknown) =>
    (Array.isArray(list) ? list : []).map((element: unknown, index) => ({
      element: (element ?? {}) as Record<string, unknown>,
      name: `${index}${typeof (element as { provider_id?: unknown })?.provider_id === 'string' ? ` (${(element as { provider_id: string }).provider_id})` : ''}`,
    }));
  return [
    ...named(body.menu).flatMap(({ element, name }) =>
      element.schedule === undefined || element.schedule === null
        ? []
        : readWeek(element.schedule).problems.map((p) => `menu[${name}]: ${p}`),
    ),
    ...named(body.holidays).flatMap(({ element, name }) =>
      element.hours === undefined || element.hours === null
        ? []
        : readRanges(element.hours, 'hours').problems.map((p) => `holidays[${name}]: ${p}`),
    ),
  ];
}

/** What breaks the money rules (docs/pos-vendors.md, "Money"): a currency that is not a lower-case
 * ISO 4217 code, and each item's or modifier's price that is not a whole number of the
 * currency's smallest unit, with what to send instead. */
function moneyProblems(catalog: Record<string, unknown>): string[] {
  const problems = catalog.currency !== undefined && !isCurrency(catalog.currency) ? [`currency ${currencyRule(catalog.currency)}`] : [];
  const currency = isCurrency(catalog.currency) ? catalog.currency : null;
  for (const list of ['item', 'modifier'] as const) {
    const elements = Array.isArray(catalog[list]) ? (catalog[list] as Record<string, unknown>[]) : [];
    elements.forEach((element, index) => {
      const price = (element as { price?: unknown } | null)?.price;
      if (isAmount(price)) return;
      const name = typeof element?.provider_id === 'string' ? `${list} ${element.provider_id}` : `${list}[${index}]`;
      problems.push(`${name}: price ${amountRule(price, currency)}`);
    });
  }
  return problems;
}

/** A catalog answer against section 3: every field of its type, the money rules, the hours. */
function catalogProblems(response: ProviderResponse): string[] {
  const body = (response.body ?? {}) as Record<string, unknown>;
  const wrong = CATALOG_FIELDS.filter(([field, type]) => typeOf(body[field]) !== type).map(
    ([f, t]) => `${f} (${t}, got ${typeOf(body[f])})`,
  );
  return [...(wrong.length ? [`wrong: ${wrong.join(', ')}`] : []), ...moneyProblems(body), ...hoursProblems(body)];
}
const CATALOG_RULE =
  "default_language (string), category, item_family, item, modifier_group, modifier, menu, tax, holidays (arrays), tax_rate (number); each item's and modifier's price a whole number of the currency's smallest unit (usd 1199 is $11.99, jpy 1280 is ¥1,280, eur 1890 is 18,90 €), currency (when given) a lower-case ISO 4217 code; a menu's schedule, where given, {monday: [\"HH:MM-HH:MM\", …], …}, and a holiday's hours, where given, [\"HH:MM-HH:MM\", …]";
/** The first five problems, and how many more. */
const shownProblems = (problems: string[]) =>
  problems.length ? `; ${problems.slice(0, 5).join(' | ')}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ''}` : '';

/** The webhooks a POS sends the service (docs/pos-vendors.md, "4. Webhooks"). */
const POS_WEBHOOKS = [
  'location.catalog.updated',
  'order.updated',
  'location.items.availability',
  'location.status.updated',
  ...DECISIONS,
] as const;
/** The most listed locations whose catalogs the kit reads looking for a German one. */
const MOST_LOCATIONS_READ = 20;

export async function certifyPos(options: KitOptions): Promise<Report> {
  const { caller, provider, listener, say } = options;
  const grant: Grant = { accessToken: '' };
  /** The locations the POS listed, and the one the kit tests with (--location, else the first). */
  const listed: Listed = { ids: [] };
  const catalogs = new Map<string, ProviderResponse>();
  let orderId: string | undefined;
  const kitchen = kitchenChecks(options);

  const call = (method: 'GET' | 'POST', operation: Operation, headers: Record<string, string>, body?: unknown) =>
    send(caller, method, providerUrl(provider, operation), {
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      retries: 0,
    });
  const bearer = () => ({ authorization: `Bearer ${grant.accessToken}` });
  const posted = (operation: Operation, key: string, body: unknown, extra: Record<string, string> = {}) =>
    call('POST', operation, { ...bearer(), 'idempotency-key': key, ...extra }, body);
  const catalogAt = async (location: string) => {
    const response = catalogs.get(location) ?? (await call('GET', 'catalog', { ...bearer(), 'x-provider-location-id': location }));
    catalogs.set(location, response);
    return response;
  };
  const location = () => listedTarget(listed, 'location');

  // The listener answers as the service does: a bad signature 401, a location the POS did not
  // list 404, an order that is not the kit's 404, a decision as ./kitchen.ts says.
  if (provider.webhookSecret)
    listener.answerWith(
      answeringAsTheService(provider.webhookSecret, POS_WEBHOOKS, (type, object, arrival) => {
        if (DECISIONS.includes(type as never)) return kitchen.answer(type, object, arrival);
        if (type === 'order.updated') {
          if (object.order_id !== orderId) throw new NotFound(`no order ${String(object.order_id)} from ${provider.source}`);
          return { status: 200, body: { order_id: orderId, status: object.status } };
        }
        if (!listed.ids.includes(String(object.location_id)))
          throw new NotFound(`no active location ${String(object.location_id)} from ${provider.source}`);
        return { status: 202, body: { received: true, id: `whk_certify_${crypto.randomBytes(6).toString('hex')}` } };
      }),
    );

  const checks: [string[], CheckRun][] = [
    ...oauthChecks(options, grant),
    [
      ['bearer.required'],
      async (record) => {
        const without = [
          ['locations', await call('GET', 'locations', {})],
          ['catalog', await call('GET', 'catalog', { 'x-provider-location-id': 'certify-any' })],
          ['orders', await call('POST', 'orders', { 'idempotency-key': 'certify-no-bearer' }, { type: 'order.created', object: {} })],
        ] as const;
        record(
          'bearer.required',
          without.every(([, r]) => r.status === 401),
          `without Authorization: ${without.map(([op, r]) => `${op} → ${answered(r).slice(0, 80)}`).join('; ')}. Rule: every call but authorize carries Authorization: Bearer, and one without it is answered 401`,
        );
      },
    ],
    locationsCheck(options, () => grant.accessToken, listed, 'location'),
    [
      ['catalog.shape'],
      async (record) => {
        const at = location();
        const response = await catalogAt(at);
        const problems = catalogProblems(response);
        record(
          'catalog.shape',
          ok2xx(response) && problems.length === 0,
          `GET ${providerUrl(provider, 'catalog')} with X-Provider-Location-Id ${at} → ${response.status}${ok2xx(response) ? '' : ` ${answered(response).slice(4)}`}${shownProblems(problems)}. Rule: ${CATALOG_RULE}`,
        );
      },
    ],
    [
      ['catalog.unknown_location'],
      async (record) => {
        const unlisted = `certify-unlisted-${crypto.randomBytes(3).toString('hex')}`;
        const response = await call('GET', 'catalog', { ...bearer(), 'x-provider-location-id': unlisted });
        record(
          'catalog.unknown_location',
          response.status >= 400 && response.status < 500,
          `GET ${providerUrl(provider, 'catalog')} with X-Provider-Location-Id ${unlisted} (a location your POS did not list) → ${answered(response)}. Rule: a location you did not list in GET /v1/locations is answered 4xx (404), never with a catalog`,
        );
      },
    ],
    [
      ['catalog.de_rule'],
      async (record, skip) => {
        if (!listed.ids.length) throw new Error('no locations to read: locations.shape failed');
        let german: [string, ProviderResponse] | undefined;
        for (const at of listed.ids.slice(0, MOST_LOCATIONS_READ)) {
          const response = await catalogAt(at);
          const language = (response.body as { default_language?: unknown } | undefined)?.default_language;
          if (typeof language === 'string' && /^de\b/i.test(language)) {
            german = [at, response];
            break;
          }
        }
        if (!german)
          return skip(
            'catalog.de_rule',
            `none of the ${Math.min(listed.ids.length, MOST_LOCATIONS_READ)} location(s) your POS listed has a German catalog (default_language de…): the German rule is not run`,
          );
        const [at, response] = german;
        const problems = catalogProblems(response);
        record(
          'catalog.de_rule',
          ok2xx(response) && problems.length === 0,
          `GET ${providerUrl(provider, 'catalog')} with X-Provider-Location-Id ${at} → ${response.status}, default_language ${JSON.stringify((response.body as { default_language: string }).default_language)}${shownProblems(problems)}. Rule: a German catalog follows section 3 as any other: ${CATALOG_RULE}`,
        );
      },
    ],
    [
      ['orders.accepts_order_created', 'orders.idempotent'],
      async (record) => {
        const at = location();
        const built = orderOf((await catalogAt(at)).body, at);
        if (typeof built === 'string') throw new Error(`no test order for location ${at}: ${built}`);
        const { object, items } = built;
        orderId = object.id;
        kitchen.sent(object);
        say(`The test order ${object.id} goes to location ${at}: ${items}.`);
        const key = `order.created:${object.id}`;
        const event = { type: 'order.created', object };
        const headers = { 'x-provider-location-id': at };
        const first = await posted('orders', key, event, headers);
        kitchen.answered(first);
        const posOrder = posOrderIdOf(first.body);
        const sent = `POST ${providerUrl(provider, 'orders')} {type: order.created, object: order ${object.id} for location ${at}, ${items}} with X-Provider-Location-Id ${at} and Idempotency-Key ${key}`;
        record(
          'orders.accepts_order_created',
          ok2xx(first) && posOrder !== null,
          `${sent} → ${answered(first)}. Rule: an order of your catalog for a location you listed is answered 2xx with {order: {pos_order_id}} (or {order: {id}}), your id of the order`,
        );
        const second = await posted('orders', key, event, headers);
        record(
          'orders.idempotent',
          ok2xx(second) && posOrder !== null && posOrderIdOf(second.body) === posOrder,
          `the same order.created again under Idempotency-Key ${key} → ${answered(second)}${posOrder ? ` (the first answer named ${posOrder})` : ''}. Rule: a repeat of an Idempotency-Key gets the first answer, the same order, and the POS makes no second one`,
        );
      },
    ],
    kitchen.check,
    [
      ['notices.connect', 'notices.disconnect', 'notifications.publish_success', 'notifications.publish_failure'],
      async (record) => {
        const at = location();
        for (const [id, operation] of [
          ['notices.connect', 'connect'],
          ['notices.disconnect', 'disconnect'],
        ] as const) {
          const response = await posted(operation, `${operation}:certify:${crypto.randomUUID()}`, { location_id: at });
          record(
            id,
            ok2xx(response),
            `POST ${providerUrl(provider, operation)} {location_id: ${at}} → ${answered(response)}. Rule: a ${operation === 'connect' ? 'connection' : 'disconnection'} notice is answered 2xx`,
          );
        }
        const menus = ((await catalogAt(at)).body as { menu?: { provider_id?: unknown }[] } | undefined)?.menu;
        const note = {
          publishId: `pub_certify_${crypto.randomBytes(6).toString('hex')}`,
          locationProviderId: at,
          orgLocationId: 'loc_certify',
          storeId: 'dsp_certify',
          dspStoreId: 'store_certify',
          dspSource: 'certify-dsp',
          menus: (Array.isArray(menus) ? menus : []).flatMap((m) => (typeof m?.provider_id === 'string' ? [m.provider_id] : [])),
          version: 1,
        };
        // A failure as a catalog that breaks a rule makes it: its error and its problems.
        const problems = [`item certify_item (Certify): price ${amountRule(3.5, 'usd')}`];
        for (const [type, failure] of [
          ['menu.publish_success', undefined],
          ['menu.publish_failure', { error: publishError(problems), problems }],
        ] as const) {
          const response = await posted(
            'notifications',
            `notify:${note.publishId}:${type}`,
            notificationBody(type, publishNote({ ...note, failure })),
          );
          record(
            `notifications.${type.slice('menu.'.length)}`,
            ok2xx(response),
            `POST ${providerUrl(provider, 'notifications')} {type: ${type}, data: {publish_id, location_id: ${at}, …}, created_at} → ${answered(response)}. Rule: a notification is answered 2xx`,
          );
        }
      },
    ],
  ];
  const skipped: Skipped[] = [];
  if (options.waitWebhookSeconds !== undefined) {
    checks.push([
      ['webhook.signature'],
      async (record) => {
        const secret = provider.webhookSecret ?? '';
        say(
          `Send a signed location.catalog.updated to ${listener.url}/v1/webhooks/pos/{source}, or any path under ${listener.url}, naming one of your listed locations, signed with your webhook secret (the one the kit was given; it is not printed); the kit answers it as the service would (waiting ${options.waitWebhookSeconds} s)`,
        );
        const arrival = await listener.webhook(ofType('location.catalog.updated'), options.waitWebhookSeconds! * 1000);
        record(
          'webhook.signature',
          Boolean(arrival && secret) && signing(arrival!, secret).ok && ok2xx(arrival!.answer!),
          webhookDetail(arrival, 'location.catalog.updated', secret, ' and names a location you listed'),
        );
      },
    ]);
  } else skipped.push({ id: 'webhook.signature', detail: WITHOUT_WAIT });
  return runChecks('pos', provider.baseUrl, checks, skipped);
}
