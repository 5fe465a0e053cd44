// GraphQL operations are bounded before they run (docs/reference.md § Partner API): tokens, depth, aliases,
// directives and cost. Over a bound the answer is 400 `query_too_complex` and nothing runs; the
// queries real clients send (GraphiQL's introspection, the API's own operations) pass.
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { getIntrospectionQuery } from 'graphql';
import { createOrg } from '../support/flows.js';
import { post, startTestService, type TestService } from '../support/service.js';

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
