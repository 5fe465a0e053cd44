// REST errors speak the wire (docs/reference.md § Partner API): a missing or wrongly-typed field is 400
// invalid_request naming the docs/reference.md field (`user`, `locations[0].provider_id`), never a GraphQL
// variable, type or camelCase name; JSON types are strict (an object is not an array, a string is
// not a list). A known path with another method is 405 with Allow.
import { completeOnboarding, createOrg } from '../support/flows.js';
import { startPos } from '../support/sandbox.js';
import type { SandboxPos } from '../../src/sandbox/pos/server.js';
import { request, startTestService, type TestService } from '../support/service.js';

let service: TestService;
let pos: SandboxPos;
let token: string;
let orgId: string;
let onboardingId: string;

beforeAll(async () => {
  service = await startTestService();
  pos = await startPos(service);
  token = (await service.partner()).token;
  orgId = (await createOrg(service.url, token)).orgId;
  onboardingId = (await completeOnboarding(service.url, token, orgId, 'pos'))._id;
});
afterAll(async () => {
  await pos?.close();
  await service?.stop();
});

test.each([
  ['POST', '/v1/onboarding/org', { name: 'X', provider_id: 'x' }, 'user is required'],
  ['POST', '/v1/onboarding/org', { name: 'X', provider_id: 'x', user: { email: 5 } }, 'user.email must be a string'],
  [
    'POST',
    '/v1/onboarding/org',
    { name: 'X', provider_id: 'x', user: { email: 'a@b.example' }, colour: 'red' },
    'colour is not a field of this request',
  ],
  ['POST', '/v1/onboarding/org', ['X'], 'the body must be an object'],
  [
    'POST',
    '/v1/onboarding/locations/ingest',
    () => ({ onboarding_id: onboardingId, locations: { provider_id: 'loc_1' } }),
    'locations must be an array',
  ],
  [
    'POST',
    '/v1/onboarding/locations/ingest',
    () => ({ onboarding_id: onboardingId, locations: [{}] }),
    'locations[0].provider_id is required',
  ],
  [
    'POST',
    '/v1/onboarding/locations/bind',
    () => ({ onboarding_id: onboardingId, locations: [{ pos_location_id: 'l', dsp_provider_id: 7, dsp_store_name: 'n' }] }),
    'locations[0].dsp_provider_id must be a string',
  ],
  [
    'PUT',
    '/v1/onboarding/menus',
    () => ({ org_id: orgId, dsp_location_id: 'dsp_x', menu_provider_ids: 'menu_1' }),
    'menu_provider_ids must be an array',
  ],
  [
    'POST',
    '/v1/onboarding/integrations',
    () => ({ org_id: orgId, source: 'sandbox-pos', type: 'kiosk', return_url: 'https://x.example' }),
    'type must be one of dsp, pos',
  ],
  ['POST', '/v1/oauth/partner-tokens', () => ({ org_id: orgId, token_name: 't', scopes: 'user' }), 'scopes must be an array'],
])('%s %s with a wrong shape names the wire field', async (method, path, body, message) => {
  const organizations = await service.services.db.organization.count();
  const res = await request(service.app, method, path, { token, body: typeof body === 'function' ? body() : body });
  expect(res.body).toEqual({ statusCode: 400, error: 'Bad Request', code: 'invalid_request', message });
  expect(res.body.message).not.toMatch(/\$|Input|[a-z][A-Z]/);
  expect(await service.services.db.organization.count()).toBe(organizations);
});

test.each([
  ['GET', '/v1/onboarding/org', 'POST'],
  ['DELETE', '/v1/oauth/token', 'POST'],
  ['POST', `/v1/onboarding/org/org_x/locations`, 'GET, HEAD'],
  ['GET', '/v1/webhooks/pos/sandbox-pos', 'POST'],
])('%s %s is 405 with Allow: %s', async (method, path, allow) => {
  const res = await request(service.app, method, path, { token });
  expect(res.status).toBe(405);
  expect(res.headers.get('allow')).toBe(allow);
  expect(res.body).toMatchObject({ statusCode: 405, code: 'method_not_allowed' });
});

test('an unknown path is still 404', async () => {
  const res = await request(service.app, 'GET', '/v1/nothing-here', { token });
  expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'not_found' });
});
