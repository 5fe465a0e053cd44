// The kitchen's answer and its pace, as the DSP and the POS see them: the prep time the POS
// quotes (its location's, or its answer's) and when the order is to be ready; a POS that decides
// later, holding the order until it does or until its stored deadline, which a restart does not
// lose; and a refusal that names the items the kitchen has none of.
import type { SandboxPos } from '../../../src/sandbox/pos/server.js';
import type { CustomerOrder } from '../../../src/sandbox/pos/dsp-channel.js';
import { signBody } from '../../../src/common/signatures.js';
import { startService } from '../../../src/app/service.js';
import { control, testSecrets } from '../../support/sandbox.js';
import { startOrdersWorld, type OrdersWorld, placeOrder, until, type OrderSetup } from '../../support/orders.js';
import { request, testConfig, type TestService } from '../../support/service.js';
import { clockMovedBy } from '../../support/clock.js';

let world: OrdersWorld;
let service: TestService;
let pos: SandboxPos;
let m: OrderSetup;
const secrets = testSecrets();
const env = { OUTBOX_RETRY_BASE_MS: '20', OUTBOX_RETRY_MAX_MS: '60', OUTBOX_MAX_ATTEMPTS: '12' };
/** The Austin location's prep time in the sandbox POS's listing. */
const AUSTIN_PREP = 15;

beforeAll(async () => {
  world = await startOrdersWorld({ env, secrets, menus: true });
  ({ service, pos, merchant: m } = world);
});
afterAll(() => world?.close());

/** The order as the DSP's customer sees it, once it has `count` events. */
const atDsp = (dspOrderId: string, count = 1) =>
  until(async () => {
    const order = (await (await fetch(`${pos.url}/v1/_sandbox/orders/${dspOrderId}`)).json()) as CustomerOrder;
    return order.events?.length >= count ? order : null;
  });
const pickup = () => placeOrder(pos, m.storeId, { fulfillment_type: 'pickup' });
const orderRow = (id: string) => service.services.db.order.findUniqueOrThrow({ where: { id } });
let webhookCount = 0;
/** The POS's signed webhook about an order, each with an id of its own (a repeat is a new call). */
const posWebhook = (type: string, object: Record<string, unknown>) => {
  const raw = JSON.stringify({ type, object });
  return request(service.url, 'POST', '/v1/webhooks/pos/sandbox-pos', {
    raw,
    headers: {
      'content-type': 'application/json',
      'webhook-id': `kitchen-${++webhookCount}-${Date.now()}`,
      'service-webhook-signature': signBody(raw, secrets.webhookSecret),
    },
  });
};
/** An order the POS answered "later" and will never decide by itself, held awaiting. */
async function heldOrder() {
  await control(pos, 'decide-later', { decision: 'never', after_ms: 0, count: 1 });
  const placed = await pickup();
  expect(placed.status).toBe(201);
  const orderId = placed.body.order_id!;
  await until(async () => (await orderRow(orderId)).status === 'awaiting_confirmation');
  return { orderId, dspOrderId: placed.dsp_order_id };
}

test("the DSP's accept carries the location's prep time and a ready time of taken-at plus it", async () => {
  const before = Date.now();
  const placed = await pickup();
  const seen = await atDsp(placed.dsp_order_id);
  const after = Date.now();
  const accept = seen.events[0]!;
  expect(accept.type).toBe('location.order.accept');
  expect(accept.data.prep_time_minutes).toBe(AUSTIN_PREP);
  const ready = accept.data.estimated_ready_time as number;
  expect(ready).toBeGreaterThanOrEqual(before + AUSTIN_PREP * 60_000);
  expect(ready).toBeLessThanOrEqual(after + AUSTIN_PREP * 60_000);
  const order = await orderRow(placed.body.order_id!);
  expect(order.estimatedReadyAt?.getTime()).toBe(ready);
});

test('a POS that decides later: nobody hears "accepted" until its order.accepted, whose prep time the DSP then gets', async () => {
  const { orderId, dspOrderId } = await heldOrder();
  const held = await (await fetch(`${pos.url}/v1/_sandbox/orders/${dspOrderId}`)).json();
  expect(held).toMatchObject({ status: 'placed', events: [] });

  const decided = await posWebhook('order.accepted', { order_id: orderId, prep_time_minutes: 25 });
  expect(decided.status).toBe(200);
  expect(decided.body).toMatchObject({ order_id: orderId, status: 'in_progress', prep_time_minutes: 25 });
  const seen = await atDsp(dspOrderId);
  expect(seen.events.map((e) => e.type)).toEqual(['location.order.accept']);
  expect(seen.events[0]!.data).toMatchObject({ prep_time_minutes: 25, sequence: 1 });

  // The POS's retry of the same decision changes nothing; the other decision is 409.
  const again = await posWebhook('order.accepted', { order_id: orderId });
  expect(again).toMatchObject({ status: 200, body: { order_id: orderId, status: 'in_progress', duplicate: true } });
  const other = await posWebhook('order.rejected', { order_id: orderId, reason: 'changed my mind' });
  expect(other.status).toBe(409);
  expect(other.body).toMatchObject({ statusCode: 409, code: 'invalid_transition' });
  expect((await orderRow(orderId)).status).toBe('in_progress');
});

