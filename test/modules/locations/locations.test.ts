// Locations (docs/reference.md § Resources): an organization's locations as its partner reads
// them, DSP stores bound by their own merchant only and free again once their location is deleted,
// the columns the read takes, and the notices to the POS that survive its being down.
import type { GraphQLObjectType } from 'graphql';
import type { SandboxPos } from '../../../src/sandbox/pos/server.js';
import { authorizeInBrowser, startPos, testSecrets } from '../../support/sandbox.js';
import { bind, bindStore, createOrg, merchantWithStores } from '../../support/flows.js';
import { placeOrder, until, workerSays } from '../../support/orders.js';
import { get, graphqlPost, post, request, startTestService, type TestService } from '../../support/service.js';

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

const RETURN_URL = 'https://partner.example/onboarding/done';

test("an organization's locations: its own partner sees them, an unknown id is 404, none is an empty list", async () => {
  const owner = await service.partner();
  const other = await service.partner();
  const a = { ...(await merchantWithStores(service.url, owner.token)), token: owner.token };
  const b = { orgId: (await createOrg(service.url, other.token)).orgId, token: other.token };
  const own = await request(service.url, 'GET', `/v1/onboarding/org/${a.orgId}/locations`, { token: a.token });
  expect({ status: own.status, ids: own.body.locations?.map((l: { _id: string }) => l._id) }).toEqual({
    status: 200,
    ids: [a.location, a.second],
  });
  const unknown = await request(service.url, 'GET', '/v1/onboarding/org/org_unknown/locations', { token: a.token });
  expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 404, code: 'not_found' });
  const empty = await request(service.url, 'GET', `/v1/onboarding/org/${b.orgId}/locations`, { token: b.token });
  expect({ status: empty.status, body: empty.body }).toEqual({ status: 200, body: { locations: [] } });
});

test("a partner cannot bind another merchant's DSP store, and the answer does not tell whether it is bound", async () => {
  const a = await service.partner();
  const b = await service.partner();
  const victim = await merchantWithStores(service.url, a.token);
  const squatter = await merchantWithStores(service.url, b.token);
  const unbound = await bindStore(service.url, b.token, squatter.dsp, squatter.location, victim.stores.austin!);
  expect(unbound.status).toBe(404);
  expect(unbound.body).toMatchObject({ statusCode: 404, code: 'not_found' });

  // The owner binds it; the squatter's answer is the same as before, and the owner's orders stay the owner's.
  expect((await bindStore(service.url, a.token, victim.dsp, victim.location, victim.stores.austin!)).status).toBe(201);
  const bound = await bindStore(service.url, b.token, squatter.dsp, squatter.location, victim.stores.austin!);
  expect(bound.status).toBe(unbound.status);
  expect(bound.body).toEqual(unbound.body);
  const madeUp = await bindStore(service.url, b.token, squatter.dsp, squatter.location, 'store_made_up');
  expect(madeUp.body.message.replace('store_made_up', 'ID')).toBe(unbound.body.message.replace(victim.stores.austin!, 'ID'));

  const placed = await placeOrder(pos, victim.stores.austin!);
  expect(placed.status).toBe(201);
  const order = await service.services.db.order.findUniqueOrThrow({ where: { id: placed.body.order_id! } });
  expect(order).toMatchObject({ orgId: victim.orgId, locationId: victim.location });
  const read = await graphqlPost(service.url, b.token, 'query($id: ID!) { order(id: $id) { id } }', { id: order.id });
  expect(read.body.errors[0].extensions).toMatchObject({ code: 'not_found', statusCode: 404 });
});

test("a deleted location's DSP store is free again: listed as eligible, bound anew, and its orders go to the new location", async () => {
  const partner = await service.partner();
  const m = await merchantWithStores(service.url, partner.token);
  const store = m.stores.brooklyn!;
  await bind(service.url, partner.token, m.dsp, m.location, store);
  const eligible = async () =>
    (await get(service.url, `/v1/onboarding/locations?onboarding_id=${m.dsp}`, partner.token)).body.locations.find(
      (s: { provider_id: string }) => s.provider_id === store,
    ).is_eligible_to_onboard;
  expect(await eligible()).toBe(false);
  expect(
    (await request(service.url, 'DELETE', `/v1/onboarding/org/${m.orgId}/locations/${m.location}`, { token: partner.token })).status,
  ).toBe(204);
  expect(await eligible()).toBe(true);
  await bind(service.url, partner.token, m.dsp, m.second, store);
  const placed = await placeOrder(pos, store);
  expect(placed.status).toBe(201);
  expect(await service.services.db.order.findUniqueOrThrow({ where: { id: placed.body.order_id! } })).toMatchObject({
    locationId: m.second,
  });
});

