// What a hostile partner tried in the second round (issue "Tenancy and authorization, airtight"),
// one test per finding: store squatting, organization tokens reaching other organizations,
// OAuth codes completing another onboarding, scope widening, subscriptions without auth, and
// stores of deleted locations held forever. Each ran against the real service and sandbox.
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { SandboxPos } from '../../src/sandbox/pos/server.js';
import { authorizeInBrowser, startPos } from '../support/sandbox.js';
import { bind, completeOnboarding, createOrg, dspStores, ingest } from '../support/flows.js';
import { placeOrder, until } from '../support/orders.js';
import { get, post, request, startTestService, type TestService } from '../support/service.js';

let service: TestService;
let pos: SandboxPos;

beforeAll(async () => {
  service = await startTestService({ OUTBOX_RETRY_BASE_MS: '50', OUTBOX_RETRY_MAX_MS: '100', OUTBOX_MAX_ATTEMPTS: '1' });
  pos = await startPos(service);
});
afterAll(async () => {
  await pos?.close();
  await service?.stop();
});

const gql = (token: string | undefined, query: string, variables: Record<string, unknown> = {}) =>
  request(service.url, 'POST', '/graphql', { token, body: { query, variables } });

/** An organization of a partner with a POS location and a DSP onboarding whose stores are known. */
async function merchant(token: string) {
  const { orgId } = await createOrg(service.url, token);
  const posOnboarding = await completeOnboarding(service.url, token, orgId, 'pos');
  const [location, second] = await ingest(service.url, token, posOnboarding._id, [
    `loc_2_${posOnboarding.integration_id}`,
    `loc_3_${posOnboarding.integration_id}`,
  ]);
  const dsp = await completeOnboarding(service.url, token, orgId, 'dsp');
  return { orgId, location: location!, second: second!, dsp: dsp._id, stores: await dspStores(service.url, token, dsp._id) };
}

const bindStore = (token: string, dsp: string, location: string, store: string) =>
  post(
    service.url,
    '/v1/onboarding/locations/bind',
    { onboarding_id: dsp, locations: [{ pos_location_id: location, dsp_provider_id: store, dsp_store_name: 'Store' }] },
    token,
  );

test("a partner cannot bind another merchant's DSP store, and the answer does not tell whether it is bound", async () => {
  const a = await service.partner();
  const b = await service.partner();
  const victim = await merchant(a.token);
  const squatter = await merchant(b.token);
  const unbound = await bindStore(b.token, squatter.dsp, squatter.location, victim.stores.austin!);
  expect(unbound.status).toBe(404);
  expect(unbound.body).toMatchObject({ statusCode: 404, code: 'not_found' });

  // The owner binds it; the squatter's answer is the same as before, and the owner's orders stay the owner's.
  expect((await bindStore(a.token, victim.dsp, victim.location, victim.stores.austin!)).status).toBe(201);
  const bound = await bindStore(b.token, squatter.dsp, squatter.location, victim.stores.austin!);
  expect(bound.status).toBe(unbound.status);
  expect(bound.body).toEqual(unbound.body);
  const madeUp = await bindStore(b.token, squatter.dsp, squatter.location, 'store_made_up');
  expect(madeUp.body.message.replace('store_made_up', 'ID')).toBe(unbound.body.message.replace(victim.stores.austin!, 'ID'));

  const placed = await placeOrder(pos, victim.stores.austin!);
  expect(placed.status).toBe(201);
  const order = await service.services.db.order.findUniqueOrThrow({ where: { id: placed.body.order_id! } });
  expect(order).toMatchObject({ orgId: victim.orgId, locationId: victim.location });
  const read = await gql(b.token, 'query($id: ID!) { order(id: $id) { id } }', { id: order.id });
  expect(read.body.errors[0].extensions).toMatchObject({ code: 'not_found', statusCode: 404 });
});

