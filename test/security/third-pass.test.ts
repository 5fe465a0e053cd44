// The third attack on the service, one test per finding, each reproducing the attack as it was
// made: a token widening its scopes through the tokens and sessions it makes, an event provider
// assigning drivers to orders it never had (and to finished or pickup orders), subscriptions
// outliving their token, GraphQL literals reaching the databases unchecked, unsigned webhooks
// spending a real provider's allowance, and one address locking a client out everywhere.
import { jest } from '@jest/globals';
import crypto from 'node:crypto';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { SandboxPos } from '../../src/sandbox/pos/server.js';
import type { SandboxEventProvider } from '../../src/sandbox/event-provider/server.js';
import { saveProvider } from '../../src/integrations/providers.js';
import { signBody } from '../../src/common/signatures.js';
import { startPos, testSecrets } from '../support/sandbox.js';
import { merchantTakingOrders, nameEventProvider, placeOrder, posStatus, startEvents, until, type OrderSetup } from '../support/orders.js';
import { createOrg } from '../support/flows.js';
import { post, request, startTestService, type TestService } from '../support/service.js';

let service: TestService;
let pos: SandboxPos;
let events: SandboxEventProvider;
let m: OrderSetup;
const secrets = testSecrets();
const ROGUE_SECRET = crypto.randomBytes(16).toString('hex');

beforeAll(async () => {
  service = await startTestService({
    OUTBOX_RETRY_BASE_MS: '50',
    OUTBOX_RETRY_MAX_MS: '200',
    RATE_LIMIT_WEBHOOKS_PER_MINUTE: '40',
    RATE_LIMIT_BAD_SIGNATURES_PER_MINUTE: '5',
  });
  pos = await startPos(service, secrets);
  events = await startEvents(service, secrets);
  // A second, registered event provider: real, signing with its own secret, never sent these orders.
  await saveProvider(service.services, {
    source: 'rogue-events',
    kind: 'event_provider',
    base_url: 'http://127.0.0.1:9',
    webhook_secret: ROGUE_SECRET,
  });
  m = await merchantTakingOrders(service);
  // Two event providers are registered: the merchant names the one that delivers its orders.
  await nameEventProvider(service, m, 'sandbox-events');
});
afterAll(async () => {
  await events?.close();
  await pos?.close();
  await service?.stop();
});

const gql = (token: string | undefined, query: string, variables: Record<string, unknown> = {}, headers?: Record<string, string>) =>
  request(service.url, 'POST', '/graphql', { token, body: { query, variables }, headers });

const tokenWith = async (clientId: string, clientSecret: string, scopes: string[]) => {
  const res = await post(service.url, '/v1/oauth/token', {
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
    scopes,
  });
  expect(res.status).toBe(201);
  return res.body as { access_token: string; refresh_token: string };
};

