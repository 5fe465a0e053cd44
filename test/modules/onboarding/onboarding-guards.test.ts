// Tenant isolation and bad input on every onboarding operation: a second partner gets 404 for
// every id of the first; bad input gets 400/404 with the docs/reference.md body; neither changes anything.
// An OAuth code completes only the onboarding it came back for, with PKCE toward the provider.
// (Binding and freeing DSP stores: ../locations/locations.test.ts.)
import type { SandboxPos } from '../../../src/sandbox/pos/server.js';
import { authorizeInBrowser, startPos } from '../../support/sandbox.js';
import { completeOnboarding, createOrg, dspStores } from '../../support/flows.js';
import { get, post, request, startTestService, type TestService } from '../../support/service.js';

let service: TestService;
let pos: SandboxPos;
let a: {
  token: string;
  partnerId: string;
  orgId: string;
  providerOrgId: string;
  posOnboarding: string;
  dspOnboarding: string;
  location: string;
  connection: string;
  store: string;
};
let b: { token: string; partnerId: string; dspOnboarding: string; orgId: string };

beforeAll(async () => {
  service = await startTestService();
  pos = await startPos(service);
  const pa = await service.partner();
  const { orgId: orgA } = await createOrg(service.url, pa.token, 'org-a');
  const posA = await completeOnboarding(service.url, pa.token, orgA, 'pos');
  const loc = (
    await post(
      service.url,
      '/v1/onboarding/locations/ingest',
      { onboarding_id: posA._id, locations: [{ provider_id: `loc_${posA.integration_id}_de` }] },
      pa.token,
    )
  ).body.locations[0]._id;
  const dspA = await completeOnboarding(service.url, pa.token, orgA, 'dsp');
  const store = (await dspStores(service.url, pa.token, dspA._id)).berlin!;
  const conn = (
    await post(
      service.url,
      '/v1/onboarding/locations/bind',
      { onboarding_id: dspA._id, locations: [{ pos_location_id: loc, dsp_provider_id: store, dsp_store_name: 'A store' }] },
      pa.token,
    )
  ).body.locations[0]._id;
  a = {
    token: pa.token,
    partnerId: pa.partnerId,
    orgId: orgA,
    providerOrgId: 'org-a',
    posOnboarding: posA._id,
    dspOnboarding: dspA._id,
    location: loc,
    connection: conn,
    store,
  };
  const pb = await service.partner();
  const { orgId: orgB } = await createOrg(service.url, pb.token, 'org-b');
  const dspB = await completeOnboarding(service.url, pb.token, orgB, 'dsp');
  b = { token: pb.token, partnerId: pb.partnerId, dspOnboarding: dspB._id, orgId: orgB };
});
afterAll(async () => {
  await pos?.close();
  await service?.stop();
});

/** Every table's row count, and the state of the rows these tests could touch. */
async function snapshot() {
  const db = service.services.db;
  const [orgs, users, onboardings, locations, connections, outbox, sso, tokens] = await Promise.all([
    db.organization.count(),
    db.user.count(),
    db.onboarding.findMany({ select: { id: true, status: true }, orderBy: { id: 'asc' } }),
    db.location.findMany({ select: { id: true, status: true }, orderBy: { id: 'asc' } }),
    db.store.findMany({ select: { id: true, assignedMenus: true, status: true }, orderBy: { id: 'asc' } }),
    db.outboxMessage.count(),
    db.ssoToken.count(),
    db.session.count(),
  ]);
  return { orgs, users, onboardings, locations, connections, outbox, sso, tokens };
}

type Call = [name: string, method: string, path: () => string, body: () => unknown, status: number, code?: string];

