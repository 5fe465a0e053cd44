// The sandbox POS (docs/reference.md § POS interface): a real OAuth authorization server and POS API on
// loopback. It also plays a DSP, as a second OAuth client (dspClientIdOf): a grant to that
// client is a DSP merchant account, whose GET /v1/locations lists its delivery stores
// (docs/reference.md § Partner API), and which takes menus. Every authorization checks PKCE when a challenge is
// sent (7.2). Its tokens are HMAC-signed, so a restarted sandbox with the same secret still
// honours the tokens it issued.
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createPeer, listen, type Peer } from '../peer.js';
import { deCatalog, jpCatalog, largeCatalogText, usCatalog } from './catalogs.js';
import { dspChannel } from './dsp-channel.js';

export type SandboxPosOptions = {
  clientId: string;
  clientSecret: string;
  /** Signs the webhooks it sends to the service. */
  webhookSecret: string;
  /** Signs its own access and refresh tokens. */
  tokenSecret: string;
  accessTokenTtlSeconds?: number;
  /** Where it sends its signed webhooks: the service's base URL and its source slug there. */
  service?: { url: string; source: string };
  /** Its source slug as a DSP at the service (default sandbox-dsp). */
  dspSource?: string;
  port?: number;
  host?: string;
};

export type SandboxPos = Peer & { url: string; close: () => Promise<void> };

/** Which side of the sandbox a grant is for: the POS account or the DSP account. */
type App = 'pos' | 'dsp';
type Grant = { tid: string; email: string; app: App };

/** The DSP's OAuth client id beside the POS's. */
export const dspClientIdOf = (clientId: string) => `${clientId}-dsp`;
const S256 = (verifier: string) => crypto.createHash('sha256').update(verifier).digest('base64url');
type TokenClaims = Grant & { kind: 'access' | 'refresh'; exp: number; jti: string };

