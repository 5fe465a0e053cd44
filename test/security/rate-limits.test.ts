// Rate limits (docs/reference.md § Limits): per partner on the API (REST and GraphQL), per client and per
// address on the token call (failed authentications cost more), per sender on webhooks. Over a
// limit: 429 rate_limited with Retry-After and RateLimit-* headers, and nothing done. With
// REDIS_URL the counts are shared by every instance. Limits are set low here to reach them.
// Unsigned webhooks count against their address, never against the provider whose path they
// name; wrong secrets lock a client out from one address only, and X-Forwarded-For names that
// address only behind TRUST_PROXY.
import { signBody } from '../../src/common/signatures.js';
import { startService } from '../../src/app/service.js';
import { createPartner } from '../../src/modules/auth/service.js';
import { registerSandboxEvents } from '../../src/sandbox/register.js';
import type { SandboxPos } from '../../src/sandbox/pos/server.js';
import { startPos, testSecrets } from '../support/sandbox.js';
import { merchantTakingOrders, placeOrder, type OrderSetup } from '../support/orders.js';
import {
  asTestService,
  migratedDatabase,
  get,
  post,
  request,
  startTestService,
  testConfig,
  type JsonResponse,
  type TestService,
} from '../support/service.js';

const LIMITS = {
  RATE_LIMIT_API_PER_MINUTE: '20',
  RATE_LIMIT_TOKEN_PER_MINUTE: '60',
  RATE_LIMIT_TOKEN_ADDRESS_PER_MINUTE: '150',
  RATE_LIMIT_WEBHOOKS_PER_MINUTE: '5',
};

let service: TestService;
beforeAll(async () => {
  service = await startTestService(LIMITS);
});
afterAll(async () => {
  await service?.stop();
});

function expectLimited(res: JsonResponse, limit: number) {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status: 429, code: 'rate_limited' });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(res.headers.get('ratelimit-limit')).toBe(String(limit));
  expect(res.headers.get('ratelimit-remaining')).toBe('0');
  expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
}

const tokenCall = (clientId: string, clientSecret: string) =>
  post(service.url, '/v1/oauth/token', { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });

test('guessing a client secret stops after six tries, and then the client waits even with the right one', async () => {
  const partner = await service.partner();
  const sessions = await service.services.db.session.count();
  const guesses = [];
  for (let i = 0; i < 8; i++) guesses.push(await tokenCall(partner.clientId, `guess-${i}`));
  expect(guesses.slice(0, 6).map((g) => g.status)).toEqual(Array(6).fill(401));
  expectLimited(guesses[6]!, 60);
  expectLimited(await tokenCall(partner.clientId, partner.clientSecret), 60);
  expect(await service.services.db.session.count()).toBe(sessions);
  // Another client from the same address is not held up by this one's failures.
  const other = await service.partner();
  expect((await tokenCall(other.clientId, other.clientSecret)).status).toBe(201);
});

test('a partner over its API limit gets 429 on GraphQL and REST; another partner does not', async () => {
  const partner = await service.partner();
  const answers: JsonResponse[] = [];
  for (let i = 0; i < 12; i++) answers.push(await post(service.url, '/graphql', { query: '{ deliveries { id } }' }, partner.token));
  for (let i = 0; i < 8; i++) answers.push(await get(service.url, '/v1/onboarding/org/org_x/locations', partner.token));
  expect(answers.map((a) => a.status)).toEqual([...Array(12).fill(200), ...Array(8).fill(404)]);
  expectLimited(await post(service.url, '/graphql', { query: '{ deliveries { id } }' }, partner.token), 20);
  const orgs = await service.services.db.organization.count();
  expectLimited(
    await post(service.url, '/v1/onboarding/org', { name: 'X', provider_id: 'x', user: { email: 'x@x.example' } }, partner.token),
    20,
  );
  expect(await service.services.db.organization.count()).toBe(orgs);
  const other = await service.partner();
  expect((await post(service.url, '/graphql', { query: '{ deliveries { id } }' }, other.token)).status).toBe(200);
});

