import crypto from 'node:crypto';
// Malformed input of any shape is a 4xx and changes nothing, on SQLite and PostgreSQL alike
// (docs/reference.md § Limits): JSON nested thousands deep, and text with U+0000 (PostgreSQL's error 22021)
// wherever input enters: REST bodies, GraphQL variables, the token call (JSON and form), the
// browser hops' paths and query strings, and signed webhooks. GraphQL literals are input as
// variables are: a date out of range or a NUL written into the operation itself is 400 too.
import type { SandboxPos } from '../../src/sandbox/pos/server.js';
import { startPos, testSecrets } from '../support/sandbox.js';
import { createOrg } from '../support/flows.js';
import { signBody } from '../../src/common/signatures.js';
import { graphqlPost, post, request, startTestService, type TestService } from '../support/service.js';

let service: TestService;
let pos: SandboxPos;
const secrets = testSecrets();
let token: string;
let clientId: string;
let orgId: string;

beforeAll(async () => {
  service = await startTestService();
  pos = await startPos(service, secrets);
  const partner = await service.partner();
  token = partner.token;
  clientId = partner.clientId;
  orgId = (await createOrg(service.url, token)).orgId;
});
afterAll(async () => {
  await pos?.close();
  await service?.stop();
});

/** Row counts of every table input could reach. */
async function counts() {
  const db = service.services.db;
  return Promise.all([
    db.organization.count(),
    db.user.count(),
    db.onboarding.count(),
    db.session.count(),
    db.webhookEvent.count(),
    db.order.count(),
    db.ssoToken.count(),
  ]);
}

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const NUL = '\u0000';