test('a second partner gets 404 for every id of the first, on every operation, and changes nothing', async () => {
  const calls: Call[] = [
    ['onboarding status', 'GET', () => `/v1/onboarding/integrations/${a.posOnboarding}`, () => undefined, 404],
    ['complete', 'POST', () => `/v1/onboarding/integrations/${a.posOnboarding}/complete`, () => ({ code: 'x' }), 404],
    [
      'initialize for their org',
      'POST',
      () => '/v1/onboarding/integrations',
      () => ({ org_id: a.orgId, source: 'sandbox-pos', type: 'pos', return_url: 'https://x.example' }),
      404,
    ],
    ['onboarding locations', 'GET', () => `/v1/onboarding/locations?onboarding_id=${a.posOnboarding}`, () => undefined, 404],
    [
      'ingest',
      'POST',
      () => '/v1/onboarding/locations/ingest',
      () => ({ onboarding_id: a.posOnboarding, locations: [{ provider_id: 'loc_x' }] }),
      404,
    ],
    [
      'bind with their onboarding',
      'POST',
      () => '/v1/onboarding/locations/bind',
      () => ({ onboarding_id: a.dspOnboarding, locations: [{ pos_location_id: a.location, dsp_provider_id: 's', dsp_store_name: 'n' }] }),
      404,
    ],
    [
      'bind their location to own DSP onboarding',
      'POST',
      () => '/v1/onboarding/locations/bind',
      () => ({ onboarding_id: b.dspOnboarding, locations: [{ pos_location_id: a.location, dsp_provider_id: 's2', dsp_store_name: 'n' }] }),
      404,
    ],
    ['menus', 'PUT', () => '/v1/onboarding/menus', () => ({ org_id: a.orgId, dsp_location_id: a.connection, menu_provider_ids: [] }), 404],
    [
      'menus on own org with their connection',
      'PUT',
      () => '/v1/onboarding/menus',
      () => ({ org_id: b.orgId, dsp_location_id: a.connection, menu_provider_ids: [] }),
      404,
    ],
    ['org locations', 'GET', () => `/v1/onboarding/org/${a.orgId}/locations`, () => undefined, 404],
    ['delete location', 'DELETE', () => `/v1/onboarding/org/${a.orgId}/locations/${a.location}`, () => undefined, 404],
    [
      'sso for their org',
      'POST',
      () => '/v1/sso/sessions',
      () => ({ email: 'x@x.example', full_name: 'X', phone_number: '1', provider_org_id: a.providerOrgId }),
      404,
    ],
    [
      'partner token for their org',
      'POST',
      () => '/v1/oauth/partner-tokens',
      () => ({ org_id: a.orgId, token_name: 't', scopes: ['user'] }),
      404,
    ],
  ];
  const before = await snapshot();
  for (const [name, method, path, body, status] of calls) {
    const res = await request(service.url, method, path(), { token: b.token, body: body() });
    expect({ name, status: res.status, body: res.body }).toEqual({
      name,
      status,
      body: { statusCode: status, error: 'Not Found', code: 'not_found', message: expect.any(String) },
    });
  }
  expect(await snapshot()).toEqual(before);
});

