// A delivery platform of the tests' own, written from docs/dsp-channels.md alone the way a
// platform's engineer would, and unlike the sandbox DSP: its consent page is a form of its own
// markup (single-quoted attributes, a token to send back, the refusing button first), it refuses
// a redirect_uri it was not given without redirecting, its tokens are opaque (their expire_time
// in the form it is told) and rotate at each refresh, it lists its merchant's stores in its own ids,
// it takes menus and events only signed (X-Service-Signature) and only with a token it issued
// (menus always, events when one comes), drops a repeated Idempotency-Key with the first answer,
// answers an event about an order it does not know 2xx and drops it (the guide's rule), and
// signs what it sends the service the Standard Webhooks way. A real HTTP server on loopback, not
// a mock, for the conformance kit and for the tests of the DSP's side: what it was sent is kept
// (its menus by store, its events by order and by store), and it can be told to answer an event
// type otherwise (a 500 to location.order.accept), to go down whole (every call refused until it
// is back) or, as every sandbox peer, to fail a path.
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createPeer, listen, type Peer } from '../../src/sandbox/peer.js';
import { signStandardWebhook, verifySignature } from '../../src/common/signatures.js';

export type ForeignDspOptions = {
  /** The merchant's stores, its own ids; default: two, Austin and Berlin. */
  stores?: { provider_id: string; name: string }[];
  /** The redirect URIs its OAuth client allows (a prefix each); default: any. */
  redirectUris?: string[];
  /** Its token answer's expire_time for a token issued at `now` (epoch ms); default: a lifetime
   * of an hour in seconds (3600), one of the three forms the guide allows. */
  expireTime?: (now: number) => number;
};

/** An event as the platform took it. */
export type TakenEvent = { type: string; store_id: string; created_at: number; data: Record<string, unknown>; key: string };

export type ForeignDsp = Peer & {
  url: string;
  clientId: string;
  clientSecret: string;
  webhookSecret: string;
  storeIds: string[];
  /** The menus each store last took (POST /v1/menus bodies), by store id. */
  menus: Map<string, Record<string, unknown>>;
  /** Every event taken once, in the order taken. */
  events: TakenEvent[];
  /** Menus and events as they were taken, each once, in the order taken. */
  taken: { path: '/v1/menus' | '/v1/events'; body: Record<string, unknown> }[];
  /** Down: every call is refused (its connection closed) until `up`. */
  down: () => void;
  up: () => void;
  /** From now on, events of this type are answered `status` (`count` times; default: until told otherwise). */
  answerEvents: (type: string, status: number, count?: number) => void;
  /** An order of a store, from the menus it last took: the first item, its required choices, its sums worked out. */
  orderFor: (storeId: string, more?: Record<string, unknown>) => Record<string, unknown> & { dsp_order_id: string };
  /** Sends the service (`url`: its origin; `source`: the platform's slug there) a signed webhook,
   * under its own `webhook-id` (a new one unless `id` is given: a retry gives the first's). */
  send: (
    url: string,
    source: string,
    type: string,
    object: Record<string, unknown>,
    id?: string,
  ) => Promise<{ status: number; body: Record<string, unknown> }>;
  close: () => Promise<void>;
};

type Line = { service_id: string; name: string; quantity: number; price: number; modifiers: Line[] };
const lineTotal = (line: Line): number => line.quantity * (line.price + line.modifiers.reduce((sum, m) => sum + lineTotal(m), 0));