const CODE_TTL_MS = 5 * 60 * 1000;
const REFRESH_TTL_SECONDS = 30 * 24 * 3600;
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startSandboxPos(options: SandboxPosOptions): Promise<SandboxPos> {
  const peer = createPeer('the sandbox POS (provider sandbox-pos), which plays a delivery platform too (provider sandbox-dsp)');
  const { app } = peer;
  const codes = new Map<string, Grant & { clientId: string; redirectUri: string; challenge: string; expires: number; used: boolean }>();
  const appOf = (clientId: string | undefined): App | null =>
    clientId === options.clientId ? 'pos' : clientId === dspClientIdOf(options.clientId) ? 'dsp' : null;
  const spentRefreshTokens = new Set<string>();
  const accessTtl = options.accessTokenTtlSeconds ?? 3600;
  // Catalog overrides per location (sandbox control), e.g. a broken catalog for a test; a
  // location's holidays in place of its catalog's; and its menus' schedules (null: none), by menu.
  const catalogOverrides = new Map<string, unknown>();
  const holidayOverrides = new Map<string, unknown>();
  const scheduleOverrides = new Map<string, Map<string, unknown>>();

  const sign = (claims: TokenClaims) => {
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    const mac = crypto.createHmac('sha256', options.tokenSecret).update(payload).digest('base64url');
    return `sbx.${payload}.${mac}`;
  };
  const verify = (token: string, kind: TokenClaims['kind']): TokenClaims | null => {
    const [prefix, payload, mac] = token.split('.');
    if (prefix !== 'sbx' || !payload || !mac) return null;
    const expected = crypto.createHmac('sha256', options.tokenSecret).update(payload).digest('base64url');
    if (expected.length !== mac.length || !crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(mac))) return null;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as TokenClaims;
    return claims.kind === kind && claims.exp * 1000 > Date.now() ? claims : null;
  };
  const issue = (grant: Grant) => {
    const now = Math.floor(Date.now() / 1000);
    return {
      access_token: sign({ ...grant, kind: 'access', exp: now + accessTtl, jti: crypto.randomUUID() }),
      refresh_token: sign({ ...grant, kind: 'refresh', exp: now + REFRESH_TTL_SECONDS, jti: crypto.randomUUID() }),
      email: grant.email,
      expire_time: (now + accessTtl) * 1000,
      refresh_token_expire_time: (now + REFRESH_TTL_SECONDS) * 1000,
      id: grant.tid,
      sso_details: { merchant_email: grant.email, merchant_id: `m_${grant.tid}` },
    };
  };

  // Every POS call but the OAuth endpoints needs a live bearer token.
  const grantOf = (request: FastifyRequest, reply: FastifyReply): Grant | null => {
    const match = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '');
    const claims = match ? verify(match[1]!, 'access') : null;
    if (!claims) {
      void reply.status(401).send({ error: 'invalid_token', message: 'a valid bearer token is required' });
      return null;
    }
    return { tid: claims.tid, email: claims.email, app: claims.app ?? 'pos' };
  };

  app.get<{ Querystring: Record<string, string | undefined> }>('/v1/authorize', async (request, reply) => {
    const { client_id, response_type, redirect_uri, state = '', code_challenge = '', code_challenge_method } = request.query;
    reply.type('text/html; charset=utf-8');
    const app = appOf(client_id);
    if (!app || response_type !== 'code' || !redirect_uri) {
      return reply
        .status(400)
        .send('<!doctype html><p>Invalid authorization request: client_id, response_type=code and redirect_uri are required.</p>');
    }
    if (code_challenge && code_challenge_method !== 'S256') {
      return reply.status(400).send('<!doctype html><p>Invalid authorization request: code_challenge_method must be S256.</p>');
    }
    const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`;
    const title = app === 'dsp' ? 'Sandbox DSP: connect your delivery stores' : 'Sandbox POS: connect your restaurant';
    return reply.send(`<!doctype html><html><head><title>${title}</title></head><body>
<h1>${app === 'dsp' ? 'Sandbox DSP' : 'Sandbox POS'}</h1><p>An ordering integration asks to read your ${app === 'dsp' ? 'stores' : 'locations'} and menus and to send you orders.</p>
<form method="post" action="/v1/authorize">${hidden('client_id', client_id!)}${hidden('redirect_uri', redirect_uri)}${hidden('state', state)}${hidden('code_challenge', code_challenge)}
<label>Merchant email <input name="email" type="email" value="owner@sandbox-pos.example" required></label>
<button name="decision" value="allow" type="submit">Allow</button> <button name="decision" value="deny" type="submit">Deny</button></form></body></html>`);
  });

  app.post<{ Body: Record<string, string | undefined> }>('/v1/authorize', async (request, reply) => {
    const { client_id, redirect_uri, state, email, decision, code_challenge = '' } = request.body ?? {};
    const app = appOf(client_id);
    if (!app || !redirect_uri) return reply.status(400).send({ error: 'invalid_request' });
    const back = new URL(redirect_uri);
    if (state) back.searchParams.set('state', state);
    if (decision !== 'allow') {
      back.searchParams.set('error', 'access_denied');
      return reply.redirect(back.toString(), 302);
    }
    const code = crypto.randomBytes(16).toString('base64url');
    const tid = crypto.randomBytes(4).toString('hex');
    codes.set(code, {
      tid,
      app,
      email: email || 'owner@sandbox-pos.example',
      clientId: client_id!,
      redirectUri: redirect_uri,
      challenge: code_challenge,
      expires: Date.now() + CODE_TTL_MS,
      used: false,
    });
    back.searchParams.set('code', code);
    return reply.redirect(back.toString(), 302);
  });

  app.post<{ Body: Record<string, string | undefined> }>('/v1/token', async (request, reply) => {
    const body = request.body ?? {};
    if (!appOf(body.client_id) || body.client_secret !== options.clientSecret) {
      return reply.status(401).send({ error: 'invalid_client', message: 'unknown client or wrong secret' });
    }
    if (body.grant_type === 'authorization_code') {
      const code = codes.get(body.code ?? '');
      if (!code || code.used || code.expires < Date.now() || code.clientId !== body.client_id || code.redirectUri !== body.redirect_uri) {
        return reply
          .status(400)
          .send({ error: 'invalid_grant', message: 'the code is unknown, used, expired or bound to another client or redirect_uri' });
      }
      if (code.challenge && S256(body.code_verifier ?? '') !== code.challenge) {
        return reply.status(400).send({ error: 'invalid_grant', message: 'the code_verifier does not match the code_challenge (PKCE)' });
      }
      code.used = true;
      return issue({ tid: code.tid, email: code.email, app: code.app });
    }
    if (body.grant_type === 'refresh_token') {
      const claims = verify(body.refresh_token ?? '', 'refresh');
      if (!claims || spentRefreshTokens.has(claims.jti))
        return reply.status(400).send({ error: 'invalid_grant', message: 'the refresh token is invalid or used' });
      spentRefreshTokens.add(claims.jti);
      return issue({ tid: claims.tid, email: claims.email, app: claims.app ?? 'pos' });
    }
    return reply.status(400).send({ error: 'unsupported_grant_type' });
  });

  // As the DSP: the service's events about orders and stores (docs/dsp-channels.md).
  const channel = dspChannel(app, options.webhookSecret, (authorization) => {
    const match = /^Bearer (\S+)$/.exec(authorization ?? '');
    return !!match && verify(match[1]!, 'access') !== null;
  });

  app.get('/v1/locations', async (request, reply) => {
    const grant = grantOf(request, reply);
    if (!grant) return reply;
    return { locations: grant.app === 'dsp' ? sandboxStores(grant.tid) : sandboxLocations(grant.tid) };
  });

  app.get('/v1/catalog', async (request, reply) => {
    const grant = grantOf(request, reply);
    if (!grant) return reply;
    const header = request.headers['x-provider-location-id'];
    const locationId = Array.isArray(header) ? header[0] : header;
    if (locationId && catalogOverrides.has(locationId)) {
      const override = catalogOverrides.get(locationId);
      // A generated catalog is kept as its text: sent as it is.
      return override instanceof LargeCatalog ? reply.type('application/json').send(override.text) : override;
    }
    // Each location it lists has its catalog: loc_<tokenId>_de the Germany demo menu, loc_<tokenId>_jp
    // its Tokyo menu in yen, the others the US one (also without the header). A location it did
    // not list is none of its merchant's: 404 (docs/pos-vendors.md, "Catalog").
    const listed = locationId === undefined || sandboxLocations(grant.tid).some((l) => l.provider_id === locationId);
    const catalog = !listed
      ? null
      : locationId === `loc_${grant.tid}_de`
        ? deCatalog()
        : locationId === `loc_${grant.tid}_jp`
          ? jpCatalog()
          : usCatalog();
    if (!catalog)
      return reply
        .status(404)
        .send({ error: 'not_found', message: `location ${locationId} is not one of this merchant's (GET /v1/locations lists them)` });
    const holidays = locationId ? holidayOverrides.get(locationId) : undefined;
    const schedules = locationId ? scheduleOverrides.get(locationId) : undefined;
    const menu = catalog.menu.map((m) => {
      if (!schedules?.has(m.provider_id)) return m;
      const { schedule: _replaced, ...rest } = m;
      const schedule = schedules.get(m.provider_id);
      return schedule === null ? rest : { ...rest, schedule };
    });
    return { ...catalog, menu, ...(holidays ? { holidays } : {}) };
  });

  const recordOnly = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!grantOf(request, reply)) return reply;
    return { received: true };
  };
  app.post('/v1/locations/connect', recordOnly);
  app.post('/v1/locations/disconnect', recordOnly);
  app.post('/v1/notifications', recordOnly);
  // As the DSP: the menus published to a store, with their hours.
  app.post<{ Body: unknown }>('/v1/menus', async (request, reply) => {
    if (!grantOf(request, reply)) return reply;
    channel.menus(request.body);
    return { received: true };
  });

  // The kitchen (docs/api-guide.md, "Sandbox peers"): each location's prep time (its listing's),
  // longer by its busy extra while the POS says it is busy; the items it has run out of; and
  // how many of the next orders it answers "later" (async_acceptance), deciding after a while or never.
  const busyExtra = new Map<string, { minutes: number; until: number | null }>();
  const outOfStock = new Set<string>();
  let later: { decision: 'accept' | 'reject' | 'never'; afterMs: number; count: number } | null = null;
  const prepOf = (tid: string, locationId: string) => {
    const base = sandboxLocations(tid).find((l) => l.provider_id === locationId)?.prep_time_minutes ?? 15;
    const busy = busyExtra.get(locationId);
    return base + (busy && (busy.until === null || busy.until > Date.now()) ? busy.minutes : 0);
  };
  /** The lines of an order it has none of, as Stream's posValidation names them. */
  const shortages = (object: Record<string, unknown>) => {
    const named: { type: 'item' | 'modifier'; provider_id: string; quantity: number }[] = [];
    const walk = (lines: unknown, type: 'item' | 'modifier') => {
      for (const l of Array.isArray(lines) ? (lines as { service_id?: string; modifiers?: unknown }[]) : []) {
        if (l.service_id && outOfStock.has(l.service_id)) named.push({ type, provider_id: l.service_id, quantity: 0 });
        walk(l.modifiers, 'modifier');
      }
    };
    walk(object.items, 'item');
    return named;
  };

  // Order events: a repeat of an Idempotency-Key gets the first answer and creates nothing. An
  // order names the location it is for (one token covers all of a merchant's locations); this
  // POS takes order.updated too (its registration says so), and nothing else.
  const orderAnswers = new Map<string, { status: number; body: unknown }>();
  app.post<{ Body: { type?: string; object?: Record<string, unknown> } }>('/v1/orders', async (request, reply) => {
    const grant = grantOf(request, reply);
    if (!grant) return reply;
    const type = request.body?.type;
    if (type !== 'order.created' && type !== 'order.updated')
      return reply.status(400).send({ error: 'invalid_request', message: 'type must be order.created or order.updated' });
    const object = request.body?.object ?? {};
    if (typeof object.location_id !== 'string' || request.headers['x-provider-location-id'] !== object.location_id)
      return reply
        .status(400)
        .send({ error: 'invalid_request', message: 'object.location_id and X-Provider-Location-Id must name the location' });
    const key = request.headers['idempotency-key'];
    const kept = typeof key === 'string' ? orderAnswers.get(key) : undefined;
    if (kept) return reply.status(kept.status).send(kept.body);
    const answer = orderAnswer(type, object, prepOf(grant.tid, object.location_id));
    if (typeof key === 'string') orderAnswers.set(key, answer);
    return reply.status(answer.status).send(answer.body);
  });
  const orderAnswer = (type: string, object: Record<string, unknown>, prep: number): { status: number; body: unknown } => {
    const posOrderId = `pos_${crypto.randomBytes(6).toString('hex')}`;
    if (type !== 'order.created') return { status: 200, body: { order: { ...object, pos_order_id: posOrderId } } };
    const missing = shortages(object);
    if (later && later.count > 0) {
      const { decision, afterMs } = later;
      later.count -= 1;
      if (decision !== 'never') {
        const orderId = object.id;
        // Sent once the service has heard its answer: a decision that arrives before is 409, so
        // it is tried again a few times.
        const send = () =>
          decision === 'accept'
            ? sendWebhook('order.accepted', { order_id: orderId, prep_time_minutes: prep })
            : sendWebhook('order.rejected', {
                order_id: orderId,
                reason: missing.length ? 'out of stock' : 'the kitchen declined the order',
                ...(missing.length ? { posValidation: { stockValidation: missing } } : {}),
              });
        const attempt = (left: number) =>
          send()
            .then((answer) => {
              if (answer.status === 409 && left > 0) setTimeout(() => attempt(left - 1), 100).unref();
            })
            .catch(() => undefined);
        const timer = setTimeout(() => attempt(20), afterMs);
        timer.unref();
      }
      return { status: 202, body: { order: { pos_order_id: posOrderId, async_acceptance: true } } };
    }
    if (missing.length)
      return {
        status: 422,
        body: {
          error: 'out_of_stock',
          message: `out of ${missing.map((m) => m.provider_id).join(', ')}`,
          posValidation: { stockValidation: missing },
        },
      };
    return { status: 200, body: { order: { ...object, pos_order_id: posOrderId, prep_time_minutes: prep } } };
  };
  // {decision: accept | reject | never, after_ms, count}: its next `count` orders answered later.
  app.post<{ Body: { decision?: unknown; after_ms?: unknown; count?: unknown } }>('/v1/_sandbox/decide-later', async (request, reply) => {
    const { decision, after_ms = 0, count = 1 } = request.body ?? {};
    if (
      (decision !== 'accept' && decision !== 'reject' && decision !== 'never') ||
      !Number.isInteger(after_ms) ||
      (after_ms as number) < 0 ||
      !Number.isInteger(count) ||
      (count as number) < 0
    )
      return reply.status(400).send({
        error: 'invalid_request',
        message: 'decision (accept, reject or never), after_ms and count (whole, 0 or more) are required',
      });
    later = { decision, afterMs: after_ms as number, count: count as number };
    return { decision, after_ms, count };
  });
  // {item_ids, available}: items it has run out of (available: false) or has again.
  app.post<{ Body: { item_ids?: unknown; available?: unknown } }>('/v1/_sandbox/stock', async (request, reply) => {
    const { item_ids, available } = request.body ?? {};
    if (!Array.isArray(item_ids) || !item_ids.every((id) => typeof id === 'string') || typeof available !== 'boolean')
      return reply
        .status(400)
        .send({ error: 'invalid_request', message: 'item_ids (a list of ids) and available (true or false) are required' });
    for (const id of item_ids as string[]) available ? outOfStock.delete(id) : outOfStock.add(id);
    return { out_of_stock: [...outOfStock] };
  });

  // Sandbox controls of the POS side (docs/reference.md § Sandbox peers): send the service a signed webhook.
  const sendWebhook = async (type: string, object: Record<string, unknown>, path = `pos/${options.service?.source}`) => {
    if (!options.service) return { status: 0, body: { error: 'the sandbox was started without a service to call' } };
    const body = JSON.stringify({ type, object });
    const response = await fetch(`${options.service.url}/v1/webhooks/${path}`, {
      method: 'POST',
      // Each event carries its own id: a later, identical change is a new event, not a repeat.
      headers: {
        'content-type': 'application/json',
        'webhook-id': crypto.randomUUID(),
        'service-webhook-signature': crypto.createHmac('sha256', options.webhookSecret).update(body).digest('hex'),
      },
      body,
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
  };
  app.post<{ Body: { location_id?: string } }>('/v1/_sandbox/catalog-updated', async (request) =>
    sendWebhook('location.catalog.updated', { location_id: request.body?.location_id }),
  );
  // The order's ticket as this POS's till prints it: each line (a markup line among them, for a
  // POS that takes one) and the money whole as the service sent it, with who funds each discount.
  app.get<{ Params: { id: string } }>('/v1/_sandbox/tickets/:id', async (request, reply) => {
    const sent = peer.received
      .filter((call) => call.path === '/v1/orders')
      .map((call) => call.body as { type?: string; object?: Record<string, unknown> })
      .findLast((body) => body.type === 'order.created' && body.object?.id === request.params.id)?.object;
    if (!sent) return reply.status(404).send({ error: 'not_found', message: `no order ${request.params.id} was sent to this POS` });
    return ticketOf(sent);
  });
  app.post<{ Body: { order_id?: string; status?: string; cancel_reason?: string; cancel_details?: string } }>(
    '/v1/_sandbox/order-status',
    async (request) => {
      const { order_id, status, cancel_reason, cancel_details } = request.body ?? {};
      return sendWebhook('order.updated', {
        order_id,
        status,
        ...(cancel_reason ? { cancel_reason } : {}),
        ...(cancel_details ? { cancel_details } : {}),
      });
    },
  );
  // The orders this sandbox placed as the DSP: every third has a tip to the store, every fifth and
  // tenth a discount (orderMoney).
  let ordersPlaced = 0;
  // The DSP side: an order placed on the platform, sent to the service signed (docs/reference.md § Sandbox peers).
  app.post<{ Body: { dsp_store_id?: string; order?: Record<string, unknown> } }>('/v1/_sandbox/orders', async (request) => {
    const object = sandboxOrder(request.body?.dsp_store_id ?? '', request.body?.order ?? {}, ++ordersPlaced);
    channel.placed(object.dsp_order_id);
    const answer = await sendWebhook('order.created', object, `dsp/${options.dspSource ?? 'sandbox-dsp'}`);
    return { dsp_order_id: object.dsp_order_id, ...answer };
  });
  app.post<{ Body: { dsp_store_id?: string; dsp_order_id?: string; cancel_reason?: string } }>(
    '/v1/_sandbox/orders/cancel',
    async (request) => {
      const { dsp_order_id, dsp_store_id, cancel_reason } = request.body ?? {};
      return sendWebhook(
        'order.canceled',
        { dsp_order_id, dsp_store_id, ...(cancel_reason ? { cancel_reason } : {}) },
        `dsp/${options.dspSource ?? 'sandbox-dsp'}`,
      );
    },
  );

  // A location's holidays change: its catalog's holidays are these now (null: the catalog's own
  // again), and the service hears.
  app.post<{ Body: { location_id?: string; holidays?: unknown } }>('/v1/_sandbox/holidays', async (request, reply) => {
    const { location_id, holidays } = request.body ?? {};
    if (!location_id || (!Array.isArray(holidays) && holidays !== null))
      return reply
        .status(400)
        .send({ error: 'invalid_request', message: "location_id and holidays (a list; null: the catalog's own) are required" });
    if (holidays === null) holidayOverrides.delete(location_id);
    else holidayOverrides.set(location_id, holidays);
    return sendWebhook('location.catalog.updated', { location_id });
  });
  // A menu's hours change: its schedule is this now (null: none, open whenever the location is;
  // anything else is sent as given, so that a test can send what a POS gets wrong), and the
  // service hears (location.catalog.updated).
  app.post<{ Body: { location_id?: unknown; menu_id?: unknown; schedule?: unknown } }>('/v1/_sandbox/schedule', async (request, reply) => {
    const { location_id, menu_id, schedule } = request.body ?? {};
    if (typeof location_id !== 'string' || typeof menu_id !== 'string' || schedule === undefined)
      return reply
        .status(400)
        .send({ error: 'invalid_request', message: 'location_id, menu_id and schedule (null: no schedule) are required' });
    if (![...usCatalog().menu, ...deCatalog().menu].some((m) => m.provider_id === menu_id))
      return reply.status(404).send({ error: 'not_found', message: `no menu ${menu_id} in the sandbox catalogs` });
    const schedules = scheduleOverrides.get(location_id) ?? new Map<string, unknown>();
    scheduleOverrides.set(location_id, schedules.set(menu_id, schedule));
    return sendWebhook('location.catalog.updated', { location_id });
  });
  // The POS pauses or reopens a location itself, or says its kitchen is busy (location.status.updated);
  // while busy, its answers quote the extra minutes too.
  app.post<{
    Body: { location_id?: unknown; status?: unknown; paused_until?: unknown; extra_prep_minutes?: unknown; busy_until?: unknown };
  }>('/v1/_sandbox/location-status', async (request) => {
    const { location_id, status, paused_until, extra_prep_minutes, busy_until } = request.body ?? {};
    const answer = await sendWebhook('location.status.updated', {
      location_id,
      status,
      ...(paused_until !== undefined ? { paused_until } : {}),
      ...(extra_prep_minutes !== undefined ? { extra_prep_minutes } : {}),
      ...(busy_until !== undefined ? { busy_until } : {}),
    });
    if (typeof location_id === 'string' && answer.status < 300) {
      if (status === 'busy' && typeof extra_prep_minutes === 'number')
        busyExtra.set(location_id, { minutes: extra_prep_minutes, until: typeof busy_until === 'number' ? busy_until : null });
      else busyExtra.delete(location_id);
    }
    return answer;
  });
  // The POS takes items off sale, or puts them back (location.items.availability).
  app.post<{ Body: { location_id?: string; item_ids?: unknown; available?: unknown; until_ms?: unknown } }>(
    '/v1/_sandbox/availability',
    async (request) => {
      const { location_id, item_ids, available, until_ms } = request.body ?? {};
      return sendWebhook('location.items.availability', {
        location_id,
        item_ids,
        available,
        ...(until_ms !== undefined ? { until_ms } : {}),
      });
    },
  );
  // The DSP pauses or reopens its own store (store.status).
  app.post<{ Params: { id: string }; Body: { status?: unknown } }>('/v1/_sandbox/stores/:id/status', async (request) =>
    sendWebhook(
      'store.status',
      { dsp_store_id: request.params.id, status: request.body?.status },
      `dsp/${options.dspSource ?? 'sandbox-dsp'}`,
    ),
  );

  // {location_id, catalog}: that catalog for the location (none: its own again); {location_id,
  // items, padding?}: a large valid catalog of that many items (./catalogs.ts, largeCatalogText).
  app.post<{ Body: { location_id?: string; catalog?: unknown; items?: unknown; padding?: unknown } }>(
    '/v1/_sandbox/catalog',
    async (request, reply) => {
      const { location_id, catalog, items, padding } = request.body ?? {};
      if (!location_id) return reply.status(400).send({ error: 'invalid_request', message: 'location_id is required' });
      const count = (value: unknown, most: number) => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= most;
      if (items !== undefined && (!count(items, 1_000_000) || (padding !== undefined && !count(padding, 100_000))))
        return reply
          .status(400)
          .send({ error: 'invalid_request', message: 'items (up to 1,000,000) and padding (up to 100,000) are counts' });
      if (items !== undefined)
        catalogOverrides.set(location_id, new LargeCatalog(largeCatalogText(items as number, (padding as number) ?? 0)));
      else if (catalog === undefined || catalog === null) catalogOverrides.delete(location_id);
      else catalogOverrides.set(location_id, catalog);
      const override = catalogOverrides.get(location_id);
      return { location_id, overridden: !!override, ...(override instanceof LargeCatalog ? { bytes: override.text.length } : {}) };
    },
  );

  const url = await listen(app, options.port, options.host);
  return { ...peer, url, close: () => app.close() };
}

/** A generated catalog, kept as its text. */
class LargeCatalog {
  readonly text: Buffer;
  constructor(text: string) {
    this.text = Buffer.from(text);
  }
}

/** The merchant's locations: one in Berlin (the DE demo menu), two in the US, and one in Tokyo (in yen). */
export function sandboxLocations(tid: string) {
  return [
    {
      provider_id: `loc_${tid}_de`,
      prep_time_minutes: 20,
      name: 'Sandbox Grill Berlin Mitte',
      timezone: 'Europe/Berlin',
      address: {
        formatted_address: 'Rosenthaler Straße 40, 10178 Berlin, Deutschland',
        address_line_1: 'Rosenthaler Straße 40',
        postal_code: '10178',
        locality: 'Berlin',
        administrative_district_level_1: 'Berlin',
        country: 'DE',
        latitude: 52.5262,
        longitude: 13.4022,
      },
    },
    {
      provider_id: `loc_2_${tid}`,
      prep_time_minutes: 15,
      name: 'Sandbox Grill Austin',
      timezone: 'America/Chicago',
      address: {
        formatted_address: '1100 Congress Ave, Austin, TX 78701, USA',
        address_line_1: '1100 Congress Ave',
        address_line_2: 'Suite 100',
        postal_code: '78701',
        locality: 'Austin',
        administrative_district_level_1: 'TX',
        country: 'US',
        latitude: 30.2747,
        longitude: -97.7404,
      },
    },
    {
      provider_id: `loc_3_${tid}`,
      prep_time_minutes: 25,
      name: 'Sandbox Grill Brooklyn',
      timezone: 'America/Chicago',
      address: {
        formatted_address: '200 Bedford Ave, Brooklyn, NY 11249, USA',
        address_line_1: '200 Bedford Ave',
        postal_code: '11249',
        locality: 'Brooklyn',
        administrative_district_level_1: 'NY',
        country: 'US',
        latitude: 40.7176,
        longitude: -73.9586,
      },
    },
    {
      provider_id: `loc_${tid}_jp`,
      prep_time_minutes: 18,
      name: 'Sandbox Grill Shibuya',
      timezone: 'Asia/Tokyo',
      address: {
        formatted_address: '〒150-0043 東京都渋谷区道玄坂2-10-7',
        address_line_1: '道玄坂2-10-7',
        postal_code: '150-0043',
        locality: '渋谷区',
        administrative_district_level_1: '東京都',
        country: 'JP',
        latitude: 35.658,
        longitude: 139.6983,
      },
    },
  ];
}

/** The stores of a merchant's DSP account: its four restaurants, Berlin with a second,
 * late-night store. Ids and names are the DSP's own. */
export function sandboxStores(tid: string) {
  const [berlin, austin, brooklyn, shibuya] = sandboxLocations(tid);
  return [
    { provider_id: `store_${tid}_berlin`, name: 'Sandbox Grill Berlin Mitte (Delivery)', address: berlin!.address },
    { provider_id: `store_${tid}_berlin_late`, name: 'Sandbox Grill Berlin Mitte (Late Night)', address: berlin!.address },
    { provider_id: `store_${tid}_austin`, name: 'Sandbox Grill Austin (Delivery)', address: austin!.address },
    { provider_id: `store_${tid}_brooklyn`, name: 'Sandbox Grill Brooklyn (Delivery)', address: brooklyn!.address },
    { provider_id: `store_${tid}_tokyo`, name: 'Sandbox Grill Shibuya (Delivery)', address: shibuya!.address },
  ];
}

type Line = { service_id: string; name: string; quantity: number; price: number; special_instructions: string; modifiers: Line[] };
const line = (service_id: string, name: string, price: number, modifiers: Line[] = [], quantity = 1): Line => ({
  service_id,
  name,
  quantity,
  price,
  special_instructions: '',
  modifiers,
});
/** What a line costs, its modifiers (at any depth) included: a whole number of the smallest unit. */
// A line given to the sandbox may be wrong on purpose (no price, no modifiers): it still sends it.
const lineTotal = (l: Partial<Line>): number =>
  (l.quantity ?? 1) * ((l.price ?? 0) + (l.modifiers ?? []).reduce((sum, m) => sum + lineTotal(m), 0));

/** Each market's cart of its store's catalog (every required choice made: the service checks it
 * against the menus the store received), its tax (added to the prices in the US, included in
 * them in Germany and Japan), tip and delivery fee, in its currency's smallest unit. */
const MARKETS = {
  us: {
    currency: 'usd',
    storeTip: 150,
    cart: [
      line(
        'item_us_classic',
        'Classic Burger',
        1199,
        [line('mod_us_medium', 'Medium', 0), line('mod_us_cheese', 'Extra cheese', 125, [line('mod_us_swiss', 'Swiss', 0)])],
        2,
      ),
      line('item_us_fries', 'Fries', 450, [line('mod_us_regular', 'Regular', 0)]),
    ],
    taxPercent: 8.25,
    taxIncluded: false,
    tip: 400,
    deliveryFee: 299,
  },
  de: {
    currency: 'eur',
    storeTip: 100,
    cart: [
      line('item_de_schnitzel', 'Wiener Schnitzel', 1890, [
        line('mod_de_salat', 'Beilagensalat', 150, [line('mod_de_essig_oel', 'Essig & Öl', 0)]),
      ]),
      line('item_de_apfelschorle', 'Apfelschorle 0,4 l', 390),
    ],
    taxPercent: 19,
    taxIncluded: true,
    tip: 200,
    deliveryFee: 299,
  },
  jp: {
    currency: 'jpy',
    storeTip: 100,
    cart: [
      line('item_jp_teriyaki', 'てりやきバーガー', 1280, [line('mod_jp_egg', '目玉焼き', 150)]),
      line('item_jp_fries', 'フライドポテト', 450, [line('mod_jp_regular', 'レギュラー', 0)]),
      line('item_jp_green_tea', '緑茶', 300),
    ],
    taxPercent: 10,
    taxIncluded: true,
    tip: 0,
    deliveryFee: 350,
  },
};

/** The money of a market's order, worked out from the cart it sends (its own, or the one given)
 * as a platform would: an exclusive tax (the US) added to the total, a VAT inside the prices
 * (Germany, Japan) not, and said as `tax_included` only; a restaurant tip on every third order,
 * a discount on the order funded by the platform on every fifth, and one on its first item funded
 * by the merchant on every tenth (`ordinal`: the sandbox's count of the orders it placed). Its
 * sums add up, as the service checks (docs/dsp-channels.md, "The order's money"). */
function orderMoney(market: (typeof MARKETS)[keyof typeof MARKETS], cart: Line[], ordinal: number) {
  const subtotal = cart.reduce((sum, l) => sum + lineTotal(l), 0);
  const tax = (amount: number) =>
    Math.round(market.taxIncluded ? (amount * market.taxPercent) / (100 + market.taxPercent) : (amount * market.taxPercent) / 100);
  const added = (amount: number) => (market.taxIncluded ? 0 : tax(amount));
  const restaurantTip = ordinal > 0 && ordinal % 3 === 0 ? market.storeTip : 0;
  const discounts = [
    ...(ordinal > 0 && ordinal % 5 === 0
      ? [{ name: '10% off your order', amount: Math.round(subtotal / 10), scope: 'order', funded_by: 'dsp', merchant_amount: 0 }]
      : []),
    ...(ordinal > 0 && ordinal % 10 === 0 && cart[0]
      ? [
          {
            name: `${cart[0].name}: merchant promotion`,
            amount: Math.min(lineTotal(cart[0]), 100),
            scope: 'item',
            service_id: cart[0].service_id,
            funded_by: 'merchant',
            merchant_amount: Math.min(lineTotal(cart[0]), 100),
          },
        ]
      : []),
  ];
  return {
    currency: market.currency,
    subtotal,
    tax: added(subtotal),
    ...(market.taxIncluded ? { tax_included: tax(subtotal) + tax(market.deliveryFee) } : {}),
    tax_withheld_by_dsp: 0,
    driver_tip: market.tip,
    restaurant_tip: restaurantTip,
    delivery_fee: market.deliveryFee,
    delivery_fee_tax: added(market.deliveryFee),
    discounts,
    total:
      subtotal +
      added(subtotal) +
      market.tip +
      restaurantTip +
      market.deliveryFee +
      added(market.deliveryFee) -
      discounts.reduce((sum, discount) => sum + discount.amount, 0),
    items: cart,
  };
}

/** A realistic order of docs/reference.md § Resources for the store's market (Berlin's stores in
 * euros, Tokyo's in yen, the others in dollars); any field given wins. */
export function sandboxOrder(
  storeId: string,
  given: Record<string, unknown>,
  ordinal = 0,
): Record<string, unknown> & { dsp_order_id: string } {
  const dspOrderId = typeof given.dsp_order_id === 'string' ? given.dsp_order_id : `dsp_${crypto.randomBytes(6).toString('hex')}`;
  const customer = { provider_loyalty_id: 'loy_1001', name: 'Jamie Rivera', phone: '+15125550123', masked_phone_code: '4821' };
  const market = storeId.includes('_berlin') ? MARKETS.de : storeId.includes('_tokyo') ? MARKETS.jp : MARKETS.us;
  return {
    id: dspOrderId,
    dsp_order_id: dspOrderId,
    dsp_order_number: `#${Math.floor(1000 + Math.random() * 9000)}`,
    dsp_store_id: storeId,
    customer,
    customers: [customer],
    delivery_address: { address_line_1: '500 E 4th St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
    estimated_fulfillment_time: Date.now() + 30 * 60 * 1000,
    is_future_order: false,
    fulfillment_type: 'merchant_managed_delivery',
    fulfillment_instructions: 'Leave at the front desk',
    special_instructions: 'No cutlery',
    source: 'sandbox-dsp',
    status: 'in_progress',
    delivery_status: 'pending',
    // A caller that gives the total owns the sums: no tip or discount of the sandbox's is added.
    ...orderMoney(market, Array.isArray(given.items) ? (given.items as Line[]) : market.cart, given.total === undefined ? ordinal : 0),
    unpaid: false,
    cash_amount_due: 0,
    ...given,
  };
}

type TicketLine = { service_id?: string; name?: string; quantity?: number; price?: number; modifiers?: TicketLine[] };

/** A ticket's lines and figures from an order as the service sent it: the lines with their
 * modifiers under them, then every figure the order carries, each in the order's minor units. */
function ticketOf(order: Record<string, unknown>) {
  const line = (l: TicketLine, depth: number): string[] => [
    `${'  '.repeat(depth)}${l.quantity ?? 1} × ${l.name ?? l.service_id} @ ${l.price ?? 0}`,
    ...(l.modifiers ?? []).flatMap((m) => line(m, depth + 1)),
  ];
  const figures = ['subtotal', 'tax', 'tax_withheld_by_dsp', 'delivery_fee', 'delivery_fee_tax', 'restaurant_tip', 'driver_tip', 'total'];
  return {
    order_id: order.id,
    currency: order.currency,
    lines: ((order.items as TicketLine[] | undefined) ?? []).flatMap((l) => line(l, 0)),
    figures: Object.fromEntries(figures.filter((f) => order[f] !== undefined).map((f) => [f, order[f]])),
    discounts: ((order.discounts as Record<string, unknown>[] | undefined) ?? []).map((d) => ({
      name: d.name,
      amount: d.amount,
      funded_by: d.funded_by,
      ...(d.service_id ? { service_id: d.service_id } : {}),
    })),
  };
}