test('the sandbox decides by itself after after_ms: its refusal reaches the DSP', async () => {
  await control(pos, 'decide-later', { decision: 'reject', after_ms: 10, count: 1 });
  const placed = await pickup();
  const seen = await atDsp(placed.dsp_order_id);
  expect(seen.events[0]).toMatchObject({
    type: 'location.order.fail',
    data: { failure_reason: 'pos_rejected', failure_details: 'the POS refused the order: the kitchen declined the order' },
  });
});

test('an order answered at once has no decision to take: order.accepted is 409; another POS’s order 404', async () => {
  const placed = await pickup();
  await atDsp(placed.dsp_order_id);
  const late = await posWebhook('order.accepted', { order_id: placed.body.order_id });
  expect(late.status).toBe(409);
  expect(late.body.message).toMatch(/awaits no decision/);
  expect((await posWebhook('order.accepted', { order_id: 'ord_not_ours' })).status).toBe(404);
});

test('an order never decided fails confirmation_timeout 60 s on, the DSP told; a decision after that is 409', async () => {
  const { orderId, dspOrderId } = await heldOrder();
  const restore = clockMovedBy(61_000);
  try {
    const seen = await atDsp(dspOrderId);
    expect(seen.events[0]).toMatchObject({ type: 'location.order.fail', data: { failure_reason: 'confirmation_timeout' } });
    const late = await posWebhook('order.accepted', { order_id: orderId });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'invalid_transition', message: expect.stringMatching(/confirmation_timeout/) });
    expect(await orderRow(orderId)).toMatchObject({ status: 'failed', failureReason: 'confirmation_timeout' });
  } finally {
    restore();
  }
});

test("the kitchen's refusal names the item it has none of: the DSP gets item_unavailable with it", async () => {
  await control(pos, 'stock', { item_ids: ['item_us_fries'], available: false });
  try {
    const placed = await pickup();
    const seen = await atDsp(placed.dsp_order_id);
    expect(seen.events[0]).toMatchObject({
      type: 'location.order.fail',
      data: {
        failure_reason: 'item_unavailable',
        failure_details: 'the POS has none of: Fries (item_us_fries)',
        unavailable_items: [{ service_id: 'item_us_fries', type: 'item', quantity: 0 }],
      },
    });
  } finally {
    await control(pos, 'stock', { item_ids: ['item_us_fries'], available: true });
  }
});

test('a refusal naming items not in the order is 400 naming them, and the order still awaits', async () => {
  const { orderId } = await heldOrder();
  const bad = await posWebhook('order.rejected', {
    order_id: orderId,
    reason: 'out of stock',
    posValidation: { stockValidation: [{ type: 'item', provider_id: 'item_not_in_it', quantity: 0 }] },
  });
  expect(bad.status).toBe(400);
  expect(bad.body.message).toBe('posValidation.stockValidation names items not in the order: item_not_in_it');
  const many = await posWebhook('order.rejected', {
    order_id: orderId,
    reason: 'out of stock',
    posValidation: { stockValidation: Array.from({ length: 10_000 }, () => ({ type: 'item', provider_id: 'item_us_fries', quantity: 0 })) },
  });
  expect(many.status).toBe(400);
  expect(many.body.message).toMatch(/10000 entries: at most 100/);
  expect((await orderRow(orderId)).status).toBe('awaiting_confirmation');
  const named = await posWebhook('order.rejected', {
    order_id: orderId,
    reason: 'out of stock',
    posValidation: { stockValidation: [{ type: 'item', provider_id: 'item_us_fries', quantity: 0 }] },
  });
  expect(named.body).toMatchObject({ status: 'failed', failure_reason: 'item_unavailable' });
});

// Last: it stops the file's service and starts another on its database.
test('the deadline survives a restart: the service started again fails the order when it is due', async () => {
  const { dspOrderId } = await heldOrder();
  await service.close();
  const restore = clockMovedBy(61_000);
  const again = await startService(testConfig(service.database, env));
  try {
    const seen = await atDsp(dspOrderId);
    expect(seen.events[0]).toMatchObject({ type: 'location.order.fail', data: { failure_reason: 'confirmation_timeout' } });
  } finally {
    restore();
    await again.close();
  }
});
