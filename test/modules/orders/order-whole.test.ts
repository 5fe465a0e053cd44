// The order whole (docs/dsp-channels.md, "The order's money" and "Cancellations"):
// a tip to the store, tax the platform remits and discounts with who funds them reach the POS,
// the partner and GET /v1/orders/{id} as sent, kept as columns a day is summed by; sums that do
// not add up fail the order naming both figures; a POS registered for it gets the markup as a
// line; a cancellation's party and reason are told onward. Runs on SQLite and PostgreSQL.
import type { SandboxPos } from '../../../src/sandbox/pos/server.js';
import type { CustomerOrder } from '../../../src/sandbox/pos/dsp-channel.js';
import { saveProvider } from '../../../src/integrations/providers.js';
import { control } from '../../support/sandbox.js';
import { orderLine, placeOrder, startOrdersWorld, until, type OrderSetup, type OrdersWorld } from '../../support/orders.js';
import { request, type TestService } from '../../support/service.js';

let world: OrdersWorld;
let service: TestService;
let pos: SandboxPos;
let m: OrderSetup;

beforeAll(async () => {
  world = await startOrdersWorld({ menus: true });
  ({ service, pos, merchant: m } = world);
});
afterAll(() => world?.close());

const line = orderLine;
// Two classic burgers (1199, medium, extra cheese 125 with Swiss) and fries (450, regular): 3098.
const cart = (burger = 1199, cheese = 125) => [
  line('item_us_classic', burger, 2, [line('mod_us_medium', 0), line('mod_us_cheese', cheese, 1, [line('mod_us_swiss', 0)])]),
  line('item_us_fries', 450, 1, [line('mod_us_regular', 0)]),
];
const discounts = [
  { name: '20% off', amount: 620, scope: 'order', funded_by: 'dsp', merchant_amount: 0 },
  { name: 'Fries on us', amount: 450, scope: 'item', service_id: 'item_us_fries', funded_by: 'merchant', merchant_amount: 450 },
  { name: 'Shared promo', amount: 100, scope: 'order', funded_by: 'shared', merchant_amount: 40 },
];
// 3098 + tax 256 + withheld 90 + fee 299 + fee tax 25 + store tip 300 + driver tip 400 − 1170.
const whole = {
  currency: 'usd',
  items: cart(),
  subtotal: 3098,
  tax: 256,
  tax_withheld_by_dsp: 90,
  delivery_fee: 299,
  delivery_fee_tax: 25,
  restaurant_tip: 300,
  driver_tip: 400,
  discounts,
  total: 3098 + 256 + 90 + 299 + 25 + 300 + 400 - 1170,
};
const FIGURES = [
  'subtotal',
  'tax',
  'tax_withheld_by_dsp',
  'delivery_fee',
  'delivery_fee_tax',
  'restaurant_tip',
  'driver_tip',
  'total',
] as const;

const atPos = (orderId: string, type = 'order.created') =>
  until(() =>
    pos.received.find(
      (r) =>
        r.path === '/v1/orders' &&
        (r.body as any).type === type &&
        ((r.body as any).object.id === orderId || (r.body as any).object.order_id === orderId),
    ),
  ).then((r) => (r.body as { object: Record<string, any> }).object);
const dspEvents = async (dspOrderId: string) =>
  ((await (await fetch(`${pos.url}/v1/_sandbox/orders/${dspOrderId}`)).json()) as CustomerOrder).events;
const Amounts = `query($id: ID!) { order(id: $id) { status failureDetails amounts {
  subtotal { amount currency } tax { amount } taxWithheldByDsp { amount } deliveryFee { amount } deliveryFeeTax { amount }
  restaurantTip { amount } driverTip { amount } discountsByMerchant { amount } discountsByPlatform { amount } markup { amount } total { amount }
  discounts { name amount { amount currency } scope serviceId fundedBy merchantAmount { amount } }
} cancellation { by reason details at } } }`;
const graph = async (query: string, variables: Record<string, unknown>) => {
  const read = await request(service.url, 'POST', '/graphql', { token: m.token, body: { query, variables } });
  expect(read.body.errors).toBeUndefined();
  return read.body.data;
};

