// Stores can stop: a location's DSP stores paused and resumed (with or without an end), items
// taken off sale and put back (by the partner and by the POS), a DSP pausing its own store, and
// the closed days of the location's catalog in its time zone. Each stops orders with its reason,
// and every bound store concerned is told (the sandbox DSP keeps each store as the events leave it).
import { jest } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { SandboxPos } from '../../../src/sandbox/pos/server.js';
import type { StoreState } from '../../../src/sandbox/pos/dsp-channel.js';
import { localDate } from '../../../src/modules/catalog/local-time.js';
import { control, testSecrets } from '../../support/sandbox.js';
import {
  startOrdersWorld,
  type OrdersWorld,
  catalogReceived,
  dayInWords,
  merchantTakingOrders,
  placeOrder,
  until,
  type OrderSetup,
} from '../../support/orders.js';
import { get, request, type TestService } from '../../support/service.js';

let world: OrdersWorld;
let service: TestService;
let pos: SandboxPos;
let m: OrderSetup;
let connectionId: string;
const secrets = testSecrets();
const CHICAGO = 'America/Chicago';

beforeAll(async () => {
  world = await startOrdersWorld({ env: { OUTBOX_RETRY_BASE_MS: '20', OUTBOX_RETRY_MAX_MS: '60' }, secrets, menus: true });
  ({ service, pos, merchant: m } = world);
  connectionId = (await service.services.db.store.findFirstOrThrow({ where: { locationId: m.locationId } })).id;
});
afterAll(() => world?.close());

const sandbox = (what: string, body: unknown) => control(pos, what, body);
const at = (what: string) => `/v1/onboarding/org/${m.orgId}/locations/${m.locationId}/${what}`;
const call = (method: string, what: string, body?: unknown) => request(service.url, method, at(what), { token: m.token, body });
const storeAtDsp = async () => (await (await fetch(`${pos.url}/v1/_sandbox/stores/${m.storeId}`)).json()) as StoreState;
const storeEvents = () =>
  service.services.db.outboxMessage.count({ where: { idempotencyKey: { startsWith: `dsp-store-event:${connectionId}:` } } });
const pickup = (more: Record<string, unknown> = {}) => placeOrder(pos, m.storeId, { fulfillment_type: 'pickup', ...more });
const rings = { service_id: 'item_us_rings', name: 'Onion Rings', quantity: 1, price: 525, modifiers: [] };
const connection = async () => {
  const res = await get(service.url, `/v1/onboarding/org/${m.orgId}/locations?location_id=${m.locationId}`, m.token);
  return res.body.locations[0].dsps[0] as { paused_until: number | null; dsp_status: string };
};

describe('pause and resume', () => {
  test('a paused store refuses orders with the reason, its DSP is told, and resumed it takes them again', async () => {
    const paused = await call('POST', 'pause', {});
    expect(paused.status).toBe(200);
    expect(paused.body).toEqual({
      locations: [
        { _id: connectionId, dsp_provider_id: m.storeId, dsp_store_name: expect.any(String), status: 'APPROVED', paused_until: -1 },
      ],
    });
    expect((await connection()).paused_until).toBe(-1);
    await until(async () => (await storeAtDsp()).paused);
    const refused = await pickup();
    expect(refused.body).toMatchObject({ status: 'failed', failure_reason: 'restaurant_not_accepting_orders' });

    const resumed = await call('POST', 'resume', { dsp_location_ids: [connectionId] });
    expect(resumed.body.locations[0].paused_until).toBeNull();
    await until(async () => !(await storeAtDsp()).paused);
    expect((await pickup()).body.status).toBe('in_progress');
  });

  test('a pause with an end stops at that end by itself: no timer, no event', async () => {
    const end = Date.now() + 3600_000;
    const paused = await call('POST', 'pause', { until_ms: end });
    expect(paused.body.locations[0].paused_until).toBe(end);
    await until(async () => (await storeAtDsp()).paused_until === end);
    expect((await pickup()).body.failure_reason).toBe('restaurant_not_accepting_orders');
    const events = await storeEvents();
    // The hour passes (its end moved into the past, as the clock would).
    await service.services.db.store.update({ where: { id: connectionId }, data: { pausedUntil: new Date(Date.now() - 1000) } });
    expect((await pickup()).body.status).toBe('in_progress');
    expect((await connection()).paused_until).toBeNull();
    expect(await storeEvents()).toBe(events);
  });

  test('until_ms in the past, not a number, in seconds or too far ahead: 400 naming it, and nothing changes', async () => {
    for (const [until_ms, message] of [
      [Date.now() - 1000, 'until_ms must be in the future'],
      [Date.now() + 400 * 86_400_000, 'until_ms may be at most 366 days ahead'],
      [1.5e12 + 0.5, 'until_ms must be epoch milliseconds, a whole number from 0 to 253402300799999'],
      // An hour ahead in seconds: the unit said, not "must be in the future".
      [1795719325, 'until_ms is in epoch milliseconds; 1795719325 looks like seconds (1795719325 seconds is 1795719325000 milliseconds)'],
    ] as const) {
      const res = await call('POST', 'pause', { until_ms });
      expect({ status: res.status, message: res.body.message }).toEqual({ status: 400, message });
    }
    expect((await call('POST', 'pause', { until_ms: 'tomorrow' })).body).toMatchObject({ statusCode: 400, code: 'invalid_request' });
    expect((await connection()).paused_until).toBeNull();
  });

  test("another partner's location or store is 404, as every tenant check answers", async () => {
    const other = await service.partner();
    const res = await request(service.url, 'POST', at('pause'), { token: other.token, body: {} });
    expect(res.status).toBe(404);
    const notHers = await call('POST', 'pause', { dsp_location_ids: ['dsp_nobody'] });
    expect(notHers.status).toBe(404);
    expect((await connection()).paused_until).toBeNull();
  });
});

