// Replays do nothing (docs/reference.md § Webhooks in). docs/reference.md's signature covers only the body, so a captured
// webhook can come back with any fresh dedupe id: applying it again must equal applying it once.
// Standard Webhooks signing is accepted too, with its signed id as the dedupe key and a
// five-minute window on its timestamp.
import type { SandboxPos } from '../../src/sandbox/pos/server.js';
import { signBody, signStandardWebhook } from '../../src/common/signatures.js';
import { addDays, instantAt, localDate } from '../../src/modules/catalog/local-time.js';
import { testSecrets } from '../support/sandbox.js';
import { startOrdersWorld, type OrdersWorld, placeOrder, until, type OrderSetup } from '../support/orders.js';
import { request, type TestService } from '../support/service.js';

let world: OrdersWorld;
let service: TestService;
let pos: SandboxPos;
const secrets = testSecrets();
let m: OrderSetup;

beforeAll(async () => {
  world = await startOrdersWorld({ secrets });
  ({ service, pos, merchant: m } = world);
});
afterAll(() => world?.close());

/** Until every stored webhook is applied (the inbox works after the 2xx). */
async function settled() {
  await until(async () => (await service.services.db.webhookEvent.count({ where: { status: { not: 'applied' } } })) === 0).catch(() => {
    throw new Error('webhooks still pending');
  });
}

const catalogUpdated = (body: string, headers: Record<string, string>) =>
  request(service.url, 'POST', '/v1/webhooks/pos/sandbox-pos', { raw: body, headers: { 'content-type': 'application/json', ...headers } });

test('one catalog.updated replayed with 30 fresh ids publishes once and keeps one catalog version', async () => {
  const body = JSON.stringify({ type: 'location.catalog.updated', object: { location_id: `loc_2_${m.tid}` } });
  const signature = signBody(body, secrets.webhookSecret);
  pos.received.length = 0;
  const first = await catalogUpdated(body, { 'webhook-id': 'evt-original', 'service-webhook-signature': signature });
  expect(first.status).toBe(202);
  await settled();
  await pos.waitFor('/v1/menus', 1);
  const replays = await Promise.all(
    Array.from({ length: 30 }, (_, i) => catalogUpdated(body, { 'webhook-id': `evt-replay-${i}`, 'service-webhook-signature': signature })),
  );
  expect(replays.map((r) => r.status)).toEqual(Array(30).fill(202));
  await settled();
  // Each webhook is applied, so any publish a replay made is in the outbox; once none is pending,
  // whatever was published has reached the POS.
  await until(async () => (await service.services.db.outboxMessage.count({ where: { kind: 'menu.publish', status: 'pending' } })) === 0);
  expect(pos.received.filter((r) => r.path === '/v1/menus')).toHaveLength(1);
  expect(await service.services.db.catalogVersion.count({ where: { locationId: m.locationId } })).toBe(1);
  expect(await service.services.db.menuPublish.count({ where: { locationId: m.locationId } })).toBe(1);

  // A real change is still published: new menus assigned, the same catalog.
  const connection = (await service.services.db.store.findFirstOrThrow({ where: { locationId: m.locationId } })).id;
  await request(service.url, 'PUT', '/v1/onboarding/menus', {
    token: m.token,
    body: { org_id: m.orgId, dsp_location_id: connection, menu_provider_ids: ['menu_us_breakfast'] },
  });
  await catalogUpdated(body, { 'webhook-id': 'evt-after-assignment', 'service-webhook-signature': signature });
  await pos.waitFor('/v1/menus', 2);
  expect((pos.received.filter((r) => r.path === '/v1/menus')[1]!.body as { menu_provider_ids: string[] }).menu_provider_ids).toEqual([
    'menu_us_breakfast',
  ]);
});