test('JSON nested thousands deep is 400 on REST, GraphQL and the token call', async () => {
  const before = await counts();
  for (const depth of [65, 5000, 100_000]) {
    const body = `{"name":"X","provider_id":"deep","user":{"email":"a@b.example","first_name":${nested(depth)}}}`;
    const rest = await request(service.url, 'POST', '/v1/onboarding/org', {
      token,
      raw: body,
      headers: { 'content-type': 'application/json' },
    });
    expect({ depth, status: rest.status, code: rest.body.code }).toEqual({ depth, status: 400, code: 'invalid_request' });
    const gql = await request(service.url, 'POST', '/graphql', {
      token,
      raw: `{"query":"{ __typename }","variables":{"x":${nested(depth)}}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect({ depth, status: gql.status }).toEqual({ depth, status: 400 });
    const tokenCall = await request(service.url, 'POST', '/v1/oauth/token', {
      raw: `{"grant_type":"client_credentials","client_id":${nested(depth)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect({ depth, status: tokenCall.status }).toEqual({ depth, status: 400 });
  }
  // An ordinary order, nested as deep as docs/reference.md's modifiers go, passes.
  const fine = await post(
    service.url,
    '/v1/onboarding/org',
    { name: 'Fine', provider_id: 'fine', user: { email: 'a@fine.example', first_name: 'A' } },
    token,
  );
  expect(fine.status).toBe(201);
  const after = await counts();
  expect(after[0]).toBe(before[0] + 1);
});

test('a NUL character is 400 wherever input enters, before either database sees it', async () => {
  const before = await counts();
  const form = (fields: Record<string, string>) => ({
    raw: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const webhookBody = JSON.stringify({ type: 'location.catalog.updated', object: { location_id: `loc${NUL}1` } });
  const answers = {
    rest: await post(service.url, '/v1/onboarding/org', { name: `X${NUL}`, provider_id: 'nul', user: { email: 'a@nul.example' } }, token),
    restKey: await post(
      service.url,
      '/v1/onboarding/org',
      { name: 'X', provider_id: 'nul2', user: { email: 'a@nul.example', [`x${NUL}`]: 1 } },
      token,
    ),
    graphql: await post(
      service.url,
      '/graphql',
      { query: 'query($id: ID!) { organization(id: $id) { id } }', variables: { id: `org${NUL}` } },
      token,
    ),
    graphqlGet: await request(service.url, 'GET', `/graphql?query=${encodeURIComponent(`{ organization(id: "a${NUL}") { id } }`)}`, {
      token,
      headers: { accept: 'application/json' },
    }),
    tokenJson: await post(service.url, '/v1/oauth/token', {
      grant_type: 'client_credentials',
      client_id: `${clientId}${NUL}`,
      client_secret: 'x',
    }),
    tokenForm: await request(
      service.url,
      'POST',
      '/v1/oauth/token',
      form({ grant_type: 'client_credentials', client_id: `${clientId}${NUL}`, client_secret: 'x' }),
    ),
    restPath: await request(service.url, 'GET', `/v1/onboarding/org/${orgId}%00/locations`, { token }),
    restQuery: await request(service.url, 'GET', '/v1/onboarding/locations?onboarding_id=onb%00', { token }),
    startHop: await request(service.url, 'GET', '/v1/onboarding/integrations/onb%00x/start'),
    callback: await request(service.url, 'GET', '/v1/onboarding/callback?code=a%00b&state=x'),
    ssoLogin: await request(service.url, 'GET', '/v1/sso/login?token=a%00b'),
    webhook: await request(service.url, 'POST', '/v1/webhooks/pos/sandbox-pos', {
      raw: webhookBody,
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'nul-test',
        'service-webhook-signature': signBody(webhookBody, secrets.webhookSecret),
      },
    }),
  };
  const statuses = Object.fromEntries(Object.entries(answers).map(([name, res]) => [name, res.status]));
  expect(statuses).toEqual(Object.fromEntries(Object.keys(answers).map((name) => [name, 400])));
  expect(answers.rest.body).toMatchObject({
    statusCode: 400,
    code: 'invalid_request',
    message: expect.stringContaining('name contains a NUL character'),
  });
  expect(answers.webhook.body).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('object.location_id') });
  expect(await counts()).toEqual(before);
});

test('a text longer than its field takes is 400 naming the field, never a 5xx from an index, on both databases', async () => {
  const before = await counts();
  // Random, so that PostgreSQL cannot compress it under its index entry's 2,704 bytes.
  const random = (length: number) => crypto.randomBytes(length).toString('base64').slice(0, length);
  const org = await post(
    service.url,
    '/v1/onboarding/org',
    { name: 'Long', provider_id: random(3000), user: { email: 'l@l.example' } },
    token,
  );
  expect(org).toMatchObject({
    status: 400,
    body: { code: 'invalid_request', message: 'the request body: provider_id is longer than 512 characters' },
  });
  const variable = await post(
    service.url,
    '/graphql',
    {
      query: 'mutation($i: CreateOrganizationInput!) { createOrganization(input: $i) { orgId } }',
      variables: { i: { name: 'L', providerId: random(3000) } },
    },
    token,
  );
  expect(variable.body.errors[0]).toMatchObject({
    extensions: { code: 'invalid_request', statusCode: 400 },
    message: expect.stringMatching(/providerId is longer than 512/),
  });
  // Written into the operation's text, it reaches the database, which cannot index it: still a 400.
  const literal = await post(
    service.url,
    '/graphql',
    { query: `mutation { createOrganization(input: { name: "L", providerId: "${random(3000)}" }) { orgId } }` },
    token,
  );
  expect(literal.status).toBeLessThan(500);
  const order = await post(service.url, '/graphql', { query: `{ order(id: "${random(3000)}") { id } }` }, token);
  expect(order.body.errors[0].extensions.code).toBe('not_found');
  // A webhook's id is its dedupe key: 255 characters at most, as a partner's Idempotency-Key.
  const body = JSON.stringify({ type: 'location.catalog.updated', object: { location_id: 'loc_1' } });
  const hook = await request(service.url, 'POST', '/v1/webhooks/pos/sandbox-pos', {
    raw: body,
    headers: {
      'content-type': 'application/json',
      'idempotency-key': random(4000),
      'service-webhook-signature': signBody(body, secrets.webhookSecret),
    },
  });
  expect(hook).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
  // A customer's instructions may be long, up to 16 KB.
  const instructions = await post(
    service.url,
    '/v1/onboarding/org',
    { name: 'x'.repeat(20_000), provider_id: 'long-name', user: { email: 'n@n.example' } },
    token,
  );
  expect(instructions).toMatchObject({ status: 400, body: { message: 'the request body: name is longer than 16384 characters' } });
  expect(await counts()).toEqual(before);
});

describe('GraphQL literals are input too', () => {
  test('a date out of range is 400 naming the field, as a literal and as a variable, on both databases', async () => {
    for (const from of ['1e308', '-1', '253402300800000']) {
      const literal = await graphqlPost(service.url, token, `{ orders(orgId: "${orgId}", from: ${from}) { orders { id } } }`);
      expect(literal.body.errors[0].extensions).toMatchObject({ code: 'invalid_request', statusCode: 400 });
      expect(literal.body.errors[0].message).toMatch(/^from must be epoch milliseconds/);
    }
    const variable = await graphqlPost(service.url, token, 'query($o: ID!, $t: Float) { orders(orgId: $o, to: $t) { orders { id } } }', {
      o: orgId,
      t: 1e308,
    });
    expect(variable.body.errors[0].message).toMatch(/^to must be epoch milliseconds/);
    const infinite = await graphqlPost(service.url, token, `{ orders(orgId: "${orgId}", from: 1e400) { orders { id } } }`);
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
    const res = await graphqlPost(service.url, token, query, {}, { accept: 'application/graphql-response+json' });
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
        token,
      },
    );
    expect(viaGet.body.errors[0].message).toBe('a string literal of the operation contains a NUL character (U+0000)');
    expect(await service.services.db.organization.count()).toBe(before);
  });
});
