// Several instances on one PostgreSQL with Redis: each outbox message is sent by exactly one of
// them, and a subscriber on one instance sees an order that arrived at the other. Runs when
// DATABASE_URL names PostgreSQL and REDIS_URL is set (as .ci/run does); SQLite has one writer.
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { print } from 'graphql';
import { graphql } from '../generated/gql.js';
import type { SandboxPos } from '../../src/sandbox/pos/server.js';
import { providerOf } from '../../src/db/url.js';
import { startPos, testSecrets } from '../support/sandbox.js';
import { freePort, merchantTakingOrders, posStatus, sendDspOrder, sinkOf, spawnService, subscribed, until } from '../support/orders.js';
import { asTestService, migratedDatabase, request, testConfig, type TestDatabase, type TestService } from '../support/service.js';
import { startService } from '../../src/app/service.js';

const enabled = !!process.env.REDIS_URL && !!process.env.DATABASE_URL && providerOf(process.env.DATABASE_URL) === 'postgresql';
const maybe = enabled ? test : test.skip;

let database: TestDatabase;
let a: TestService;
let b: ReturnType<typeof spawnService>;
let bUrl: string;
let pos: SandboxPos;
const secrets = testSecrets();

beforeAll(async () => {
  if (!enabled) return;
  database = await migratedDatabase();
  const env = { REDIS_URL: process.env.REDIS_URL!, OUTBOX_RETRY_BASE_MS: '50', OUTBOX_RETRY_MAX_MS: '200' };
  a = asTestService(await startService(testConfig(database, env)), database);
  pos = await startPos(a, secrets);
  const port = await freePort();
  bUrl = `http://127.0.0.1:${port}`;
  b = spawnService({ ...env, PORT: String(port), DATA_DIR: database.dataDir, DATABASE_URL: database.url });
  await b.ready();
});
afterAll(async () => {
  if (!enabled) return;
  await b?.kill('SIGTERM');
  await pos?.close();
  await a?.stop();
});

maybe('two instances share the outbox (each order sent once) and a subscriber on one sees orders taken by the other', async () => {
  const m = await merchantTakingOrders(a);
  const ws = createClient({
    url: `${a.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${m.token}` },
  });
  const seen: string[] = [];
  const Updated = graphql(`subscription MultiOrderUpdated($orgId: ID!) { orderUpdated(orgId: $orgId) { id status } }`);
  const { sink, refusal } = sinkOf((data: any) => seen.push(data.orderUpdated.id));
  ws.subscribe({ query: print(Updated), variables: { orgId: m.orgId } }, sink);
  await subscribed(a, 'orderUpdated', m.orgId, 1, refusal);

  const viaB = await sendDspOrder(bUrl, secrets.webhookSecret, m.storeId, { fulfillment_type: 'pickup' });
  expect(viaB.status).toBe(201);
  await until(async () => seen.includes(viaB.body.order_id!), 15_000, refusal);

  const placed = await Promise.all(
    Array.from({ length: 40 }, (_, i) =>
      sendDspOrder(i % 2 ? bUrl : a.url, secrets.webhookSecret, m.storeId, { fulfillment_type: 'pickup' }),
    ),
  );
  expect(placed.every((p) => p.status === 201)).toBe(true);
  const keys = () => pos.received.filter((r) => r.path === '/v1/orders').map((r) => r.headers['idempotency-key'] as string);
  await until(async () => keys().length >= 41);
  // Every message delivered: nothing of them is sent again, by either instance.
  await until(
    async () => (await a.services.db.outboxMessage.count({ where: { kind: 'order.created', status: { not: 'delivered' } } })) === 0,
  );
  expect(keys()).toHaveLength(41);
  expect(new Set(keys()).size).toBe(41);
  await ws.dispose();
});

maybe("two instances send each order's DSP events in sequence, whichever takes the order and whichever sends", async () => {
  const m = await merchantTakingOrders(a);
  const placed = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      sendDspOrder(i % 2 ? bUrl : a.url, secrets.webhookSecret, m.storeId, { fulfillment_type: 'pickup' }),
    ),
  );
  // The POS moves each order at once, racing its accept: every order has three events, and the
  // two instances' workers share them.
  await Promise.all(
    placed.map(async (p) => {
      await posStatus(pos, p.body.order_id!, 'ready_for_pickup');
      await posStatus(pos, p.body.order_id!, 'completed');
    }),
  );
  for (const p of placed) {
    const seen = await until(async () => {
      const order = (await (await fetch(`${pos.url}/v1/_sandbox/orders/${p.dspOrderId}`)).json()) as { events?: { sequence: number }[] };
      return (order.events?.length ?? 0) >= 3 ? order : null;
    });
    expect(seen.events!.map((e) => e.sequence)).toEqual([1, 2, 3]);
  }
});

maybe('a pause made through one instance stops the orders the other takes, at once; resumed through the other, they flow', async () => {
  const m = await merchantTakingOrders(a);
  const at = (base: string, what: string) =>
    request(base, 'POST', `/v1/onboarding/org/${m.orgId}/locations/${m.locationId}/${what}`, { token: m.token, body: {} });
  expect((await at(bUrl, 'pause')).status).toBe(200);
  const refused = await sendDspOrder(a.url, secrets.webhookSecret, m.storeId, { fulfillment_type: 'pickup' });
  expect(refused.body).toMatchObject({ status: 'failed', failure_reason: 'restaurant_not_accepting_orders' });
  expect((await at(a.url, 'resume')).status).toBe(200);
  const taken = await sendDspOrder(bUrl, secrets.webhookSecret, m.storeId, { fulfillment_type: 'pickup' });
  expect(taken.body).toMatchObject({ status: 'in_progress' });
});

maybe('requests under one Idempotency-Key at once on two instances make one organization', async () => {
  const partner = await a.partner();
  for (const key of ['race-1', 'race-2', 'race-3']) {
    const body = { name: 'Twice', provider_id: `twice-${key}`, user: { email: 'owner@twice.example' } };
    const send = (base: string) =>
      request(base, 'POST', '/v1/onboarding/org', { token: partner.token, body, headers: { 'idempotency-key': key } });
    const answers = await Promise.all([send(a.url), send(bUrl), send(a.url), send(bUrl)]);
    // One ran; the others were told it was running (409), or got its answer again.
    expect(answers.every((answer) => [201, 409].includes(answer.status))).toBe(true);
    const created = answers.filter((answer) => answer.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((answer) => answer.body.org_id)).size).toBe(1);
    for (const busy of answers.filter((answer) => answer.status === 409)) expect(busy.body.code).toBe('idempotency_key_in_use');
    expect(await a.services.db.organization.count({ where: { providerId: `twice-${key}` } })).toBe(1);
  }
});
