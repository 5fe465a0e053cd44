// A POS of the tests' own, written from our POS reference (docs/pos-vendors.md) the way a vendor
// would, and unlike the sandbox in every way the reference allows: its merchant has three
// locations in three time zones (Austin, Berlin with a German catalog in euros and VAT in the
// prices, Tokyo in yen), its token endpoint takes form-encoded requests only (415 to JSON, as RFC
// 6749 servers may), its catalog links items to categories by `category_id`, it answers an order
// with `{order: {id}}`, it takes no order updates (docs/reference.md's order event is
// order.created only, and it refuses anything else), and a merchant can revoke the app. As a
// careful vendor's does, it refuses a location it did not list (404) and an order of items its
// catalog does not hold (422). Told to, it answers orders "later" (async_acceptance) and sends its
// decision when a person decides, refusing an order naming an item it has run out of with a
// posValidation. A `mistake` makes it get one rule wrong, for the conformance kit's tests. A real
// HTTP server on loopback, not a mock.
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createPeer, listen, type Peer } from '../../src/sandbox/peer.js';
import { signBody, signStandardWebhook } from '../../src/common/signatures.js';

/** One rule a vendor gets wrong: a location it did not list answered with a catalog (200), a
 * token answer without `expire_time`, its webhooks signed with another secret than the one it
 * registered, its decision naming the order by its own id, its posValidation's lists in snake_case. */
export type PosMistake =
  | 'unknown-location-answered'
  | 'token-without-expire-time'
  | 'webhooks-signed-with-another-secret'
  | 'decision-names-its-own-order-id'
  | 'pos-validation-in-snake-case';

export type ForeignPos = Peer & {
  url: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  /** The merchant's first location (Austin). */
  locationId: string;
  /** Its locations, in the order it lists them: Austin, Berlin, Tokyo. */
  locationIds: string[];
  /** Replaces the catalog it serves for a location (the first when none is named): a vendor's own, or a broken one. */
  setCatalog: (catalog: unknown, locationId?: string) => void;
  /** The merchant revokes the app: every token it issued is refused from now on. */
  revoke: () => void;
  /** What its order endpoint answers from now on (default: `{order: {id}}`). */
  answerOrdersWith: (answer: (object: Record<string, unknown>) => unknown) => void;
  /** From now on its orders are answered "later": `{order: {id, async_acceptance: true}}`. */
  answerLater: () => void;
  /** Items it has run out of: its decision on an order naming one refuses it, naming them. */
  runOut: (itemIds: string[]) => void;
  /** A person decides an order answered later: its signed order.accepted (20 minutes), or its
   * order.rejected with a posValidation naming what it has run out of, sent to the service. */
  decide: (serviceUrl: string, source: string, orderId: string) => Promise<{ status: number; body: unknown }>;
  /** Sends the service its signed location.catalog.updated for a location (the first when none is
   * named): with Service-Webhook-Signature and no id of any kind (docs/reference.md's bytes), or
   * signed by the Standard Webhooks scheme. */
  catalogUpdated: (
    serviceUrl: string,
    source: string,
    options?: { locationId?: string; scheme?: 'service' | 'standard' },
  ) => Promise<{ status: number; body: unknown }>;
  close: () => Promise<void>;
};

/** Its catalog: four items that each name their category, no `item_ids` on categories; prices in
 * cents, as most POS APIs carry them. */
export function categoryLinkedCatalog() {
  return {
    default_language: 'en-US',
    currency: 'usd',
    menu: [{ provider_id: 'm-main', name: 'Main', category_ids: ['c-tacos', 'c-drinks'] }],
    category: [
      { provider_id: 'c-tacos', name: 'Tacos' },
      { provider_id: 'c-drinks', name: 'Drinks' },
    ],
    item_family: [],
    item: [
      { provider_id: 'i-pastor', name: 'Al pastor', price: 350, category_id: 'c-tacos', modifier_group_ids: ['g-salsa'] },
      { provider_id: 'i-asada', name: 'Asada', price: 400, category_id: 'c-tacos', modifier_group_ids: ['g-salsa'] },
      { provider_id: 'i-horchata', name: 'Horchata', price: 275, category_ids: ['c-drinks'] },
      { provider_id: 'i-jarritos', name: 'Jarritos', price: 250, category_id: 'c-drinks' },
    ],
    modifier_group: [{ provider_id: 'g-salsa', name: 'Salsa', min_selections: 1, max_selections: 2, modifier_ids: ['s-verde', 's-roja'] }],
    modifier: [
      { provider_id: 's-verde', name: 'Verde', price: 0 },
      { provider_id: 's-roja', name: 'Roja', price: 25 },
    ],
    tax: [{ provider_id: 't-sales', name: 'Sales tax', rate: 8.25 }],
    tax_rate: 8.25,
    holidays: [],
  };
}

