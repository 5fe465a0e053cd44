// Organizations (docs/reference.md § Resources): a partner's merchants, each with its first user,
// one per partner and provider_id; another partner's is not there at all; an organization token
// makes none.
import { graphqlPost, post, request, startTestService, type TestService } from '../../support/service.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service?.stop();
});

const merchant = (providerId: string, email = 'Owner@Pizza.example') => ({
  name: 'Pizza Place',
  provider_id: providerId,
  user: { email, first_name: 'Ada' },
});

test('an organization is made with its owner, once per provider_id of a partner; another partner may use the same one', async () => {
  const partner = await service.partner();
  const made = await post(service.url, '/v1/onboarding/org', merchant('pizza-1'), partner.token);
  expect(made.status).toBe(201);
  expect(made.body).toEqual({ org_id: expect.stringMatching(/^org_/), user_id: expect.stringMatching(/^usr_/) });
  const { db } = service.services;
  expect(await db.organization.findUniqueOrThrow({ where: { id: made.body.org_id }, include: { users: true } })).toMatchObject({
    partnerId: partner.partnerId,
    name: 'Pizza Place',
    providerId: 'pizza-1',
    users: [{ id: made.body.user_id, email: 'owner@pizza.example', firstName: 'Ada', role: 'owner' }],
  });

  const again = await post(service.url, '/v1/onboarding/org', merchant('pizza-1'), partner.token);
  expect(again.status).toBe(409);
  expect(again.body).toMatchObject({
    statusCode: 409,
    code: 'conflict',
    message: 'an organization with provider_id pizza-1 already exists',
  });
  expect(await db.organization.count({ where: { partnerId: partner.partnerId } })).toBe(1);

  const other = await service.partner();
  expect((await post(service.url, '/v1/onboarding/org', merchant('pizza-1'), other.token)).status).toBe(201);
});

test('bad input names the field and makes nothing', async () => {
  const partner = await service.partner();
  const cases: [unknown, string][] = [
    [{ ...merchant('x'), name: '  ' }, 'name'],
    [{ ...merchant('x'), name: 'Pizza\u202Egnp.exe' }, 'name must not hold control or bidirectional characters (U+202E)'],
    [{ ...merchant('x'), provider_id: '' }, 'provider_id'],
    [merchant('x', 'not an address'), 'user.email'],
  ];
  for (const [body, field] of cases) {
    const refused = await post(service.url, '/v1/onboarding/org', body, partner.token);
    expect({ status: refused.status, code: refused.body.code, names: refused.body.message.includes(field) }).toEqual({
      status: 400,
      code: 'invalid_request',
      names: true,
    });
  }
  expect(await service.services.db.organization.count({ where: { partnerId: partner.partnerId } })).toBe(0);
});

test("another partner's organization is not found, by REST and GraphQL, and its event provider stays as it was", async () => {
  const owner = await service.partner();
  const stranger = await service.partner();
  const { org_id: orgId } = (await post(service.url, '/v1/onboarding/org', merchant('kept'), owner.token)).body;
  const rest = await request(service.url, 'PUT', `/v1/onboarding/org/${orgId}/event-provider`, {
    body: { source: null },
    token: stranger.token,
  });
  expect(rest.status).toBe(404);
  expect(rest.body).toMatchObject({ code: 'not_found', message: `organization ${orgId} not found` });
  const graph = await graphqlPost(service.url, stranger.token, 'query($id: ID!) { organization(id: $id) { id } }', { id: orgId });
  expect(graph.body.errors[0].extensions).toMatchObject({ code: 'not_found', statusCode: 404 });
  expect((await service.services.db.organization.findUniqueOrThrow({ where: { id: orgId } })).eventProvider).toBeNull();
});

test('an organization token makes no organization', async () => {
  const partner = await service.partner();
  const { org_id: orgId } = (await post(service.url, '/v1/onboarding/org', merchant('home'), partner.token)).body;
  const orgToken = (
    await post(
      service.url,
      '/v1/oauth/partner-tokens',
      { org_id: orgId, token_name: 'home only', scopes: ['user', 'onboarding'] },
      partner.token,
    )
  ).body.access_token as string;
  const refused = await post(service.url, '/v1/onboarding/org', merchant('another'), orgToken);
  expect(refused.status).toBe(403);
  expect(await service.services.db.organization.count({ where: { partnerId: partner.partnerId } })).toBe(1);
});
