// Operating it: one trace from a DSP's webhook to the POS and the event provider (over the
// outbox), a partner's traceparent reaching the POS, an OTLP collector that is away slowing
// nothing; tables pruned of what is past its keep and of nothing else (customers' data, erased
// and expired: test/modules/privacy/). Every collector is a real HTTP server on 127.0.0.1.
import type { SandboxPos } from '../../src/sandbox/pos/server.js';
import type { SandboxEventProvider } from '../../src/sandbox/event-provider/server.js';
import { startPos, testSecrets } from '../support/sandbox.js';
import {
  startOrdersWorld,
  type OrdersWorld,
  merchantTakingOrders,
  placeOrder,
  posStatus,
  until,
  type OrderSetup,
} from '../support/orders.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { post, request, startTestService, type TestService } from '../support/service.js';
import { createOrg, completeOnboarding } from '../support/flows.js';

type OtlpSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string };
const spansIn = (collector: Receiver): OtlpSpan[] =>
  collector.received.flatMap((call) =>
    (JSON.parse(call.body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }).resourceSpans.flatMap((r) =>
      r.scopeSpans.flatMap((s) => s.spans),
    ),
  );
const traceIdOf = (traceparent: unknown) => String(traceparent).split('-')[1];

describe('traces', () => {
  let world: OrdersWorld;
  let service: TestService;
  let pos: SandboxPos;
  let events: SandboxEventProvider;
  let collector: Receiver;
  let m: OrderSetup;
  const secrets = testSecrets();

  beforeAll(async () => {
    collector = await startReceiver(200);
    world = await startOrdersWorld({
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '50',
        OTEL_SERVICE_NAME: 'ordering-under-test',
      },
      secrets,
      events: true,
    });
    ({ service, pos, merchant: m } = world);
    events = world.events!;
  });
  afterAll(async () => {
    await world?.close();
    await collector?.close();
  });

  test("an order's trace runs from the DSP's webhook through the outbox to the POS and the event provider", async () => {
    const placed = await placeOrder(pos, m.storeId);
    expect(placed.status).toBe(201);
    const atPos = await until(async () =>
      pos.received.find((r) => r.path === '/v1/orders' && (r.body as { object: { id: string } }).object.id === placed.body.order_id),
    );
    const atEvents = await until(async () =>
      events.received.find((r) => (r.body as { reference_id?: string }).reference_id === placed.body.order_id),
    );
    const traceId = traceIdOf(atPos.headers.traceparent);
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(traceIdOf(atEvents.headers.traceparent)).toBe(traceId);
    await service.services.tracing.flush();
    const spans = await until(async () => {
      const found = spansIn(collector).filter((span) => span.traceId === traceId);
      return found.some((span) => span.name === 'deliver order.confirmed') && found;
    });
    const names = spans.map((span) => span.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /v1/webhooks/:channel/:source',
        // On PostgreSQL the order's row goes in one statement with its message and event.
        expect.stringMatching(/^(BATCH (.+, )?)?INSERT Order(,|$)/),
        'deliver order.created',
        'deliver order.confirmed',
        expect.stringMatching(/^POST 127\.0\.0\.1:\d+$/),
      ]),
    );
    // One tree: every span but the webhook's has its parent in the trace.
    const ids = new Set(spans.map((span) => span.spanId));
    expect(spans.filter((span) => !span.parentSpanId || !ids.has(span.parentSpanId)).map((span) => span.name)).toEqual([
      'POST /v1/webhooks/:channel/:source',
    ]);
    expect(collector.received[0]!.headers['content-type']).toMatch(/application\/json/);
  });

  test("a partner request's traceparent reaches the POS on the outbox's call", async () => {
    const traceId = 'a'.repeat(32);
    const { orgId } = await createOrg(service.url, m.token);
    const onboarding = await completeOnboarding(service.url, m.token, orgId, 'pos');
    const ingested = await request(service.url, 'POST', '/v1/onboarding/locations/ingest', {
      token: m.token,
      body: { onboarding_id: onboarding._id, locations: [{ provider_id: `loc_2_${onboarding.integration_id}` }] },
      headers: { traceparent: `00-${traceId}-${'b'.repeat(16)}-01` },
    });
    expect(ingested.body).toMatchObject({ locations: [{ provider_id: `loc_2_${onboarding.integration_id}` }] });
    const notice = await until(async () =>
      pos.received.find(
        (r) =>
          r.path === '/v1/locations/connect' && (r.body as { location_id: string }).location_id === `loc_2_${onboarding.integration_id}`,
      ),
    );
    expect(traceIdOf(notice.headers.traceparent)).toBe(traceId);
  });
});