describe('a token hands on only scopes it holds', () => {
  test('a user-only token gets no onboarding or sso token, over REST and GraphQL, and nothing is made', async () => {
    const partner = await service.partner();
    const { orgId } = await createOrg(service.url, partner.token);
    const userOnly = (await tokenWith(partner.clientId, partner.clientSecret, ['user'])).access_token;
    const sessions = await service.services.db.session.count({ where: { partnerId: partner.partnerId } });

    const rest = await post(
      service.url,
      '/v1/oauth/partner-tokens',
      { org_id: orgId, token_name: 'wider', scopes: ['onboarding', 'sso'] },
      userOnly,
    );
    expect(rest.status).toBe(403);
    expect(rest.body).toMatchObject({ statusCode: 403, code: 'insufficient_scope', message: expect.stringContaining('onboarding, sso') });
    const graph = await gql(userOnly, 'mutation($i: CreatePartnerTokenInput!) { createPartnerToken(input: $i) { accessToken } }', {
      i: { orgId, tokenName: 'wider', scopes: ['sso'] },
    });
    expect(graph.body.errors[0].extensions).toMatchObject({ code: 'insufficient_scope', statusCode: 403 });
    expect(await service.services.db.session.count({ where: { partnerId: partner.partnerId } })).toBe(sessions);

    // What it holds, it may hand on.
    const same = await post(service.url, '/v1/oauth/partner-tokens', { org_id: orgId, token_name: 'same', scopes: ['user'] }, userOnly);
    expect(same.status).toBe(201);
    expect(same.body.scopes).toEqual(['user']);
  });

  test('an SSO session carries no scope the token that asked for it lacks', async () => {
    const partner = await service.partner();
    const { orgId, providerOrgId } = await createOrg(service.url, partner.token);
    const ssoOnly = (await tokenWith(partner.clientId, partner.clientSecret, ['sso'])).access_token;
    const sso = await post(
      service.url,
      '/v1/sso/sessions',
      { email: 'owner@wide.example', full_name: 'Olive Owner', phone_number: '1', role: 'owner', provider_org_id: providerOrgId },
      ssoOnly,
    );
    expect(sso.status).toBe(201);
    const login = await fetch(`${service.url}/v1/sso/login?token=${sso.body.sso_login_token}`, { redirect: 'manual' });
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const asDashboard = { cookie, origin: service.url };
    // The token could not read orders or locations; neither can the session it made.
    const orders = await gql(undefined, 'query($o: ID!) { orders(orgId: $o) { orders { id } } }', { o: orgId }, asDashboard);
    expect(orders.body.errors[0].extensions).toMatchObject({ code: 'insufficient_scope', statusCode: 403 });
    const locations = await gql(
      undefined,
      'query($o: ID!) { organizationLocations(orgId: $o) { locations { id } } }',
      { o: orgId },
      asDashboard,
    );
    expect(locations.body.errors[0].extensions).toMatchObject({ code: 'insufficient_scope', statusCode: 403 });

    // A token holding user and sso makes a session that reads orders.
    const both = (await tokenWith(partner.clientId, partner.clientSecret, ['user', 'sso'])).access_token;
    const again = await post(
      service.url,
      '/v1/sso/sessions',
      { email: 'owner@wide.example', full_name: 'Olive Owner', phone_number: '1', role: 'owner', provider_org_id: providerOrgId },
      both,
    );
    const cookie2 = (await fetch(`${service.url}/v1/sso/login?token=${again.body.sso_login_token}`, { redirect: 'manual' })).headers
      .get('set-cookie')!
      .split(';')[0]!;
    const read = await gql(
      undefined,
      'query($o: ID!) { orders(orgId: $o) { orders { id } } }',
      { o: orgId },
      { cookie: cookie2, origin: service.url },
    );
    expect(read.body.data.orders.orders).toEqual([]);
  });

  test('a refresh gives no scope its partner no longer holds', async () => {
    const partner = await service.partner();
    const pair = await tokenWith(partner.clientId, partner.clientSecret, ['user', 'onboarding']);
    await service.services.db.partner.update({ where: { id: partner.partnerId }, data: { scopes: 'user' } });
    const refreshed = await post(service.url, '/v1/oauth/token', {
      grant_type: 'refresh_token',
      client_id: partner.clientId,
      client_secret: partner.clientSecret,
      refresh_token: pair.refresh_token,
    });
    expect(refreshed.status).toBe(201);
    expect(refreshed.body.scopes).toEqual(['user']);
  });
});

describe('order.assign.driver comes only from the order’s own event provider, for an open merchant-delivered order', () => {
  const assign = (source: string, secret: string, orderId: string, driverName: string) => {
    const body = JSON.stringify({
      type: 'order.assign.driver',
      object: {
        location_id: `loc_2_${m.tid}`,
        order_id: orderId,
        driver: { name: driverName, phone: { number: '1', code: '+1' }, source: 'x' },
      },
    });
    return request(service.url, 'POST', `/v1/webhooks/event-providers/${source}`, {
      raw: body,
      headers: {
        'content-type': 'application/json',
        'webhook-id': crypto.randomUUID(),
        'service-webhook-signature': signBody(body, secret),
      },
    });
  };
  const orderRow = (id: string) => service.services.db.order.findUniqueOrThrow({ where: { id } });

  test('another registered provider, signing with its own secret, cannot touch an order it was never sent: 404, nothing changes', async () => {
    const placed = await placeOrder(pos, m.storeId);
    const orderId = placed.body.order_id!;
    const confirmed = await until(async () => {
      const row = await orderRow(orderId);
      return row.driver ? row : null;
    });
    const rogue = await assign('rogue-events', ROGUE_SECRET, orderId, 'Mallory');
    expect(rogue.status).toBe(404);
    expect(rogue.body).toMatchObject({ statusCode: 404, code: 'not_found' });
    const after = await orderRow(orderId);
    expect(after.driver).toBe(confirmed.driver);
    expect(after.deliveryStatus).toBe(confirmed.deliveryStatus);
    expect(JSON.parse(after.driver!).name).toBe('Dana Driver');
  });

  test('a pickup order, never sent to any event provider, takes no driver: 404', async () => {
    const placed = await placeOrder(pos, m.storeId, { fulfillment_type: 'pickup' });
    const orderId = placed.body.order_id!;
    await until(async () => (await orderRow(orderId)).posOrderId);
    expect((await posStatus(pos, orderId, 'completed')).status).toBe(200);
    const res = await assign('sandbox-events', secrets.webhookSecret, orderId, 'Dana Driver');
    expect(res.status).toBe(404);
    const after = await orderRow(orderId);
    expect({ driver: after.driver, deliveryStatus: after.deliveryStatus }).toEqual({ driver: null, deliveryStatus: 'pending' });
  });

  test("a finished order of the provider's own is 409 feature_disabled and keeps its driver", async () => {
    const placed = await placeOrder(pos, m.storeId);
    const orderId = placed.body.order_id!;
    const withDriver = await until(async () => {
      const row = await orderRow(orderId);
      return row.driver ? row : null;
    });
    expect((await posStatus(pos, orderId, 'completed')).status).toBe(200);
    const res = await assign('sandbox-events', secrets.webhookSecret, orderId, 'Late Larry');
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ statusCode: 409, error: 'Conflict', code: 'feature_disabled', message: 'order is not modifiable' });
    expect((await orderRow(orderId)).driver).toBe(withDriver.driver);
  });
});

