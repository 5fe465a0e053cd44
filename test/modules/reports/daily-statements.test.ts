// The end of day (docs/api-guide.md, "End of day"): a location's orders of two platforms, taken,
// failed and canceled by each party, counted and summed per local day, by GraphQL and by REST
// (JSON, and CSV a standard parser reads); the commission and the expected payout; a day the
// clocks change. Every figure expected is worked out here from the orders placed. Runs on SQLite
// and PostgreSQL.
import { parse } from 'csv-parse/sync';
import type { SandboxPos } from '../../../src/sandbox/pos/server.js';
import { saveProvider } from '../../../src/integrations/providers.js';
import { control } from '../../support/sandbox.js';
import { orderLine, placeOrder, startOrdersWorld, until, type OrderSetup, type OrdersWorld } from '../../support/orders.js';
import { request, type TestService } from '../../support/service.js';

let world: OrdersWorld;
let service: TestService;
let pos: SandboxPos;
let m: OrderSetup;

const line = orderLine;
const cart = [
  line('item_us_classic', 1199, 2, [line('mod_us_medium', 0), line('mod_us_cheese', 125, 1, [line('mod_us_swiss', 0)])]),
  line('item_us_fries', 450, 1, [line('mod_us_regular', 0)]),
];
/** An order of 3098 with every figure, discounts funded each way (merchant 450 + 40, platform 620 + 60). */
const order = (tip: number) => ({
  currency: 'usd',
  items: cart,
  subtotal: 3098,
  tax: 256,
  tax_withheld_by_dsp: 90,
  delivery_fee: 299,
  delivery_fee_tax: 25,
  restaurant_tip: tip,
  driver_tip: 400,
  discounts: [
    { name: '20% off', amount: 620, scope: 'order', funded_by: 'dsp', merchant_amount: 0 },
    { name: 'Fries on us', amount: 450, scope: 'item', service_id: 'item_us_fries', funded_by: 'merchant', merchant_amount: 450 },
    { name: 'Shared promo', amount: 100, scope: 'order', funded_by: 'shared', merchant_amount: 40 },
  ],
  total: 3098 + 256 + 90 + 299 + 25 + tip + 400 - 1170,
});
type Sent = ReturnType<typeof order>;
/** What the statement sums of a taken order, worked out from the order sent. */
const figuresOf = (o: Sent) => ({
  subtotal: o.subtotal,
  tax: o.tax,
  tax_withheld_by_dsp: o.tax_withheld_by_dsp,
  delivery_fee: o.delivery_fee,
  delivery_fee_tax: o.delivery_fee_tax,
  restaurant_tip: o.restaurant_tip,
  driver_tip: o.driver_tip,
  discount_merchant: o.discounts.reduce((n, d) => n + d.merchant_amount, 0),
  discount_dsp: o.discounts.reduce((n, d) => n + d.amount - d.merchant_amount, 0),
  markup: 0,
  total: o.total,
});
const sum = (list: ReturnType<typeof figuresOf>[]): ReturnType<typeof figuresOf> =>
  Object.fromEntries(Object.keys(figuresOf(order(0))).map((k) => [k, list.reduce((n, f) => n + f[k as keyof typeof f], 0)])) as ReturnType<
    typeof figuresOf
  >;

/** Local New York times of 2026-03-08, the day its clocks spring forward (23 hours): 00:15 EST,
 * 23:30 EDT; and 00:30 EDT on the day after. */
const AT = { early: '2026-03-08T05:15:00Z', late: '2026-03-09T03:30:00Z', nextDay: '2026-03-09T04:30:00Z' };
const OTHER = 'other-dsp';

type Placed = { id: string; sent: Sent; source: string; at: string; kind: 'taken' | 'failed' | 'merchant' | 'dsp' };
const placed: Placed[] = [];

async function place(sent: Sent, at: string, source: string, kind: Placed['kind']) {
  const answer = await placeOrder(pos, m.storeId, kind === 'failed' ? { ...sent, total: sent.total + 1 } : sent);
  const id = answer.body.order_id!;
  if (kind === 'failed') expect(answer.body).toMatchObject({ status: 'failed', failure_reason: 'invalid_cart' });
  else await until(async () => (await service.services.db.order.findUnique({ where: { id } }))?.posOrderId);
  if (kind === 'merchant')
    expect((await control(pos, 'order-status', { order_id: id, status: 'merchant_canceled', cancel_reason: 'out_of_stock' })).status).toBe(
      200,
    );
  if (kind === 'dsp')
    expect(
      (await control(pos, 'orders/cancel', { dsp_store_id: m.storeId, dsp_order_id: answer.dsp_order_id, cancel_reason: 'fraud' })).status,
    ).toBe(200);
  placed.push({ id, sent, source, at, kind });
}