test('an organization token reaches only its organization: deliveries, redelivery, onboardings', async () => {
  const partner = await service.partner();
  const x = await merchant(partner.token);
  const y = await merchant(partner.token);
  expect((await bindStore(partner.token, y.dsp, y.location, y.stores.austin!)).status).toBe(201);
  // Y's order is refused by the POS: its delivery is dead.
  await fetch(`${pos.url}/v1/_sandbox/fail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path: '/v1/orders', count: 1, status: 400 }),
  });
  const placed = await placeOrder(pos, y.stores.austin!);
  const key = `order.created:${placed.body.order_id}`;
  const dead = await until(() => service.services.db.outboxMessage.findFirst({ where: { idempotencyKey: key, status: 'dead' } }));
  expect(dead).toMatchObject({ orgId: y.orgId, partnerId: partner.partnerId });

  const xToken = (
    await post(
      service.url,
      '/v1/oauth/partner-tokens',
      { org_id: x.orgId, token_name: 'x only', scopes: ['user', 'onboarding'] },
      partner.token,
    )
  ).body.access_token as string;
  // Y has messages of every kind by now (connection notices delivered, the order dead); X sees only X's.
  const seen: string[] = [];
  for (const status of ['dead', 'delivered', 'pending']) {
    const listed = await gql(xToken, 'query($s: String) { deliveries(status: $s) { id } }', { s: status });
    seen.push(...listed.body.data.deliveries.map((d: { id: string }) => d.id));
  }
  const owners = await service.services.db.outboxMessage.findMany({ where: { id: { in: seen } }, select: { orgId: true } });
  expect(seen.length).toBeGreaterThan(0);
  expect(new Set(owners.map((o) => o.orgId))).toEqual(new Set([x.orgId]));
  expect(await service.services.db.outboxMessage.count({ where: { orgId: y.orgId, status: 'delivered' } })).toBeGreaterThan(0);
  // The partner's own login sees it.
  const own = await gql(partner.token, '{ deliveries(status: "dead") { id } }');
  expect(own.body.data.deliveries).toEqual([{ id: dead!.id }]);

  const redeliver = await gql(xToken, 'mutation($id: ID!) { redeliver(id: $id) { id } }', { id: dead!.id });
  expect(redeliver.body.errors[0].extensions).toMatchObject({ code: 'not_found', statusCode: 404 });
  expect(await service.services.db.outboxMessage.findUniqueOrThrow({ where: { id: dead!.id } })).toMatchObject({ status: 'dead' });

  const onboarding = await get(service.url, `/v1/onboarding/integrations/${y.dsp}`, xToken);
  expect(onboarding.status).toBe(404);
  expect(onboarding.body.message).not.toContain(y.orgId);
  expect(onboarding.body.message).toBe(`onboarding ${y.dsp} not found`);
});

test('a code completes only the onboarding it came back for; PKCE is used toward the provider', async () => {
  const partner = await service.partner();
  const { orgId } = await createOrg(service.url, partner.token);
  const init = async () =>
    (
      await post(
        service.url,
        '/v1/onboarding/integrations',
        { org_id: orgId, source: 'sandbox-pos', type: 'pos', return_url: 'https://partner.example/back' },
        partner.token,
      )
    ).body.onboarding;
  const a = await init();
  const b = await init();
  const walkA = await authorizeInBrowser(a.entry_url);
  expect(walkA.authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
  expect(walkA.authorizeUrl.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);

  const stolen = await post(service.url, `/v1/onboarding/integrations/${b._id}/complete`, { code: walkA.code }, partner.token);
  expect(stolen.status).toBe(400);
  expect(stolen.body).toMatchObject({ code: 'invalid_grant' });
  expect((await get(service.url, `/v1/onboarding/integrations/${b._id}`, partner.token)).body.status).toBe('pending');

  pos.received.length = 0;
  const own = await post(service.url, `/v1/onboarding/integrations/${a._id}/complete`, { code: walkA.code }, partner.token);
  expect(own.status).toBe(200);
  expect(own.body.status).toBe('active');
  const [tokenCall] = pos.received.filter((r) => r.path === '/v1/token');
  expect(tokenCall!.body).toMatchObject({
    grant_type: 'authorization_code',
    code: walkA.code,
    code_verifier: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
  });
});

test('the sandbox POS refuses a code whose PKCE verifier is missing or wrong', async () => {
  const partner = await service.partner();
  const { orgId } = await createOrg(service.url, partner.token);
  const onboarding = (
    await post(
      service.url,
      '/v1/onboarding/integrations',
      { org_id: orgId, source: 'sandbox-pos', type: 'pos', return_url: 'https://partner.example/back' },
      partner.token,
    )
  ).body.onboarding;
  const walk = await authorizeInBrowser(onboarding.entry_url);
  const provider = (await service.services.db.provider.findUniqueOrThrow({ where: { source: 'sandbox-pos' } }))!;
  const secret = service.services.sealer.open(provider.clientSecretEnc!);
  const exchange = (extra: Record<string, string>) =>
    post(pos.url, '/v1/token', {
      grant_type: 'authorization_code',
      client_id: provider.clientId,
      client_secret: secret,
      code: walk.code,
      redirect_uri: walk.authorizeUrl.searchParams.get('redirect_uri'),
      ...extra,
    });
  expect((await exchange({})).body).toMatchObject({ error: 'invalid_grant' });
  expect((await exchange({ code_verifier: 'x'.repeat(43) })).body).toMatchObject({ error: 'invalid_grant' });
});

test('a token request is never widened: scope (RFC 6749) and scopes (docs/reference.md), in JSON and in forms', async () => {
  const partner = await service.partner();
  const ask = async (fields: Record<string, unknown>, form = false) => {
    const body = { grant_type: 'client_credentials', client_id: partner.clientId, client_secret: partner.clientSecret, ...fields };
    const res = form
      ? await request(service.url, 'POST', '/v1/oauth/token', {
          raw: new URLSearchParams(body as Record<string, string>).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      : await post(service.url, '/v1/oauth/token', body);
    return res.body.scopes ?? res.body.code;
  };
  expect(await ask({ scope: 'user' })).toEqual(['user']);
  expect(await ask({ scope: 'user sso' })).toEqual(['user', 'sso']);
  expect(await ask({ scopes: ['billing'] })).toEqual(['billing']);
  expect(await ask({ scope: 'user' }, true)).toEqual(['user']);
  expect(await ask({ scope: 'user onboarding' }, true)).toEqual(['user', 'onboarding']);
  expect(await ask({ scope: 'everything' })).toBe('invalid_scope');
  const limited = await service.partner(['user']);
  const wider = await post(service.url, '/v1/oauth/token', {
    grant_type: 'client_credentials',
    client_id: limited.clientId,
    client_secret: limited.clientSecret,
    scope: 'user billing',
  });
  expect(wider.body).toMatchObject({ statusCode: 400, code: 'invalid_scope' });
});

describe('subscriptions authenticate and check scopes before the first event', () => {
  /** What a graphql-ws client gets: a refusal comes as one result carrying only errors (or as
   * the protocol's error message), then the end; never an event. */
  const subscribe = (authorization: string | undefined, query: string) =>
    new Promise<{ refusal?: unknown; events: number }>((resolve) => {
      const client = createClient({
        url: `${service.url.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: authorization ? { authorization } : {},
        retryAttempts: 0,
      });
      let events = 0;
      let refusal: unknown;
      const end = () => {
        void client.dispose();
        resolve({ refusal, events });
      };
      client.subscribe(
        { query },
        {
          next: (result) => {
            if (result.data) events += 1;
            refusal ??= result.errors?.[0]?.extensions;
          },
          error: (error) => {
            refusal ??= ((Array.isArray(error) ? error[0] : error) as { extensions?: unknown }).extensions;
            end();
          },
          complete: end,
        },
      );
    });

  let orgId: string;
  let limitedToken: string;
  beforeAll(async () => {
    const partner = await service.partner();
    orgId = (await createOrg(service.url, partner.token)).orgId;
    limitedToken = (
      await post(service.url, '/v1/oauth/partner-tokens', { org_id: orgId, token_name: 'sso only', scopes: ['sso'] }, partner.token)
    ).body.access_token;
  });

  test.each([
    ['no token', undefined, 'invalid_token', 401],
    ['a forged token', 'Bearer not.a.token', 'invalid_token', 401],
    ['a token without the user scope', 'limited', 'insufficient_scope', 403],
  ])('orderUpdated over graphql-ws with %s', async (_name, authorization, code, statusCode) => {
    const header = authorization === 'limited' ? `Bearer ${limitedToken}` : authorization;
    const answer = await subscribe(header, `subscription { orderUpdated(orgId: "${orgId}") { id } }`);
    expect(answer).toEqual({ refusal: { code, statusCode }, events: 0 });
  });

  test('onboardingUpdated over SSE with no token is refused as invalid_token', async () => {
    const res = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { onboardingUpdated(id: "onb_x") { id } }' }),
    });
    const text = await res.text();
    expect(text).toContain('"code":"invalid_token"');
    expect(text).not.toContain('internal_error');
  });
});

test("a deleted location's DSP store is free again: listed as eligible, bound anew, and its orders go to the new location", async () => {
  const partner = await service.partner();
  const m = await merchant(partner.token);
  const store = m.stores.brooklyn!;
  await bind(service.url, partner.token, m.dsp, m.location, store);
  const eligible = async () =>
    (await get(service.url, `/v1/onboarding/locations?onboarding_id=${m.dsp}`, partner.token)).body.locations.find(
      (s: { provider_id: string }) => s.provider_id === store,
    ).is_eligible_to_onboard;
  expect(await eligible()).toBe(false);
  expect(
    (await request(service.url, 'DELETE', `/v1/onboarding/org/${m.orgId}/locations/${m.location}`, { token: partner.token })).status,
  ).toBe(204);
  expect(await eligible()).toBe(true);
  await bind(service.url, partner.token, m.dsp, m.second, store);
  const placed = await placeOrder(pos, store);
  expect(placed.status).toBe(201);
  expect(await service.services.db.order.findUniqueOrThrow({ where: { id: placed.body.order_id! } })).toMatchObject({
    locationId: m.second,
  });
});