describe('items off sale', () => {
  test('a snoozed item fails its orders (item_unavailable), its stores are told, and back on sale it sells again', async () => {
    const off = await call('PUT', 'availability', { item_ids: ['item_us_rings'], available: false });
    expect(off.body).toEqual({ unavailable: [{ item_id: 'item_us_rings', until_ms: null }] });
    expect((await call('GET', 'availability')).body).toEqual(off.body);
    await until(async () => (await storeAtDsp()).snoozed_item_ids.includes('item_us_rings'));
    const refused = await pickup({ items: [rings] });
    expect(refused.body).toMatchObject({ status: 'failed', failure_reason: 'item_unavailable' });

    const on = await call('PUT', 'availability', { item_ids: ['item_us_rings'], available: true });
    expect(on.body).toEqual({ unavailable: [] });
    await until(async () => !(await storeAtDsp()).snoozed_item_ids.includes('item_us_rings'));
    expect((await pickup({ items: [rings] })).body.status).toBe('in_progress');
  });

  test('a modifier off sale until a time: refused until then, sold after (the clock moved past its end)', async () => {
    const end = Date.now() + 600_000;
    await call('PUT', 'availability', { item_ids: ['mod_us_large'], available: false, until_ms: end });
    const fries = {
      service_id: 'item_us_fries',
      quantity: 1,
      price: 600,
      modifiers: [{ service_id: 'mod_us_large', quantity: 1, price: 150 }],
    };
    expect((await pickup({ items: [fries] })).body.failure_reason).toBe('item_unavailable');
    // Eleven minutes on: nothing ran at its end, and the order path sees it has passed.
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => now + 660_000);
    try {
      expect((await pickup({ items: [fries] })).body.status).toBe('in_progress');
      expect((await call('GET', 'availability')).body.unavailable).toEqual([]);
    } finally {
      clock.mockRestore();
    }
    // Back in the present it is still off sale for ten minutes: put back, for the tests after this one.
    await call('PUT', 'availability', { item_ids: ['mod_us_large'], available: true });
  });

  test('the POS takes an item off sale with its signed webhook: the same effect', async () => {
    const sent = await sandbox('availability', { location_id: `loc_2_${m.tid}`, item_ids: ['item_us_coffee'], available: false });
    expect(sent.status).toBe(202);
    await until(async () =>
      (await call('GET', 'availability')).body.unavailable.some((i: { item_id: string }) => i.item_id === 'item_us_coffee'),
    );
    const coffee = { service_id: 'item_us_coffee', quantity: 1, price: 295, modifiers: [] };
    expect((await pickup({ items: [coffee] })).body.failure_reason).toBe('item_unavailable');
    await sandbox('availability', { location_id: `loc_2_${m.tid}`, item_ids: ['item_us_coffee'], available: true });
    await until(async () => (await call('GET', 'availability')).body.unavailable.length === 0);
  });

  test('an id the catalog does not hold is 400 naming it; 10,000 ids are refused at once; nothing changes', async () => {
    const unknown = await call('PUT', 'availability', { item_ids: ['item_us_rings', 'item_made_up'], available: false });
    expect(unknown.body).toMatchObject({
      statusCode: 400,
      message: "item_ids: item_made_up is not an item or modifier of this location's catalog",
    });
    const many = await call('PUT', 'availability', { item_ids: Array.from({ length: 10_000 }, (_, i) => `item_${i}`), available: false });
    expect(many.body).toMatchObject({
      statusCode: 400,
      message: expect.stringMatching(/^item_ids holds 10000 entries; a list holds at most 1000/),
    });
    // The POS's webhook has the same bound, answered before anything is stored: it was 202, then
    // failed for good when applied.
    const stored = await service.services.db.webhookEvent.count();
    const tooMany = await sandbox('availability', {
      location_id: `loc_2_${m.tid}`,
      item_ids: Array.from({ length: 1001 }, () => 'item_us_coffee'),
      available: false,
    });
    expect(tooMany).toMatchObject({ status: 400, body: { code: 'invalid_request', message: expect.stringMatching(/at most 1000 items/) } });
    expect(await service.services.db.webhookEvent.count()).toBe(stored);
    expect((await call('GET', 'availability')).body.unavailable).toEqual([]);
  });
});