test('an order whose sums add up reaches the POS, the partner and GET /v1/orders/{id} with every figure as sent, kept as columns', async () => {
  const placed = await placeOrder(pos, m.storeId, whole);
  expect(placed.body).toMatchObject({ status: 'in_progress' });
  const orderId = placed.body.order_id!;

  const object = await atPos(orderId);
  expect(object).toMatchObject(Object.fromEntries(FIGURES.map((f) => [f, whole[f]])));
  expect(object.discounts).toEqual(discounts);
  expect(object.items).toEqual(whole.items);
  // The sandbox POS's ticket shows the breakdown it received: every figure, each discount and who funds it.
  const ticket = await (await fetch(`${pos.url}/v1/_sandbox/tickets/${orderId}`)).json();
  expect(ticket).toMatchObject({ order_id: orderId, currency: 'usd', figures: Object.fromEntries(FIGURES.map((f) => [f, whole[f]])) });
  expect(ticket.discounts.map((d: { funded_by: string }) => d.funded_by)).toEqual(discounts.map((d) => d.funded_by));
  expect(ticket.lines.length).toBeGreaterThanOrEqual(whole.items.length);

  const { order } = await graph(Amounts, { id: orderId });
  expect(order.amounts).toEqual({
    subtotal: { amount: 3098, currency: 'usd' },
    tax: { amount: 256 },
    taxWithheldByDsp: { amount: 90 },
    deliveryFee: { amount: 299 },
    deliveryFeeTax: { amount: 25 },
    restaurantTip: { amount: 300 },
    driverTip: { amount: 400 },
    discountsByMerchant: { amount: 490 },
    discountsByPlatform: { amount: 680 },
    markup: { amount: 0 },
    total: { amount: whole.total },
    discounts: [
      {
        name: '20% off',
        amount: { amount: 620, currency: 'usd' },
        scope: 'order',
        serviceId: null,
        fundedBy: 'dsp',
        merchantAmount: { amount: 0 },
      },
      {
        name: 'Fries on us',
        amount: { amount: 450, currency: 'usd' },
        scope: 'item',
        serviceId: 'item_us_fries',
        fundedBy: 'merchant',
        merchantAmount: { amount: 450 },
      },
      {
        name: 'Shared promo',
        amount: { amount: 100, currency: 'usd' },
        scope: 'order',
        serviceId: null,
        fundedBy: 'shared',
        merchantAmount: { amount: 40 },
      },
    ],
  });
  expect(order.cancellation).toBeNull();

  const read = await request(service.url, 'GET', `/v1/orders/${orderId}`, { token: m.token });
  expect(read.status).toBe(200);
  expect(read.body.event_data).toMatchObject({
    _id: orderId,
    ...Object.fromEntries(FIGURES.map((f) => [f, whole[f]])),
    discounts,
    markup: 0,
  });
  expect(read.body.customer).toMatchObject({ name: 'Jamie Rivera' });
  expect(read.body.timeline[0]).toMatchObject({ what: 'order.created' });
  // Once its POS has taken it, the read says the kitchen's quote: its minutes, and when it is to be
  // ready (taken at plus those minutes).
  // Its ready time is written when its POS takes it (its minutes are the location's quote from
  // its intake on, so they alone do not say it was taken).
  const quoted = await until(() => service.services.db.order.findFirst({ where: { id: orderId, estimatedReadyAt: { not: null } } }));
  const taken = await request(service.url, 'GET', `/v1/orders/${orderId}`, { token: m.token });
  const { prep_time_minutes: prep, estimated_ready_time: ready } = taken.body.event_data as {
    prep_time_minutes: number;
    estimated_ready_time: number;
  };
  expect(prep).toBe(quoted.prepTimeMinutes);
  expect(prep).toBeGreaterThanOrEqual(1);
  expect(ready).toBe(quoted.estimatedReadyAt!.getTime());
  expect(Math.abs(ready - prep * 60_000 - Date.now())).toBeLessThan(30_000);

  // The partner's event carries the breakdown too.
  const event = await until(async () => {
    const page = await request(service.url, 'GET', `/v1/events?types=order.created&org_id=${m.orgId}&limit=100`, { token: m.token });
    return (page.body.events as { data: Record<string, unknown> }[]).find((e) => e.data._id === orderId);
  });
  expect(event.data).toMatchObject({ restaurant_tip: 300, tax_withheld_by_dsp: 90, discounts });

  // The columns a day's figures are summed from, in SQL.
  const row = await service.services.db.order.findUniqueOrThrow({ where: { id: orderId } });
  expect(
    Object.fromEntries(
      (['subtotal', 'tax', 'taxWithheldByDsp', 'restaurantTip', 'driverTip', 'discountMerchant', 'discountDsp', 'total'] as const).map(
        (c) => [c, Number(row[c])],
      ),
    ),
  ).toEqual({
    subtotal: 3098,
    tax: 256,
    taxWithheldByDsp: 90,
    restaurantTip: 300,
    driverTip: 400,
    discountMerchant: 490,
    discountDsp: 680,
    total: whole.total,
  });
});

