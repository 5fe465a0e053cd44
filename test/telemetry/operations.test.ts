// Operating it: one trace from a DSP's webhook to the POS and the event provider (over the
// outbox), a partner's traceparent reaching the POS, an OTLP collector that is away slowing
// nothing; customers' data redacted on erasure and after RETENTION_DAYS in every stored copy;
// tables pruned of what is past its keep and of nothing else. Every collector is a real HTTP
// server on 127.0.0.1.
import fs from 'node:fs';
import path from 'node:path';
import type { SandboxPos } from '../../src/sandbox/pos/server.js';
import { providerOf, sqliteFile } from '../../src/db/url.js';
import { backupDatabase } from '../../src/db/backup.js';
import type { SandboxEventProvider } from '../../src/sandbox/event-provider/server.js';
import { startPos, testSecrets } from '../support/sandbox.js';
import {
  startOrdersWorld,
  type OrdersWorld,
  merchantTakingOrders,
  placeOrder,
  posStatus,
  startEvents,
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

describe("customers' data", () => {
  let service: TestService;
  let pos: SandboxPos;
  let m: OrderSetup;

  beforeAll(async () => {
    service = await startTestService({ RETENTION_DAYS: '90' });
    pos = await startPos(service);
    m = await merchantTakingOrders(service);
  });
  afterAll(async () => {
    await pos?.close();
    await service?.stop();
  });

  const customer = (phone: string, loyalty: string) => ({
    customer: { name: 'Ada Byron', phone, provider_loyalty_id: loyalty, masked_phone_code: '77' },
    customers: [{ name: 'Ada Byron', phone, provider_loyalty_id: loyalty, masked_phone_code: '77' }],
    delivery_address: { address_line_1: '12 Analytical Way', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
    fulfillment_type: 'pickup',
  });
  /** Every stored copy of the order that could hold its customer: the order and its messages. */
  const storedCopies = async (orderId: string) => {
    const db = service.services.db;
    const order = await db.order.findUniqueOrThrow({ where: { id: orderId } });
    const messages = await db.outboxMessage.findMany({
      where: { OR: [{ orderingKey: `order:${orderId}` }, { idempotencyKey: { contains: orderId } }] },
    });
    const events = await db.event.findMany({ where: { data: { contains: orderId } } });
    return JSON.stringify([order, messages, events]);
  };
  const taken = async (orderId: string) =>
    until(() =>
      service.services.db.outboxMessage.findFirst({ where: { idempotencyKey: `order.created:${orderId}`, status: 'delivered' } }),
    );

  test("an erasure redacts the customer's final orders at once and an open one when it ends, everywhere it is stored", async () => {
    const done = await placeOrder(pos, m.storeId, customer('+1 (512) 555-0199', 'loy_ada'));
    const open = await placeOrder(pos, m.storeId, customer('+15125550199', 'loy_other'));
    const someoneElse = await placeOrder(pos, m.storeId, customer('+15125550100', 'loy_else'));
    for (const placed of [done, open, someoneElse]) await taken(placed.body.order_id!);
    expect((await posStatus(pos, done.body.order_id!, 'completed')).status).toBe(200);
    expect(await storedCopies(done.body.order_id!)).toContain('Ada Byron');

    const erased = await post(service.url, '/v1/privacy/erasures', { org_id: m.orgId, phone: '1 512 555 0199' }, m.token);
    expect(erased).toMatchObject({ status: 200, body: { orders_redacted: 1, orders_pending: 1 } });
    for (const leaked of ['Ada Byron', '0199', 'loy_ada', 'Analytical'])
      expect(await storedCopies(done.body.order_id!)).not.toContain(leaked);
    expect(await storedCopies(done.body.order_id!)).toContain('redacted');
    // The open one keeps its data while it is made, and loses it when it ends.
    expect(await storedCopies(open.body.order_id!)).toContain('Ada Byron');
    expect((await posStatus(pos, open.body.order_id!, 'merchant_canceled')).status).toBe(200);
    for (const leaked of ['Ada Byron', '0199', 'loy_other', 'Analytical'])
      expect(await storedCopies(open.body.order_id!)).not.toContain(leaked);
    // Another customer's order is untouched.
    expect(await storedCopies(someoneElse.body.order_id!)).toContain('Ada Byron');
    // The record says who asked and how many, never whose data.
    const record = await service.services.db.erasure.findFirstOrThrow({ where: { orgId: m.orgId } });
    expect(record).toMatchObject({ ordersRedacted: 1, ordersPending: 1 });
    expect(JSON.stringify(record)).not.toContain('0199');
    // The dashboard's order shows it redacted.
    const shown = await post(
      service.url,
      '/graphql',
      { query: `{ order(id: "${done.body.order_id}") { customer { name phone } } }` },
      m.token,
    );
    expect(shown.body.data.order.customer).toEqual({ name: 'redacted', phone: 'redacted' });
  });

  test("an erasure leaves nothing that names or locates the customer: nested fields, instructions, the event provider's copy, the database's free pages and log, a backup after it", async () => {
    const secrets = testSecrets();
    const events = await startEvents(service, secrets);
    try {
      const email = `ada.${Date.now()}@lovelace.example`;
      const latitude = 30.2671234567;
      const placed = await placeOrder(pos, m.storeId, {
        customer: { name: 'Ada Byron', first_name: 'Augusta', last_name: 'Lovelace', email, phone: '+15125550177' },
        customers: [{ first_name: 'Augusta', last_name: 'Lovelace', email, phone: '+15125550177' }],
        delivery_address: {
          address_line_1: '12 Analytical Way',
          city: 'Austin',
          coordinates: { latitude, longitude: -97.7431234567 },
        },
        special_instructions: 'ring Augusta at the blue door',
        fulfillment_instructions: 'leave it with Augusta',
        items: [{ service_id: 'item_us_taco', name: 'Taco', quantity: 1, price: 400, special_instructions: 'extra hot for Augusta' }],
        fulfillment_type: 'merchant_managed_delivery',
      });
      const orderId = placed.body.order_id!;
      await events.waitFor('/v1/events', 1);
      expect((await posStatus(pos, orderId, 'completed')).status).toBe(200);
      const copies = async () => {
        const db = service.services.db;
        const order = await db.order.findUniqueOrThrow({ where: { id: orderId } });
        const messages = await db.outboxMessage.findMany({ where: { subjectId: orderId } });
        const told = await db.event.findMany({ where: { data: { contains: orderId } } });
        return JSON.stringify([order, messages, told]);
      };
      const traces = ['Augusta', 'Lovelace', email, String(latitude), '0177', 'blue door'];
      expect(await copies()).toContain(email);
      expect((await copies()).includes('"kind":"order.confirmed"')).toBe(true);

      const erased = await post(service.url, '/v1/privacy/erasures', { org_id: m.orgId, phone: '+1 512 555 0177' }, m.token);
      expect(erased).toMatchObject({ status: 200, body: { orders_redacted: 1 } });
      for (const trace of traces) expect(await copies()).not.toContain(trace);
      // The order's items are still there to be made sense of, only what named the customer went.
      expect(await copies()).toContain('item_us_taco');

      if (providerOf(service.database.url) === 'sqlite') {
        // Not in the database file's free pages, nor in its log, nor in a backup taken after.
        const file = sqliteFile(service.database.url);
        const copy = path.join(service.database.dataDir, `after-erasure-${Date.now()}.db`);
        await backupDatabase(file, copy);
        for (const stored of [file, `${file}-wal`, copy].filter((f) => fs.existsSync(f))) {
          const bytes = fs.readFileSync(stored);
          for (const trace of [email, 'Lovelace', 'blue door'])
            expect({ stored, found: bytes.includes(trace) }).toEqual({ stored, found: false });
        }
      }
    } finally {
      await events.close();
    }
  });

  test('an erasure names a customer and an organization of the caller', async () => {
    expect((await post(service.url, '/v1/privacy/erasures', { org_id: m.orgId }, m.token)).status).toBe(400);
    const other = await service.partner();
    const refused = await post(service.url, '/v1/privacy/erasures', { org_id: m.orgId, phone: '+15125550100' }, other.token);
    expect(refused.status).toBe(404);
    expect(
      await storedCopies((await service.services.db.order.findFirstOrThrow({ where: { customerLoyaltyId: 'loy_else' } })).id),
    ).toContain('Ada Byron');
  });

  test('RETENTION_DAYS after it ended an order loses its customer data (moved back, not waited for); open and recent ones keep it', async () => {
    const old = await placeOrder(pos, m.storeId, customer('+15125550111', 'loy_old'));
    const recent = await placeOrder(pos, m.storeId, customer('+15125550112', 'loy_recent'));
    const stillOpen = await placeOrder(pos, m.storeId, customer('+15125550113', 'loy_open'));
    for (const placed of [old, recent, stillOpen]) await taken(placed.body.order_id!);
    for (const placed of [old, recent]) expect((await posStatus(pos, placed.body.order_id!, 'completed')).status).toBe(200);
    // The old one ended 91 days ago; the open one was placed that long ago but has not ended.
    const longAgo = new Date(Date.now() - 91 * 86_400_000);
    await service.services.db.order.update({ where: { id: old.body.order_id! }, data: { endedAt: longAgo, updatedAt: longAgo } });
    await service.services.db.order.update({ where: { id: stillOpen.body.order_id! }, data: { createdAt: longAgo, updatedAt: longAgo } });
    await service.housekeeping.redact();
    expect(await storedCopies(old.body.order_id!)).not.toContain('Ada Byron');
    expect(await storedCopies(recent.body.order_id!)).toContain('Ada Byron');
    expect(await storedCopies(stillOpen.body.order_id!)).toContain('Ada Byron');
    // Twice changes nothing more.
    const before = await storedCopies(old.body.order_id!);
    await service.housekeeping.redact();
    expect(await storedCopies(old.body.order_id!)).toBe(before);
  });
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
