// Subscriptions answer to their token as every other operation does (src/graphql/subscription-guard.ts):
// no token, a forged one or one without the scope is refused before the first event, over
// graphql-ws and SSE; and a subscription ends when its token does (revoked, its session deleted,
// expired), with nothing sent after.
import { jest } from '@jest/globals';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { SandboxPos } from '../../src/sandbox/pos/server.js';
import { createOrg } from '../support/flows.js';
import { startOrdersWorld, type OrdersWorld, placeOrder, until, type OrderSetup } from '../support/orders.js';
import { post, tokenPair, type TestService } from '../support/service.js';

let world: OrdersWorld;
let service: TestService;
let pos: SandboxPos;
let m: OrderSetup;

beforeAll(async () => {
  world = await startOrdersWorld();
  ({ service, pos, merchant: m } = world);
});
afterAll(() => world?.close());

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

  test.each([
    ['no token', undefined],
    ['a forged token', 'Bearer not.a.token'],
  ])(
    'onboardingUpdated over SSE with %s is refused 401 invalid_token with the error body, no stream opened',
    async (_name, authorization) => {
      const res = await fetch(`${service.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ query: 'subscription { onboardingUpdated(id: "onb_x") { id } }' }),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized', code: 'invalid_token' });
    },
  );
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
    const grant = await tokenPair(service.url, partner.clientId, partner.clientSecret, ['user']);
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