test('a total that forgets the discounts fails invalid_cart with both figures, and the DSP is told', async () => {
  const placed = await placeOrder(pos, m.storeId, { ...whole, total: whole.total + 1170 });
  expect(placed.body).toMatchObject({ status: 'failed', failure_reason: 'invalid_cart' });
  const details = `total is ${whole.total + 1170}, but subtotal + tax + tax_withheld_by_dsp + delivery_fee + delivery_fee_tax + restaurant_tip + driver_tip − discounts come to ${whole.total}`;
  const failed = await until(async () => (await dspEvents(placed.dsp_order_id)).find((e) => e.type === 'location.order.fail'));
  expect(failed.data).toMatchObject({ failure_reason: 'invalid_cart', failure_details: details });
  expect((await graph(Amounts, { id: placed.body.order_id })).order.failureDetails).toBe(details);
});

test('a subtotal one cent off fails invalid_cart naming the subtotal', async () => {
  const placed = await placeOrder(pos, m.storeId, { ...whole, subtotal: 3099, total: whole.total + 1 });
  expect(placed.body).toMatchObject({ status: 'failed', failure_reason: 'invalid_cart' });
  expect((await graph(Amounts, { id: placed.body.order_id })).order.failureDetails).toBe('subtotal is 3099, but the items come to 3098');
});

describe('money that is wrong in shape is refused 400 naming the field, and nothing is stored', () => {
  const WHOLE = "must be a whole number of the currency's smallest unit, from 0 to 100000000000";
  const discount = (more: Record<string, unknown>) => ({ ...whole, discounts: [{ ...discounts[0], ...more }] });
  test.each<[string, Record<string, unknown>, string]>([
    [
      'a discount on an item not in the order',
      discount({ scope: 'item', service_id: 'item_us_rings' }),
      'object.discounts[0].service_id must name an item of this order, not "item_us_rings"',
    ],
    [
      'merchant_amount above amount',
      discount({ funded_by: 'shared', merchant_amount: 700 }),
      'object.discounts[0].merchant_amount is 700, above its amount 620',
    ],
    [
      'funded by the customer',
      discount({ funded_by: 'customer' }),
      'object.discounts[0].funded_by must be one of dsp, merchant, shared, not "customer"',
    ],
    ['an unknown scope', discount({ scope: 'basket' }), 'object.discounts[0].scope must be one of order, item, not "basket"'],
    [
      '51 discounts',
      { ...whole, discounts: Array.from({ length: 51 }, () => discounts[0]) },
      'object.discounts takes at most 50 discounts, not 51',
    ],
    ['a negative tip', { ...whole, restaurant_tip: -100 }, `object.restaurant_tip ${WHOLE}, not -100`],
    ['a tip of 10^12', { ...whole, restaurant_tip: 1e12 }, `object.restaurant_tip ${WHOLE}, not 1000000000000`],
  ])('%s', async (_case, order, message) => {
    const before = await service.services.db.order.count();
    const placed = await placeOrder(pos, m.storeId, order);
    expect(placed.status).toBe(400);
    expect(placed.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message });
    expect(await service.services.db.order.count()).toBe(before);
  });
});

test('a POS registered with --markup-line gets the catalog’s prices and one markup line making up the subtotal', async () => {
  const [posSource] = (
    await service.services.db.provider.findMany({ where: { kind: 'pos' }, select: { source: true, baseUrl: true } })
  ).map((p) => p);
  await saveProvider(service.services, { source: posSource!.source, kind: 'pos', base_url: posSource!.baseUrl, markup_line: true });
  try {
    // The platform prices the burger 1299 (the catalog 1199) and the cheese 150 (125): 2 × (100 + 25) above.
    const subtotal = 2 * (1299 + 150) + 450;
    const placed = await placeOrder(pos, m.storeId, { ...whole, items: cart(1299, 150), subtotal, total: whole.total + 250 });
    expect(placed.body).toMatchObject({ status: 'in_progress' });
    const object = await atPos(placed.body.order_id!);
    expect(object.items).toEqual([...cart(), { service_id: 'markup', name: 'Sandbox Eats markup', quantity: 1, price: 250 }]);
    expect(object).toMatchObject({ subtotal, total: whole.total + 250 });
    const { order } = await graph(Amounts, { id: placed.body.order_id });
    expect(order.amounts.markup).toEqual({ amount: 250 });
  } finally {
    await saveProvider(service.services, { source: posSource!.source, kind: 'pos', base_url: posSource!.baseUrl, markup_line: false });
  }
});

