// Busy: slower, not closed. A partner (REST and GraphQL) or the POS makes a location busy with
// extra minutes: its orders keep coming, each quoted the extra more, each bound store is told its
// new prep time in order with its other events, and the partner hears; ended early, the stores
// are told the base again.
import type { SandboxPos } from '../../../src/sandbox/pos/server.js';
import type { CustomerOrder } from '../../../src/sandbox/pos/dsp-channel.js';
import { control, testSecrets } from '../../support/sandbox.js';
import { startOrdersWorld, type OrdersWorld, placeOrder, until, type OrderSetup } from '../../support/orders.js';
import { graphqlPost, request, type TestService } from '../../support/service.js';

let world: OrdersWorld;
let service: TestService;
let pos: SandboxPos;
let m: OrderSetup;
const secrets = testSecrets();
/** The Austin location's prep time in the sandbox POS's listing. */
const BASE = 15;

beforeAll(async () => {
  world = await startOrdersWorld({ env: { OUTBOX_RETRY_BASE_MS: '20', OUTBOX_RETRY_MAX_MS: '60' }, secrets, menus: true });
  ({ service, pos, merchant: m } = world);
});
afterAll(() => world?.close());

const busy = (method: string, body?: unknown) =>
  request(service.url, method, `/v1/onboarding/org/${m.orgId}/locations/${m.locationId}/busy`, { token: m.token, body });
/** The store's prep time events its DSP received, in the order received. */
const prepTimesTold = () =>
  pos.received
    .filter((r) => r.path === '/v1/events' && (r.body as { type: string }).type === 'location.prep_time.update')
    .map((r) => (r.body as { store_id: string; data: Record<string, unknown> }).data);
const accepted = async (dspOrderId: string) =>
  until(async () => {
    const order = (await (await fetch(`${pos.url}/v1/_sandbox/orders/${dspOrderId}`)).json()) as CustomerOrder;
    return order.events?.[0];
  });

test('busy +20: each bound store is told base + 20, the next order is quoted it, and the end tells the base again', async () => {
  const set = await busy('POST', { extra_prep_minutes: 20 });
  expect(set.status).toBe(200);
  expect(set.body).toEqual({ location_id: m.locationId, extra_prep_minutes: 20, until_ms: null, prep_time_minutes: BASE + 20 });
  const told = await until(() => prepTimesTold().length >= 1 && prepTimesTold());
  expect(told[0]).toMatchObject({ prep_time_minutes: BASE + 20, sequence: expect.any(Number) });

  const placed = await placeOrder(pos, m.storeId, { fulfillment_type: 'pickup' });
  expect((await accepted(placed.dsp_order_id))!.data).toMatchObject({ prep_time_minutes: BASE + 20 });

  const shown = await graphqlPost(
    service.url,
    m.token,
    `query($orgId: ID!) { organizationLocations(orgId: $orgId) { locations { id prepTimeMinutes busy { extraPrepMinutes untilMs } } } }`,
    { orgId: m.orgId },
  );
  expect(shown.body.data.organizationLocations.locations[0]).toEqual({
    id: m.locationId,
    prepTimeMinutes: BASE,
    busy: { extraPrepMinutes: 20, untilMs: null },
  });

  const ended = await busy('DELETE');
  expect(ended.body).toEqual({ location_id: m.locationId, extra_prep_minutes: null, until_ms: null, prep_time_minutes: BASE });
  const after = await until(() => prepTimesTold().length >= 2 && prepTimesTold());
  expect(after[1]).toMatchObject({ prep_time_minutes: BASE });
  expect(Number(after[1]!.sequence)).toBeGreaterThan(Number(after[0]!.sequence));
  const next = await placeOrder(pos, m.storeId, { fulfillment_type: 'pickup' });
  expect((await accepted(next.dsp_order_id))!.data).toMatchObject({ prep_time_minutes: BASE });
  // The partner's list shows an event once it has settled (a moment after it was written).
  const types = await until(async () => {
    const listed = await request(service.url, 'GET', '/v1/events?types=location.busy,location.busy.ended&limit=100', { token: m.token });
    return listed.body.events?.length >= 2 && listed.body.events.map((e: { type: string }) => e.type);
  });
  expect(types.sort()).toEqual(['location.busy', 'location.busy.ended']);
});

test.each([
  [{ extra_prep_minutes: 4 }, 'extra_prep_minutes must be whole minutes from 5 to 120'],
  [{ extra_prep_minutes: 121 }, 'extra_prep_minutes must be whole minutes from 5 to 120'],
  [{ extra_prep_minutes: 20, until_ms: Math.floor(Date.now() / 1000) + 600 }, expect.stringMatching(/until_ms.*milliseconds.*seconds/)],
])('%j is refused: %s, and nothing changes', async (body, message) => {
  const before = prepTimesTold().length;
  const res = await busy('POST', body);
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message });
  const location = await service.services.db.location.findUniqueOrThrow({ where: { id: m.locationId } });
  expect(location.busyExtraMinutes).toBeNull();
  expect(prepTimesTold().length).toBe(before);
});

test('GraphQL setLocationBusy, and the POS going busy itself with busy_until', async () => {
  const set = await graphqlPost(
    service.url,
    m.token,
    `mutation($input: SetLocationBusyInput!) { setLocationBusy(input: $input) { extraPrepMinutes prepTimeMinutes } }`,
    { input: { orgId: m.orgId, locationId: m.locationId, extraPrepMinutes: 10 } },
  );
  expect(set.body.data.setLocationBusy).toEqual({ extraPrepMinutes: 10, prepTimeMinutes: BASE + 10 });
  const until_ = Date.now() + 3_600_000;
  const byPos = await control(pos, 'location-status', {
    location_id: `loc_2_${m.tid}`,
    status: 'busy',
    extra_prep_minutes: 30,
    busy_until: until_,
  });
  expect(byPos.status).toBe(202);
  const told = await until(() => prepTimesTold().find((d) => d.prep_time_minutes === BASE + 30));
  expect(told).toMatchObject({ until_ms: until_ });
  const inSeconds = await control(pos, 'location-status', {
    location_id: `loc_2_${m.tid}`,
    status: 'busy',
    extra_prep_minutes: 30,
    busy_until: Math.floor(until_ / 1000),
  });
  expect(inSeconds.status).toBe(400);
  expect(inSeconds.body.message).toMatch(/busy_until.*milliseconds/);
  await control(pos, 'location-status', { location_id: `loc_2_${m.tid}`, status: 'active' });
  await until(
    async () => (await service.services.db.location.findUniqueOrThrow({ where: { id: m.locationId } })).busyExtraMinutes === null,
  );
});
