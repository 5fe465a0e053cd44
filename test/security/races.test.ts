// Concurrent copies of one mutating call end as one call would, on PostgreSQL as on SQLite: the
// invariants hold by constraints and row locks, not by SQLite's single writer. Each call is sent
// 12 times at once; exactly one may create, the others are refused cleanly (never a 5xx), and
// the database holds what one call leaves.
import type { SandboxPos } from '../../src/sandbox/pos/server.js';
import { authorizeInBrowser, startPos } from '../support/sandbox.js';
import { completeOnboarding, createOrg, dspStores, ingest } from '../support/flows.js';
import { post, request, startTestService, type JsonResponse, type TestService } from '../support/service.js';

let service: TestService;
let pos: SandboxPos;
let token: string;
let orgId: string;
let posOnboarding: { _id: string; integration_id: string };
let dsp: string;
let stores: Record<string, string>;

const COPIES = 12;
const atOnce = (call: () => Promise<JsonResponse>) => Promise.all(Array.from({ length: COPIES }, call));
const statuses = (answers: JsonResponse[]) => answers.map((a) => a.status).sort();

beforeAll(async () => {
  service = await startTestService();
  pos = await startPos(service);
  token = (await service.partner()).token;
  orgId = (await createOrg(service.url, token)).orgId;
  posOnboarding = await completeOnboarding(service.url, token, orgId, 'pos');
  dsp = (await completeOnboarding(service.url, token, orgId, 'dsp'))._id;
  stores = await dspStores(service.url, token, dsp);
});
afterAll(async () => {
  await pos?.close();
  await service?.stop();
});

test('creating one organization twelve times at once makes one', async () => {
  const answers = await atOnce(() =>
    post(service.url, '/v1/onboarding/org', { name: 'Twin', provider_id: 'twin', user: { email: 'o@twin.example' } }, token),
  );
  expect(statuses(answers)).toEqual([201, ...Array(COPIES - 1).fill(409)]);
  expect(await service.services.db.organization.count({ where: { providerId: 'twin' } })).toBe(1);
});

test('ingesting one POS location twelve times at once makes one active location and one connection notice', async () => {
  const providerId = `loc_3_${posOnboarding.integration_id}`;
  const answers = await atOnce(() =>
    post(
      service.url,
      '/v1/onboarding/locations/ingest',
      { onboarding_id: posOnboarding._id, locations: [{ provider_id: providerId }] },
      token,
    ),
  );
  expect(statuses(answers)).toEqual([201, ...Array(COPIES - 1).fill(409)]);
  const active = await service.services.db.location.findMany({ where: { orgId, providerId, status: 'active' } });
  expect(active).toHaveLength(1);
  expect(
    await service.services.db.outboxMessage.count({ where: { kind: 'location.connect', idempotencyKey: `connect:${active[0]!.id}` } }),
  ).toBe(1);
  expect(await service.services.db.outboxMessage.count({ where: { kind: 'location.connect', orgId } })).toBe(1);
});

test('binding one store twelve times at once binds it once', async () => {
  const [location] = await ingest(service.url, token, posOnboarding._id, [`loc_${posOnboarding.integration_id}_de`]);
  const answers = await atOnce(() =>
    post(
      service.url,
      '/v1/onboarding/locations/bind',
      { onboarding_id: dsp, locations: [{ pos_location_id: location, dsp_provider_id: stores.berlin, dsp_store_name: 'Berlin' }] },
      token,
    ),
  );
  expect(statuses(answers)).toEqual([201, ...Array(COPIES - 1).fill(409)]);
  expect(await service.services.db.store.count({ where: { boundStoreId: stores.berlin } })).toBe(1);
});

test('deleting one location twelve times at once retires it once, with one disconnection notice', async () => {
  const [location] = await ingest(service.url, token, posOnboarding._id, [`loc_2_${posOnboarding.integration_id}`]);
  const answers = await atOnce(() => request(service.url, 'DELETE', `/v1/onboarding/org/${orgId}/locations/${location}`, { token }));
  expect(statuses(answers)).toEqual([204, ...Array(COPIES - 1).fill(404)]);
  expect(await service.services.db.location.findUniqueOrThrow({ where: { id: location! } })).toMatchObject({
    status: 'deleted',
    activeProviderId: null,
  });
  expect(await service.services.db.outboxMessage.count({ where: { idempotencyKey: `disconnect:${location}` } })).toBe(1);
});

test('completing one onboarding twelve times at once with its code completes it once', async () => {
  const init = (
    await post(
      service.url,
      '/v1/onboarding/integrations',
      { org_id: orgId, source: 'sandbox-pos', type: 'pos', return_url: 'https://partner.example/back' },
      token,
    )
  ).body.onboarding;
  const walk = await authorizeInBrowser(init.entry_url);
  const answers = await atOnce(() => post(service.url, `/v1/onboarding/integrations/${init._id}/complete`, { code: walk.code }, token));
  const ok = answers.filter((a) => a.status === 200);
  expect(ok).toHaveLength(1);
  expect(answers.filter((a) => a.status >= 500)).toEqual([]);
  expect(
    answers
      .filter((a) => a.status !== 200)
      .map((a) => a.body.code)
      .sort(),
  ).toEqual(
    answers
      .filter((a) => a.status !== 200)
      .map((a) => (a.status === 409 ? 'conflict' : 'invalid_grant'))
      .sort(),
  );
  expect((await service.services.db.onboarding.findUniqueOrThrow({ where: { id: init._id } })).integrationId).toBe(
    ok[0]!.body.integration_id,
  );
});

test('SSO sessions for one new user twelve times at once make one user and twelve login tokens', async () => {
  const answers = await atOnce(() =>
    post(
      service.url,
      '/v1/sso/sessions',
      { email: 'twin@staff.example', full_name: 'Twin', phone_number: '+1555', provider_org_id: 'twin' },
      token,
    ),
  );
  expect(statuses(answers)).toEqual(Array(COPIES).fill(201));
  expect(await service.services.db.user.count({ where: { email: 'twin@staff.example' } })).toBe(1);
});

test('adding the same contexts to a flag and a segment twelve times at once adds them once', async () => {
  const { applyDefinitions } = await import('../../src/modules/flags/definitions.js');
  const partnerId = (await service.services.db.organization.findUniqueOrThrow({ where: { id: orgId } })).partnerId;
  await applyDefinitions(service.services.db, {
    segments: [{ partner: partnerId, key: 'twins' }],
    flags: [{ partner: partnerId, key: 'twin-flag', variations: [true, false] }],
  });
  const contexts = [{ key: 'ctx-a' }, { key: 'ctx-b', kind: 'org' }];
  for (const kind of ['flags/twin-flag', 'segments/twins']) {
    const answers = await atOnce(() => post(service.url, `/v1/${kind}/contexts?partner_id=${partnerId}`, { contexts }, token));
    expect(statuses(answers)).toEqual(Array(COPIES).fill(200));
    expect(answers.map((a) => a.body.targets)).toEqual(
      Array(COPIES).fill([
        { key: 'ctx-b', kind: 'org' },
        { key: 'ctx-a', kind: 'user' },
      ]),
    );
  }
  expect(await service.services.db.flagTarget.count({ where: { flag: { key: 'twin-flag' } } })).toBe(2);
  expect(await service.services.db.segmentMember.count({ where: { segment: { key: 'twins' } } })).toBe(2);
});