beforeAll(async () => {
  world = await startOrdersWorld({ menus: true });
  ({ service, pos, merchant: m } = world);
  await saveProvider(service.services, { source: OTHER, kind: 'dsp', name: 'Other Eats', base_url: pos.url });
  await place(order(300), AT.early, 'sandbox-dsp', 'taken');
  await place(order(0), AT.late, 'sandbox-dsp', 'taken');
  await place(order(0), AT.late, 'sandbox-dsp', 'failed');
  await place(order(0), AT.early, 'sandbox-dsp', 'merchant');
  await place(order(500), AT.late, OTHER, 'taken');
  await place(order(0), AT.early, OTHER, 'dsp');
  await place(order(0), AT.early, OTHER, 'failed');
  await place(order(700), AT.nextDay, OTHER, 'taken');
  await until(
    async () => (await service.services.db.order.count({ where: { status: { in: ['merchant_canceled', 'dsp_canceled'] } } })) === 2,
  );
  // The day is moved, not waited for: the organization began before it, the orders were taken on
  // it, and a second platform's orders are labelled as its (one sandbox DSP serves both).
  const db = service.services.db;
  await db.organization.update({ where: { id: m.orgId }, data: { createdAt: new Date('2026-03-01T12:00:00Z') } });
  await db.location.update({ where: { id: m.locationId }, data: { timezone: 'America/New_York' } });
  for (const p of placed) await db.order.update({ where: { id: p.id }, data: { createdAt: new Date(p.at), dspSource: p.source } });
}, 120_000);
afterAll(() => world?.close());

const report = (query: string, accept = 'application/json') =>
  request(service.url, 'GET', `/v1/reports/daily?${query}`, { token: m.token, headers: { accept } });
const q = (from: string, to: string, location = m.locationId) => `org_id=${m.orgId}&location_id=${location}&from=${from}&to=${to}`;

/** The statement line a test expects of some of the placed orders. */
function expectedLine(source: string | null, of: Placed[]) {
  const taken = of.filter((p) => p.kind === 'taken');
  const count = (kind: Placed['kind']) => of.filter((p) => p.kind === kind).length;
  return {
    source,
    currency: 'usd',
    taken: taken.length,
    awaiting: 0,
    failed: count('failed'),
    canceled_by_merchant: count('merchant'),
    canceled_by_dsp: count('dsp'),
    amounts: sum(taken.map((p) => figuresOf(p.sent))),
  };
}
const onDay = (p: Placed) => p.at !== AT.nextDay;

test('a day of two platforms: each platform’s orders counted and its taken ones summed, and the total; 23:30 on the 23-hour day is that day', async () => {
  const answer = await report(q('2026-03-08', '2026-03-09'));
  expect(answer.status).toBe(200);
  const [day, next] = answer.body.statements;
  expect(day).toMatchObject({
    date: '2026-03-08',
    time_zone: 'America/New_York',
    hours: 23,
    starts_at: Date.parse('2026-03-08T05:00:00Z'),
  });
  expect(day.platforms).toEqual([
    expect.objectContaining(
      expectedLine(
        OTHER,
        placed.filter((p) => onDay(p) && p.source === OTHER),
      ),
    ),
    expect.objectContaining(
      expectedLine(
        'sandbox-dsp',
        placed.filter((p) => onDay(p) && p.source === 'sandbox-dsp'),
      ),
    ),
  ]);
  expect(day.totals).toEqual([expect.objectContaining(expectedLine(null, placed.filter(onDay)))]);
  const sandbox = day.platforms[1];
  expect(sandbox.failed_by_reason).toEqual([{ reason: 'invalid_cart', orders: 1 }]);
  expect(sandbox.canceled_by_merchant_by_reason).toEqual([{ reason: 'out_of_stock', orders: 1 }]);
  expect(day.platforms[0].canceled_by_dsp_by_reason).toEqual([{ reason: 'fraud', orders: 1 }]);
  // 00:30 the next morning is the next day's.
  expect(next).toMatchObject({ date: '2026-03-09', hours: 24 });
  expect(next.totals).toEqual([
    expect.objectContaining(
      expectedLine(
        null,
        placed.filter((p) => !onDay(p)),
      ),
    ),
  ]);
});

test('GraphQL’s dailyStatements says what REST says', async () => {
  const read = await request(service.url, 'POST', '/graphql', {
    token: m.token,
    body: {
      query: `query($o: ID!, $l: ID!) { dailyStatements(orgId: $o, locationId: $l, from: "2026-03-08", to: "2026-03-08") {
        date hours totals { taken failed canceledByMerchant canceledByDsp amounts { subtotal restaurantTip discountMerchant total } } } }`,
      variables: { o: m.orgId, l: m.locationId },
    },
  });
  const expected = expectedLine(null, placed.filter(onDay));
  expect(read.body.data.dailyStatements).toEqual([
    {
      date: '2026-03-08',
      hours: 23,
      totals: [
        {
          taken: expected.taken,
          failed: expected.failed,
          canceledByMerchant: 1,
          canceledByDsp: 1,
          amounts: {
            subtotal: expected.amounts.subtotal,
            restaurantTip: expected.amounts.restaurant_tip,
            discountMerchant: expected.amounts.discount_merchant,
            total: expected.amounts.total,
          },
        },
      ],
    },
  ]);
});