export async function startForeignDsp(options: ForeignDspOptions = {}): Promise<ForeignDsp> {
  const peer = createPeer('a delivery platform written from docs/dsp-channels.md');
  const { app } = peer;
  const clientId = 'platform-client';
  const clientSecret = crypto.randomBytes(12).toString('hex');
  const webhookSecret = crypto.randomBytes(16).toString('hex');
  const tag = crypto.randomBytes(3).toString('hex');
  const stores = options.stores ?? [
    { provider_id: `shop-${tag}-atx`, name: 'Taqueria Norte (Delivery)' },
    { provider_id: `shop-${tag}-ber`, name: 'Taqueria Norte Berlin (Delivery)' },
  ];
  const codes = new Map<string, { challenge: string; redirectUri: string; clientId: string }>();
  const access = new Set<string>();
  const refresh = new Set<string>();
  const firstAnswers = new Map<string, { status: number; body: unknown }>();
  const answers = new Map<string, { status: number; count: number }>();
  const menus = new Map<string, Record<string, unknown>>();
  const events: TakenEvent[] = [];
  const taken: ForeignDsp['taken'] = [];
  const consents = new Map<string, { csrf: string; clientId: string; redirectUri: string; state: string; challenge: string }>();
  let isDown = false;
  // Down: nobody answers, on any path but the tests' own controls.
  app.addHook('onRequest', async (request, reply) => {
    if (!isDown || request.url.startsWith('/v1/_sandbox/')) return;
    request.raw.socket.destroy();
    return reply.hijack();
  });

  const issue = () => {
    const token = {
      access_token: crypto.randomBytes(20).toString('base64url'),
      refresh_token: crypto.randomBytes(20).toString('base64url'),
    };
    access.add(token.access_token);
    refresh.add(token.refresh_token);
    const expireTime = options.expireTime?.(Date.now()) ?? 3600;
    return { ...token, expire_time: expireTime, id: `grant-${crypto.randomBytes(4).toString('hex')}`, email: 'owner@taqueria.example' };
  };
  const bearer = (request: FastifyRequest) => /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
  const refuse = (reply: FastifyReply, status: number, error: string, message: string) => reply.status(status).send({ error, message });

  // The authorize page's duties (docs/dsp-channels.md): an unknown client or a redirect_uri it was
  // not given is refused on the page itself, never redirected; else the merchant sees a consent
  // form, and the code (bound to its PKCE challenge) goes back to redirect_uri with the state.
  app.get<{ Querystring: Record<string, string> }>('/v1/authorize', async (request, reply) => {
    const { client_id, redirect_uri = '', state = '', code_challenge = '', code_challenge_method } = request.query;
    const allowed = !options.redirectUris || options.redirectUris.some((uri) => redirect_uri.startsWith(uri));
    if (client_id !== clientId || !/^https?:\/\//.test(redirect_uri) || !allowed || code_challenge_method !== 'S256')
      return reply.status(400).type('text/html').send('<p>This application is not known to us.</p>');
    const id = crypto.randomBytes(9).toString('base64url');
    const csrf = crypto.randomBytes(9).toString('base64url');
    consents.set(id, { csrf, clientId: client_id, redirectUri: redirect_uri, state, challenge: code_challenge });
    return reply
      .type('text/html')
      .send(
        `<!doctype html><main><h2>Taqueria Eats would like to manage your stores</h2><form action='/v1/consent' method='POST'>` +
          `<input value='${id}' type='hidden' name='request'><input name='csrf' value='${csrf}' type='hidden'>` +
          `<label><input type='checkbox' name='scope_menus' checked> Publish menus</label>` +
          `<button type='submit' name='answer' value='reject'>Not now</button> <button type='submit' name='answer' value='approve'>Connect Taqueria</button></form></main>`,
      );
  });
  app.post<{ Body: Record<string, string> }>('/v1/consent', async (request, reply) => {
    const body = request.body ?? {};
    const pending = consents.get(body.request ?? '');
    if (!pending || pending.csrf !== body.csrf) return reply.status(400).type('text/html').send('<p>This consent has expired.</p>');
    consents.delete(body.request!);
    const back = new URL(pending.redirectUri);
    back.searchParams.set('state', pending.state);
    if (body.answer !== 'approve') {
      back.searchParams.set('error', 'access_denied');
      return reply.redirect(back.toString(), 302);
    }
    const code = crypto.randomBytes(12).toString('base64url');
    codes.set(code, { challenge: pending.challenge, redirectUri: pending.redirectUri, clientId: pending.clientId });
    back.searchParams.set('code', code);
    return reply.redirect(back.toString(), 302);
  });
  app.post<{ Body: Record<string, string> }>('/v1/token', async (request, reply) => {
    const body = request.body ?? {};
    if (body.client_id !== clientId || body.client_secret !== clientSecret) return refuse(reply, 401, 'invalid_client', 'who are you?');
    if (body.grant_type === 'authorization_code') {
      const code = codes.get(body.code ?? '');
      codes.delete(body.code ?? '');
      const proved = crypto
        .createHash('sha256')
        .update(body.code_verifier ?? '')
        .digest('base64url');
      if (!code || code.redirectUri !== body.redirect_uri || code.challenge !== proved)
        return refuse(reply, 400, 'invalid_grant', 'no such code');
      return issue();
    }
    if (body.grant_type === 'refresh_token') {
      if (!refresh.delete(body.refresh_token ?? '')) return refuse(reply, 400, 'invalid_grant', 'refresh token spent or revoked');
      return issue();
    }
    return refuse(reply, 400, 'unsupported_grant_type', String(body.grant_type));
  });
  app.get('/v1/locations', async (request, reply) =>
    access.has(bearer(request) ?? '') ? { locations: stores } : refuse(reply, 401, 'invalid_token', 'a token of ours, please'),
  );

  app.register(async (signed) => {
    // The signature covers the exact bytes: they are kept.
    signed.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    /** A signed call, its token (when one came, or `tokenRequired`) ours, its repeat answered as the first time. */
    const takeSigned =
      (tokenRequired: boolean, take: (body: Record<string, unknown>, key: string) => { status: number; body: unknown }) =>
      async (request: FastifyRequest, reply: FastifyReply) => {
        const raw = request.body as Buffer;
        if (!verifySignature(raw, request.headers['x-service-signature'] as string | undefined, webhookSecret))
          return refuse(reply, 401, 'invalid_signature', 'X-Service-Signature does not match');
        const token = bearer(request);
        if ((tokenRequired || request.headers.authorization !== undefined) && !access.has(token ?? ''))
          return refuse(reply, 401, 'invalid_token', 'a token of ours, please');
        const key = String(request.headers['idempotency-key'] ?? '');
        const first = firstAnswers.get(key);
        if (first) return reply.status(first.status).send(first.body);
        const answer = take(JSON.parse(raw.toString('utf8')) as Record<string, unknown>, key);
        if (answer.status < 500) firstAnswers.set(key, answer);
        return reply.status(answer.status).send(answer.body);
      };
    signed.post(
      '/v1/menus',
      takeSigned(true, (body) => {
        const storeId = String(body.store_id);
        if (!stores.some((s) => s.provider_id === storeId)) return { status: 404, body: { error: 'unknown_store', message: storeId } };
        menus.set(storeId, body);
        taken.push({ path: '/v1/menus', body });
        return { status: 200, body: { accepted: true } };
      }),
    );
    signed.post(
      '/v1/events',
      takeSigned(false, (body, key) => {
        const event = body as unknown as TakenEvent;
        const told = answers.get(event.type);
        if (told && told.count > 0) {
          told.count -= 1;
          return { status: told.status, body: { error: 'told_to', message: `this platform answers ${event.type} ${told.status} now` } };
        }
        // An event about a store or an order it does not know is taken and dropped (the guide says so).
        events.push({ ...event, data: event.data ?? {}, key });
        taken.push({ path: '/v1/events', body });
        return { status: 200, body: { ok: true } };
      }),
    );
  });

  const url = await listen(app);
  return {
    ...peer,
    url,
    clientId,
    clientSecret,
    webhookSecret,
    storeIds: stores.map((s) => s.provider_id),
    menus,
    events,
    taken,
    down: () => {
      isDown = true;
    },
    up: () => {
      isDown = false;
    },
    answerEvents: (type, status, count = Number.POSITIVE_INFINITY) => {
      answers.set(type, { status, count });
    },
    orderFor: (storeId, more = {}) => {
      const published = menus.get(storeId)?.catalog as
        | {
            currency?: string;
            item: { provider_id: string; name: string; price: number; modifier_group_ids?: string[]; tax_ids?: string[] }[];
            modifier_group: { provider_id: string; min_selections?: number; modifier_ids: string[] }[];
            modifier: { provider_id: string; name: string; price: number }[];
            tax: { provider_id: string; rate: number; inclusive?: boolean }[];
          }
        | undefined;
      if (!published) throw new Error(`store ${storeId} has no menus yet`);
      const item = published.item[0]!;
      const modifiers = (item.modifier_group_ids ?? []).flatMap((groupId) => {
        const group = published.modifier_group.find((g) => g.provider_id === groupId);
        return (group?.modifier_ids ?? []).slice(0, group?.min_selections ?? 0).map((id) => {
          const modifier = published.modifier.find((m) => m.provider_id === id)!;
          return { service_id: id, name: modifier.name, quantity: 1, price: modifier.price, modifiers: [] };
        });
      });
      const lines: Line[] = [{ service_id: item.provider_id, name: item.name, quantity: 2, price: item.price, modifiers }];
      const subtotal = lines.reduce((sum, line) => sum + lineTotal(line), 0);
      const rate = (item.tax_ids ?? []).reduce((sum, id) => {
        const tax = published.tax.find((t) => t.provider_id === id);
        return tax && !tax.inclusive ? sum + tax.rate : sum;
      }, 0);
      const tax = Math.round((subtotal * rate) / 100);
      const [tip, fee] = [300, 199];
      const dspOrderId = `pf-${crypto.randomBytes(5).toString('hex')}`;
      return {
        dsp_order_id: dspOrderId,
        dsp_store_id: storeId,
        fulfillment_type: 'delivery',
        currency: published.currency ?? 'usd',
        customer: { name: 'Ada Lovelace', phone: '+15125550100' },
        items: lines,
        subtotal,
        tax,
        driver_tip: tip,
        delivery_fee: fee,
        delivery_fee_tax: 0,
        total: subtotal + tax + tip + fee,
        ...more,
      };
    },
    send: async (serviceUrl, source, type, object, id = `evt_${crypto.randomBytes(8).toString('hex')}`) => {
      const body = JSON.stringify({ type, object });
      const timestamp = Math.floor(Date.now() / 1000);
      const response = await fetch(`${serviceUrl}/v1/webhooks/dsp/${source}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signStandardWebhook(id, timestamp, body, webhookSecret),
        },
        body,
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    close: () => app.close(),
  };
}