/** Its Berlin location's catalog: German, in euros (cents), VAT included in the prices. */
export function germanCatalog() {
  return {
    default_language: 'de-DE',
    currency: 'eur',
    menu: [
      {
        provider_id: 'm-karte',
        name: 'Speisekarte',
        category_ids: ['c-haupt'],
        schedule: { monday: ['11:30-22:00'], friday: ['11:30-02:00'] },
      },
    ],
    category: [{ provider_id: 'c-haupt', name: 'Hauptgerichte' }],
    item_family: [],
    item: [{ provider_id: 'i-currywurst', name: 'Currywurst', price: 690, category_id: 'c-haupt', tax_ids: ['t-mwst'] }],
    modifier_group: [],
    modifier: [],
    tax: [{ provider_id: 't-mwst', name: 'MwSt.', rate: 19, inclusive: true }],
    tax_rate: 19,
    holidays: [
      { date: '2026-12-24', name: 'Heiligabend', hours: ['11:30-14:00'] },
      { date: '2026-12-25', name: '1. Weihnachtstag', closed: true },
    ],
  };
}

/** Its Tokyo location's catalog, in yen (no smaller unit). */
export function yenCatalog() {
  return {
    default_language: 'ja-JP',
    currency: 'jpy',
    menu: [{ provider_id: 'm-menu', name: 'メニュー', category_ids: ['c-ramen'] }],
    category: [{ provider_id: 'c-ramen', name: 'ラーメン', item_ids: ['i-shoyu'] }],
    item_family: [],
    item: [{ provider_id: 'i-shoyu', name: '醤油ラーメン', price: 980 }],
    modifier_group: [],
    modifier: [],
    tax: [{ provider_id: 't-shohi', name: '消費税', rate: 10, inclusive: true }],
    tax_rate: 10,
    holidays: [],
  };
}

