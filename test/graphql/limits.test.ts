// GraphQL operations are bounded before they run (docs/reference.md § Partner API): tokens, depth, aliases,
// directives and cost. Over a bound the answer is 400 `query_too_complex` and nothing runs; the
// queries real clients send (GraphiQL's introspection, the API's own operations) pass.
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { getIntrospectionQuery } from 'graphql';
import { createOrg } from '../support/flows.js';
import { post, request, startTestService, type TestService } from '../support/service.js';

let service: TestService;
let token: string;
let orgId: string;

beforeAll(async () => {
  service = await startTestService();
  token = (await service.partner()).token;
  orgId = (await createOrg(service.url, token)).orgId;
});
afterAll(async () => {
  await service?.stop();
});

const refusal = (body: { errors?: { extensions?: Record<string, unknown>; message: string }[]; data?: unknown }) => ({
  code: body.errors?.[0]?.extensions?.code,
  statusCode: body.errors?.[0]?.extensions?.statusCode,
  data: body.data ?? null,
});
const TOO_COMPLEX = { code: 'query_too_complex', statusCode: 400, data: null };
const ask = (query: string, auth = token) => post(service.url, '/graphql', { query }, auth);

test('1,000 aliases of a read, or of the token call, are refused before any of them runs', async () => {
  const reads = Array.from({ length: 1000 }, (_, i) => `a${i}: organizationLocations(orgId: "${orgId}") { __typename }`).join(' ');
  expect(refusal((await ask(`{ ${reads} }`)).body)).toEqual(TOO_COMPLEX);
  const sessions = await service.services.db.session.count();
  const logins = Array.from(
    { length: 1000 },
    (_, i) => `t${i}: token(input: { grantType: client_credentials, clientId: "x", clientSecret: "y" }) { accessToken }`,
  ).join(' ');
  const answer = (await ask(`mutation { ${logins} }`, '')).body;
  expect(refusal(answer)).toEqual(TOO_COMPLEX);
  expect(await service.services.db.session.count()).toBe(sessions);
  // Sixteen aliases are over the default of fifteen; the message says which bound.
  const sixteen = Array.from({ length: 16 }, (_, i) => `o${i}: organization(id: "${orgId}") { id }`).join(' ');
  const over = (await ask(`{ ${sixteen} }`)).body;
  expect(refusal(over)).toEqual(TOO_COMPLEX);
  expect(over.errors[0].message).toMatch(/alias/i);
});

test('depth, directives and a chain of 10,000 fragments are refused, not a 500', async () => {
  const nested = (n: number) => `{ organization(id: "${orgId}") { ${'... on Organization { '.repeat(n)} id ${'} '.repeat(n)} } }`;
  expect(refusal((await ask(nested(3))).body)).toEqual({ code: undefined, statusCode: undefined, data: { organization: { id: orgId } } });
  expect(refusal((await ask(nested(30))).body)).toEqual(TOO_COMPLEX);
  const directives = `{ organization(id: "${orgId}") { id ${'@include(if: true) '.repeat(50)} } }`;
  expect(refusal((await ask(directives)).body)).toEqual(TOO_COMPLEX);
  const chain = Array.from(
    { length: 10_000 },
    (_, i) => `fragment F${i} on Organization { ${i + 1 < 10_000 ? `...F${i + 1}` : 'id'} }`,
  ).join('\n');
  const fragments = await ask(`{ organization(id: "${orgId}") { ...F0 } }\n${chain}`);
  expect(fragments.status).toBeLessThan(500);
  expect(refusal(fragments.body)).toEqual(TOO_COMPLEX);
});

test("GraphiQL's introspection query and the API's own operations are within the bounds", async () => {
  const introspection = await ask(getIntrospectionQuery());
  expect(introspection.body.errors).toBeUndefined();
  expect(introspection.body.data.__schema.queryType.name).toBe('Query');
});

