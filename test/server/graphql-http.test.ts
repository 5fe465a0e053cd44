// GraphQL over HTTP: a partner's POST of one operation is answered without Yoga's HTTP layer
// (src/server/graphql-post.ts), a browser's by Yoga. Every kind of request, good or bad, gets the
// same answer either way: status, content type and body.
import type { FastifyRequest } from 'fastify';
import { commonOperation } from '../../src/server/graphql-post.js';
import { request, startTestService, type TestService } from '../support/service.js';

let service: TestService;
let token: string;
beforeAll(async () => {
  service = await startTestService();
  token = (await service.partner()).token;
});
afterAll(async () => {
  await service?.stop();
});

const ORG_LOCATIONS = 'query L($orgId: ID!) { organizationLocations(orgId: $orgId) { locations { id dsps { id } } } }';
const GRAPHQL_REQUEST_ACCEPT = 'application/graphql-response+json, application/json';

const cases: { name: string; body: unknown; anonymous?: boolean; token?: string }[] = [
  { name: 'a query', body: { query: '{ __typename }' } },
  {
    name: 'a query with variables and an operation name',
    body: { query: ORG_LOCATIONS, variables: { orgId: 'org_unknown' }, operationName: 'L' },
  },
  { name: 'one of two operations, by name', body: { query: `${ORG_LOCATIONS} query T { __typename }`, operationName: 'T' } },
  { name: 'a domain error (unknown organization)', body: { query: ORG_LOCATIONS, variables: { orgId: 'org_unknown' } } },
  {
    name: 'a mutation rejected by the domain',
    body: { query: 'mutation { ingestLocations(input: { onboardingId: "onb_x", locations: [] }) { locations { id } } }' },
  },
  { name: 'no token', body: { query: ORG_LOCATIONS, variables: { orgId: 'org_unknown' } }, anonymous: true },
  { name: 'a token that is not ours', body: { query: ORG_LOCATIONS, variables: { orgId: 'org_unknown' } }, token: 'not-a-token' },
  { name: 'a variable of the wrong type', body: { query: ORG_LOCATIONS, variables: { orgId: { not: 'an id' } } } },
  { name: 'a required variable missing', body: { query: ORG_LOCATIONS } },
  { name: 'a syntax error', body: { query: '{ __typename' } },
  { name: 'an unknown field', body: { query: '{ nothingHere }' } },
  { name: 'two operations, no name', body: { query: `${ORG_LOCATIONS} query T { __typename }` } },
  { name: 'an unknown parameter', body: { query: '{ __typename }', persisted: true } },
  { name: 'variables as a list', body: { query: '{ __typename }', variables: [1] } },
  { name: 'a query that is not a string', body: { query: 42 } },
  { name: 'no query', body: { variables: {} } },
  { name: 'a subscription', body: { query: 'subscription { onboardingUpdated(id: "onb_x") { id } }' } },
];

async function answer(body: unknown, headers: Record<string, string>) {
  const res = await request(service.url, 'POST', '/graphql', {
    raw: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
  });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    body: res.body as unknown,
    cors: res.headers.get('access-control-allow-origin'),
  };
}

describe.each([
  ['no Accept header', {}],
  ['graphql-request’s Accept header', { accept: GRAPHQL_REQUEST_ACCEPT }],
  ['Accept: application/graphql-response+json', { accept: 'application/graphql-response+json' }],
])('%s', (_label, accept: Record<string, string>) => {
  test.each(cases)('$name: the same answer to a partner as to a browser', async ({ body, anonymous, token: ownToken }) => {
    const auth: Record<string, string> = anonymous ? {} : { authorization: `Bearer ${ownToken ?? token}` };
    const partner = await answer(body, { ...accept, ...auth });
    const browser = await answer(body, { ...accept, ...auth, origin: 'https://ops.example' });
    // The browser's answer is Yoga's (it carries CORS headers); the partner's is not a CORS answer.
    expect(browser.cors).toBe('https://ops.example');
    expect(partner.cors).toBeNull();
    expect({ status: partner.status, type: partner.type, body: partner.body }).toEqual({
      status: browser.status,
      type: browser.type,
      body: browser.body,
    });
  });
});

test('the answers themselves: data, a domain error with its code, a bad token, a request error', async () => {
  const auth = { authorization: `Bearer ${token}` };
  expect(await answer({ query: '{ __typename }' }, auth)).toMatchObject({
    status: 200,
    type: 'application/json; charset=utf-8',
    body: { data: { __typename: 'Query' } },
  });
  const unknown = await answer({ query: ORG_LOCATIONS, variables: { orgId: 'org_unknown' } }, auth);
  expect(unknown.body).toMatchObject({
    data: null,
    errors: [{ message: 'organization org_unknown not found', extensions: { code: 'not_found', statusCode: 404 } }],
  });
  const anonymous = await answer({ query: ORG_LOCATIONS, variables: { orgId: 'org_unknown' } }, {});
  expect(anonymous.body).toMatchObject({ errors: [{ extensions: { code: 'invalid_token', statusCode: 401 } }] });
  const badVariable = await answer(
    { query: ORG_LOCATIONS, variables: { orgId: { not: 'an id' } } },
    { ...auth, accept: GRAPHQL_REQUEST_ACCEPT },
  );
  expect(badVariable.body).toMatchObject({
    errors: [{ message: expect.stringContaining('$orgId'), extensions: { code: 'invalid_request', statusCode: 400 } }],
  });
});

describe('which requests skip Yoga’s HTTP layer', () => {
  const req = (over: { method?: string; headers?: Record<string, string>; body?: unknown }) =>
    ({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: { query: '{ __typename }' },
      ...over,
    }) as unknown as FastifyRequest;
  test('a POST of one operation from a partner, answered in the media type Yoga would choose', () => {
    expect(commonOperation(req({}))).toEqual({ params: { query: '{ __typename }' }, mediaType: 'application/json' });
    expect(commonOperation(req({ headers: { accept: GRAPHQL_REQUEST_ACCEPT } }))?.mediaType).toBe('application/graphql-response+json');
    expect(
      commonOperation(req({ body: { query: '{ a }', variables: { x: 1 }, operationName: 'A', extensions: null } }))?.params.operationName,
    ).toBe('A');
  });
  test.each([
    ['a GET', { method: 'GET', body: undefined }],
    ['a browser', { headers: { origin: 'https://ops.example' } }],
    ['server-sent events', { headers: { accept: 'text/event-stream' } }],
    ['an Accept header with parameters', { headers: { accept: 'application/json; charset=utf-8' } }],
    ['a batch', { body: [{ query: '{ a }' }] }],
    ['a body that is not JSON', { body: '{ __typename }' }],
    ['an unknown parameter', { body: { query: '{ a }', id: 'x' } }],
    ['variables that are not an object', { body: { query: '{ a }', variables: 'x' } }],
    ['an operation name that is not a string', { body: { query: '{ a }', operationName: 1 } }],
  ])('not %s', (_name, over) => {
    expect(commonOperation(req(over))).toBeUndefined();
  });
});
