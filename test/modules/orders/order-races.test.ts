// Two peers changing one order at once are served one after the other: each change is judged on
// the order as the other left it, so every order ends where the later change takes it and no legal
// move is refused (no `invalid_transition` "changed meanwhile", no `conflict`). On PostgreSQL with
// Redis (as .ci/run runs it) the changes go to two instances of the service on one database; on
// SQLite, which has one writer, to the one instance.
import crypto from 'node:crypto';
import { providerOf } from '../../../src/db/url.js';
import { signBody } from '../../../src/common/signatures.js';
import { testSecrets } from '../../support/sandbox.js';
import { startOrdersWorld, type OrdersWorld, freePort, placeOrder, sendDspOrder, spawnService, until } from '../../support/orders.js';

const twoInstances = !!process.env.REDIS_URL && providerOf(process.env.DATABASE_URL ?? '') === 'postgresql';
const RACES = 20;

let world: OrdersWorld;
let other: ReturnType<typeof spawnService> | undefined;
/** The instances the racing changes go to: one each, or the one twice on SQLite. */
let urls: [string, string];
let secret: string;

beforeAll(async () => {
  const env: Record<string, string> = twoInstances ? { REDIS_URL: process.env.REDIS_URL! } : {};
  const secrets = testSecrets();
  secret = secrets.webhookSecret;
  world = await startOrdersWorld({ env, events: true, secrets });
  urls = [world.service.url, world.service.url];
  if (twoInstances) {
    const port = await freePort();
    const { database } = world.service;
    other = spawnService({ ...env, PORT: String(port), DATA_DIR: database.dataDir, DATABASE_URL: database.url });
    await other.ready();
    urls = [world.service.url, `http://127.0.0.1:${port}`];
  }
}, 90_000);
afterAll(async () => {
  await other?.kill('SIGTERM');
  await world?.close();
});

/** A peer's signed webhook to one instance: its status and error code, if any. */
async function webhook(url: string, path: string, type: string, object: Record<string, unknown>) {
  const body = JSON.stringify({ type, object });
  const res = await fetch(`${url}/v1/webhooks/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'webhook-id': crypto.randomUUID(), 'service-webhook-signature': signBody(body, secret) },
    body,
  });
  return { status: res.status, code: ((await res.json()) as { code?: string }).code, retryAfter: res.headers.get('retry-after') };
}
const posSays = (url: string, orderId: string, status: string) =>
  webhook(url, 'pos/sandbox-pos', 'order.updated', { order_id: orderId, status });
const dspCancels = (url: string, dspOrderId: string) =>
  webhook(url, 'dsp/sandbox-dsp', 'order.canceled', { dsp_order_id: dspOrderId, dsp_store_id: world.merchant.storeId });
const orderRow = (id: string) => world.service.services.db.order.findUniqueOrThrow({ where: { id } });
/** What only a legal move refused could answer: an order already final says so (409 feature_disabled). */
const refusedAsFinal = { status: 409, code: 'feature_disabled', retryAfter: null };
const taken = { status: 200, code: undefined, retryAfter: null };

test(`a DSP's cancel racing the POS's ready_for_pickup, ${RACES} times: every cancel taken, every order canceled`, async () => {
  const orders = await Promise.all(
    Array.from({ length: RACES }, () => sendDspOrder(world.service.url, secret, world.merchant.storeId, { fulfillment_type: 'pickup' })),
  );
  const answers = await Promise.all(
    orders.map(({ body, dspOrderId }, i) =>
      Promise.all([dspCancels(urls[i % 2]!, dspOrderId), posSays(urls[(i + 1) % 2]!, body.order_id!, 'ready_for_pickup')]),
    ),
  );
  for (const [cancel, ready] of answers) {
    expect(cancel).toEqual(taken);
    // The POS's step came first and was taken, or came after the cancel and is refused as final.
    expect([taken, refusedAsFinal]).toContainEqual(ready);
  }
  for (const { body } of orders) expect((await orderRow(body.order_id!)).status).toBe('dsp_canceled');
}, 60_000);

test(`an event provider's delivered racing the POS's ready_for_pickup, ${RACES} times: every delivery taken, every order completed`, async () => {
  const location = `loc_2_${world.merchant.tid}`;
  const orders = await Promise.all(Array.from({ length: RACES }, () => placeOrder(world.pos, world.merchant.storeId)));
  // Each confirmed to the event provider, its driver assigned.
  for (const { body } of orders) await until(async () => (await orderRow(body.order_id!)).driver);
  const answers = await Promise.all(
    orders.map(({ body }, i) =>
      Promise.all([
        webhook(urls[i % 2]!, 'event-providers/sandbox-events', 'order.delivery_status.updated', {
          location_id: location,
          order_id: body.order_id,
          delivery_status: 'delivered',
        }),
        posSays(urls[(i + 1) % 2]!, body.order_id!, 'ready_for_pickup'),
      ]),
    ),
  );
  for (const [delivered, ready] of answers) {
    expect(delivered).toEqual(taken);
    expect([taken, refusedAsFinal]).toContainEqual(ready);
  }
  for (const { body } of orders) expect(await orderRow(body.order_id!)).toMatchObject({ status: 'completed', deliveryStatus: 'delivered' });
}, 60_000);

test(`${RACES} steps at once on one order: each judged on the order the others left, none refused as a race`, async () => {
  const { body } = await sendDspOrder(world.service.url, secret, world.merchant.storeId, { fulfillment_type: 'pickup' });
  const orderId = body.order_id!;
  const steps = Array.from({ length: RACES }, (_, i) => (i % 2 ? 'completed' : 'ready_for_pickup'));
  const answers = await Promise.all(steps.map((status, i) => posSays(urls[i % 2]!, orderId, status)));
  // A step is a move forward, what the order has already, or refused because the order is final
  // (completed by another step): never refused as a race.
  for (const answer of answers) expect([taken, refusedAsFinal]).toContainEqual(answer);
  expect(answers.filter((answer, i) => steps[i] === 'completed' && answer.status === 200).length).toBeGreaterThanOrEqual(1);
  expect((await orderRow(orderId)).status).toBe('completed');
  // The partner heard of each move once: to ready_for_pickup at most once, to completed once.
  const moves = await world.service.services.db.event.findMany({ where: { subjectId: orderId, type: 'order.updated' } });
  expect(moves.length).toBeGreaterThanOrEqual(1);
  expect(moves.length).toBeLessThanOrEqual(2);
}, 60_000);
