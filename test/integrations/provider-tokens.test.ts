// The merchant's POS token: refreshed shortly before it expires, and once on a 401.
import { startSandboxPos, type SandboxPos } from '../../src/sandbox/pos/server.js';
import { registerSandboxPos } from '../../src/sandbox/register.js';
import { testSecrets } from '../support/sandbox.js';
import { completeOnboarding, createOrg } from '../support/flows.js';
import { get, startTestService, type TestService } from '../support/service.js';

let service: TestService;
let pos: SandboxPos;
beforeAll(async () => {
  service = await startTestService();
  const secrets = testSecrets();
  // Tokens that live 30 s: inside the service's one-minute refresh margin from the start.
  pos = await startSandboxPos({ ...secrets, accessTokenTtlSeconds: 30 });
  await registerSandboxPos(service.services, pos, secrets);
});
afterAll(async () => {
  await pos?.close();
  await service?.stop();
});

async function completedOnboarding() {
  const partner = await service.partner();
  const { orgId } = await createOrg(service.url, partner.token);
  const onboarding = await completeOnboarding(service.url, partner.token, orgId, 'pos');
  return { token: partner.token, onboardingId: onboarding._id };
}

const grants = () => pos.received.filter((r) => r.path === '/v1/token').map((r) => (r.body as { grant_type: string }).grant_type);

test('a token about to expire is refreshed before the call, and the new one is used', async () => {
  const { token, onboardingId } = await completedOnboarding();
  await fetch(`${pos.url}/v1/_sandbox/reset`, { method: 'POST' });
  const listed = await get(service.url, `/v1/onboarding/locations?onboarding_id=${onboardingId}`, token);
  expect(listed.status).toBe(200);
  expect(pos.received.map((r) => r.path)).toEqual(['/v1/token', '/v1/locations']);
  expect(grants()).toEqual(['refresh_token']);
  const stored = await service.services.db.onboarding.findUniqueOrThrow({ where: { id: onboardingId } });
  const usedToken = String(pos.received[1]!.headers.authorization).replace('Bearer ', '');
  expect(service.services.sealer.open(stored.accessTokenEnc!)).toBe(usedToken);
});

test('a 401 from the provider refreshes the token once and retries', async () => {
  const { token, onboardingId } = await completedOnboarding();
  await fetch(`${pos.url}/v1/_sandbox/reset`, { method: 'POST' });
  await fetch(`${pos.url}/v1/_sandbox/fail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path: '/v1/locations', count: 1, status: 401 }),
  });
  // Push the stored expiry out so only the 401 can cause the refresh.
  await service.services.db.onboarding.update({ where: { id: onboardingId }, data: { tokenExpiresAt: new Date(Date.now() + 3600_000) } });
  const listed = await get(service.url, `/v1/onboarding/locations?onboarding_id=${onboardingId}`, token);
  expect(listed.status).toBe(200);
  expect(grants()).toEqual(['refresh_token']);
  expect(pos.received.filter((r) => r.path === '/v1/locations')).toHaveLength(1);
});
