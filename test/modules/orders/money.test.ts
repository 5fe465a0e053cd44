// Money as the platforms carry it (docs/reference.md § Money), end to end: a location in dollars,
// one in euros and one in yen each take an order, and its amounts (whole numbers of the
// currency's smallest unit) reach the POS, the event provider, the DSP's events and the partner
// (GraphQL's Money, and the REST events) exactly as the DSP sent them.
import { sandboxOrder, type SandboxPos } from '../../../src/sandbox/pos/server.js';
import type { SandboxEventProvider } from '../../../src/sandbox/event-provider/server.js';
import type { CustomerOrder } from '../../../src/sandbox/pos/dsp-channel.js';
import { startPos, testSecrets } from '../../support/sandbox.js';
import { merchantInThreeCurrencies, placeOrder, startEvents, until } from '../../support/orders.js';
import { request, startTestService, type TestService } from '../../support/service.js';

let service: TestService;
let pos: SandboxPos;
let events: SandboxEventProvider;
let world: Awaited<ReturnType<typeof merchantInThreeCurrencies>>;
const secrets = testSecrets();

beforeAll(async () => {
  service = await startTestService();
  pos = await startPos(service, secrets);
  events = await startEvents(service, secrets);
  world = await merchantInThreeCurrencies(service, pos);
});
afterAll(async () => {
  await events?.close();
  await pos?.close();
  await service?.stop();
});

const AMOUNTS = ['subtotal', 'tax', 'driver_tip', 'delivery_fee', 'delivery_fee_tax', 'total', 'cash_amount_due'] as const;
const Order = `query($id: ID!) { order(id: $id) {
  currency subtotal { amount currency } tax { amount currency } driverTip { amount currency } deliveryFee { amount currency }
  deliveryFeeTax { amount currency } total { amount currency } cashAmountDue { amount currency }
  items { ...Line modifiers { ...Line modifiers { ...Line } } }
} }
fragment Line on OrderLine { serviceId quantity price { amount currency } }`;

type Line = { service_id: string; quantity: number; price: number; modifiers: Line[] };
/** A cart as GraphQL shows it (three levels deep), from the DSP's lines. */
const shown = (lines: Line[], currency: string, depth = 0): unknown[] =>
  lines.map((l) => ({
    serviceId: l.service_id,
    quantity: l.quantity,
    price: { amount: l.price, currency },
    ...(depth < 2 ? { modifiers: shown(l.modifiers, currency, depth + 1) } : {}),
  }));

describe.each([
  ['usd', 'Austin', 4078],
  ['eur', 'Berlin', 2929],
  ['jpy', 'Shibuya', 2530],
] as const)('an order in %s (%s) keeps its amounts whole and unchanged on every wire', (currency, _place, total) => {
  test('the POS, the event provider, the DSP and the partner get exactly what the DSP sent', async () => {
    const market = world[currency];
    // What the platform sends: the sandbox DSP's order for this store, in this currency.
    const sent = sandboxOrder(market.storeId, {});
    const money = Object.fromEntries(AMOUNTS.map((field) => [field, sent[field]]));
    expect(sent.currency).toBe(currency);
    expect(sent.total).toBe(total);
    for (const value of Object.values(money)) expect(Number.isInteger(value)).toBe(true);

    // Sent whole: the sandbox's own count of its orders (a tip, a discount) does not change it.
    const placed = await placeOrder(pos, market.storeId, sent);
    expect(placed.status).toBe(201);
    expect(placed.body.status).toBe('in_progress');
    const orderId = placed.body.order_id!;

    // The POS.
    const atPos = await until(() => pos.received.find((r) => r.path === '/v1/orders' && (r.body as any).object.id === orderId));
    const object = (atPos.body as { object: Record<string, unknown> }).object;
    expect(object).toMatchObject({ currency, ...money, location_id: market.posLocationId });
    expect(object.items).toEqual(sent.items);

    // The event provider (a merchant-delivered order, taken by the POS).
    const confirmed = await until(() =>
      events.received.find((r) => r.path === '/v1/events' && (r.body as { reference_id: string }).reference_id === orderId),
    );
    const delivered = (confirmed.body as { order: Record<string, unknown> }).order;
    expect(delivered).toMatchObject({ currency, ...money });
    expect(delivered.items).toEqual(sent.items);

    // The DSP: its accept carries the currency and amounts the POS took the order at.
    const seen = await until(async () => {
      const order = (await (await fetch(`${pos.url}/v1/_sandbox/orders/${sent.dsp_order_id}`)).json()) as CustomerOrder;
      return order.events.find((e) => e.type === 'location.order.accept');
    });
    expect(seen.data).toMatchObject({ order_id: orderId, currency, ...money });

    // The partner: GraphQL's Money, and the order.created event of the REST events list.
    const read = await request(service.url, 'POST', '/graphql', { token: world.token, body: { query: Order, variables: { id: orderId } } });
    expect(read.body.errors).toBeUndefined();
    const asMoney = (amount: unknown) => ({ amount, currency });
    expect(read.body.data.order).toEqual({
      currency,
      subtotal: asMoney(sent.subtotal),
      tax: asMoney(sent.tax),
      driverTip: asMoney(sent.driver_tip),
      deliveryFee: asMoney(sent.delivery_fee),
      deliveryFeeTax: asMoney(sent.delivery_fee_tax),
      total: asMoney(sent.total),
      cashAmountDue: asMoney(sent.cash_amount_due),
      items: shown(sent.items as Line[], currency),
    });
    const event = await until(async () => {
      const page = await request(service.url, 'GET', `/v1/events?types=order.created&org_id=${world.orgId}&limit=100`, {
        token: world.token,
      });
      return (page.body.events as { data: Record<string, unknown> }[]).find((e) => e.data._id === orderId);
    });
    expect(event.data).toMatchObject({ currency, ...money });
  });
});

test('an order that names no currency is in its location’s: the POS reads it', async () => {
  const placed = await placeOrder(pos, world.jpy.storeId, { currency: null });
  expect(placed.body.status).toBe('in_progress');
  const atPos = await until(() => pos.received.find((r) => r.path === '/v1/orders' && (r.body as any).object.id === placed.body.order_id));
  expect((atPos.body as { object: { currency: string; total: number } }).object).toMatchObject({ currency: 'jpy', total: 2530 });
});

test('an order in yen at the location in euros is refused, both currencies named', async () => {
  const placed = await placeOrder(pos, world.eur.storeId, { currency: 'jpy' });
  expect(placed.body).toMatchObject({ status: 'failed', failure_reason: 'invalid_cart' });
  const order = await service.services.db.order.findUniqueOrThrow({ where: { id: placed.body.order_id! } });
  expect(order.failureDetails).toBe("the order is in jpy, its location's catalog in eur");
});
