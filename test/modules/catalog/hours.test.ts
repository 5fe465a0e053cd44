// Opening hours end to end, against the sandbox POS (which plays the DSP too): orders judged at
// their time on their location's clock (now, with the clock moved, or a future order's time),
// breakfast before and at 07:00, the night closed with the next opening named, a holiday's short
// hours, both daylight-saving changes of Chicago and Berlin; the schedules and holidays a DSP
// store receives with its menus; schedules a POS gets wrong; and the POS pausing its own
// location (location.status.updated). Local times are made here from the platform's own offsets
// (Intl), not from the service's code.
import { saveProvider } from '../../../src/integrations/providers.js';
import { signBody } from '../../../src/common/signatures.js';
import type { SandboxPos } from '../../../src/sandbox/pos/server.js';
import type { StoreState } from '../../../src/sandbox/pos/dsp-channel.js';
import { clockMovedBy } from '../../support/clock.js';
import { bind, dspStores, ingest } from '../../support/flows.js';
import { control, startPos, testSecrets } from '../../support/sandbox.js';
import { catalogReceived, dayInWords, merchantTakingOrders, placeOrder, until, type OrderSetup } from '../../support/orders.js';
import { get, request, startTestService, type TestService } from '../../support/service.js';

const CHICAGO = 'America/Chicago';
const BERLIN = 'Europe/Berlin';
const DAY_MS = 86_400_000;

let service: TestService;
let pos: SandboxPos;
let m: OrderSetup;
let berlin: { locationId: string; storeId: string };
const secrets = testSecrets();

beforeAll(async () => {
  service = await startTestService({ OUTBOX_RETRY_BASE_MS: '20', OUTBOX_RETRY_MAX_MS: '60' });
  pos = await startPos(service, secrets);
  m = await merchantTakingOrders(service);
  // Berlin's location and its delivery store beside Austin's.
  const dsp = await service.services.db.onboarding.findFirstOrThrow({ where: { orgId: m.orgId, type: 'dsp' } });
  const [berlinLocation] = await ingest(service.url, m.token, m.posOnboardingId, [`loc_${m.tid}_de`]);
  const berlinStore = (await dspStores(service.url, m.token, dsp.id)).berlin!;
  await bind(service.url, m.token, dsp.id, berlinLocation!, berlinStore);
  berlin = { locationId: berlinLocation!, storeId: berlinStore };
  await sandbox('catalog-updated', { location_id: US });
  await sandbox('catalog-updated', { location_id: DE });
  await catalogReceived(service, m.locationId);
  await catalogReceived(service, berlin.locationId);
});
afterAll(async () => {
  await pos?.close();
  await service?.stop();
});

const US = () => `loc_2_${m.tid}`;
const DE = () => `loc_${m.tid}_de`;
const sandbox = (what: string, body: Record<string, unknown>) =>
  control(pos, what, Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'function' ? v() : v])));