test("the organization's locations read the columns every Location and DspConnection field needs", async () => {
  // organizationLocations reads only the columns these fields read (LOCATION_COLUMNS and
  // STORE_COLUMNS in src/db/sql/locations.ts). A new field fails here until its
  // columns are in those lists: then add it below, and to the walk's query above.
  const { schema } = await import('../../../src/app/schema.js');
  const fieldsOf = (type: string) => Object.keys((schema.getType(type) as GraphQLObjectType).getFields()).sort();
  expect(fieldsOf('Location')).toEqual([
    'address',
    'busy',
    'catalog',
    'closedDays',
    'closesAt',
    'dsps',
    'id',
    'integrationStatus',
    'menus',
    'name',
    'offSale',
    'openNow',
    'opensAt',
    'prepTimeMinutes',
    'providerId',
    'source',
    'status',
    'timezone',
  ]);
  expect(fieldsOf('DspConnection')).toEqual([
    'changeTime',
    'dspStatus',
    'dspStoreId',
    'id',
    'integrationStatus',
    'menuProviderIds',
    'name',
    'pausedUntil',
    'publishes',
    'source',
    'status',
  ]);
});

test('a disconnection notice written while the POS is down arrives exactly once after it comes back', async () => {
  const partner = await service.partner();
  const t = partner.token;
  const org = (
    await post(service.url, '/v1/onboarding/org', { name: 'Down Grill', provider_id: 'down-1', user: { email: 'o@down.example' } }, t)
  ).body;
  const onboarding = (
    await post(
      service.url,
      '/v1/onboarding/integrations',
      { org_id: org.org_id, source: 'sandbox-pos', type: 'pos', return_url: RETURN_URL },
      t,
    )
  ).body.onboarding;
  const walk = await authorizeInBrowser(onboarding.entry_url);
  const tid = (await post(service.url, `/v1/onboarding/integrations/${onboarding._id}/complete`, { code: walk.code }, t)).body
    .integration_id;
  const ingest = await post(
    service.url,
    '/v1/onboarding/locations/ingest',
    { onboarding_id: onboarding._id, locations: [{ provider_id: `loc_3_${tid}` }] },
    t,
  );
  const locationId = ingest.body.locations[0]._id;

  // The POS goes down; the location is deleted meanwhile: accepted, and the notice waits.
  const port = Number(new URL(pos.url).port);
  await pos.close();
  const removed = await request(service.url, 'DELETE', `/v1/onboarding/org/${org.org_id}/locations/${locationId}`, { token: t });
  expect(removed.status).toBe(204);
  const pending = async () =>
    service.services.db.outboxMessage.findUniqueOrThrow({ where: { idempotencyKey: `disconnect:${locationId}` } });
  // Tried twice, and kept for later.
  await until(async () => (await pending()).attempts >= 2);
  expect(await pending()).toMatchObject({ status: 'pending', lastError: expect.any(String) });

  // Back on the same address with the same secrets: the notice arrives, once.
  const delivered = workerSays(service.worker, 'delivered', (message) => message.idempotencyKey === `disconnect:${locationId}`);
  pos = await startPos(service, secrets, port);
  const arrived = await pos.waitFor('/v1/locations/disconnect', 1);
  expect(arrived[0]!.body).toEqual({ location_id: `loc_3_${tid}` });
  // Delivered, it is never sent again: then the POS holds it once.
  await delivered;
  expect(pos.received.filter((r) => r.path === '/v1/locations/disconnect')).toHaveLength(1);
  expect(await pending()).toMatchObject({ status: 'delivered', lastStatus: 200 });
});