test('a subscription over graphql-ws is bounded the same way', async () => {
  const client = createClient({
    url: `${service.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
  });
  const aliases = Array.from({ length: 100 }, (_, i) => `u${i}: id`).join(' ');
  const answer = await new Promise<unknown>((resolve) => {
    client.subscribe(
      { query: `subscription { orderUpdated(orgId: "${orgId}") { ${aliases} } }` },
      {
        next: (result) => resolve(result.errors?.[0]?.extensions),
        error: (error) => resolve((Array.isArray(error) ? error[0] : error)?.extensions),
        complete: () => resolve('complete'),
      },
    );
  });
  await client.dispose();
  expect(answer).toMatchObject({ code: 'query_too_complex' });
});

describe('one unauthenticated request cannot hold the service', () => {
  const BIND = 'mutation($i: BindDspLocationsInput!) { bindDspLocations(input: $i) { locations { id } } }';

  test('a variable list of 250,000 wrong elements is refused at once with a few errors, not one per element', async () => {
    const bad = { onboardingId: 'onb_x', locations: Array.from({ length: 250_000 }, () => 1) };
    const answer = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: BIND, variables: { i: bad } }),
    });
    const text = await answer.text();
    expect(answer.status).toBe(400);
    // 41 MB and a quarter of a million errors before the bound.
    expect(text.length).toBeLessThan(10_000);
    const body = JSON.parse(text);
    expect(body.errors.length).toBeLessThanOrEqual(10);
    expect(body.errors[0].extensions).toMatchObject({ code: 'invalid_request', statusCode: 400 });
    expect(body.errors[0].message).toMatch(/locations.*250000.*at most 1000/);
  });

  test('within the list bound, wrong elements answer the first ten errors and how many more', async () => {
    const bad = { onboardingId: 'onb_x', locations: Array.from({ length: 1000 }, () => 1) };
    const answer = await post(service.url, '/graphql', { query: BIND, variables: { i: bad } }, token);
    expect(answer.body.errors).toHaveLength(10);
    expect(answer.body.errors[0].extensions).toMatchObject({ code: 'invalid_request' });
    expect(answer.body.errors[9].message).toMatch(/990 more/);
  });

  test('more values than the bound in all variables together are refused, however they nest', async () => {
    const wide = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, 1]));
    const answer = await post(service.url, '/graphql', { query: BIND, variables: { i: { onboardingId: 'x', locations: [], ...wide } } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toHaveLength(1);
    expect(answer.body.errors[0].message).toMatch(/more than 10000 values/);
  });

  test('100 operations named with 500 KB each leave the metrics and the memory as they were', async () => {
    const scrape = async () => (await fetch(`${service.url}/metrics`)).text();
    const before = (await scrape()).length;
    for (let i = 0; i < 100; i++) {
      const name = `N${i}${'x'.repeat(500_000)}`;
      await post(service.url, '/graphql', { query: `query ${name} { __typename }` });
    }
    const after = await scrape();
    // Each name was a series of its own: 51.6 MB of metrics.
    expect(after.length - before).toBeLessThan(5_000);
    expect(after).toContain('graphql_operations_total{operation="other",outcome="ok"} 100');
    // The parsed documents kept are bounded in bytes (100 of these were 60 MB).
    const cached = Number(/^graphql_document_cache_bytes (\d+)/m.exec(after)?.[1]);
    expect(cached).toBeLessThanOrEqual(8 * 1024 * 1024);
  });
});

test('one partner naming 60 operations gets 50 series of its own, and another partner still names its own', async () => {
  const greedy = (await service.partner()).token;
  for (let i = 0; i < 60; i++) await ask(`query Greedy${i} { __typename }`, greedy);
  await ask('query PoliteOne { __typename }', (await service.partner()).token);
  const metrics = await (await fetch(`${service.url}/metrics`)).text();
  expect(metrics.match(/operation="Greedy\d+"/g)).toHaveLength(50);
  expect(metrics).toContain('graphql_operations_total{operation="PoliteOne",outcome="ok"} 1');
});

describe('REST bodies and query lists have the same bounds, and answers stay short', () => {
  test('binding 12,000 stores is 400 naming the list, in a line', async () => {
    const locations = Array.from({ length: 12_000 }, (_, i) => ({
      pos_location_id: 'l',
      dsp_provider_id: `${i}`,
      dsp_store_name: 'S',
    }));
    const answer = await post(service.url, '/v1/onboarding/locations/bind', { onboarding_id: 'onb_x', locations }, token);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/^locations holds 12000 entries; a list holds at most 1000/),
    });
    expect(JSON.stringify(answer.body).length).toBeLessThan(500);
  });

  test('40,000 contexts for a flag are 400, and nothing is added', async () => {
    const contexts = Array.from({ length: 40_000 }, (_, i) => ({ key: `${i}` }));
    const answer = await post(service.url, '/v1/flags/anything/contexts', { contexts }, token);
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/contexts holds 40000 entries/);
  });

  test('an events list asking for 5,000 types is 400 on REST and GraphQL, never a 5xx', async () => {
    const types = Array.from({ length: 5_000 }, () => 'x');
    const rest = await request(service.url, 'GET', `/v1/events?types=${types.join(',')}`, { token });
    expect(rest.status).toBe(400);
    expect(rest.body.message).toMatch(/types holds 5000 entries/);
    const graphql = await post(
      service.url,
      '/graphql',
      { query: 'query($t: [String!]) { events(types: $t) { nextCursor } }', variables: { t: types } },
      token,
    );
    expect(graphql.body.errors[0].extensions).toMatchObject({ code: 'invalid_request', statusCode: 400 });
  });

  test('an events cursor beyond the dates a clock can hold is 400 naming it, on REST and GraphQL', async () => {
    for (const time of ['8640000000000001', '99999999999999999999', '-1']) {
      const after = Buffer.from(`${time}.evt_x`).toString('base64url');
      const rest = await request(service.url, 'GET', `/v1/events?after=${after}`, { token });
      expect(rest).toMatchObject({ status: 400, body: { code: 'invalid_request', message: expect.stringMatching(/^after/) } });
      const graphql = await post(service.url, '/graphql', { query: `{ events(after: "${after}") { nextCursor } }` }, token);
      expect(graphql.body.errors[0].extensions).toMatchObject({ code: 'invalid_request', statusCode: 400 });
    }
  });
});
