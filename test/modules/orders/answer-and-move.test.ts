// A POS that answers an order and moves it at once can have its move read before its answer: the
// DSP still hears that the POS took the order first (accept, sequence 1), then the move
// (sequence 2), and one accept only once the answer is read. So too for a POS that said it would
// decide later and moves the order on instead of deciding. The race is held open, not timed: the
// POS's first answer is lost (the sandbox drops the connection), and the order is sent to it again
// only when the test brings that retry due, after the move (retries here are ten minutes apart).
import crypto from 'node:crypto';
import pg from 'pg';
import { signBody } from '../../../src/common/signatures.js';
import { providerOf } from '../../../src/db/url.js';
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
/** A peer's signed webhook (`pos/sandbox-pos`, `dsp/sandbox-dsp`), as the sandbox signs it: the
 * service's status and body. */
async function peerSends(peer: string, type: string, object: Record<string, unknown>) {
  const body = JSON.stringify({ type, object });
  const res = await fetch(`${world.service.url}/v1/webhooks/${peer}`, {
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
const posSends = (type: string, object: Record<string, unknown>) => peerSends('pos/sandbox-pos', type, object);
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

test('the order changes between the read and the writes of its POS’s answer (PostgreSQL): the answer is decided again on the order as it is', async () => {
  const { database } = world.service;
  if (providerOf(database.url) !== 'postgresql') return; // SQLite reads and writes an answer under one lock
  const { db } = world.service.services;
  const { orderId } = await placedWithItsAnswerLost();
  // Another writer holds the order: the answer's read goes through, its writes wait behind it.
  const other = new pg.Client({ connectionString: database.url });
  await other.connect();
  try {
    await other.query('BEGIN');
    await other.query('SELECT 1 FROM "Order" WHERE "id" = $1 FOR NO KEY UPDATE', [orderId]);
    const answered = answerReadNow(orderId);
    await until(async () => {
      // Inside a transaction the activity view keeps its first snapshot unless told to forget it.
      await other.query('SELECT pg_stat_clear_snapshot()');
      const { rows } = await other.query(
        `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'WITH "w0" AS (UPDATE "Order" SET "posOrderId"%'`,
      );
      return rows.length > 0;
    });
    // The DSP's cancel lands first.
    await other.query(`UPDATE "Order" SET "status" = 'dsp_canceled', "updatedAt" = $2, "endedAt" = $2 WHERE "id" = $1`, [
      orderId,
      new Date().toISOString(),
    ]);
    await other.query('COMMIT');
    await answered;
  } finally {
    await other.end();
  }
  // Judged again on the canceled order: nothing taken, no accept to the DSP, the answer's message done.
  const order = await orderRow(orderId);
  expect(order).toMatchObject({ status: 'dsp_canceled', posOrderId: null, estimatedReadyAt: null });
  expect(Number(order.eventSequence)).toBe(0);
  expect(await db.outboxMessage.count({ where: { subjectId: orderId, kind: 'location.order.accept' } })).toBe(0);
  expect(await db.outboxMessage.count({ where: { idempotencyKey: `order.created:${orderId}`, status: 'delivered' } })).toBe(1);
});

test('the DSP cancels the order before its POS’s answer is read: the answer, decided on the order as its intake left it, is decided again, and the order stays canceled', async () => {
  const { worker } = world.service;
  const { db } = world.service.services;
  // The order's message to its POS, handed to the worker with the order as written, is held back
  // until the DSP's cancel has landed.
  const dispatch = worker.dispatch;
  let held: Parameters<typeof dispatch>[0] | undefined;
  worker.dispatch = (message) => {
    if (message.kind === 'order.created') held = message;
    else dispatch(message);
  };
  let placed: Awaited<ReturnType<typeof pickup>>;
  try {
    placed = await pickup();
    await until(async () => held);
  } finally {
    worker.dispatch = dispatch;
  }
  const orderId = placed.body.order_id!;
  const canceled = await peerSends('dsp/sandbox-dsp', 'order.canceled', {
    dsp_order_id: placed.dsp_order_id,
    dsp_store_id: world.merchant.storeId,
  });
  expect(canceled.status).toBe(200);
  const delivered = workerSays(worker, 'delivered', (m) => m.id === held!.id);
  dispatch(held!);
  await delivered;
  await worker.idle();
  const order = await orderRow(orderId);
  expect(order).toMatchObject({ status: 'dsp_canceled', posOrderId: null, estimatedReadyAt: null });
  expect(await db.outboxMessage.count({ where: { subjectId: orderId, kind: 'location.order.accept' } })).toBe(0);
});