test('bad input on every operation is 400/403/404 with the docs/reference.md body and changes nothing', async () => {
  const calls: Call[] = [
    ['create org without user', 'POST', () => '/v1/onboarding/org', () => ({ name: 'X', provider_id: 'x' }), 400, 'invalid_request'],
    [
      'create org with a bad email',
      'POST',
      () => '/v1/onboarding/org',
      () => ({ name: 'X', provider_id: 'x', user: { email: 'nope' } }),
      400,
      'invalid_request',
    ],
    [
      'create org twice',
      'POST',
      () => '/v1/onboarding/org',
      () => ({ name: 'A', provider_id: 'org-a', user: { email: 'a@a.example' } }),
      409,
      'conflict',
    ],
    [
      'initialize without return_url',
      'POST',
      () => '/v1/onboarding/integrations',
      () => ({ org_id: a.orgId, source: 'sandbox-pos', type: 'pos' }),
      400,
      'invalid_request',
    ],
    [
      'initialize with an unknown type',
      'POST',
      () => '/v1/onboarding/integrations',
      () => ({ org_id: a.orgId, source: 'sandbox-pos', type: 'kiosk', return_url: 'https://x.example' }),
      400,
      'invalid_request',
    ],
    [
      'initialize with an unknown source',
      'POST',
      () => '/v1/onboarding/integrations',
      () => ({ org_id: a.orgId, source: 'nowhere', type: 'pos', return_url: 'https://x.example' }),
      400,
      'invalid_request',
    ],
    [
      'initialize a DSP source as a POS',
      'POST',
      () => '/v1/onboarding/integrations',
      () => ({ org_id: a.orgId, source: 'sandbox-dsp', type: 'pos', return_url: 'https://x.example' }),
      400,
      'invalid_request',
    ],
    [
      'initialize with a bad return_url',
      'POST',
      () => '/v1/onboarding/integrations',
      () => ({ org_id: a.orgId, source: 'sandbox-pos', type: 'pos', return_url: 'javascript:alert(1)' }),
      400,
      'invalid_request',
    ],
    [
      'initialize for an unknown org',
      'POST',
      () => '/v1/onboarding/integrations',
      () => ({ org_id: 'org_missing', source: 'sandbox-pos', type: 'pos', return_url: 'https://x.example' }),
      404,
      'not_found',
    ],
    ['status of an unknown onboarding', 'GET', () => '/v1/onboarding/integrations/onb_missing', () => undefined, 404, 'not_found'],
    ['complete without code', 'POST', () => `/v1/onboarding/integrations/${a.posOnboarding}/complete`, () => ({}), 400, 'invalid_request'],
    [
      'complete with a number as code',
      'POST',
      () => `/v1/onboarding/integrations/${a.posOnboarding}/complete`,
      () => ({ code: 42 }),
      400,
      'invalid_request',
    ],
    ['locations without onboarding_id', 'GET', () => '/v1/onboarding/locations', () => undefined, 400, 'invalid_request'],
    [
      'ingest nothing',
      'POST',
      () => '/v1/onboarding/locations/ingest',
      () => ({ onboarding_id: a.posOnboarding, locations: [] }),
      400,
      'invalid_request',
    ],
    [
      'ingest a location the POS does not have',
      'POST',
      () => '/v1/onboarding/locations/ingest',
      () => ({ onboarding_id: a.posOnboarding, locations: [{ provider_id: 'loc_elsewhere' }] }),
      400,
      'invalid_request',
    ],
    [
      'ingest with the wrong type',
      'POST',
      () => '/v1/onboarding/locations/ingest',
      () => ({ onboarding_id: a.posOnboarding, locations: 'loc_x' }),
      400,
      'invalid_request',
    ],
    [
      'bind an unknown location',
      'POST',
      () => '/v1/onboarding/locations/bind',
      () => ({
        onboarding_id: a.dspOnboarding,
        locations: [{ pos_location_id: 'loc_missing', dsp_provider_id: 's', dsp_store_name: 'n' }],
      }),
      404,
      'not_found',
    ],
    [
      'bind without a store name',
      'POST',
      () => '/v1/onboarding/locations/bind',
      () => ({ onboarding_id: a.dspOnboarding, locations: [{ pos_location_id: a.location, dsp_provider_id: 's' }] }),
      400,
      'invalid_request',
    ],
    [
      'bind through a POS onboarding',
      'POST',
      () => '/v1/onboarding/locations/bind',
      () => ({ onboarding_id: a.posOnboarding, locations: [{ pos_location_id: a.location, dsp_provider_id: 's', dsp_store_name: 'n' }] }),
      400,
      'invalid_request',
    ],
    [
      'bind a store that is already bound',
      'POST',
      () => '/v1/onboarding/locations/bind',
      () => ({
        onboarding_id: a.dspOnboarding,
        locations: [{ pos_location_id: a.location, dsp_provider_id: a.store, dsp_store_name: 'n' }],
      }),
      409,
      'conflict',
    ],
    [
      'menus without the list',
      'PUT',
      () => '/v1/onboarding/menus',
      () => ({ org_id: a.orgId, dsp_location_id: a.connection }),
      400,
      'invalid_request',
    ],
    [
      'menus not in the catalog',
      'PUT',
      () => '/v1/onboarding/menus',
      () => ({ org_id: a.orgId, dsp_location_id: a.connection, menu_provider_ids: ['menu_nope'] }),
      400,
      'invalid_request',
    ],
    [
      'menus of an unknown connection',
      'PUT',
      () => '/v1/onboarding/menus',
      () => ({ org_id: a.orgId, dsp_location_id: 'dsp_missing', menu_provider_ids: [] }),
      404,
      'not_found',
    ],
    ['locations of an unknown org', 'GET', () => '/v1/onboarding/org/org_missing/locations', () => undefined, 404, 'not_found'],
    [
      'delete an unknown location',
      'DELETE',
      () => `/v1/onboarding/org/${a.orgId}/locations/loc_missing`,
      () => undefined,
      404,
      'not_found',
    ],
    [
      'sso with an unknown role',
      'POST',
      () => '/v1/sso/sessions',
      () => ({ email: 'x@x.example', full_name: 'X', phone_number: '1', role: 'boss', provider_org_id: a.providerOrgId }),
      400,
      'invalid_request',
    ],
    [
      'sso without a phone number',
      'POST',
      () => '/v1/sso/sessions',
      () => ({ email: 'x@x.example', full_name: 'X', provider_org_id: a.providerOrgId }),
      400,
      'invalid_request',
    ],
    [
      'sso naming another partner',
      'POST',
      () => `/v1/sso/sessions?partner_id=${b.partnerId}`,
      () => ({ email: 'x@x.example', full_name: 'X', phone_number: '1', provider_org_id: a.providerOrgId }),
      403,
      'forbidden',
    ],
    [
      'sso for an unknown org',
      'POST',
      () => '/v1/sso/sessions',
      () => ({ email: 'x@x.example', full_name: 'X', phone_number: '1', provider_org_id: 'org-zzz' }),
      404,
      'not_found',
    ],
  ];
  const before = await snapshot();
  for (const [name, method, path, body, status, code] of calls) {
    const res = await request(service.url, method, path(), { token: a.token, body: body() });
    expect({ name, status: res.status, body: res.body }).toEqual({
      name,
      status,
      body: { statusCode: status, error: expect.any(String), code, message: expect.any(String) },
    });
  }
  expect(await snapshot()).toEqual(before);
});

test('a token without the onboarding scope is 403 on onboarding operations', async () => {
  const userOnly = await service.partner(['user']);
  const res = await post(
    service.url,
    '/v1/onboarding/integrations',
    { org_id: a.orgId, source: 'sandbox-pos', type: 'pos', return_url: 'https://x.example' },
    userOnly.token,
  );
  expect(res.status).toBe(403);
  expect(res.body.code).toBe('insufficient_scope');
});

test('a forged or expired state at the callback is refused', async () => {
  const res = await request(service.url, 'GET', '/v1/onboarding/callback?code=abc&state=forged');
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ statusCode: 400, code: 'invalid_state' });
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