test('the CSV parses with a standard parser: a row per order, then totals equal to the JSON’s', async () => {
  const [json, csv] = await Promise.all([report(q('2026-03-08', '2026-03-09')), report(q('2026-03-08', '2026-03-09'), 'text/csv')]);
  expect(csv.status).toBe(200);
  expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
  const text = typeof csv.body === 'string' ? csv.body : JSON.stringify(csv.body);
  expect(text).toContain('\r\n');
  const rows = parse(text, { columns: true }) as Record<string, string>[];
  const orders = rows.filter((r) => r.record === 'order');
  expect(orders.map((r) => r.order_id).sort()).toEqual(placed.map((p) => p.id).sort());
  for (const statement of json.body.statements) {
    for (const line of [...statement.platforms, ...statement.totals]) {
      const row = rows.find(
        (r) => r.record === (line.source ? 'platform' : 'total') && r.date === statement.date && r.source === (line.source ?? ''),
      )!;
      expect(row).toBeDefined();
      for (const [figure, amount] of Object.entries(line.amounts)) expect([figure, Number(row[figure])]).toEqual([figure, amount]);
      expect(Number(row.taken)).toBe(line.taken);
      // The order rows of that day and platform add up to it.
      const its = orders.filter((r) => r.date === statement.date && (!line.source || r.source === line.source));
      expect(its.reduce((n, r) => n + Number(r.subtotal || 0), 0)).toBe(line.amounts.subtotal);
    }
  }
});

test('a commission set per platform gives the expected payout, each figure named', async () => {
  const set = await request(service.url, 'PUT', `/v1/organizations/${m.orgId}/platforms/${OTHER}`, {
    token: m.token,
    body: { commission_percent: 12.5 },
  });
  expect(set.status).toBe(200);
  expect(set.body).toEqual({ org_id: m.orgId, source: OTHER, commission_percent: 12.5 });
  const { body } = await report(q('2026-03-08', '2026-03-08'));
  const [other, sandbox] = body.statements[0].platforms;
  const a = expectedLine(
    OTHER,
    placed.filter((p) => onDay(p) && p.source === OTHER),
  ).amounts;
  const commission = Math.round((a.subtotal * 125) / 1000);
  expect(other.payout).toEqual({
    subtotal: a.subtotal,
    tax: a.tax,
    restaurant_tip: a.restaurant_tip,
    discount_merchant: a.discount_merchant,
    commission_percent: 12.5,
    commission,
    payout: a.subtotal + a.tax + a.restaurant_tip - a.discount_merchant - commission,
  });
  expect(sandbox.payout).toBeNull();
});

describe('bad input: a clear 400 or 404, nothing changed', () => {
  test.each([
    ['a date not YYYY-MM-DD', '2026-3-8', '2026-03-08', 'from must be a date as YYYY-MM-DD'],
    ['a range ending before it starts', '2026-03-09', '2026-03-08', 'to is 2026-03-08, before from'],
    ['over 31 days', '2026-03-02', '2026-04-02', 'more than 31 days'],
    ['before the organization existed', '2026-02-28', '2026-03-08', 'before the organization existed'],
    ['in the future', '2026-03-08', '2099-01-01', 'in the future'],
  ])('%s', async (_what, from, to, message) => {
    const answer = await report(q(from, to));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ statusCode: 400, code: 'invalid_request' });
    expect(answer.body.message).toContain(message);
  });

  test('a location of another organization is not found', async () => {
    const other = await startOther();
    const answer = await report(q('2026-03-08', '2026-03-08', other));
    expect(answer.status).toBe(404);
    expect(answer.body.message).toBe(`location ${other} not found`);
  });

  test.each([
    [-1, 'commission_percent must be from 0 to 100'],
    [101, 'commission_percent must be from 0 to 100'],
    ['12', 'commission_percent'],
  ])('commission_percent %p', async (percent, message) => {
    const answer = await request(service.url, 'PUT', `/v1/organizations/${m.orgId}/platforms/sandbox-dsp`, {
      token: m.token,
      body: { commission_percent: percent },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain(message);
    expect(await service.services.db.platformCommission.count({ where: { source: 'sandbox-dsp' } })).toBe(0);
  });

  test('a platform that is not registered is not found', async () => {
    const answer = await request(service.url, 'PUT', `/v1/organizations/${m.orgId}/platforms/nowhere-eats`, {
      token: m.token,
      body: { commission_percent: 10 },
    });
    expect(answer.status).toBe(404);
  });
});

/** A second organization's location, of the same partner. */
async function startOther(): Promise<string> {
  const { merchantTakingOrders } = await import('../../support/orders.js');
  return (await merchantTakingOrders(service)).locationId;
}
