// Single sign-on into the dashboard (docs/api-guide.md): a session carries no scope the token that
// asked for it lacks.
import { createOrg } from '../../support/flows.js';
import { graphqlPost, post, startTestService, tokenPair, type TestService } from '../../support/service.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

test('an SSO session carries no scope the token that asked for it lacks', async () => {
  const partner = await service.partner();
  const { orgId, providerOrgId } = await createOrg(service.url, partner.token);
  const ssoOnly = (await tokenPair(service.url, partner.clientId, partner.clientSecret, ['sso'])).access_token;
  const sso = await post(
    service.url,
    '/v1/sso/sessions',
    { email: 'owner@wide.example', full_name: 'Olive Owner', phone_number: '1', role: 'owner', provider_org_id: providerOrgId },
    ssoOnly,
  );
  expect(sso.status).toBe(201);
  const login = await fetch(`${service.url}/v1/sso/login?token=${sso.body.sso_login_token}`, { redirect: 'manual' });
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const asDashboard = { cookie, origin: service.url };
  // The token could not read orders or locations; neither can the session it made.
  const orders = await graphqlPost(
    service.url,
    undefined,
    'query($o: ID!) { orders(orgId: $o) { orders { id } } }',
    { o: orgId },
    asDashboard,
  );
  expect(orders.body.errors[0].extensions).toMatchObject({ code: 'insufficient_scope', statusCode: 403 });
  const locations = await graphqlPost(
    service.url,
    undefined,
    'query($o: ID!) { organizationLocations(orgId: $o) { locations { id } } }',
    { o: orgId },
    asDashboard,
  );
  expect(locations.body.errors[0].extensions).toMatchObject({ code: 'insufficient_scope', statusCode: 403 });

  // A token holding user and sso makes a session that reads orders.
  const both = (await tokenPair(service.url, partner.clientId, partner.clientSecret, ['user', 'sso'])).access_token;
  const again = await post(
    service.url,
    '/v1/sso/sessions',
    { email: 'owner@wide.example', full_name: 'Olive Owner', phone_number: '1', role: 'owner', provider_org_id: providerOrgId },
    both,
  );
  const cookie2 = (await fetch(`${service.url}/v1/sso/login?token=${again.body.sso_login_token}`, { redirect: 'manual' })).headers
    .get('set-cookie')!
    .split(';')[0]!;
  const read = await graphqlPost(
    service.url,
    undefined,
    'query($o: ID!) { orders(orgId: $o) { orders { id } } }',
    { o: orgId },
    { cookie: cookie2, origin: service.url },
  );
  expect(read.body.data.orders.orders).toEqual([]);
});
