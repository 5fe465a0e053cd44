// The partner's flags through OpenFeature's own OFREP provider (docs/reference.md § Partner API): an app using
// @openfeature/server-sdk with @openfeature/ofrep-provider evaluates a targeted flag, sees the
// reasons and variants, and gets OFREP's errors for an unknown flag or a missing targeting key.
import { NOOP_PROVIDER, OpenFeature } from '@openfeature/server-sdk';
import { OFREPProvider } from '@openfeature/ofrep-provider';
import { applyDefinitions } from '../../../src/modules/flags/definitions.js';
import { createOrg } from '../../support/flows.js';
import { post, startTestService, type TestService } from '../../support/service.js';

let service: TestService;
let token: string;

beforeAll(async () => {
  service = await startTestService();
  const partner = await service.partner();
  token = partner.token;
  await applyDefinitions(service.services.db, {
    segments: [{ partner: partner.partnerId, key: 'beta' }],
    flags: [
      { partner: partner.partnerId, key: 'new-checkout', variations: [true, false], fallthrough: 1 },
      { partner: partner.partnerId, key: 'menu-layout', variations: ['grid', 'list'], fallthrough: 1, segments: ['beta'] },
    ],
  });
  await post(
    service.url,
    `/v1/flags/new-checkout/contexts?partner_id=${partner.partnerId}`,
    { contexts: [{ key: 'org-1', kind: 'org' }] },
    token,
  );
  await post(service.url, `/v1/segments/beta/contexts?partner_id=${partner.partnerId}`, { contexts: [{ key: 'usr-9' }] }, token);
});
const domains: string[] = [];
afterAll(async () => {
  // Only ours: the registry is the process's, and the service has its own provider in it.
  await Promise.all(domains.map((domain) => OpenFeature.setProviderAndWait(domain, NOOP_PROVIDER)));
  await service?.stop();
});

async function client(bearer = token) {
  const domain = `ofrep-${Math.random()}`;
  domains.push(domain);
  await OpenFeature.setProviderAndWait(
    domain,
    new OFREPProvider({ baseUrl: service.url, headers: [['Authorization', `Bearer ${bearer}`]] }),
  );
  return OpenFeature.getClient(domain);
}

test('the OFREP provider evaluates a targeted flag, a segment match and the fallthrough', async () => {
  const flags = await client();
  expect(await flags.getBooleanDetails('new-checkout', false, { targetingKey: 'org-1', kind: 'org' })).toMatchObject({
    value: true,
    reason: 'TARGETING_MATCH',
    variant: '0',
  });
  expect(await flags.getBooleanDetails('new-checkout', true, { targetingKey: 'org-2', kind: 'org' })).toMatchObject({
    value: false,
    reason: 'DEFAULT',
    variant: '1',
  });
  expect(await flags.getStringDetails('menu-layout', 'list', { targetingKey: 'usr-9' })).toMatchObject({
    value: 'grid',
    reason: 'TARGETING_MATCH',
  });
});

test('an unknown flag is FLAG_NOT_FOUND and a missing targeting key TARGETING_KEY_MISSING: the default, with the reason', async () => {
  const flags = await client();
  expect(await flags.getBooleanDetails('no-such-flag', true, { targetingKey: 'org-1' })).toMatchObject({
    value: true,
    reason: 'ERROR',
    errorCode: 'FLAG_NOT_FOUND',
  });
  expect(await flags.getBooleanDetails('new-checkout', false, {})).toMatchObject({
    value: false,
    reason: 'ERROR',
    errorCode: 'TARGETING_KEY_MISSING',
  });
});

test('bulk evaluation lists every flag of the partner for a context', async () => {
  const res = await post(service.url, '/ofrep/v1/evaluate/flags', { context: { targetingKey: 'usr-9' } }, token);
  expect(res.status).toBe(200);
  expect(res.body.flags).toEqual([
    { key: 'menu-layout', value: 'grid', reason: 'TARGETING_MATCH', variant: '0', metadata: {} },
    { key: 'new-checkout', value: false, reason: 'DEFAULT', variant: '1', metadata: {} },
  ]);
});

test("no token is 401, an organization token 403, another partner's token sees none of these flags", async () => {
  expect((await post(service.url, '/ofrep/v1/evaluate/flags/new-checkout', { context: { targetingKey: 'org-1' } })).status).toBe(401);
  const partner = await service.partner();
  const { orgId } = await createOrg(service.url, partner.token);
  const orgToken = (
    await post(service.url, '/v1/oauth/partner-tokens', { org_id: orgId, token_name: 'org', scopes: ['user'] }, partner.token)
  ).body.access_token;
  expect((await post(service.url, '/ofrep/v1/evaluate/flags/new-checkout', { context: { targetingKey: 'org-1' } }, orgToken)).status).toBe(
    403,
  );
  const other = await post(service.url, '/ofrep/v1/evaluate/flags/new-checkout', { context: { targetingKey: 'org-1' } }, partner.token);
  expect({ status: other.status, body: other.body }).toEqual({
    status: 404,
    body: { key: 'new-checkout', errorCode: 'FLAG_NOT_FOUND', errorDetails: expect.any(String) },
  });
});
