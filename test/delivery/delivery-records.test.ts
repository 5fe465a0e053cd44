// A delivery's outcome is what the peer answered: a database error while recording the answer is
// the database's, tried again, and never taken for a failed send. Before, a POS's 2xx whose
// record failed (the pool's wait for a connection, on a busy PostgreSQL) made the message dead at
// once (a 2xx is not retryable), the order `failed`/`pos_unreachable`, and the DSP heard `fail`.
import { startService } from '../../src/app/service.js';
import { createLogger } from '../../src/app/log.js';
import { asTestService, migratedDatabase, testConfig, type TestService } from '../support/service.js';
import { startPos, testSecrets } from '../support/sandbox.js';
import { merchantTakingOrders, placeOrder, until, workerSays } from '../support/orders.js';
import type { Message } from '../../src/delivery/worker.js';
import type { SandboxPos } from '../../src/sandbox/pos/server.js';

let service: TestService;
let pos: SandboxPos;
const POS_ORDER_ID_WRITE = /^(WITH "w0" AS \()?UPDATE "Order" SET "posOrderId"/;
/** How many statements of each kind to fail next, as the database would (a connection not had in time). */
const failing = new Map<RegExp, number>();

beforeAll(async () => {
  const database = await migratedDatabase();
  const config = testConfig(database);
  const onQuery = (sql: string) => {
    for (const [pattern, left] of failing) {
      if (left > 0 && pattern.test(sql)) {
        failing.set(pattern, left - 1);
        throw Object.assign(new Error('timeout exceeded when trying to connect'), { code: 'injected' });
      }
    }
  };
  service = asTestService(await startService(config, createLogger(config), { onQuery }), database);
  pos = await startPos(service, testSecrets());
});
afterAll(async () => {
  await pos?.close();
  await service?.stop();
});

test("the record of a POS's yes fails twice: the order is accepted all the same, the DSP hears accept, nothing dies", async () => {
  const m = await merchantTakingOrders(service);
  // The outcome's write of the order: the POS's order id going in (on PostgreSQL the first part of
  // the one statement of the outcome's writes).
  failing.set(POS_ORDER_ID_WRITE, 2);
  const placed = await placeOrder(pos, m.storeId);
  expect(placed.status).toBe(201);
  const orderId = placed.body.order_id!;
  const { db } = service.services;
  const order = await until(async () => {
    const row = await db.order.findUniqueOrThrow({ where: { id: orderId } });
    return row.posOrderId || row.status !== 'in_progress' ? row : undefined;
  });
  expect([...failing.values()]).toEqual([0]);
  expect(order).toMatchObject({ status: 'in_progress', failureReason: null });
  expect(order.posOrderId).toBeTruthy();
  const events = await pos.waitFor('/v1/events', 1);
  expect(events.map((e) => (e.body as { type: string }).type)).toEqual(['location.order.accept']);
  expect(await db.outboxMessage.count({ where: { status: 'dead' } })).toBe(0);
  expect(await db.event.count({ where: { type: { in: ['order.failed', 'delivery.dead'] } } })).toBe(0);
  // The POS took it once: the record was tried again, the order not sent again.
  expect((await pos.waitFor('/v1/orders', 1)).length).toBe(1);
});

test('a record that keeps failing leaves the message to its lease: sent again under its key, then recorded', async () => {
  const m = await merchantTakingOrders(service);
  // More failures than the worker's tries: this attempt's record is given up.
  failing.clear();
  failing.set(POS_ORDER_ID_WRITE, 6);
  const placed = await placeOrder(pos, m.storeId);
  const orderId = placed.body.order_id!;
  const { db } = service.services;
  const message = await until(
    async () => db.outboxMessage.findFirst({ where: { subjectId: orderId, kind: 'order.created', status: 'delivered' } }),
    20_000,
  );
  const order = await db.order.findUniqueOrThrow({ where: { id: orderId } });
  expect(order).toMatchObject({ status: 'in_progress', failureReason: null });
  // The second send carried the first one's key; the sandbox POS answered it with the same order.
  const sent = pos.received.filter((r) => r.path === '/v1/orders' && r.headers['idempotency-key'] === message.idempotencyKey);
  expect(sent.length).toBe(2);
  expect(message.attempts).toBe(2);
  expect(await db.outboxMessage.count({ where: { status: 'dead' } })).toBe(0);
});

test('the worker says what became of each message once it is recorded, and when nothing is left to do', async () => {
  failing.clear();
  const m = await merchantTakingOrders(service);
  await service.worker.idle();
  const heard: string[] = [];
  const said = (what: string) => (message: Message) => heard.push(`${what} ${message.kind}`);
  service.worker.on('delivered', said('delivered')).on('dead', said('dead'));
  const { db } = service.services;

  // Taken by the POS, then its accept taken by the DSP; then quiet, with nothing left to send.
  const idle = new Promise((resolve) => service.worker.once('idle', () => resolve(undefined)));
  const taken = await placeOrder(pos, m.storeId);
  await idle;
  expect(heard).toEqual(['delivered order.created', 'delivered location.order.accept']);
  expect(await db.outboxMessage.count({ where: { subjectId: taken.body.order_id, status: { not: 'delivered' } } })).toBe(0);

  // Refused by the POS: dead, and said so once its death is written (and the DSP's fail sent).
  heard.length = 0;
  await fetch(`${pos.url}/v1/_sandbox/fail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path: '/v1/orders', count: 1, status: 400 }),
  });
  const died = workerSays(service.worker, 'dead');
  const refused = await placeOrder(pos, m.storeId);
  const dead = await died;
  expect(dead).toMatchObject({ kind: 'order.created', subjectId: refused.body.order_id });
  expect(await db.outboxMessage.findUniqueOrThrow({ where: { id: dead.id } })).toMatchObject({ status: 'dead', lastStatus: 400 });
  await service.worker.idle();
  expect(heard).toEqual(['dead order.created', 'delivered location.order.fail']);
});