describe('cancellations with a reason and a party', () => {
  test('the POS’s merchant_canceled with out_of_stock reaches the DSP with canceled_by merchant and the reason', async () => {
    const placed = await placeOrder(pos, m.storeId, whole);
    const orderId = placed.body.order_id!;
    await until(async () => (await dspEvents(placed.dsp_order_id)).some((e) => e.type === 'location.order.accept'));
    const answer = await control(pos, 'order-status', {
      order_id: orderId,
      status: 'merchant_canceled',
      cancel_reason: 'out_of_stock',
      cancel_details: 'No more buns tonight',
    });
    expect(answer.status).toBe(200);
    const cancel = await until(async () => (await dspEvents(placed.dsp_order_id)).find((e) => e.type === 'location.order.cancel'));
    expect(cancel.data).toMatchObject({
      status: 'merchant_canceled',
      canceled_by: 'merchant',
      cancel_reason: 'out_of_stock',
      cancel_details: 'No more buns tonight',
    });
    const { order } = await graph(Amounts, { id: orderId });
    expect(order.cancellation).toMatchObject({ by: 'merchant', reason: 'out_of_stock', details: 'No more buns tonight' });
    expect(order.cancellation.at).toBeGreaterThan(0);
  });

  test('the DSP’s cancellation for fraud reaches the POS with canceled_by dsp, and the partner', async () => {
    const placed = await placeOrder(pos, m.storeId, whole);
    const orderId = placed.body.order_id!;
    await atPos(orderId);
    const answer = await control(pos, 'orders/cancel', {
      dsp_store_id: m.storeId,
      dsp_order_id: placed.dsp_order_id,
      cancel_reason: 'fraud',
    });
    expect(answer.status).toBe(200);
    const told = await atPos(orderId, 'order.updated');
    expect(told).toMatchObject({ status: 'dsp_canceled', canceled_by: 'dsp', cancel_reason: 'fraud' });
    const { order } = await graph(Amounts, { id: orderId });
    expect(order.cancellation).toMatchObject({ by: 'dsp', reason: 'fraud', details: null });
    const event = await until(async () => {
      const page = await request(service.url, 'GET', `/v1/events?types=order.updated&org_id=${m.orgId}&limit=100`, { token: m.token });
      return (page.body.events as { data: Record<string, unknown> }[]).find(
        (e) => e.data._id === orderId && e.data.status === 'dsp_canceled',
      );
    });
    expect(event.data).toMatchObject({ canceled_by: 'dsp', cancel_reason: 'fraud' });
  });

  test.each<[string, string, Record<string, unknown>, string]>([
    [
      'the POS',
      'order-status',
      { status: 'merchant_canceled', cancel_reason: 'angry' },
      'object.cancel_reason must be one of out_of_stock, kitchen_closed, too_busy, customer_request, other, not "angry"',
    ],
    [
      'the POS',
      'order-status',
      { status: 'in_progress' },
      'object.status must be one of ready_for_pickup, out_for_delivery, completed, failed, merchant_canceled',
    ],
    [
      'the DSP',
      'orders/cancel',
      { cancel_reason: 'angry' },
      'object.cancel_reason must be one of customer_request, courier_unavailable, fraud, delay, other, not "angry"',
    ],
  ])('%s saying %j is refused 400 naming what it may say, and the order does not change', async (_who, what, body, message) => {
    const placed = await placeOrder(pos, m.storeId, whole);
    const orderId = placed.body.order_id!;
    await atPos(orderId);
    const answer = await control(pos, what, { order_id: orderId, dsp_store_id: m.storeId, dsp_order_id: placed.dsp_order_id, ...body });
    expect(answer).toMatchObject({ status: 400, body: { statusCode: 400, error: 'Bad Request', message } });
    expect((await graph(Amounts, { id: orderId })).order).toMatchObject({ status: 'in_progress', cancellation: null });
  });
});
