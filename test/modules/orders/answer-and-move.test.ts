// A POS that answers an order and moves it at once can have its move read before its answer: the
// DSP still hears that the POS took the order first (accept, sequence 1), then the move
// (sequence 2), and one accept only once the answer is read. So too for a POS that said it would
// decide later and moves the order on instead of deciding. The race is held open, not timed: the
// POS's first answer is lost (the sandbox drops the connection), and the order is sent to it again
// only when the test brings that retry due, after the move (retries here are ten minutes apart).
import crypto from 'node:crypto';
import { signBody } from '../../../src/common/signatures.js';
import { failOverdueDecisions } from '../../../src/modules/orders/decisions.js';
import { control, testSecrets } from '../../support/sandbox.js';
import { atDsp, placeOrder, posStatus, startOrdersWorld, until, workerSays, type OrdersWorld } from '../../support/orders.js';

let world: OrdersWorld;
const secrets = testSecrets();

beforeAll(async () => {
  world = await startOrdersWorld({ env: { OUTBOX_RETRY_BASE_MS: '600000', OUTBOX_RETRY_MAX_MS: '600000' }, secrets });
}, 60_000);
afterAll(() => world?.close());

const pickup = () => placeOrder(world.pos, world.merchant.storeId, { fulfillment_type: 'pickup' });
const orderRow = (id: string) => world.service.services.db.order.findUniqueOrThrow({ where: { id } });
/** The POS's signed webhook, as the sandbox POS signs it: the service's status and body. */
async function posSends(type: string, object: Record<string, unknown>) {
  const body = JSON.stringify({ type, object });
  const res = await fetch(`${world.service.url}/v1/webhooks/pos/sandbox-pos`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': crypto.randomUUID(),
      'service-webhook-signature': signBody(body, secrets.webhookSecret),
    },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const told = (events: { type: string; sequence: number; data: Record<string, unknown> }[]) =>
  events.map((e) => [e.type, e.sequence, e.data.status]);

/** A pickup order whose POS's answer is lost on the way (the sandbox drops the connection): the
 * service will try again later, ten minutes on, so nothing of the answer is read meanwhile. */
async function placedWithItsAnswerLost() {
  await control(world.pos, 'fail', { path: '/v1/orders', count: 1, status: 0 });
  const retried = workerSays(world.service.worker, 'retry', (m) => m.kind === 'order.created');
  const placed = await pickup();
  expect(placed.status).toBe(201);
  const orderId = placed.body.order_id!;
  expect((await retried).subjectId).toBe(orderId);
  return { placed, orderId };
}

/** The order sent to its POS again now, and the POS's answer read: the worker idle after it. */
async function answerReadNow(orderId: string) {
  const { worker } = world.service;
  const { db } = world.service.services;
  const sent = await db.outboxMessage.findUniqueOrThrow({ where: { idempotencyKey: `order.created:${orderId}` } });
  const delivered = workerSays(worker, 'delivered', (m) => m.id === sent.id);
  await db.outboxMessage.update({ where: { id: sent.id }, data: { nextAttemptAt: new Date() } });
  worker.wake();
  await delivered;
  await worker.idle();
}

test('the POS moves the order before its answer is read: the DSP hears the accept first, the move second, and one accept in all', async () => {
  const { db } = world.service.services;
  // The POS's answer to the order is lost on the way: the service tries again later.
  const { placed, orderId } = await placedWithItsAnswerLost();

  // Meanwhile the kitchen has it, and makes it ready.
  expect((await posStatus(world.pos, orderId, 'ready_for_pickup')).status).toBe(200);
  // What the DSP hears first is that the order was taken.
  expect(told((await atDsp(world.pos, placed.dsp_order_id, 1)).events.slice(0, 1))).toEqual([['location.order.accept', 1, 'in_progress']]);
  const seen = await atDsp(world.pos, placed.dsp_order_id, 2);
  expect(told(seen.events)).toEqual([
    ['location.order.accept', 1, 'in_progress'],
    ['location.order.notify_status_change', 2, 'ready_for_pickup'],
  ]);
  // Its id at the POS is not known yet: the accept has none.
  expect(seen.events[0]!.data).not.toHaveProperty('pos_order_id');

  // Now the POS's answer is read: the order sent again, and taken.
  await answerReadNow(orderId);
  const order = await orderRow(orderId);
  expect(order).toMatchObject({ status: 'ready_for_pickup', posOrderId: expect.stringMatching(/^pos_/) });
  // The DSP heard nothing more: one accept, before the move.
  expect(Number(order.eventSequence)).toBe(2);
  const after = await atDsp(world.pos, placed.dsp_order_id, 2);
  expect(told(after.events)).toEqual(told(seen.events));
  expect(await db.outboxMessage.count({ where: { subjectId: orderId, kind: 'location.order.accept' } })).toBe(1);
});

test('the POS moves on an order it said it would decide later: taken (accept first), and its decision after that is the same one again', async () => {
  await control(world.pos, 'decide-later', { decision: 'never' });
  const placed = await pickup();
  const orderId = placed.body.order_id!;
  await until(async () => (await orderRow(orderId)).status === 'awaiting_confirmation');

  expect((await posStatus(world.pos, orderId, 'ready_for_pickup')).status).toBe(200);
  const seen = await atDsp(world.pos, placed.dsp_order_id, 2);
  expect(told(seen.events)).toEqual([
    ['location.order.accept', 1, 'in_progress'],
    ['location.order.notify_status_change', 2, 'ready_for_pickup'],
  ]);
  expect(seen.events[0]!.data.pos_order_id).toMatch(/^pos_/);
  // Its deadline is past: nothing fails it, it is taken.
  await world.service.services.db.order.update({ where: { id: orderId }, data: { decisionDueAt: new Date(Date.now() - 1000) } });
  expect(await failOverdueDecisions(world.service.services)).toBe(0);
  // The POS's own decision, sent after all, is the one its move made: answered as a repeat.
  const decision = await posSends('order.accepted', { order_id: orderId });
  expect(decision).toMatchObject({ status: 200, body: { order_id: orderId, status: 'ready_for_pickup', duplicate: true } });
  expect(told((await atDsp(world.pos, placed.dsp_order_id, 2)).events)).toEqual(told(seen.events));
});

test('the POS fails the order before its answer is read: its yes, read late, does not open the order again', async () => {
  const { db } = world.service.services;
  const { placed, orderId } = await placedWithItsAnswerLost();

  // The kitchen gives up on it before the service has read its answer.
  expect((await posStatus(world.pos, orderId, 'failed')).status).toBe(200);
  const seen = await atDsp(world.pos, placed.dsp_order_id, 2);
  expect(told(seen.events)).toEqual([
    ['location.order.accept', 1, 'in_progress'],
    ['location.order.notify_status_change', 2, 'failed'],
  ]);

  // The POS's yes to order.created, read now, changes nothing the DSP hears: the order stays failed.
  await answerReadNow(orderId);
  const order = await orderRow(orderId);
  expect(order.status).toBe('failed');
  expect(Number(order.eventSequence)).toBe(2);
  expect(told((await atDsp(world.pos, placed.dsp_order_id, 2)).events)).toEqual(told(seen.events));
  expect(await db.outboxMessage.count({ where: { subjectId: orderId, kind: 'location.order.accept' } })).toBe(1);
});