/** The zone's offset at an instant, as ISO 8601 writes it ("-05:00"), from the platform's data. */
function offsetAt(zone: string, at: number): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')!.value;
  return name === 'GMT' ? 'Z' : name.slice(3);
}
const dateIn = (zone: string, at: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
const shiftDate = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const weekday = (date: string) => new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', { weekday: 'short', timeZone: 'UTC' });
/** A time of a date as people read it: "Tue, Dec 1, 07:00 (America/Chicago)". */
const said = (date: string, clock: string, zone: string, from = date) => `${dayInWords(date, from)}, ${clock} (${zone})`;
/** A local time of a date in a zone, with the zone's offset at that date's noon (UTC): right for
 * any time after the night's change, as the times used here are. */
const localTime = (date: string, clock: string, zone: string) =>
  Date.parse(`${date}T${clock}:00${offsetAt(zone, Date.parse(`${date}T12:00:00Z`))}`);
/** The latest instant, now or before, at which the zone's clock reads `clock`. */
function lastLocal(clock: string, zone: string): number {
  const today = dateIn(zone, Date.now());
  const at = localTime(today, clock, zone);
  return at <= Date.now() ? at : localTime(shiftDate(today, -1), clock, zone);
}
/** The next days on which the zone changes its offset (its spring and its autumn Sunday). */
function changeDays(zone: string): string[] {
  const today = dateIn(zone, Date.now());
  const days: string[] = [];
  for (let day = 1; day <= 400 && days.length < 2; day++) {
    const date = shiftDate(today, day);
    if (offsetAt(zone, Date.parse(`${date}T12:00:00Z`)) !== offsetAt(zone, Date.parse(`${shiftDate(date, -1)}T12:00:00Z`))) days.push(date);
  }
  return days;
}

// Lines priced above any of the catalog's: what is judged here is when, not how much.
const line = (service_id: string) => ({ service_id, name: service_id, quantity: 1, price: 10_000, modifiers: [] });
const PANCAKES = line('item_us_pancakes');
const RINGS = line('item_us_rings');
const BROETCHEN = line('item_de_broetchen');
const KARTOFFELSALAT = line('item_de_kartoffelsalat');
const order = (storeId: string, items: unknown[], at?: number) =>
  placeOrder(pos, storeId, {
    fulfillment_type: 'pickup',
    items,
    ...(storeId.includes('_berlin') ? { currency: 'eur' } : {}),
    ...(at === undefined ? {} : { is_future_order: true, future_order_fulfillment_time: at }),
  });
const failureDetails = async (orderId: string) =>
  (await service.services.db.order.findUniqueOrThrow({ where: { id: orderId } })).failureDetails;
const reachedPos = (orderId: string) =>
  until(() => pos.received.some((r) => r.path === '/v1/orders' && (r.body as { object: { id: string } }).object.id === orderId));
const location = async (locationId: string) =>
  (await get(service.url, `/v1/onboarding/org/${m.orgId}/locations?location_id=${locationId}`, m.token)).body.locations[0];
const storeAtDsp = async (storeId: string) => (await (await fetch(`${pos.url}/v1/_sandbox/stores/${storeId}`)).json()) as StoreState;
/** A POS change of the catalog, applied, and received by the location's stores. */
async function changed(sent: Promise<{ status: number; body: Record<string, unknown> }>, locationId = m.locationId) {
  const { status, body } = await sent;
  expect(status).toBe(202);
  await until(
    async () => (await service.services.db.webhookEvent.findUniqueOrThrow({ where: { id: String(body.id) } })).status === 'applied',
  );
  await catalogReceived(service, locationId);
}
const EVERY_DAY = (range: string) =>
  Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, [range]]));

test('an order at 06:59 for a breakfast item fails item_unavailable naming its hours; at 07:00 it reaches the POS', async () => {
  const at = lastLocal('06:59', CHICAGO);
  const day = weekday(dateIn(CHICAGO, at));
  let restore = clockMovedBy(at - Date.now());
  try {
    const early = await order(m.storeId, [PANCAKES]);
    expect(early.body).toMatchObject({ status: 'failed', failure_reason: 'item_unavailable' });
    expect(await failureDetails(early.body.order_id!)).toBe(
      `the location is open, but item item_us_pancakes is only on menus closed at ${said(dateIn(CHICAGO, at), '06:59', CHICAGO)}: Breakfast (${day} 07:00-11:00), open next ${said(dateIn(CHICAGO, at), '07:00', CHICAGO)}`,
    );
    // The all-day menu is open: its items sell.
    expect((await order(m.storeId, [RINGS])).body.status).toBe('in_progress');
  } finally {
    restore();
  }
  restore = clockMovedBy(at + 60_000 - Date.now());
  try {
    const seven = await order(m.storeId, [PANCAKES]);
    expect(seven.body.status).toBe('in_progress');
    await reachedPos(seven.body.order_id!);
  } finally {
    restore();
  }
});

test('at 03:00 nothing sells, the refusal naming the next opening in local time; organization locations show it', async () => {
  await changed(sandbox('schedule', { location_id: US, menu_id: 'menu_us_all_day', schedule: EVERY_DAY('11:00-22:00') }));
  try {
    const at = lastLocal('03:00', CHICAGO);
    const date = dateIn(CHICAGO, at);
    const restore = clockMovedBy(at - Date.now());
    try {
      for (const items of [[RINGS], [PANCAKES]]) {
        const night = await order(m.storeId, items);
        expect(night.body).toMatchObject({ status: 'failed', failure_reason: 'restaurant_not_accepting_orders' });
        expect(await failureDetails(night.body.order_id!)).toBe(`the location is closed until ${said(date, '07:00', CHICAGO)}`);
      }
      const shown = await location(m.locationId);
      expect(shown).toMatchObject({ open_now: false, opens_at: localTime(date, '07:00', CHICAGO) });
      expect(shown).not.toHaveProperty('closes_at');
      expect(shown.menus).toEqual([
        { provider_id: 'menu_us_all_day', name: 'All Day', schedule: EVERY_DAY('11:00-22:00') },
        { provider_id: 'menu_us_breakfast', name: 'Breakfast', schedule: EVERY_DAY('07:00-11:00') },
        { provider_id: 'menu_us_late_night', name: 'Late Night', schedule: { friday: ['22:00-02:00'], saturday: ['22:00-02:00'] } },
      ]);
    } finally {
      restore();
    }
    // A future order for 11:30 that day (its time, not now, decides): the all-day menu is open.
    const lunch = await order(m.storeId, [RINGS], localTime(shiftDate(dateIn(CHICAGO, Date.now()), 1), '11:30', CHICAGO));
    expect(lunch.body.status).toBe('in_progress');
  } finally {
    await changed(sandbox('schedule', { location_id: US, menu_id: 'menu_us_all_day', schedule: null }));
  }
  // No schedule: open whenever the location is.
  expect(await location(m.locationId)).toMatchObject({ open_now: true });
});

