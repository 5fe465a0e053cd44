// Idempotency-Key on every partner write: a request retried after a timeout never makes a second
// organization. The first answer is replayed to the same request under the same key; another
// request under it is refused; two at once run once; a 5xx is not kept, so a retry runs again.
import type { SandboxPos } from '../../src/sandbox/pos/server.js';
import { startPos, testSecrets } from '../support/sandbox.js';
import { completeOnboarding, createOrg } from '../support/flows.js';
import { request, startTestService, type TestService } from '../support/service.js';

let service: TestService;
let token: string;
let pos: SandboxPos;
const secrets = testSecrets();

beforeAll(async () => {
  // Endpoints at public names: resolved as a public address would be, with no network.
  service = await startTestService({}, { resolveHost: async () => ['93.184.216.34'] });
  pos = await startPos(service, secrets);
  token = (await service.partner()).token;
});
afterAll(async () => {
  await pos?.close();
  await service?.stop();
});

const organization = (id: string) => ({ name: `Merchant ${id}`, provider_id: id, user: { email: `owner@${id}.example` } });
const createOrgUnder = (key: string, body: unknown) =>
  request(service.url, 'POST', '/v1/onboarding/org', { body, token, headers: { 'idempotency-key': key } });
const orgsWith = (providerId: string) => service.services.db.organization.count({ where: { providerId } });

test('the same request under the same key gets the first answer again, and changes nothing', async () => {
  const first = await createOrgUnder('key-1', organization('idem-1'));
  expect(first.status).toBe(201);
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  const again = await createOrgUnder('key-1', organization('idem-1'));
  expect(again.status).toBe(201);
  expect(again.body).toEqual(first.body);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.headers.get('content-type')).toMatch(/application\/json/);
  expect(await orgsWith('idem-1')).toBe(1);
  // Without a key, the same body is a new request: refused as a duplicate organization.
  expect((await request(service.url, 'POST', '/v1/onboarding/org', { body: organization('idem-1'), token })).status).toBe(409);
});

test('another request under a used key is 422 idempotency_key_reused; a refusal (4xx) is kept like any answer', async () => {
  await createOrgUnder('key-2', organization('idem-2'));
  const other = await createOrgUnder('key-2', organization('idem-2-other'));
  expect(other).toMatchObject({ status: 422, body: { code: 'idempotency_key_reused' } });
  expect(await orgsWith('idem-2-other')).toBe(0);
  const invalid = await createOrgUnder('key-3', { name: 'no user' });
  expect(invalid.status).toBe(400);
  const replayed = await createOrgUnder('key-3', { name: 'no user' });
  expect(replayed).toMatchObject({ status: 400, body: invalid.body });
  expect(replayed.headers.get('idempotent-replayed')).toBe('true');
  expect((await createOrgUnder('x'.repeat(256), organization('idem-long'))).status).toBe(400);
  expect((await createOrgUnder('', organization('idem-empty'))).status).toBe(400);
});

test('two requests under one key at once make one organization; the other is told to wait, then gets the answer', async () => {
  const answers = await Promise.all(Array.from({ length: 6 }, () => createOrgUnder('key-race', organization('idem-race'))));
  expect(await orgsWith('idem-race')).toBe(1);
  const statuses = answers.map((a) => a.status);
  expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
  expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
  for (const busy of answers.filter((a) => a.status === 409)) expect(busy.body.code).toBe('idempotency_key_in_use');
  const settled = await createOrgUnder('key-race', organization('idem-race'));
  expect(settled).toMatchObject({ status: 201, body: answers.find((a) => a.status === 201)!.body });
});

test('GraphQL mutations over HTTP take the key; queries pass as ever', async () => {
  const mutation = {
    query: 'mutation Make($input: CreateOrganizationInput!) { createOrganization(input: $input) { orgId } }',
    variables: { input: { name: 'G', providerId: 'idem-graphql', user: { email: 'g@example.com' } } },
  };
  const call = (body: unknown) => request(service.url, 'POST', '/graphql', { body, token, headers: { 'idempotency-key': 'gql-1' } });
  const first = await call(mutation);
  expect(first.body.errors).toBeUndefined();
  const again = await call(mutation);
  expect(again.body).toEqual(first.body);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(await orgsWith('idem-graphql')).toBe(1);
  const query = await request(service.url, 'POST', '/graphql', {
    body: { query: '{ __typename }' },
    token,
    headers: { 'idempotency-key': 'gql-1' },
  });
  expect(query.headers.get('idempotent-replayed')).toBeNull();
  expect(query.body.errors).toBeUndefined();
});

test('a 5xx answer is not kept: the same request under the same key runs again once the POS is back', async () => {
  const { orgId } = await createOrg(service.url, token);
  const onboarding = await completeOnboarding(service.url, token, orgId, 'pos');
  const port = Number(new URL(pos.url).port);
  await pos.close();
  const ingest = () =>
    request(service.url, 'POST', '/v1/onboarding/locations/ingest', {
      body: { onboarding_id: onboarding._id, locations: [{ provider_id: `loc_2_${onboarding.integration_id}` }] },
      token,
      headers: { 'idempotency-key': 'ingest-1' },
    });
  const down = await ingest();
  expect(down.status).toBeGreaterThanOrEqual(500);
  pos = await startPos(service, secrets, port);
  const back = await ingest();
  expect(back.status).toBe(201);
  expect(back.headers.get('idempotent-replayed')).toBeNull();
  expect((await ingest()).headers.get('idempotent-replayed')).toBe('true');
});