test('a DSP pausing its own store: recorded and shown, orders refused, not echoed back; online again it takes them', async () => {
  const events = await storeEvents();
  expect((await sandbox(`stores/${m.storeId}/status`, { status: 'paused' })).status).toBe(202);
  await until(async () => (await connection()).dsp_status === 'paused');
  expect((await pickup()).body.failure_reason).toBe('restaurant_not_accepting_orders');
  expect(await storeEvents()).toBe(events);
  await sandbox(`stores/${m.storeId}/status`, { status: 'online' });
  await until(async () => (await connection()).dsp_status === 'online');
  expect((await pickup()).body.status).toBe('in_progress');
});

describe('the DSP hears each store’s events in sequence, and its menus in order with them', () => {
  const STORE_TYPES = ['location.pause', 'location.resume', 'location.items.snooze', 'location.items.unsnooze'];
  type Told = { type: string; store_id: string; data: { sequence: number } };
  /** The store events a store's DSP took, in the order it took them. */
  const toldAtDsp = (storeId: string) =>
    pos.received
      .filter((r) => r.path === '/v1/events')
      .map((r) => r.body as Told)
      .filter((event) => STORE_TYPES.includes(event.type) && event.store_id === storeId);

  test('each store counts its own events 1, 2, 3…, each event as the OpenAPI document says a DSP receives it', async () => {
    // A merchant of its own: its store's events count from 1, whatever this file's store was told.
    const other = await merchantTakingOrders(service);
    await sandbox('catalog-updated', { location_id: `loc_2_${other.tid}` });
    await catalogReceived(service, other.locationId);
    const on = (method: string, what: string, body?: unknown) =>
      request(service.url, method, `/v1/onboarding/org/${other.orgId}/locations/${other.locationId}/${what}`, { token: other.token, body });
    await on('POST', 'pause', { until_ms: Date.now() + 600_000 });
    await on('PUT', 'availability', { item_ids: ['item_us_rings'], available: false });
    await call('PUT', 'availability', { item_ids: ['item_us_coffee'], available: false });
    await on('PUT', 'availability', { item_ids: ['item_us_rings'], available: true });
    await on('POST', 'resume', {});
    await call('PUT', 'availability', { item_ids: ['item_us_coffee'], available: true });
    const told = await until(() => toldAtDsp(other.storeId).length === 4 && toldAtDsp(other.storeId));
    expect(told.map((e) => [e.type, e.data.sequence])).toEqual([
      ['location.pause', 1],
      ['location.items.snooze', 2],
      ['location.items.unsnooze', 3],
      ['location.resume', 4],
    ]);
    // This file's store counts on by itself, without a gap, in the order it was told.
    const ours = await until(async () => {
      const sent = await storeEvents();
      return toldAtDsp(m.storeId).length === sent && toldAtDsp(m.storeId);
    });
    expect(ours.map((e) => e.data.sequence)).toEqual(ours.map((_e, i) => i + 1));
    const { webhooks } = (await get(service.url, '/v1/openapi.json')).body as { webhooks: Record<string, { post: any }> };
    const ajv = new Ajv2020({ strict: false });
    for (const event of [...told, ...ours]) {
      const valid = ajv.validate(webhooks[event.type]!.post.requestBody.content['application/json'].schema, event);
      expect({ type: event.type, errors: valid ? null : ajv.errors }).toEqual({ type: event.type, errors: null });
    }
  });

  test('a publish of menus clears no pause and no item off sale, at the service or at the DSP', async () => {
    await call('POST', 'pause', {});
    await call('PUT', 'availability', { item_ids: ['item_us_rings'], available: false });
    await until(async () => {
      const store = await storeAtDsp();
      return store.paused && store.snoozed_item_ids.includes('item_us_rings');
    });
    const told = await storeEvents();
    const published = await service.services.db.menuPublish.count({ where: { storeId: connectionId, status: 'published' } });
    // A new catalog (a holiday far ahead): new menus reach the store.
    await sandbox('holidays', {
      location_id: `loc_2_${m.tid}`,
      holidays: [{ date: localDate(Date.now() + 40 * 86_400_000, CHICAGO), name: 'Far', closed: true }],
    });
    await until(
      async () => (await service.services.db.menuPublish.count({ where: { storeId: connectionId, status: 'published' } })) > published,
    );
    await catalogReceived(service, m.locationId);
    expect(await storeAtDsp()).toMatchObject({ paused: true, snoozed_item_ids: ['item_us_rings'] });
    expect(await storeEvents()).toBe(told);
    expect((await pickup()).body.failure_reason).toBe('restaurant_not_accepting_orders');
    await call('POST', 'resume', {});
    expect((await pickup({ items: [rings] })).body.failure_reason).toBe('item_unavailable');
    await call('PUT', 'availability', { item_ids: ['item_us_rings'], available: true });
    await sandbox('holidays', { location_id: `loc_2_${m.tid}`, holidays: null });
    await until(
      async () => (await service.services.db.menuPublish.count({ where: { storeId: connectionId, status: 'published' } })) > published + 1,
    );
  });
});