export async function startForeignPos(mistake?: PosMistake): Promise<ForeignPos> {
  const peer = createPeer();
  const { app } = peer;
  const clientId = 'foreign-client';
  const clientSecret = crypto.randomBytes(12).toString('hex');
  const webhookSecret = crypto.randomBytes(12).toString('hex');
  const tag = crypto.randomBytes(3).toString('hex');
  const locations = [
    { provider_id: `fp-${tag}`, name: 'Taqueria Foránea', timezone: 'America/Chicago', address: { locality: 'Austin', country: 'US' } },
    {
      provider_id: `fp-${tag}-berlin`,
      name: 'Taqueria Foránea Berlin',
      timezone: 'Europe/Berlin',
      address: { locality: 'Berlin', country: 'DE' },
    },
    {
      provider_id: `fp-${tag}-tokyo`,
      name: 'Taqueria Foránea 東京',
      timezone: 'Asia/Tokyo',
      address: { locality: '渋谷区', country: 'JP' },
    },
  ];
  const locationIds = locations.map((l) => l.provider_id);
  const locationId = locationIds[0]!;
  const catalogs = new Map<string, unknown>([
    [locationIds[0]!, categoryLinkedCatalog()],
    [locationIds[1]!, germanCatalog()],
    [locationIds[2]!, yenCatalog()],
  ]);
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const access = new Set<string>();
  const refresh = new Set<string>();
  let answer = (_object: Record<string, unknown>): unknown => ({ order: { id: `fp-order-${crypto.randomBytes(4).toString('hex')}` } });
  const answers = new Map<string, unknown>();
  /** The orders it answered later, by our id: the order and its own id of it. */
  const undecided = new Map<string, { object: Record<string, unknown>; id: string }>();
  const outOfStock = new Set<string>();

  /** Sends the service a signed webhook: with Service-Webhook-Signature and no id of any kind
   * (docs/reference.md's bytes), or signed by the Standard Webhooks scheme. */
  const webhook = async (serviceUrl: string, source: string, event: unknown, scheme: 'service' | 'standard' = 'service') => {
    const body = JSON.stringify(event);
    const secret = mistake === 'webhooks-signed-with-another-secret' ? `${webhookSecret}-old` : webhookSecret;
    const id = `msg_${crypto.randomBytes(8).toString('hex')}`;
    const timestamp = Math.floor(Date.now() / 1000);
    const signature: Record<string, string> =
      scheme === 'standard'
        ? {
            'webhook-id': id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': signStandardWebhook(id, timestamp, body, secret),
          }
        : { 'service-webhook-signature': signBody(body, secret) };
    const response = await fetch(`${serviceUrl}/v1/webhooks/pos/${source}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signature },
      body,
    });
    return { status: response.status, body: await response.json() };
  };

  const issue = () => {
    const token = { access_token: crypto.randomBytes(16).toString('hex'), refresh_token: crypto.randomBytes(16).toString('hex') };
    access.add(token.access_token);
    refresh.add(token.refresh_token);
    return {
      ...token,
      ...(mistake === 'token-without-expire-time' ? {} : { expire_time: Date.now() + 3600_000 }),
      id: `fp-grant-${crypto.randomBytes(3).toString('hex')}`,
      email: 'chef@tacos.example',
    };
  };
  const authorized = (request: FastifyRequest, reply: FastifyReply) => {
    const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (token && access.has(token)) return true;
    void reply.status(401).send({ error: 'invalid_token' });
    return false;
  };

  app.get<{ Querystring: Record<string, string> }>('/v1/authorize', async (request, reply) => {
    const { client_id, redirect_uri, state = '', code_challenge = '' } = request.query;
    if (client_id !== clientId || !redirect_uri) return reply.status(400).type('text/html').send('<p>unknown client</p>');
    const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${value.replace(/"/g, '&#34;')}">`;
    return reply
      .type('text/html')
      .send(
        `<form method="post" action="/v1/authorize">${hidden('client_id', client_id)}${hidden('redirect_uri', redirect_uri)}${hidden('state', state)}${hidden('code_challenge', code_challenge)}<button name="decision" value="allow">Allow</button></form>`,
      );
  });
  app.post<{ Body: Record<string, string> }>('/v1/authorize', async (request, reply) => {
    const { redirect_uri, state, code_challenge = '' } = request.body;
    const code = crypto.randomBytes(8).toString('hex');
    codes.set(code, { challenge: code_challenge, redirectUri: redirect_uri! });
    const back = new URL(redirect_uri!);
    back.searchParams.set('code', code);
    if (state) back.searchParams.set('state', state);
    return reply.redirect(back.toString(), 302);
  });
  // RFC 6749 strictly: form-encoded bodies only.
  app.post<{ Body: Record<string, string> }>('/v1/token', async (request, reply) => {
    if (!request.headers['content-type']?.startsWith('application/x-www-form-urlencoded'))
      return reply.status(415).send({ error: 'invalid_request', error_description: 'form-encoded bodies only' });
    const body = request.body;
    if (body.client_id !== clientId || body.client_secret !== clientSecret) return reply.status(401).send({ error: 'invalid_client' });
    if (body.grant_type === 'authorization_code') {
      const code = codes.get(body.code ?? '');
      codes.delete(body.code ?? '');
      const verified =
        code &&
        (!code.challenge ||
          crypto
            .createHash('sha256')
            .update(body.code_verifier ?? '')
            .digest('base64url') === code.challenge);
      if (!verified || code.redirectUri !== body.redirect_uri) return reply.status(400).send({ error: 'invalid_grant' });
      return issue();
    }
    if (body.grant_type === 'refresh_token') {
      if (!refresh.delete(body.refresh_token ?? ''))
        return reply.status(400).send({ error: 'invalid_grant', error_description: 'revoked' });
      return issue();
    }
    return reply.status(400).send({ error: 'unsupported_grant_type' });
  });
  app.get('/v1/locations', async (request, reply) => {
    if (!authorized(request, reply)) return reply;
    return { locations };
  });
  app.get('/v1/catalog', async (request, reply) => {
    if (!authorized(request, reply)) return reply;
    const asked = String(request.headers['x-provider-location-id']);
    const catalog = catalogs.get(asked) ?? (mistake === 'unknown-location-answered' ? catalogs.get(locationId) : undefined);
    return catalog ?? reply.status(404).send({ error: 'unknown_location', message: `no location ${asked} here` });
  });
  app.post<{ Body: { type?: string; object?: Record<string, unknown> } }>('/v1/orders', async (request, reply) => {
    if (!authorized(request, reply)) return reply;
    // docs/reference.md: the order event's type is order.created; this POS takes nothing else.
    if (request.body?.type !== 'order.created') return reply.status(400).send({ error: 'unsupported type' });
    const object = request.body.object ?? {};
    const at = String(object.location_id);
    const catalog = catalogs.get(at) as { item?: { provider_id: string }[]; modifier?: { provider_id: string }[] } | undefined;
    if (!catalog || request.headers['x-provider-location-id'] !== at)
      return reply.status(404).send({ error: 'unknown_location', message: `no location ${at} here` });
    const held = new Set([...(catalog.item ?? []), ...(catalog.modifier ?? [])].map((e) => e.provider_id));
    const lines = (list: unknown): { service_id?: unknown; modifiers?: unknown }[] =>
      (Array.isArray(list) ? list : []).flatMap((line: { service_id?: unknown; modifiers?: unknown }) => [line, ...lines(line?.modifiers)]);
    const unknown = lines(object.items).find((line) => !held.has(String(line.service_id)));
    if (unknown)
      return reply.status(422).send({ error: 'unknown_item', message: `${String(unknown.service_id)} is not on the menu of ${at}` });
    const key = String(request.headers['idempotency-key']);
    if (!answers.has(key)) answers.set(key, answer(object));
    return answers.get(key);
  });
  for (const path of ['/v1/locations/connect', '/v1/locations/disconnect', '/v1/notifications'])
    app.post(path, async (request, reply) => (authorized(request, reply) ? reply.status(204).send() : reply));

  const url = await listen(app);
  return {
    ...peer,
    url,
    clientId,
    clientSecret,
    webhookSecret,
    locationId,
    locationIds,
    setCatalog: (next, at = locationId) => {
      catalogs.set(at, next);
    },
    revoke: () => {
      access.clear();
      refresh.clear();
    },
    answerOrdersWith: (next) => {
      answer = next;
    },
    answerLater: () => {
      answer = (object) => {
        const id = `fp-order-${crypto.randomBytes(4).toString('hex')}`;
        undecided.set(String(object.id), { object, id });
        return { order: { id, async_acceptance: true } };
      };
    },
    runOut: (itemIds) => {
      for (const id of itemIds) outOfStock.add(id);
    },
    decide: async (serviceUrl, source, orderId) => {
      const order = undecided.get(orderId);
      if (!order) throw new Error(`no order ${orderId} awaits a decision here`);
      const named = order.id;
      const out = ((order.object.items ?? []) as { service_id: string }[])
        .filter((line) => outOfStock.has(line.service_id))
        .map((line) => ({ type: 'item', provider_id: line.service_id, quantity: 0 }));
      const order_id = mistake === 'decision-names-its-own-order-id' ? named : orderId;
      const event = out.length
        ? {
            type: 'order.rejected',
            object: {
              order_id,
              reason: 'out of stock',
              posValidation: mistake === 'pos-validation-in-snake-case' ? { stock_validation: out } : { stockValidation: out },
            },
          }
        : { type: 'order.accepted', object: { order_id, prep_time_minutes: 20 } };
      return webhook(serviceUrl, source, event);
    },
    catalogUpdated: (serviceUrl, source, options = {}) =>
      webhook(
        serviceUrl,
        source,
        { type: 'location.catalog.updated', object: { location_id: options.locationId ?? locationId } },
        options.scheme,
      ),
    close: () => app.close(),
  };
}