test('a future order for a holiday with hours: within them it passes, outside them it fails naming when it opens', async () => {
  const date = shiftDate(dateIn(CHICAGO, Date.now()), 5);
  await changed(sandbox('holidays', { location_id: US, holidays: [{ date, name: 'Inventory', hours: ['10:00-14:00'] }] }));
  try {
    const within = await order(m.storeId, [RINGS], localTime(date, '12:00', CHICAGO));
    expect(within.body.status).toBe('in_progress');
    await reachedPos(within.body.order_id!);
    const after = await order(m.storeId, [RINGS], localTime(date, '15:00', CHICAGO));
    expect(after.body).toMatchObject({ status: 'failed', failure_reason: 'restaurant_not_accepting_orders' });
    expect(await failureDetails(after.body.order_id!)).toBe(
      `the location keeps holiday hours 10:00-14:00 on ${dayInWords(date)} (Inventory) and is closed until ${said(shiftDate(date, 1), '00:00', CHICAGO, date)}`,
    );
    // Before them, breakfast or not.
    const before = await order(m.storeId, [PANCAKES], localTime(date, '09:00', CHICAGO));
    expect(before.body.failure_reason).toBe('restaurant_not_accepting_orders');
  } finally {
    await changed(sandbox('holidays', { location_id: US, holidays: null }));
  }
});

test.each([
  ['Austin', CHICAGO, () => m.storeId],
  ['Berlin', BERLIN, () => berlin.storeId],
])('%s (%s): across both daylight-saving changes breakfast begins at 07:00 on the local clock', async (_city, zone, store) => {
  const [breakfast, allDay] = zone === CHICAGO ? [PANCAKES, RINGS] : [BROETCHEN, KARTOFFELSALAT];
  const days = changeDays(zone);
  expect(days).toHaveLength(2);
  for (const date of days) {
    // The day before and the day of the change: the same local times, an hour apart in UTC.
    for (const day of [shiftDate(date, -1), date]) {
      const early = await order(store(), [breakfast], localTime(day, '06:59', zone));
      expect({ day, reason: early.body.failure_reason }).toEqual({ day, reason: 'item_unavailable' });
      const seven = await order(store(), [breakfast], localTime(day, '07:00', zone));
      expect({ day, status: seven.body.status }).toEqual({ day, status: 'in_progress' });
      expect((await order(store(), [allDay], localTime(day, '06:59', zone))).body.status).toBe('in_progress');
    }
  }
});

test('each DSP store receives its menus with their schedules, the holidays and the time zone; a new schedule reaches it', async () => {
  const austin = await storeAtDsp(m.storeId);
  expect(austin.hours).toMatchObject({
    timezone: CHICAGO,
    menus: [
      { provider_id: 'menu_us_all_day', name: 'All Day' },
      { provider_id: 'menu_us_breakfast', schedule: EVERY_DAY('07:00-11:00') },
      { provider_id: 'menu_us_late_night', schedule: { friday: ['22:00-02:00'], saturday: ['22:00-02:00'] } },
    ],
  });
  expect(austin.hours!.menus[0]).not.toHaveProperty('schedule');
  const berlinStore = await storeAtDsp(berlin.storeId);
  expect(berlinStore.hours?.timezone).toBe(BERLIN);
  expect(berlinStore.hours?.holidays).toContainEqual(expect.objectContaining({ name: 'Heiligabend', hours: ['10:00-14:00'] }));
  expect(berlinStore.hours?.menus).toContainEqual(
    expect.objectContaining({
      provider_id: 'menu_de_mittagstisch',
      schedule: Object.fromEntries(Object.entries(EVERY_DAY('11:30-14:30')).slice(0, 5)),
    }),
  );

  // The POS gives breakfast longer hours on Sundays, written its own way: the store gets them written one way.
  const sundays = { ...EVERY_DAY('07:00-11:00'), sunday: ['7:00-12:30'] };
  await changed(sandbox('schedule', { location_id: US, menu_id: 'menu_us_breakfast', schedule: sundays }));
  try {
    const breakfast = (await storeAtDsp(m.storeId)).hours!.menus.find((menu) => menu.provider_id === 'menu_us_breakfast');
    expect(breakfast?.schedule).toEqual({ ...EVERY_DAY('07:00-11:00'), sunday: ['07:00-12:30'] });
    const sent = pos.received.filter((r) => r.path === '/v1/menus').at(-1)!.body as Record<string, any>;
    expect(sent).toMatchObject({ store_id: m.storeId, timezone: CHICAGO });
    expect(sent.catalog.holidays).toContainEqual(expect.objectContaining({ name: "New Year's Eve", hours: ['07:00-18:00'] }));
  } finally {
    await changed(sandbox('schedule', { location_id: US, menu_id: 'menu_us_breakfast', schedule: EVERY_DAY('07:00-11:00') }));
  }
});