test('an event provider’s driver assignment replayed, under any id, is answered as it was and changes nothing: an old driver never comes back', async () => {
  // An event provider that never answers: the order is confirmed to it all the same.
  const { registerSandboxEvents } = await import('../../src/sandbox/register.js');
  await registerSandboxEvents(service.services, { url: 'http://127.0.0.1:9' } as never, secrets);
  // The store was last sent the breakfast menu (above): a breakfast order, for 08:00 tomorrow in
  // Austin (the breakfast menu's hours, whatever the time of day the test runs).
  const coffee = { service_id: 'item_us_coffee', name: 'Drip Coffee', quantity: 1, price: 295, modifiers: [] };
  const breakfast = instantAt(addDays(localDate(Date.now(), 'America/Chicago'), 1), 8 * 60, 'America/Chicago');
  const placed = await placeOrder(pos, m.storeId, {
    fulfillment_type: 'merchant_managed_delivery',
    items: [coffee],
    is_future_order: true,
    future_order_fulfillment_time: breakfast,
  });
  const orderId = placed.body.order_id!;
  await until(async () => (await service.services.db.order.findUniqueOrThrow({ where: { id: orderId } })).eventProvider);
  const assign = (name: string) =>
    JSON.stringify({
      type: 'order.assign.driver',
      object: { location_id: `loc_2_${m.tid}`, order_id: orderId, driver: { name, phone: '+15550100' } },
    });
  const send = (body: string, id: string) =>
    request(service.url, 'POST', '/v1/webhooks/event-providers/sandbox-events', {
      raw: body,
      headers: { 'content-type': 'application/json', 'webhook-id': id, 'service-webhook-signature': signBody(body, secrets.webhookSecret) },
    });
  // Applied before the answer: it says where the delivery stands.
  const first = await send(assign('Dee'), 'drv-1');
  expect(first.body).toEqual({ order_id: orderId, status: 'in_progress', delivery_status: 'enroute_to_pickup' });
  // Another driver takes over; the delivery goes on.
  expect((await send(assign('Max'), 'drv-2')).status).toBe(200);
  await service.services.db.order.update({ where: { id: orderId }, data: { deliveryStatus: 'arrived_at_dropoff' } });
  const before = await service.services.db.order.findUniqueOrThrow({ where: { id: orderId } });
  expect(before.driver).toContain('Max');
  // The first assignment captured and sent again, under a fresh id: answered as it was, applied no more.
  const replayed = await send(assign('Dee'), 'drv-replay');
  expect({ status: replayed.status, body: replayed.body }).toEqual({ status: 200, body: first.body });
  expect(await service.services.db.order.findUniqueOrThrow({ where: { id: orderId } })).toEqual(before);
});

describe('Standard Webhooks signing', () => {
  const body = () => JSON.stringify({ type: 'location.catalog.updated', object: { location_id: `loc_2_${m.tid}` } });
  const standard = (id: string, timestamp: number, text = body(), secret = secrets.webhookSecret) => ({
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signStandardWebhook(id, timestamp, text, secret),
  });
  const now = () => Math.floor(Date.now() / 1000);

  test('a signed webhook is accepted once; its signed id is the dedupe key', async () => {
    const headers = standard('std-1', now());
    expect((await catalogUpdated(body(), headers)).status).toBe(202);
    const again = await catalogUpdated(body(), headers);
    expect({ status: again.status, duplicate: again.body.duplicate }).toEqual({ status: 200, duplicate: true });
    await settled();
  });

  test('a stale timestamp, another id under the same signature, or a wrong secret is 401 and stores nothing', async () => {
    const before = await service.services.db.webhookEvent.count();
    const stale = await catalogUpdated(body(), standard('std-old', now() - 6 * 60));
    expect(stale.status).toBe(401);
    expect(stale.body.message).toContain('5 minutes');
    const future = await catalogUpdated(body(), standard('std-future', now() + 6 * 60));
    expect(future.status).toBe(401);
    const swapped = { ...standard('std-2', now()), 'webhook-id': 'std-3' };
    expect((await catalogUpdated(body(), swapped)).status).toBe(401);
    expect((await catalogUpdated(body(), standard('std-4', now(), body(), 'not-the-secret'))).status).toBe(401);
    expect((await catalogUpdated(body(), { ...standard('std-5', now()), 'webhook-timestamp': '' })).status).toBe(401);
    expect(await service.services.db.webhookEvent.count()).toBe(before);
  });
});
