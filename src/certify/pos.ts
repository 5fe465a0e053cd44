// The conformance kit's POS checks: the OAuth hop, the token call, and every call the service
// makes on a POS (docs/pos-vendors.md), each made by the provider client as the service makes it.
import crypto from 'node:crypto';
import {
  exchangeCode,
  exchangeRefreshToken,
  send,
  type Caller,
  type ProviderResponse,
  type ProviderToken,
} from '../integrations/provider-client.js';
import { providerUrl, type Operation, type ProviderInfo } from '../integrations/providers.js';
import { STANDARD_WEBHOOK_TOLERANCE_S, verifySignature, verifyStandardWebhook } from '../common/signatures.js';
import { amountRule, currencyRule, isAmount, isCurrency } from '../common/money.js';
import { runChecks, type Arrival, type CheckRun, type Listener, type Report, type Skipped } from './kit.js';
import { readRanges, readWeek } from '../modules/catalog/hours.js';

export type KitOptions = {
  caller: Caller;
  provider: ProviderInfo;
  listener: Listener;
  /** Where the OAuth redirect goes when it is not the kit's listener, and the code that came there. */
  redirectUri?: string;
  code?: string;
  /** Seconds to wait for the provider's signed webhook at the listener; none: not checked. */
  waitWebhookSeconds?: number;
  /** Lines for the person running the kit (the link to open, the webhook URL and secret). */
  say: (line: string) => void;
};

/** What came back, in a line: status and the start of the body. */
export const answered = (response: ProviderResponse) => `${response.status} ${response.text.slice(0, 160).replace(/\s+/g, ' ')}`.trim();

const FORM_FIELD = /<input\b[^>]*>/gi;
const attribute = (tag: string, name: string) => new RegExp(`\\b${name}\\s*=\\s*"([^"]*)"`, 'i').exec(tag)?.[1];
const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** A page's first form, submitted as a person would with its own defaults: every field's value,
 * and the button that allows (else the first button with a name). */
function submitted(html: string, pageUrl: string): { url: string; form: Record<string, string> } | null {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return null;
  const fields: Record<string, string> = {};
  for (const tag of form[2]!.match(FORM_FIELD) ?? []) {
    const name = attribute(tag, 'name');
    const type = attribute(tag, 'type')?.toLowerCase();
    if (!name || ((type === 'checkbox' || type === 'radio') && !/\bchecked\b/i.test(tag))) continue;
    fields[name] = unescapeHtml(attribute(tag, 'value') ?? '');
  }
  const buttons = [...form[2]!.matchAll(/<button\b([^>]*)>/gi)].map((b) => ({
    name: attribute(b[1]!, 'name'),
    value: attribute(b[1]!, 'value') ?? '',
  }));
  const button = buttons.find((b) => b.name && /allow|approve|accept|authori[sz]e|yes/i.test(b.value)) ?? buttons.find((b) => b.name);
  if (button?.name) fields[button.name] = button.value;
  return { url: new URL(unescapeHtml(attribute(form[1]!, 'action') ?? pageUrl), pageUrl).toString(), form: fields };
}

/** Follows an authorization from its first URL to the redirect URI: redirects, and forms
 * submitted with their defaults. The redirect's query, or null with what stopped it. */
async function followAuthorization(
  caller: Caller,
  start: string,
  redirectUri: string,
): Promise<{ query: URLSearchParams | null; trail: string[] }> {
  const trail: string[] = [];
  let response = await send(caller, 'GET', start, { retries: 0 });
  let at = start;
  for (let hop = 0; hop < 8; hop++) {
    trail.push(`${answered(response).slice(0, 60)}`);
    const location = response.headers.location;
    if (response.status >= 300 && response.status < 400 && typeof location === 'string') {
      const next = new URL(location, at).toString();
      if (next.startsWith(redirectUri)) return { query: new URL(next).searchParams, trail };
      at = next;
      response = await send(caller, 'GET', next, { retries: 0 });
      continue;
    }
    const form = response.status === 200 ? submitted(response.text, at) : null;
    if (!form) return { query: null, trail };
    at = form.url;
    response = await send(caller, 'POST', form.url, { form: form.form, retries: 0 });
  }
  return { query: null, trail };
}

/** The authorize URL exactly as the service's start hop makes it, with a PKCE challenge. */
function authorizeUrl(provider: ProviderInfo, clientId: string, redirectUri: string, state: string, verifier: string): string {
  const url = new URL(providerUrl(provider, 'authorize'));
  url.searchParams.set('client_id', clientId);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('state', state);
  url.searchParams.set('code_challenge', crypto.createHash('sha256').update(verifier).digest('base64url'));
  url.searchParams.set('code_challenge_method', 'S256');
  return url.toString();
}