describe('schedules a POS gets wrong', () => {
  test.each([
    ['a range past the day', { monday: ['25:00-26:00'] }, 'schedule.monday[0] "25:00-26:00" is not a range of 24-hour times'],
    ['a time, not a range', { monday: ['11:00'] }, 'schedule.monday[0] "11:00" is not a range of 24-hour times'],
    ['hours without minutes', { monday: ['11-22'] }, 'schedule.monday[0] "11-22" is not a range of 24-hour times'],
    ['a day named funday', { funday: ['07:00-11:00'] }, 'schedule names "funday", which is not a weekday (monday to sunday)'],
    ['a schedule that is not an object', '07:00-11:00', 'schedule must be an object of weekdays (monday to sunday)'],
    ['10,000 ranges', { monday: Array(10_000).fill('07:00-11:00') }, 'schedule.monday holds 10000 ranges; at most 48'],
  ])('%s: not published, the POS is told why, nothing else of the location changes', async (_what, schedule, why) => {
    const before = { location: await location(m.locationId), store: await storeAtDsp(m.storeId) };
    const mark = pos.received.length;
    const { status, body } = await sandbox('schedule', { location_id: US, menu_id: 'menu_us_breakfast', schedule });
    expect(status).toBe(202);
    try {
      await until(
        async () => (await service.services.db.webhookEvent.findUniqueOrThrow({ where: { id: String(body.id) } })).status === 'applied',
      );
      const note = await until(() =>
        pos.received
          .slice(mark)
          .find((r) => r.path === '/v1/notifications' && (r.body as { type: string }).type === 'menu.publish_failure'),
      );
      expect((note.body as { data: { error: string } }).data.error).toContain(`menu menu_us_breakfast (Breakfast): ${why}`);
      expect(pos.received.slice(mark).filter((r) => r.path === '/v1/menus')).toEqual([]);
      expect(await location(m.locationId)).toEqual(before.location);
      expect(await storeAtDsp(m.storeId)).toEqual(before.store);
      // Orders are judged as before: breakfast at 07:30 tomorrow.
      const tomorrow = shiftDate(dateIn(CHICAGO, Date.now()), 1);
      expect((await order(m.storeId, [PANCAKES], localTime(tomorrow, '07:30', CHICAGO))).body.status).toBe('in_progress');
    } finally {
      await changed(sandbox('schedule', { location_id: US, menu_id: 'menu_us_breakfast', schedule: EVERY_DAY('07:00-11:00') }));
    }
  });
});