test('a collector that is down or never answers slows no order', async () => {
  const silent = await startReceiver(() => undefined);
  const service = await startTestService({
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${silent.url}/v1/traces`,
    OTEL_BSP_SCHEDULE_DELAY: '10',
    OTEL_EXPORTER_OTLP_TIMEOUT: '500',
  });
  const pos = await startPos(service);
  try {
    const m = await merchantTakingOrders(service);
    const placed = await Promise.all(Array.from({ length: 20 }, () => placeOrder(pos, m.storeId, { fulfillment_type: 'pickup' })));
    expect(placed.map((p) => p.status)).toEqual(Array(20).fill(201));
    await until(async () => pos.received.filter((r) => r.path === '/v1/orders').length >= 20);
    // The collector got the spans' calls (batched: they may come after the orders) and never
    // answered them. Counting the calls still open raced the exporter's own timeout.
    await until(async () => silent.received.some((call) => call.path === '/v1/traces'));
  } finally {
    await pos.close();
    await silent.close();
    await service.stop();
  }
});

test("pruning deletes what is past its keep and nothing else (an order's timeline outlives its messages); /metrics counts the rows", async () => {
  const service = await startTestService();
  const pos = await startPos(service);
  try {
    const m = await merchantTakingOrders(service);
    await fetch(`${pos.url}/v1/_sandbox/catalog-updated`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ location_id: `loc_2_${m.tid}` }),
    });
    const db = service.services.db;
    const published = await until(() => db.menuPublish.findFirst({ where: { status: 'published' } }));
    const long = new Date(Date.now() - 60 * 86_400_000);
    const message = (id: string, status: string, at: Date) => ({
      id,
      kind: 'test',
      source: 'sandbox-pos',
      operation: 'orders',
      body: '{}',
      idempotencyKey: id,
      status,
      nextAttemptAt: at,
      createdAt: at,
      deliveredAt: status === 'delivered' ? at : null,
    });
    await db.outboxMessage.createMany({
      data: [
        message('old-delivered', 'delivered', long),
        message('old-dead', 'dead', long),
        message('new-delivered', 'delivered', new Date()),
      ],
    });
    const webhook = (id: string, status: string) => ({
      id,
      channel: 'pos',
      source: 'sandbox-pos',
      dedupeKey: id,
      type: 't',
      body: '{}',
      status,
      nextAttemptAt: long,
      createdAt: long,
    });
    await db.webhookEvent.createMany({ data: [webhook('old-applied', 'applied'), webhook('old-failed', 'failed')] });
    await db.idempotencyKey.create({
      data: { id: 'old-key', partnerId: m.partnerId, key: 'k', method: 'POST', path: '/', bodyHash: 'h', state: 'done', createdAt: long },
    });
    await db.event.createMany({
      data: [
        { id: 'evt_old', partnerId: m.partnerId, type: 'order.created', data: '{}', createdAt: long },
        { id: 'evt_new', partnerId: m.partnerId, type: 'order.created', data: '{}' },
      ],
    });
    // Catalog versions: the one the store's publish used, older ones, and the latest.
    const used = await db.catalogVersion.findUniqueOrThrow({ where: { id: published.catalogVersionId } });
    await db.catalogVersion.updateMany({ where: { id: used.id }, data: { fetchedAt: long } });
    const location = used.locationId;
    await db.catalogVersion.createMany({
      data: [
        { id: 'cat_older', locationId: location, version: used.version + 1, body: '{}', fetchedAt: long },
        { id: 'cat_latest', locationId: location, version: used.version + 2, body: '{}', fetchedAt: long },
      ],
    });

    await service.housekeeping.prune();
    const outbox = new Set((await db.outboxMessage.findMany({ select: { id: true } })).map((row) => row.id));
    expect([outbox.has('old-delivered'), outbox.has('old-dead'), outbox.has('new-delivered')]).toEqual([false, true, true]);
    const webhooks = new Set((await db.webhookEvent.findMany({ select: { id: true } })).map((row) => row.id));
    expect([webhooks.has('old-applied'), webhooks.has('old-failed')]).toEqual([false, true]);
    expect(await db.idempotencyKey.count({ where: { id: 'old-key' } })).toBe(0);
    expect((await db.event.findMany({ where: { id: { in: ['evt_old', 'evt_new'] } } })).map((e) => e.id)).toEqual(['evt_new']);
    const catalogs = new Set((await db.catalogVersion.findMany({ where: { locationId: location } })).map((row) => row.id));
    expect([catalogs.has(used.id), catalogs.has('cat_older'), catalogs.has('cat_latest')]).toEqual([true, false, true]);
    // Orders still take their checks against the published menus.
    expect((await placeOrder(pos, m.storeId, { fulfillment_type: 'pickup' })).body.status).toBe('in_progress');

    // An order older than the outbox's keep: its messages are pruned, its timeline is whole (it is
    // its recorded changes, not the messages they sent).
    const kept = await placeOrder(pos, m.storeId, { fulfillment_type: 'pickup' });
    const orderId = kept.body.order_id!;
    await until(() => db.order.findFirst({ where: { id: orderId, posOrderId: { not: null } } }));
    expect((await posStatus(pos, orderId, 'completed')).status).toBe(200);
    await until(async () => (await db.outboxMessage.count({ where: { subjectId: orderId, status: { not: 'delivered' } } })) === 0);
    const eightDays = new Date(Date.now() - 8 * 86_400_000);
    await db.outboxMessage.updateMany({ where: { subjectId: orderId }, data: { deliveredAt: eightDays, nextAttemptAt: eightDays } });
    const timeline = async () =>
      (await post(service.url, '/graphql', { query: `{ order(id: "${orderId}") { timeline { what status } } }` }, m.token)).body.data.order
        .timeline;
    const before = await timeline();
    await service.housekeeping.prune();
    expect(await db.outboxMessage.count({ where: { subjectId: orderId } })).toBe(0);
    expect(await timeline()).toEqual(before);
    expect(before).toEqual([
      { what: 'order.created', status: 'in_progress' },
      { what: 'order.accepted', status: 'in_progress' },
      { what: 'order.updated', status: 'completed' },
    ]);

    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    expect(metrics).toMatch(/^table_rows\{table="Order"\} [1-9]\d*$/m);
    expect(metrics).toMatch(/^table_rows\{table="OutboxMessage"\} \d+$/m);
  } finally {
    await pos.close();
    await service.stop();
  }
});
