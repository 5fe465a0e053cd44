// Menu assignment (docs/reference.md § Resources): which of its location's menus a DSP store gets.
// A list replaces the assignment and reaches the store at the POS's next catalog update; an empty
// list gives it every menu again; a menu its location's catalog lacks, or another partner's store,
// is refused and changes nothing.
import type { SandboxPos } from '../../../src/sandbox/pos/server.js';
import { bind, merchantWithStores } from '../../support/flows.js';
import { until } from '../../support/orders.js';
import { control, startPos } from '../../support/sandbox.js';
import { graphqlPost, request, startTestService, type TestService } from '../../support/service.js';

let service: TestService;
let pos: SandboxPos;
beforeAll(async () => {
  service = await startTestService();
  pos = await startPos(service);
});
afterAll(async () => {
  await pos?.close();
  await service?.stop();
});

const assign = (token: string, orgId: string, storeId: string, menus: unknown) =>
  request(service.url, 'PUT', '/v1/onboarding/menus', {
    token,
    body: { org_id: orgId, dsp_location_id: storeId, menu_provider_ids: menus },
  });
const assigned = async (storeId: string) => (await service.services.db.store.findUniqueOrThrow({ where: { id: storeId } })).assignedMenus;
/** The menus each publish to this DSP store named, oldest first. */
const published = (dspStoreId: string) =>
  pos.received
    .filter((call) => call.path === '/v1/menus' && (call.body as { store_id: string }).store_id === dspStoreId)
    .map((call) => (call.body as { menu_provider_ids: string[] }).menu_provider_ids);

test('an assignment replaces the last, reaches the store at the next catalog update, and an empty one gives every menu back', async () => {
  const partner = await service.partner();
  const m = await merchantWithStores(service.url, partner.token);
  const dspStoreId = m.stores.austin!;
  const storeId = await bind(service.url, partner.token, m.dsp, m.location, dspStoreId);
  const locationId = (await service.services.db.location.findUniqueOrThrow({ where: { id: m.location } })).providerId;

  const chosen = await assign(partner.token, m.orgId, storeId, ['menu_us_breakfast', 'menu_us_breakfast']);
  expect(chosen.status).toBe(200);
  expect(chosen.body).toEqual({ dsp_location_id: storeId, menu_provider_ids: ['menu_us_breakfast'] });
  const listed = await graphqlPost(
    service.url,
    partner.token,
    'query($o: ID!, $l: ID) { organizationLocations(orgId: $o, locationId: $l) { locations { dsps { id menuProviderIds } } } }',
    { o: m.orgId, l: m.location },
  );
  expect(listed.body.data.organizationLocations.locations[0].dsps).toEqual([{ id: storeId, menuProviderIds: ['menu_us_breakfast'] }]);

  await control(pos, 'catalog-updated', { location_id: locationId });
  await until(() => published(dspStoreId).length >= 1);
  expect(published(dspStoreId)).toEqual([['menu_us_breakfast']]);

  expect((await assign(partner.token, m.orgId, storeId, [])).body).toEqual({ dsp_location_id: storeId, menu_provider_ids: [] });
  expect(await assigned(storeId)).toBeNull();
  await control(pos, 'catalog-updated', { location_id: locationId });
  await until(() => published(dspStoreId).length >= 2);
  expect(published(dspStoreId)[1]!.sort()).toEqual(['menu_us_all_day', 'menu_us_breakfast', 'menu_us_late_night']);
});

test("a menu its location lacks, a store that is not the caller's, and bad input are refused, and the assignment stays", async () => {
  const owner = await service.partner();
  const stranger = await service.partner();
  const m = await merchantWithStores(service.url, owner.token);
  const storeId = await bind(service.url, owner.token, m.dsp, m.location, m.stores.brooklyn!);
  expect((await assign(owner.token, m.orgId, storeId, ['menu_us_all_day'])).status).toBe(200);

  const unknown = await assign(owner.token, m.orgId, storeId, ['menu_us_all_day', 'menu_de_hauptkarte']);
  expect(unknown.status).toBe(400);
  expect(unknown.body).toMatchObject({ code: 'invalid_request', message: expect.stringContaining('menu_de_hauptkarte') });
  const foreign = await assign(stranger.token, m.orgId, storeId, ['menu_us_all_day']);
  expect(foreign.status).toBe(404);
  const strangers = await merchantWithStores(service.url, stranger.token);
  const notTheirs = await assign(stranger.token, strangers.orgId, storeId, ['menu_us_all_day']);
  expect({ status: notTheirs.status, message: notTheirs.body.message }).toEqual({
    status: 404,
    message: `DSP connection ${storeId} not found`,
  });
  const notAList = await assign(owner.token, m.orgId, storeId, 'menu_us_all_day');
  expect({ status: notAList.status, message: notAList.body.message }).toEqual({
    status: 400,
    message: 'menu_provider_ids must be an array',
  });
  const blank = await assign(owner.token, m.orgId, storeId, ['']);
  expect({ status: blank.status, names: blank.body.message.includes('menu_provider_ids[0]') }).toEqual({ status: 400, names: true });

  expect(JSON.parse((await assigned(storeId))!)).toEqual(['menu_us_all_day']);
});