describe('a subscription ends with its token', () => {
  /** An orderUpdated subscription over graphql-ws: what it got, and a promise of its end. */
  function subscribe(token: string, orgId = m.orgId) {
    const client = createClient({
      url: `${service.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
      retryAttempts: 0,
    });
    const results: { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] }[] = [];
    let started!: () => void;
    const ready = new Promise<void>((resolve) => (started = resolve));
    client.on('connected', () => started());
    const ended = new Promise<'complete'>((resolve, reject) => {
      client.subscribe(
        { query: 'subscription($o: ID!) { orderUpdated(orgId: $o) { id status customer: order } }', variables: { o: orgId } },
        { next: (result) => void results.push(result as never), error: reject, complete: () => resolve('complete') },
      );
    });
    return { results, ready, ended, dispose: () => client.dispose() };
  }
  const refusal = (results: { errors?: { extensions?: Record<string, unknown> }[] }[]) => results.at(-1)?.errors?.[0]?.extensions;

  test('revoked (its refresh token reused): a GraphQL error, then complete, and no order after it', async () => {
    const partner = await service.partner();
    const grant = await tokenWith(partner.clientId, partner.clientSecret, ['user']);
    const { orgId } = await createOrg(service.url, partner.token);
    const sub = subscribe(grant.access_token, orgId);
    await sub.ready;
    const refresh = {
      grant_type: 'refresh_token',
      client_id: partner.clientId,
      client_secret: partner.clientSecret,
      refresh_token: grant.refresh_token,
    };
    expect((await post(service.url, '/v1/oauth/token', refresh)).status).toBe(201);
    // Spent twice: the family is revoked.
    expect((await post(service.url, '/v1/oauth/token', refresh)).status).toBe(400);
    await expect(sub.ended).resolves.toBe('complete');
    expect(refusal(sub.results)).toMatchObject({ code: 'invalid_token', statusCode: 401 });
    await sub.dispose();
  });

  test("its organization token's session deleted (on whichever instance): the stream of customers' data stops", async () => {
    const orgToken = await post(
      service.url,
      '/v1/oauth/partner-tokens',
      { org_id: m.orgId, token_name: 'screen', scopes: ['user'] },
      m.token,
    );
    const sub = subscribe(orgToken.body.access_token);
    await sub.ready;
    await placeOrder(pos, m.storeId);
    await until(async () => sub.results.some((r) => r.data));
    // Deleted in the database, as another instance (or an operator) would: no event reaches this one.
    await service.services.db.session.delete({ where: { id: orgToken.body._id } });
    await expect(sub.ended).resolves.toBe('complete');
    expect(refusal(sub.results)).toMatchObject({ code: 'invalid_token', statusCode: 401 });
    const seen = sub.results.length;
    await placeOrder(pos, m.storeId);
    await pos.waitFor('/v1/orders', 1);
    expect(sub.results.length).toBe(seen);
    await sub.dispose();
  });

  test('expired: the clock moved past the token’s expiry ends the subscription', async () => {
    const sub = subscribe(m.token);
    await sub.ready;
    const now = Date.now();
    // Two hours on: every token of this test is past its expiry (at most one hour).
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => now + 2 * 3600 * 1000);
    try {
      await expect(sub.ended).resolves.toBe('complete');
    } finally {
      clock.mockRestore();
    }
    expect(refusal(sub.results)).toMatchObject({ code: 'invalid_token', statusCode: 401 });
    expect(sub.results.at(-1)!.errors![0]!.message).toBe('the access token has expired');
    await sub.dispose();
  });
});

describe('GraphQL literals are input too', () => {
  test('a date out of range is 400 naming the field, as a literal and as a variable, on both databases', async () => {
    for (const from of ['1e308', '-1', '253402300800000']) {
      const literal = await gql(m.token, `{ orders(orgId: "${m.orgId}", from: ${from}) { orders { id } } }`);
      expect(literal.body.errors[0].extensions).toMatchObject({ code: 'invalid_request', statusCode: 400 });
      expect(literal.body.errors[0].message).toMatch(/^from must be epoch milliseconds/);
    }
    const variable = await gql(m.token, 'query($o: ID!, $t: Float) { orders(orgId: $o, to: $t) { orders { id } } }', {
      o: m.orgId,
      t: 1e308,
    });
    expect(variable.body.errors[0].message).toMatch(/^to must be epoch milliseconds/);
    const infinite = await gql(m.token, `{ orders(orgId: "${m.orgId}", from: 1e400) { orders { id } } }`);
    expect(infinite.body).toEqual({
      errors: [
        expect.objectContaining({
          message: 'the number literal 1e400 is out of range',
          extensions: { code: 'invalid_request', statusCode: 400 },
        }),
      ],
    });
  });

  test('a NUL written into a string literal is 400 and nothing is stored', async () => {
    const before = await service.services.db.organization.count();
    const query = String.raw`mutation { createOrganization(input: { name: "a\u0000b", providerId: "nul-literal", user: { email: "o@nul.example" } }) { orgId } }`;
    // As GraphQL over HTTP answers a request error: 400 for its own media type.
    const res = await gql(m.token, query, {}, { accept: 'application/graphql-response+json' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({
      message: 'a string literal of the operation contains a NUL character (U+0000)',
      extensions: { code: 'invalid_request', statusCode: 400 },
    });
    const viaGet = await request(
      service.url,
      'GET',
      `/graphql?query=${encodeURIComponent(String.raw`{ organization(id: "x\u0000") { id } }`)}`,
      {
        token: m.token,
      },
    );
    expect(viaGet.body.errors[0].message).toBe('a string literal of the operation contains a NUL character (U+0000)');
    expect(await service.services.db.organization.count()).toBe(before);
  });
});

test('unsigned webhooks count against their address, never against the provider whose path they name', async () => {
  const unsigned = [];
  for (let i = 0; i < 45; i++) {
    unsigned.push(
      await request(service.url, 'POST', '/v1/webhooks/dsp/sandbox-dsp', {
        raw: JSON.stringify({ type: 'order.created', object: {} }),
        headers: { 'content-type': 'application/json', 'service-webhook-signature': 'forged' },
      }),
    );
  }
  expect(unsigned.slice(0, 5).map((r) => r.status)).toEqual(Array(5).fill(401));
  expect(unsigned.at(-1)!.status).toBe(429);
  expect(unsigned.at(-1)!.body.message).toContain('missing or wrong signature from this address');
  // More unsigned requests than the provider's whole allowance: its signed orders still go in.
  const placed = await placeOrder(pos, m.storeId);
  expect(placed.status).toBe(201);
});

test('wrong secrets from one address never lock the client out from another (behind a trusted proxy)', async () => {
  const proxied = await startTestService({ TRUST_PROXY: 'true' });
  try {
    const partner = await proxied.partner();
    const from = (address: string, secret: string) =>
      request(proxied.url, 'POST', '/v1/oauth/token', {
        body: { grant_type: 'client_credentials', client_id: partner.clientId, client_secret: secret },
        headers: { 'x-forwarded-for': address },
      });
    const guesses = [];
    for (let i = 0; i < 7; i++) guesses.push((await from('203.0.113.5', `guess-${i}`)).status);
    expect(guesses).toEqual([401, 401, 401, 401, 401, 401, 429]);
    expect((await from('203.0.113.5', partner.clientSecret)).status).toBe(429);
    expect((await from('198.51.100.7', partner.clientSecret)).status).toBe(201);
  } finally {
    await proxied.stop();
  }
});

test('without TRUST_PROXY a forged X-Forwarded-For is not believed: the guesses count against the real address', async () => {
  const partner = await service.partner();
  const from = (address: string, secret: string) =>
    request(service.url, 'POST', '/v1/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: partner.clientId, client_secret: secret },
      headers: { 'x-forwarded-for': address },
    });
  for (let i = 0; i < 6; i++) expect((await from(`203.0.113.${i}`, `guess-${i}`)).status).toBe(401);
  expect((await from('198.51.100.7', partner.clientSecret)).status).toBe(429);
});