describe('the POS pauses its own location (location.status.updated)', () => {
  const storeEvents = () => service.services.db.outboxMessage.count({ where: { idempotencyKey: { startsWith: 'dsp-store-event:' } } });
  const partnerEvents = (type: string) => service.services.db.event.count({ where: { orgId: m.orgId, type } });
  const pausedStores = () => service.services.db.store.count({ where: { orgId: m.orgId, pausedAt: { not: null } } });

  test('inactive pauses every bound store (each DSP told), until paused_until; active resumes them', async () => {
    // A second store of the Austin location: both are paused.
    const dsp = await service.services.db.onboarding.findFirstOrThrow({ where: { orgId: m.orgId, type: 'dsp' } });
    const brooklynStore = (await dspStores(service.url, m.token, dsp.id)).brooklyn!;
    await bind(service.url, m.token, dsp.id, m.locationId, brooklynStore);
    const paused = await sandbox('location-status', { location_id: US, status: 'inactive' });
    expect(paused.status).toBe(202);
    await until(async () => (await storeAtDsp(m.storeId)).paused && (await storeAtDsp(brooklynStore)).paused);
    expect((await location(m.locationId)).dsps.map((d: { paused_until: number }) => d.paused_until)).toEqual([-1, -1]);
    expect(await partnerEvents('location.paused')).toBe(1);
    expect((await order(m.storeId, [RINGS])).body.failure_reason).toBe('restaurant_not_accepting_orders');
    // Berlin is another location: untouched.
    expect((await storeAtDsp(berlin.storeId)).paused).toBe(false);

    const resumed = await sandbox('location-status', { location_id: US, status: 'active' });
    expect(resumed.status).toBe(202);
    await until(async () => !(await storeAtDsp(m.storeId)).paused && !(await storeAtDsp(brooklynStore)).paused);
    expect(await partnerEvents('location.resumed')).toBe(1);
    expect((await order(m.storeId, [RINGS])).body.status).toBe('in_progress');

    // Paused for an hour: the DSP is told the end, and the pause ends by itself then.
    const end = Date.now() + 3_600_000;
    await sandbox('location-status', { location_id: US, status: 'inactive', paused_until: end });
    await until(async () => (await storeAtDsp(m.storeId)).paused_until === end);
    expect((await location(m.locationId)).dsps[0].paused_until).toBe(end);
    // The refusal says the end on the location's clock, as its hours are said, never in UTC.
    const during = await order(m.storeId, [RINGS]);
    const clock = new Intl.DateTimeFormat('en-GB', { timeZone: CHICAGO, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(end);
    expect(await failureDetails(during.body.order_id!)).toBe(
      `store ${m.storeId} is paused until ${said(dateIn(CHICAGO, end), clock, CHICAGO, dateIn(CHICAGO, Date.now()))}`,
    );
    const restore = clockMovedBy(end + 1000 - Date.now());
    try {
      expect((await order(m.storeId, [RINGS])).body.status).toBe('in_progress');
    } finally {
      restore();
    }
    await sandbox('location-status', { location_id: US, status: 'active' });
    await until(async () => (await pausedStores()) === 0);
  });

  test("another POS's location, an unknown status, a paused_until in the past or in seconds: refused as bad objects, nothing changes", async () => {
    const otherSecret = testSecrets().webhookSecret;
    await saveProvider(service.services, {
      source: 'other-pos',
      kind: 'pos',
      base_url: 'http://127.0.0.1:9',
      client_id: 'other',
      client_secret: 'other-secret',
      webhook_secret: otherSecret,
    });
    const stored = await service.services.db.webhookEvent.count();
    const events = await storeEvents();
    const raw = JSON.stringify({ type: 'location.status.updated', object: { location_id: US(), status: 'inactive' } });
    const foreign = await request(service.url, 'POST', '/v1/webhooks/pos/other-pos', {
      raw,
      headers: { 'content-type': 'application/json', 'service-webhook-signature': signBody(raw, otherSecret) },
    });
    expect(foreign).toMatchObject({ status: 404, body: { code: 'not_found', message: `no active location ${US()} from other-pos` } });
    expect(await sandbox('location-status', { location_id: US, status: 'closed' })).toMatchObject({
      status: 400,
      body: { code: 'invalid_request', message: 'object.status must be one of active, inactive, busy' },
    });
    expect(await sandbox('location-status', { location_id: US, status: 'inactive', paused_until: Date.now() - 60_000 })).toMatchObject({
      status: 400,
      body: { code: 'invalid_request', message: 'object.paused_until must be in the future' },
    });
    expect(await sandbox('location-status', { location_id: US, status: 'inactive', paused_until: 'soon' })).toMatchObject({
      status: 400,
      body: { code: 'invalid_request', message: expect.stringMatching(/^object\.paused_until must be epoch milliseconds, a whole number/) },
    });
    // An hour ahead in epoch seconds: the unit is said, not "must be in the future".
    const inSeconds = Math.floor(Date.now() / 1000) + 3600;
    expect(await sandbox('location-status', { location_id: US, status: 'inactive', paused_until: inSeconds })).toMatchObject({
      status: 400,
      body: {
        code: 'invalid_request',
        message: `object.paused_until is in epoch milliseconds; ${inSeconds} looks like seconds (${inSeconds} seconds is ${inSeconds * 1000} milliseconds)`,
      },
    });
    expect(await sandbox('location-status', { location_id: 'loc_nowhere', status: 'inactive' })).toMatchObject({ status: 404 });
    expect(await service.services.db.webhookEvent.count()).toBe(stored);
    expect(await storeEvents()).toBe(events);
    expect(await pausedStores()).toBe(0);
  });
});