/** An order as a DSP sends it (docs/pos-vendors.md, the order object), for the POS's location. */
export function sampleOrder(locationId: string, fulfillmentType = 'pickup'): Record<string, unknown> & { id: string } {
  const id = `ord_certify_${crypto.randomBytes(6).toString('hex')}`;
  const customer = { provider_loyalty_id: 'loy_certify', name: 'Jamie Rivera', phone: '+15125550123', masked_phone_code: '4821' };
  return {
    id,
    dsp_order_id: `dsp_${id}`,
    dsp_order_number: '#4821',
    customer,
    customers: [customer],
    currency: 'usd',
    delivery_address: { address_line_1: '500 E 4th St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
    estimated_fulfillment_time: Date.now() + 30 * 60_000,
    is_future_order: false,
    fulfillment_type: fulfillmentType,
    source: 'certify-dsp',
    status: 'in_progress',
    delivery_status: 'pending',
    // Whole numbers of the currency's smallest unit: $12.00 is 1200.
    subtotal: 1200,
    tax: 99,
    driver_tip: 0,
    delivery_fee: 0,
    delivery_fee_tax: 0,
    total: 1299,
    items: [{ service_id: 'item_certify', name: 'Margherita', quantity: 1, price: 1200, special_instructions: '', modifiers: [] }],
    unpaid: false,
    cash_amount_due: 0,
    location_id: locationId,
  };
}

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
const ok2xx = (response: ProviderResponse) => response.status >= 200 && response.status < 300;

export async function certifyPos(options: KitOptions): Promise<Report> {
  const { caller, provider, listener, say } = options;
  const redirectUri = options.redirectUri ?? `${listener.url}/callback`;
  const clientId = provider.clientId ?? '';
  const verifier = crypto.randomBytes(32).toString('base64url');
  let code = options.code;
  let token: ProviderToken | undefined;
  let accessToken = '';
  let locationId = '';

  const call = (method: 'GET' | 'POST', operation: Operation, headers: Record<string, string>, body?: unknown) =>
    send(caller, method, providerUrl(provider, operation), {
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      retries: 0,
    });
  const bearer = () => ({ authorization: `Bearer ${accessToken}` });
  const posted = (operation: Operation, key: string, body: unknown, extra: Record<string, string> = {}) =>
    call('POST', operation, { ...bearer(), 'idempotency-key': key, ...extra }, body);

  const checks: [string[], CheckRun][] = [
    [
      ['authorize.redirects_with_code'],
      async (record) => {
        const rule = 'the authorize endpoint leads the merchant back to redirect_uri with a code and the same state';
        if (code) return record('authorize.redirects_with_code', true, `the code was given (--code) for ${redirectUri}; ${rule}`);
        const state = crypto.randomBytes(12).toString('base64url');
        const start = authorizeUrl(provider, clientId, redirectUri, state, verifier);
        let { query, trail } = await followAuthorization(caller, start, redirectUri);
        if (!query) {
          say(`Open this link in a browser to authorize the kit (waiting 120 s): ${start}`);
          const arrival = await listener.next('/callback', 120_000);
          query = arrival?.query ?? null;
        }
        code = query?.get('code') ?? undefined;
        const sameState = query?.get('state') === state;
        record(
          'authorize.redirects_with_code',
          Boolean(code) && sameState,
          `GET ${start.split('?')[0]} (client_id, response_type=code, redirect_uri, state, PKCE S256) → ${trail.join(' → ')}; back at the redirect URI: ${query ? `code ${code ? 'present' : 'missing'}, state ${sameState ? 'the same' : `"${query.get('state')}" (sent "${state}")`}` : 'never'}. Rule: ${rule}`,
        );
      },
    ],
    [
      ['authorize.refuses_unknown_client'],
      async (record) => {
        const unknown = `certify-unknown-${crypto.randomBytes(4).toString('hex')}`;
        const { query, trail } = await followAuthorization(
          caller,
          authorizeUrl(provider, unknown, redirectUri, 'x', verifier),
          redirectUri,
        );
        record(
          'authorize.refuses_unknown_client',
          !query?.get('code'),
          `authorize with client_id ${unknown} → ${trail.join(' → ')}: ${query?.get('code') ? 'a code came back' : 'no code'}. Rule: an unknown client_id gets no code`,
        );
      },
    ],
    [
      ['token.authorization_code', 'token.code_single_use', 'token.refresh'],
      async (record) => {
        if (!code) throw new Error('no authorization code to exchange (authorize.redirects_with_code failed)');
        token = await exchangeCode(caller, provider, code, redirectUri, options.code ? undefined : verifier);
        const missing = [
          ['access_token', 'string'],
          ['refresh_token', 'string'],
          ['expire_time', 'number'],
          ['id', 'string'],
        ].filter(([field, type]) => typeof (token as Record<string, unknown>)[field!] !== type);
        accessToken = token.access_token;
        record(
          'token.authorization_code',
          missing.length === 0,
          `POST ${providerUrl(provider, 'token')} {grant_type: authorization_code, code, redirect_uri, client_id, client_secret} → ${missing.length ? `missing or mistyped: ${missing.map(([f, t]) => `${f} (${t})`).join(', ')}` : 'access_token, refresh_token, expire_time and id'}. Rule: the code buys access_token, refresh_token, expire_time (number) and id`,
        );
        const again = await exchangeCode(caller, provider, code, redirectUri, options.code ? undefined : verifier).then(
          () => 'a second token',
          (error: Error) => `refused (${error.message})`,
        );
        record('token.code_single_use', again !== 'a second token', `the same code again → ${again}. Rule: a code works once`);
        if (typeof token.refresh_token !== 'string')
          return record('token.refresh', false, 'no refresh_token to use. Rule: grant_type=refresh_token buys a new access token');
        const refreshed = await exchangeRefreshToken(caller, provider, token.refresh_token);
        accessToken = refreshed.access_token;
        record(
          'token.refresh',
          typeof refreshed.access_token === 'string',
          `POST ${providerUrl(provider, 'token')} {grant_type: refresh_token} → a new access_token. Rule: grant_type=refresh_token buys a new access token`,
        );
      },
    ],
    [
      ['bearer.required'],
      async (record) => {
        const without = [
          ['locations', await call('GET', 'locations', {})],
          ['catalog', await call('GET', 'catalog', { 'x-provider-location-id': 'loc_certify' })],
          ['orders', await call('POST', 'orders', { 'idempotency-key': 'certify-no-bearer' }, { type: 'order.created', object: {} })],
        ] as const;
        record(
          'bearer.required',
          without.every(([, r]) => r.status === 401),
          `without Authorization: ${without.map(([op, r]) => `${op} → ${r.status}`).join(', ')}. Rule: every call but authorize carries Authorization: Bearer, and one without it is 401`,
        );
      },
    ],
    [
      ['locations.shape'],
      async (record) => {
        const response = await call('GET', 'locations', bearer());
        const locations = (response.body as { locations?: unknown })?.locations;
        const valid =
          Array.isArray(locations) &&
          locations.length > 0 &&
          locations.every((l) => typeof (l as { provider_id?: unknown })?.provider_id === 'string');
        if (valid) locationId = (locations[0] as { provider_id: string }).provider_id;
        record(
          'locations.shape',
          valid,
          `GET ${providerUrl(provider, 'locations')} → ${answered(response)}. Rule: {locations: [...]}, each location with its provider_id (a string)`,
        );
      },
    ],
    [
      ['catalog.shape', 'catalog.default_us', 'catalog.de_rule'],
      async (record) => {
        const catalog = (location?: string) =>
          call('GET', 'catalog', { ...bearer(), ...(location ? { 'x-provider-location-id': location } : {}) });
        const first = await catalog(locationId || `loc_2_${token?.id ?? 'certify'}`);
        const body = (first.body ?? {}) as Record<string, unknown>;
        const wrong = CATALOG_FIELDS.filter(([field, type]) => typeOf(body[field]) !== type).map(
          ([f, t]) => `${f} (${t}, got ${typeOf(body[f])})`,
        );
        const rules = [...moneyProblems(body), ...hoursProblems(body)];
        const more = rules.length > 3 ? ` (and ${rules.length - 3} more)` : '';
        record(
          'catalog.shape',
          ok2xx(first) && wrong.length === 0 && rules.length === 0,
          `GET ${providerUrl(provider, 'catalog')} with X-Provider-Location-Id ${locationId} → ${first.status}${wrong.length ? `; wrong: ${wrong.join(', ')}` : ''}${rules.length ? `; ${rules.slice(0, 3).join(' | ')}${more}` : ''}. Rule: default_language (string), category, item_family, item, modifier_group, modifier, menu, tax, holidays (arrays), tax_rate (number); each item's and modifier's price a whole number of the currency's smallest unit (usd 1199 is $11.99, jpy 1280 is ¥1,280), currency (when given) a lower-case ISO 4217 code; a menu's schedule, where given, {monday: ["HH:MM-HH:MM", …], …}, and a holiday's hours, where given, ["HH:MM-HH:MM", …]`,
        );
        const other = `loc_certify_${crypto.randomBytes(3).toString('hex')}`;
        const languages = [
          [other, ((await catalog(other)).body as { default_language?: unknown })?.default_language],
          ['no header', ((await catalog()).body as { default_language?: unknown })?.default_language],
        ];
        record(
          'catalog.default_us',
          languages.every(([, l]) => l === 'en-US'),
          `default_language: ${languages.map(([at, l]) => `${at} → ${JSON.stringify(l)}`).join(', ')}. Rule: another loc_ id, or no X-Provider-Location-Id, gets the default US catalog (en-US)`,
        );
        const german = `loc_${token?.id ?? ''}_de`;
        const de = ((await catalog(german)).body as { default_language?: unknown })?.default_language;
        record(
          'catalog.de_rule',
          typeof de === 'string' && /^de/i.test(de),
          `X-Provider-Location-Id ${german} (id from the token answer) → default_language ${JSON.stringify(de)}. Rule: loc_<id>_de gets the German menu`,
        );
      },
    ],
    [
      ['orders.accepts_order_created', 'orders.idempotent'],
      async (record) => {
        const object = sampleOrder(locationId || 'loc_certify');
        const key = `order.created:${object.id}`;
        const event = { type: 'order.created', object };
        const first = await posted('orders', key, event, { 'x-provider-location-id': String(object.location_id) });
        const order = (first.body as { order?: unknown })?.order;
        record(
          'orders.accepts_order_created',
          ok2xx(first) && typeof order === 'object' && order !== null,
          `POST ${providerUrl(provider, 'orders')} {type: order.created, object} with Idempotency-Key ${key} → ${answered(first)}. Rule: 2xx with {order: {...}}, its id in pos_order_id or id`,
        );
        const second = await posted('orders', key, event, { 'x-provider-location-id': String(object.location_id) });
        const same = ok2xx(second) && JSON.stringify((second.body as { order?: unknown })?.order) === JSON.stringify(order);
        record(
          'orders.idempotent',
          same,
          `the same event under the same Idempotency-Key → ${answered(second)}. Rule: a repeat gets the same order, and the POS makes no second one`,
        );
      },
    ],
    [
      ['notices.connect', 'notices.disconnect', 'notifications.publish_success', 'notifications.publish_failure'],
      async (record) => {
        for (const [id, operation] of [
          ['notices.connect', 'connect'],
          ['notices.disconnect', 'disconnect'],
        ] as const) {
          const response = await posted(operation, `${operation}:certify:${crypto.randomUUID()}`, {
            location_id: locationId || 'loc_certify',
          });
          record(
            id,
            ok2xx(response),
            `POST ${providerUrl(provider, operation)} {location_id} → ${answered(response)}. Rule: a ${operation === 'connect' ? 'connection' : 'disconnection'} notice is answered 2xx`,
          );
        }
        for (const type of ['menu.publish_success', 'menu.publish_failure'] as const) {
          const data =
            type === 'menu.publish_success'
              ? { location_id: locationId, dsp: 'certify-dsp' }
              : { location_id: locationId, dsp: 'certify-dsp', error: 'menu[0] has no provider_id' };
          const response = await posted('notifications', `notify:certify:${crypto.randomUUID()}`, { type, data, created_at: Date.now() });
          record(
            `notifications.${type.slice('menu.'.length)}`,
            ok2xx(response),
            `POST ${providerUrl(provider, 'notifications')} {type: ${type}, data, created_at} → ${answered(response)}. Rule: an event notification is answered 2xx`,
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
          `Send a signed location.catalog.updated to ${listener.url}/v1/webhooks/pos/{source}, or any path under ${listener.url}, signed with your webhook secret (the one the kit was given; it is not printed) (waiting ${options.waitWebhookSeconds} s)`,
        );
        const arrival = await listener.webhook(ofType('location.catalog.updated'), options.waitWebhookSeconds! * 1000);
        record('webhook.signature', signedBy(arrival, secret), webhookDetail(arrival, 'location.catalog.updated', secret));
      },
    ]);
  } else skipped.push({ id: 'webhook.signature', detail: WITHOUT_WAIT });
  return runChecks('pos', provider.baseUrl, checks, skipped);
}

/** Why a webhook check was not run. */
export const WITHOUT_WAIT = 'not run: give --wait-webhook SECONDS, and send your webhooks to the URL the kit prints';

/** The webhook's event type (a body without one has SPEC's default, `fallback`), or null for a
 * body that is not a JSON object. */
export function webhookType(arrival: Arrival, fallback?: string): string | null {
  try {
    const body = JSON.parse(arrival.body.toString('utf8')) as { type?: unknown } | null;
    if (!body || typeof body !== 'object') return null;
    return typeof body.type === 'string' ? body.type : (fallback ?? null);
  } catch {
    return null;
  }
}

/** Matches a webhook of this type (a body without a type is SPEC's default of the POS's webhook). */
export const ofType = (type: string) => (arrival: Arrival) => webhookType(arrival, 'location.catalog.updated') === type;

/** A webhook the service would take as signed by this secret: Service-Webhook-Signature (hex or
 * base64 HMAC-SHA256 of the body), or Standard Webhooks' headers. */
export function signedBy(arrival: Arrival | null, secret: string): boolean {
  return Boolean(arrival && secret) && signing(arrival!, secret).ok;
}

const EXPECTED_BY_THE_SECRET = 'with the webhook secret the kit was given (not printed)';

/** How a webhook was signed, in words for the person running the kit: the signature it carried,
 * whether it matches, and if not what was expected (never the secret, nor the expected value). */
export function signing(arrival: Arrival, secret: string): { ok: boolean; said: string } {
  const header = (name: string) => (typeof arrival.headers[name] === 'string' ? (arrival.headers[name] as string) : undefined);
  if (header('webhook-signature') !== undefined) {
    const verdict = verifyStandardWebhook(
      arrival.body,
      { id: header('webhook-id'), timestamp: header('webhook-timestamp'), signature: header('webhook-signature') },
      secret,
    );
    if (verdict === 'valid') return { ok: true, said: 'signed with the Standard Webhooks headers, which match' };
    return {
      ok: false,
      said:
        verdict === 'stale'
          ? `signed with the Standard Webhooks headers, but webhook-timestamp ${header('webhook-timestamp')} is more than ${STANDARD_WEBHOOK_TOLERANCE_S / 60} minutes from now (it is seconds since the epoch)`
          : `signed with the Standard Webhooks headers, which do not match: expected webhook-id, webhook-timestamp (seconds) and webhook-signature "v1,<base64 HMAC-SHA256 of id.timestamp.body>" ${EXPECTED_BY_THE_SECRET}`,
    };
  }
  const given = header('service-webhook-signature');
  if (given === undefined)
    return { ok: false, said: "not signed: neither Service-Webhook-Signature nor the Standard Webhooks' webhook-signature came" };
  if (verifySignature(arrival.body, given, secret)) return { ok: true, said: 'signed with Service-Webhook-Signature, which matches' };
  const value = given.trim();
  const shape = /^[0-9a-f]+$/i.test(value) ? `${value.length} hex characters` : `${value.length} characters, not hex`;
  return {
    ok: false,
    said: `its Service-Webhook-Signature does not match the body: expected HMAC-SHA256 of the exact ${arrival.body.length} bytes of the body ${EXPECTED_BY_THE_SECRET}, as 64 lower-case hex characters (or base64); it carried ${shape}`,
  };
}

/** A body for a report line: whole when short, else its start and its length. */
export const excerpt = (body: Buffer, most = 300) => {
  const text = body.toString('utf8');
  return text.length <= most ? text : `${text.slice(0, most)}… (${body.length} bytes in all)`;
};

/** "a catalog.updated", "an order.assign.driver". */
export const aOrAn = (type: string) => `${/^[aeiou]/i.test(type) ? 'an' : 'a'} ${type}`;

const SIGNING_RULE =
  'carries Service-Webhook-Signature, HMAC-SHA256 of the exact body with the webhook secret (or the Standard Webhooks headers)';

export const webhookDetail = (arrival: Arrival | null, type: string, secret: string) =>
  arrival
    ? `${arrival.method} ${arrival.path}, ${signing(arrival, secret).said}: ${excerpt(arrival.body)}. Rule: ${aOrAn(type)} webhook ${SIGNING_RULE}`
    : `no ${type} arrived in time. Rule: ${aOrAn(type)} webhook ${SIGNING_RULE}`;