describe('closed days, in the location’s time zone', () => {
  const day = (offsetDays: number) => localDate(Date.now() + offsetDays * 86_400_000, CHICAGO);
  const closedOn = async (holidays: unknown[]) => {
    const sent = await sandbox('holidays', { location_id: `loc_2_${m.tid}`, holidays });
    await until(
      async () => (await service.services.db.webhookEvent.findUniqueOrThrow({ where: { id: String(sent.body.id) } })).status === 'applied',
    );
    await catalogReceived(service, m.locationId);
  };

  test('an order on a closed day fails naming the day; a future order is judged by its day', async () => {
    // Yesterday closed too: its late-night menu (to 02:00) would otherwise still serve in the
    // first hours of today, whatever hour the test runs at.
    await closedOn([
      { date: day(-1), name: 'Eve', closed: true },
      { date: day(0), name: 'Staff party', closed: true },
      { date: day(2), name: 'Inventory', closed: true },
      { date: day(1), name: 'Open day', closed: false },
    ]);
    const location = (await get(service.url, `/v1/onboarding/org/${m.orgId}/locations?location_id=${m.locationId}`, m.token)).body
      .locations[0];
    expect(location.timezone).toBe(CHICAGO);
    expect(location.closed_days).toEqual([
      { date: day(0), name: 'Staff party' },
      { date: day(2), name: 'Inventory' },
    ]);
    const today = await pickup();
    expect(today.body.failure_reason).toBe('restaurant_not_accepting_orders');
    expect((await service.services.db.order.findUniqueOrThrow({ where: { id: today.body.order_id! } })).failureDetails).toBe(
      `the location is closed on ${dayInWords(day(0))} (Staff party) until ${dayInWords(day(1), day(0))}, 00:00 (${CHICAGO})`,
    );
    // Noon, Chicago time, in two days (closed) and tomorrow (open).
    const noonIn = (days: number) => Date.parse(`${day(days)}T12:00:00-06:00`);
    const closed = await pickup({ is_future_order: true, future_order_fulfillment_time: noonIn(2) });
    expect(closed.body.failure_reason).toBe('restaurant_not_accepting_orders');
    const open = await pickup({ is_future_order: true, future_order_fulfillment_time: noonIn(1) });
    expect(open.body.status).toBe('in_progress');
    await closedOn([]);
    expect((await pickup()).body.status).toBe('in_progress');
  });

  test('a holiday dated 24.12.2026 makes the catalog invalid: nothing published, the POS told which and why, the closed days kept', async () => {
    await closedOn([{ date: day(3), name: 'Real', closed: true }]);
    const mark = pos.received.length;
    const published = await service.services.db.menuPublish.count({ where: { status: 'published' } });
    const sent = await sandbox('holidays', {
      location_id: `loc_2_${m.tid}`,
      holidays: [
        { date: '24.12.2026', name: 'Heiligabend', closed: true },
        { date: day(4), name: 'Also real', closed: true },
      ],
    });
    expect(sent.status).toBe(202);
    const note = await until(() =>
      pos.received.slice(mark).find((r) => r.path === '/v1/notifications' && (r.body as { type: string }).type === 'menu.publish_failure'),
    );
    expect((note.body as { data: { error: string } }).data.error).toBe(
      'the catalog is invalid: holidays[0] (Heiligabend): date must be a day of the calendar written YYYY-MM-DD (2026-12-24), not "24.12.2026"',
    );
    expect(pos.received.slice(mark).filter((r) => r.path === '/v1/menus')).toEqual([]);
    expect(await service.services.db.menuPublish.count({ where: { status: 'published' } })).toBe(published);
    // The location keeps the hours of its last valid catalog.
    const location = (await get(service.url, `/v1/onboarding/org/${m.orgId}/locations?location_id=${m.locationId}`, m.token)).body
      .locations[0];
    expect(location.closed_days).toEqual([{ date: day(3), name: 'Real' }]);
    expect((await pickup()).body.status).toBe('in_progress');
    await closedOn([]);
  });
});
