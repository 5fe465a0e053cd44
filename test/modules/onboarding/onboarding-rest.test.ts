// The whole onboarding over REST against the sandbox POS (issue: organizations, onboarding,
// locations, menus, SSO): token → org → POS onboarding through the browser hops → locations →
// ingest → notices → DSP onboarding → bind → org locations → menus → delete → SSO.
import type { SandboxPos } from '../../../src/sandbox/pos/server.js';
import { authorizeInBrowser, startPos, testSecrets } from '../../support/sandbox.js';
import { get, post, request, startTestService, type TestService } from '../../support/service.js';

let service: TestService;
let pos: SandboxPos;
const secrets = testSecrets();
beforeAll(async () => {
  service = await startTestService({ OUTBOX_RETRY_BASE_MS: '50', OUTBOX_RETRY_MAX_MS: '400' });
  pos = await startPos(service, secrets);
});
afterAll(async () => {
  await pos?.close();
  await service?.stop();
});

const RETURN_URL = 'https://partner.example/onboarding/done?step=2';

test('a partner walks a merchant through POS and DSP onboarding, locations, menus, deletion and SSO', async () => {
  const partner = await service.partner();
  const t = partner.token;
  const org = (
    await post(
      service.url,
      '/v1/onboarding/org',
      { name: 'Sandbox Grill', provider_id: 'grill-1', user: { email: 'owner@grill.example' } },
      t,
    )
  ).body;

  // Initialize: pending, with entry_url our start hop.
  const init = await post(
    service.url,
    '/v1/onboarding/integrations',
    { org_id: org.org_id, source: 'sandbox-pos', type: 'pos', return_url: RETURN_URL },
    t,
  );
  expect(init.status).toBe(201);
  const onboarding = init.body.onboarding;
  expect(onboarding).toEqual({
    _id: expect.stringMatching(/^onb_/),
    org_id: org.org_id,
    merchant_id: org.org_id,
    type: 'pos',
    status: 'pending',
    partner_id: partner.partnerId,
    partner_org_id: 'grill-1',
    source: 'sandbox-pos',
    entry_url: `${service.url}/v1/onboarding/integrations/${onboarding._id}/start`,
    return_url: RETURN_URL,
    integration_id: null,
  });

  // The browser: start hop → POS consent form → our callback → the partner's return_url.
  const walk = await authorizeInBrowser(onboarding.entry_url);
  expect(walk.authorizeUrl.origin).toBe(pos.url);
  expect(walk.authorizeUrl.searchParams.get('redirect_uri')).toBe(`${service.url}/v1/onboarding/callback`);
  expect(walk.returned.origin + walk.returned.pathname).toBe('https://partner.example/onboarding/done');
  expect(walk.returned.searchParams.get('step')).toBe('2');
  expect(walk.onboardingId).toBe(onboarding._id);

  // A wrong code is refused clearly and leaves the onboarding completable.
  const wrong = await post(service.url, `/v1/onboarding/integrations/${onboarding._id}/complete`, { code: 'not-a-code' }, t);
  expect(wrong.status).toBe(400);
  expect(wrong.body).toMatchObject({ code: 'invalid_grant', message: expect.stringContaining('this code was not issued for onboarding') });
  expect((await get(service.url, `/v1/onboarding/integrations/${onboarding._id}`, t)).body.status).toBe('pending');

  const done = await post(service.url, `/v1/onboarding/integrations/${onboarding._id}/complete`, { code: walk.code }, t);
  expect(done.status).toBe(200);
  expect(done.body).toMatchObject({ _id: onboarding._id, status: 'active', integration_id: expect.any(String) });
  const again = await post(service.url, `/v1/onboarding/integrations/${onboarding._id}/complete`, { code: walk.code }, t);
  expect(again.status).toBe(409);
  expect((await get(service.url, `/v1/onboarding/integrations/${onboarding._id}`, t)).body.status).toBe('active');

  // The POS's locations: the DE one and US ones, all eligible.
  const tid = done.body.integration_id;
  const listed = await get(service.url, `/v1/onboarding/locations?onboarding_id=${onboarding._id}`, t);
  expect(listed.status).toBe(200);
  const ids = listed.body.locations.map((l: { provider_id: string }) => l.provider_id);
  expect(ids).toEqual(expect.arrayContaining([`loc_${tid}_de`, `loc_2_${tid}`]));
  expect(
    listed.body.locations.every(
      (l: { is_eligible_to_onboard: boolean; source: string }) => l.is_eligible_to_onboard && l.source === 'sandbox-pos',
    ),
  ).toBe(true);
  expect(listed.body.locations.find((l: { provider_id: string }) => l.provider_id === `loc_${tid}_de`).address).toMatchObject({
    locality: 'Berlin',
    country: 'DE',
    postal_code: '10178',
  });

  // Ingest two: active locations, and the POS gets a connection notice for each.
  const ingest = await post(
    service.url,
    '/v1/onboarding/locations/ingest',
    { onboarding_id: onboarding._id, locations: [{ provider_id: `loc_${tid}_de` }, { provider_id: `loc_2_${tid}` }] },
    t,
  );
  expect(ingest.status).toBe(201);
  expect(ingest.body.locations).toEqual([
    { _id: expect.stringMatching(/^loc_/), provider_id: `loc_${tid}_de` },
    { _id: expect.stringMatching(/^loc_/), provider_id: `loc_2_${tid}` },
  ]);
  const [de, us] = ingest.body.locations.map((l: { _id: string }) => l._id);
  const notices = await pos.waitFor('/v1/locations/connect', 2);
  expect(notices.map((n) => (n.body as { location_id: string }).location_id).sort()).toEqual([`loc_2_${tid}`, `loc_${tid}_de`].sort());
  expect(notices[0]!.headers.authorization).toMatch(/^Bearer sbx\./);
  expect(notices[0]!.headers['idempotency-key']).toBeTruthy();
  const relisted = await get(service.url, `/v1/onboarding/locations?onboarding_id=${onboarding._id}`, t);
  expect(relisted.body.locations.filter((l: { is_eligible_to_onboard: boolean }) => !l.is_eligible_to_onboard)).toHaveLength(2);
  const twice = await post(
    service.url,
    '/v1/onboarding/locations/ingest',
    { onboarding_id: onboarding._id, locations: [{ provider_id: `loc_${tid}_de` }] },
    t,
  );
  expect(twice.status).toBe(409);

  // A DSP onboarding, then bind a DSP store to the DE location.
  const dspInit = (
    await post(
      service.url,
      '/v1/onboarding/integrations',
      { org_id: org.org_id, source: 'sandbox-dsp', type: 'dsp', return_url: RETURN_URL },
      t,
    )
  ).body.onboarding;
  const dspWalk = await authorizeInBrowser(dspInit.entry_url);
  const dspDone = (await post(service.url, `/v1/onboarding/integrations/${dspInit._id}/complete`, { code: dspWalk.code }, t)).body;
  expect(dspDone.status).toBe('active');
  // The DSP lists the merchant's own stores; bind takes one of them.
  const stores = await get(service.url, `/v1/onboarding/locations?onboarding_id=${dspInit._id}`, t);
  expect(stores.status).toBe(200);
  const berlinStore = `store_${dspDone.integration_id}_berlin`;
  expect(stores.body.locations).toHaveLength(5);
  expect(stores.body.locations[0]).toMatchObject({
    provider_id: berlinStore,
    name: 'Sandbox Grill Berlin Mitte (Delivery)',
    source: 'sandbox-dsp',
    is_eligible_to_onboard: true,
  });
  const bind = await post(
    service.url,
    '/v1/onboarding/locations/bind',
    {
      onboarding_id: dspInit._id,
      locations: [{ pos_location_id: de, dsp_provider_id: berlinStore, dsp_store_name: 'Sandbox Grill Berlin (Delivery)' }],
    },
    t,
  );
  expect(bind.status).toBe(201);
  expect(bind.body.locations).toEqual([
    {
      _id: expect.stringMatching(/^dsp_/),
      dsp_provider_id: berlinStore,
      dsp_store_name: 'Sandbox Grill Berlin (Delivery)',
      status: 'APPROVED',
    },
  ]);
  const rebound = await get(service.url, `/v1/onboarding/locations?onboarding_id=${dspInit._id}`, t);
  expect(rebound.body.locations.map((s: { is_eligible_to_onboard: boolean }) => s.is_eligible_to_onboard)).toEqual([
    false,
    true,
    true,
    true,
    true,
  ]);
  const connectionId = bind.body.locations[0]._id;

  // The organization's locations with their DSP connections; the location_id filter.
  const orgLocations = await get(service.url, `/v1/onboarding/org/${org.org_id}/locations`, t);
  expect(orgLocations.status).toBe(200);
  expect(orgLocations.body.locations).toHaveLength(2);
  const berlin = orgLocations.body.locations.find((l: { _id: string }) => l._id === de);
  expect(berlin).toMatchObject({
    name: 'Sandbox Grill Berlin Mitte',
    source: 'sandbox-pos',
    status: 'active',
    address: { locality: 'Berlin' },
  });
  expect(berlin.dsps).toEqual([
    {
      _id: connectionId,
      name: 'Sandbox Grill Berlin (Delivery)',
      source: 'sandbox-dsp',
      status: 'APPROVED',
      change_time: expect.any(Number),
      integration_status: 'active',
      paused_until: null,
      dsp_status: 'online',
    },
  ]);
  expect(berlin).toMatchObject({ timezone: 'Europe/Berlin', closed_days: expect.any(Array) });
  const filtered = await get(service.url, `/v1/onboarding/org/${org.org_id}/locations?location_id=${us}`, t);
  expect(filtered.body.locations.map((l: { _id: string }) => l._id)).toEqual([us]);

  // Menus: a non-empty list replaces the assignment; ids outside the catalog are 400; empty clears.
  const assign = await request(service.url, 'PUT', '/v1/onboarding/menus', {
    body: { org_id: org.org_id, dsp_location_id: connectionId, menu_provider_ids: ['menu_de_hauptkarte', 'menu_de_mittagstisch'] },
    token: t,
  });
  expect(assign.status).toBe(200);
  expect(assign.body).toEqual({ dsp_location_id: connectionId, menu_provider_ids: ['menu_de_hauptkarte', 'menu_de_mittagstisch'] });
  expect(JSON.parse((await service.services.db.store.findUniqueOrThrow({ where: { id: connectionId } })).assignedMenus!)).toEqual([
    'menu_de_hauptkarte',
    'menu_de_mittagstisch',
  ]);
  const foreignMenu = await request(service.url, 'PUT', '/v1/onboarding/menus', {
    body: { org_id: org.org_id, dsp_location_id: connectionId, menu_provider_ids: ['menu_us_all_day'] },
    token: t,
  });
  expect(foreignMenu.status).toBe(400);
  expect(foreignMenu.body.message).toContain('menu_us_all_day');
  const cleared = await request(service.url, 'PUT', '/v1/onboarding/menus', {
    body: { org_id: org.org_id, dsp_location_id: connectionId, menu_provider_ids: [] },
    token: t,
  });
  expect(cleared.body).toEqual({ dsp_location_id: connectionId, menu_provider_ids: [] });
  expect((await service.services.db.store.findUniqueOrThrow({ where: { id: connectionId } })).assignedMenus).toBeNull();

  // Delete the US location: 204, a disconnection notice, and it is gone from the listing.
  const removed = await request(service.url, 'DELETE', `/v1/onboarding/org/${org.org_id}/locations/${us}`, { token: t });
  expect(removed.status).toBe(204);
  const disconnect = await pos.waitFor('/v1/locations/disconnect', 1);
  expect(disconnect[0]!.body).toEqual({ location_id: `loc_2_${tid}` });
  expect(
    (await get(service.url, `/v1/onboarding/org/${org.org_id}/locations`, t)).body.locations.map((l: { _id: string }) => l._id),
  ).toEqual([de]);
  expect((await request(service.url, 'DELETE', `/v1/onboarding/org/${org.org_id}/locations/${us}`, { token: t })).status).toBe(404);

  // SSO: a single-use login token; the hop starts the dashboard session once.
  const sso = await post(
    service.url,
    `/v1/sso/sessions?partner_id=${partner.partnerId}`,
    {
      email: 'Manager@Grill.example',
      full_name: 'Mia Manager',
      phone_number: '+49 30 1234567',
      role: 'manager',
      provider_org_id: 'grill-1',
      provider_org_name: 'Sandbox Grill',
    },
    t,
  );
  expect(sso.status).toBe(201);
  expect(sso.body).toEqual({ sso_login_token: expect.any(String) });
  const login = await fetch(`${service.url}/v1/sso/login?token=${sso.body.sso_login_token}`, { redirect: 'manual' });
  expect(login.status).toBe(302);
  expect(login.headers.get('location')).toBe('/dashboard');
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const dashboard = await fetch(`${service.url}/dashboard`, { headers: { cookie } });
  expect(dashboard.status).toBe(200);
  expect(await dashboard.text()).toContain('/dashboard/assets/app.js');
  // The page reads as the signed-in user (test/dashboard/dashboard.test.ts runs it in a browser).
  const me = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { cookie, origin: service.url, 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ me { user { email fullName role } organization { name } } }' }),
  });
  expect((await me.json()).data.me).toEqual({
    user: { email: 'manager@grill.example', fullName: 'Mia Manager', role: 'manager' },
    organization: { name: 'Sandbox Grill' },
  });
  const reused = await fetch(`${service.url}/v1/sso/login?token=${sso.body.sso_login_token}`, { redirect: 'manual' });
  expect(reused.status).toBe(401);
  expect(await reused.json()).toMatchObject({ statusCode: 401, code: 'invalid_sso_token' });
  // The merchant who opens the link again in a browser reads why, and how to get a new one.
  const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
  const inBrowser = await fetch(`${service.url}/v1/sso/login?token=${sso.body.sso_login_token}`, {
    redirect: 'manual',
    headers: browser,
  });
  expect(inBrowser.status).toBe(401);
  expect(inBrowser.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const page = await inBrowser.text();
  expect(page).toContain('<h1>This sign-in link no longer works</h1>');
  expect(page).toContain('open the dashboard again from your ordering partner’s app or website: it makes a new link for you');
  expect(page).not.toContain('invalid_sso_token');
  const unknown = await fetch(`${service.url}/v1/sso/login?token=made-up`, { redirect: 'manual', headers: browser });
  expect([unknown.status, (await unknown.text()).includes('This sign-in link no longer works')]).toEqual([401, true]);
  const bare = await fetch(`${service.url}/v1/sso/login`, { redirect: 'manual', headers: browser });
  expect([bare.status, (await bare.text()).includes('This sign-in link is incomplete')]).toEqual([400, true]);
  expect((await request(service.url, 'GET', '/v1/sso/login')).body).toMatchObject({ statusCode: 400, code: 'invalid_request' });
});