test('a sender over its webhook limit gets 429 and nothing is stored', async () => {
  const secrets = testSecrets();
  await registerSandboxEvents(service.services, { url: 'http://127.0.0.1:9' } as never, secrets);
  const send = (i: number) => {
    const body = JSON.stringify({
      type: 'order.assign.driver',
      object: { location_id: 'loc_1', order_id: `ord_${i}`, driver: { name: 'D' } },
    });
    return request(service.url, 'POST', '/v1/webhooks/event-providers/sandbox-events', {
      raw: body,
      headers: {
        'content-type': 'application/json',
        'webhook-id': `w${i}`,
        'service-webhook-signature': signBody(body, secrets.webhookSecret),
      },
    });
  };
  const answers = [];
  for (let i = 0; i < 5; i++) answers.push(await send(i));
  expect(answers.map((a) => a.status)).toEqual(Array(5).fill(404)); // no such orders: refused, but counted
  const stored = await service.services.db.webhookEvent.count();
  expectLimited(await send(5), 5);
  expect(await service.services.db.webhookEvent.count()).toBe(stored);
});

test('an address guessing across many clients is stopped too', async () => {
  const answers = [];
  for (let i = 0; i < 12; i++) answers.push(await tokenCall(`pc_unknown_${i}`, 'x'));
  // 150 points a minute for this address, ten a failure, one a success: the tests above spent some.
  // Last in this file: it leaves the address without token calls for a minute.
  const limited = answers.filter((a) => a.status === 429);
  expect(limited.length).toBeGreaterThan(0);
  expectLimited(limited[0]!, 150);
  expect(answers.filter((a) => a.status !== 401 && a.status !== 429)).toEqual([]);
});

const withRedis = process.env.REDIS_URL ? test : test.skip;
withRedis('with REDIS_URL two instances share the counts', async () => {
  const database = await migratedDatabase();
  const env = { ...LIMITS, REDIS_URL: process.env.REDIS_URL! };
  const a = asTestService(await startService(testConfig(database, env)), database);
  const b = await startService(testConfig(database, env));
  try {
    const partner = await createPartner(a.services.db, { name: 'shared' });
    const token = (
      await post(a.url, '/v1/oauth/token', {
        grant_type: 'client_credentials',
        client_id: partner.clientId,
        client_secret: partner.clientSecret,
      })
    ).body.access_token;
    for (let i = 0; i < 10; i++) expect((await post(a.url, '/graphql', { query: '{ deliveries { id } }' }, token)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await post(b.url, '/graphql', { query: '{ deliveries { id } }' }, token)).status).toBe(200);
    expectLimited(await post(b.url, '/graphql', { query: '{ deliveries { id } }' }, token), 20);
    expectLimited(await post(a.url, '/graphql', { query: '{ deliveries { id } }' }, token), 20);
  } finally {
    await b.close();
    await a.stop();
  }
});

describe("an attacker's failures count against the attacker, never against whom it names", () => {
  let attacked: TestService;
  let pos: SandboxPos;
  let m: OrderSetup;
  beforeAll(async () => {
    attacked = await startTestService({ RATE_LIMIT_WEBHOOKS_PER_MINUTE: '40', RATE_LIMIT_BAD_SIGNATURES_PER_MINUTE: '5' });
    pos = await startPos(attacked);
    m = await merchantTakingOrders(attacked);
  });
  afterAll(async () => {
    await pos?.close();
    await attacked?.stop();
  });

  test('unsigned webhooks count against their address, never against the provider whose path they name', async () => {
    const unsigned = [];
    for (let i = 0; i < 45; i++) {
      unsigned.push(
        await request(attacked.url, 'POST', '/v1/webhooks/dsp/sandbox-dsp', {
          raw: JSON.stringify({ type: 'order.created', object: {} }),
          headers: { 'content-type': 'application/json', 'attacked-webhook-signature': 'forged' },
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
    const partner = await attacked.partner();
    const from = (address: string, secret: string) =>
      request(attacked.url, 'POST', '/v1/oauth/token', {
        body: { grant_type: 'client_credentials', client_id: partner.clientId, client_secret: secret },
        headers: { 'x-forwarded-for': address },
      });
    for (let i = 0; i < 6; i++) expect((await from(`203.0.113.${i}`, `guess-${i}`)).status).toBe(401);
    expect((await from('198.51.100.7', partner.clientSecret)).status).toBe(429);
  });
});