test('a key is kept 24 hours: after that, it is a new request', async () => {
  await createOrgUnder('key-old', organization('idem-old'));
  await service.services.db.idempotencyKey.updateMany({
    where: { key: 'key-old' },
    data: { createdAt: new Date(Date.now() - 25 * 3600 * 1000) },
  });
  const later = await createOrgUnder('key-old', organization('idem-old-2'));
  expect(later.status).toBe(201);
  expect(later.headers.get('idempotent-replayed')).toBeNull();
});

describe('a kept answer holds no credential in the clear, and goes only to a caller like the first', () => {
  const keyed = (method: string, path: string, body: unknown, auth: string, key: string) =>
    request(service.url, method, path, { body, token: auth, headers: { 'idempotency-key': key } });
  const keptBody = async (key: string) =>
    (await service.services.db.idempotencyKey.findFirstOrThrow({ where: { key } })).responseBody ?? '';

  test('tokens, webhook secrets and SSO login tokens are kept sealed, and replayed whole', async () => {
    const { orgId } = await createOrg(service.url, token);
    const minted = await keyed('POST', '/v1/oauth/partner-tokens', { org_id: orgId, token_name: 't', scopes: ['user'] }, token, 'seal-1');
    expect(minted.status).toBe(201);
    const endpoint = await keyed('POST', '/v1/webhook-endpoints', { url: 'https://hooks.example.com/x' }, token, 'seal-2');
    expect(endpoint.status).toBe(201);
    const sso = await keyed(
      'POST',
      '/v1/sso/sessions',
      {
        email: 'o@seal.example',
        full_name: 'O',
        phone_number: '1',
        role: 'owner',
        provider_org_id: (await service.services.db.organization.findUniqueOrThrow({ where: { id: orgId } })).providerId,
      },
      token,
      'seal-3',
    );
    expect(sso.status).toBe(201);
    const graphql = await keyed(
      'POST',
      '/graphql',
      { query: `mutation { createPartnerToken(input: { orgId: "${orgId}", tokenName: "g", scopes: [user] }) { accessToken } }` },
      token,
      'seal-4',
    );
    const secrets = [
      minted.body.access_token,
      endpoint.body.secret,
      sso.body.sso_login_token,
      graphql.body.data.createPartnerToken.accessToken,
    ];
    for (const [i, secret] of secrets.entries()) {
      expect(secret).toEqual(expect.any(String));
      expect(await keptBody(`seal-${i + 1}`)).not.toContain(secret);
      expect(await keptBody(`seal-${i + 1}`)).toMatch(/^v1\./);
    }
    // The same request again gets the very same answer, opened.
    const again = await keyed('POST', '/v1/webhook-endpoints', { url: 'https://hooks.example.com/x' }, token, 'seal-2');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.secret).toBe(endpoint.body.secret);
  });

  test("an organization token, or a narrower token, replaying the partner login's key gets no answer of it", async () => {
    const partner = await service.partner();
    const { orgId } = await createOrg(service.url, partner.token);
    const first = await keyed('POST', '/v1/webhook-endpoints', { url: 'https://hooks.example.com/y' }, partner.token, 'replay-1');
    expect(first.status).toBe(201);
    const orgToken = (
      await request(service.url, 'POST', '/v1/oauth/partner-tokens', {
        token: partner.token,
        body: { org_id: orgId, token_name: 'o', scopes: ['user', 'onboarding'] },
      })
    ).body.access_token as string;
    const billing = (
      await request(service.url, 'POST', '/v1/oauth/token', {
        body: { grant_type: 'client_credentials', client_id: partner.clientId, client_secret: partner.clientSecret, scopes: ['billing'] },
      })
    ).body.access_token as string;
    for (const other of [orgToken, billing]) {
      const replayed = await keyed('POST', '/v1/webhook-endpoints', { url: 'https://hooks.example.com/y' }, other, 'replay-1');
      expect(replayed.status).toBe(422);
      expect(replayed.body.code).toBe('idempotency_key_reused');
      expect(replayed.headers.get('idempotent-replayed')).toBeNull();
      expect(JSON.stringify(replayed.body)).not.toContain(first.body.secret);
    }
    // An onboarding started by the partner login is not replayed to a user-only token of the same
    // partner, and the refusal names nothing of the first request.
    const onboarding = { org_id: orgId, source: 'sandbox-pos', type: 'pos', return_url: 'https://partner.example/back' };
    const started = await keyed('POST', '/v1/onboarding/integrations', onboarding, partner.token, 'replay-2');
    expect(started.status).toBe(201);
    const userOnly = (
      await request(service.url, 'POST', '/v1/oauth/partner-tokens', {
        token: partner.token,
        body: { org_id: orgId, token_name: 'u', scopes: ['user'] },
      })
    ).body.access_token as string;
    const refused = await keyed('POST', '/v1/onboarding/integrations', onboarding, userOnly, 'replay-2');
    expect(refused.status).toBe(422);
    expect(refused.body.message).not.toContain(orgId);
    expect(refused.body.message).not.toContain('/v1/');
  });
});
