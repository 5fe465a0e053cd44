// The service outlives what is under it. Two instances (one in this process, one its own process
// as an operator runs it) on a PostgreSQL and a Redis of this test's own, taking orders while
// Redis is killed and brought back, then while PostgreSQL is stopped hard and started again,
// three times each (an instance once died one run in two). No process exits; while Redis is
// away orders go on and each instance's subscribers see its own orders; while PostgreSQL is away
// every call answers 503 `unavailable` with Retry-After, at once; afterwards every order that was
// answered 2xx reaches the POS exactly once.
// Runs in the PostgreSQL pass of the suite (DATABASE_URL naming PostgreSQL, as .ci/run's second
// pass does), where Debian's PostgreSQL and Redis binaries are installed.
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { SandboxPos } from '../../src/sandbox/pos/server.js';
import { providerOf } from '../../src/db/url.js';
import { temporaryDatabase } from '../../src/db/temporary-database.js';
import { startService } from '../../src/app/service.js';
import { startPos, testSecrets } from '../support/sandbox.js';
import { freePort, merchantTakingOrders, sendDspOrder, spawnService, until, type OrderSetup } from '../support/orders.js';
import { asTestService, testConfig, type TestService } from '../support/service.js';
import {
  postgresBinaries,
  redisInstalled,
  throwawayPostgres,
  throwawayRedis,
  type ThrowawayPostgres,
  type ThrowawayRedis,
} from '../support/servers.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const enabled =
  !!process.env.DATABASE_URL && providerOf(process.env.DATABASE_URL) === 'postgresql' && !!postgresBinaries() && redisInstalled();
const maybe = enabled ? test : test.skip;

let pg: ThrowawayPostgres;
let redis: ThrowawayRedis;
let a: TestService;
let b: ReturnType<typeof spawnService>;
let bUrl: string;
let pos: SandboxPos;
let m: OrderSetup;
const secrets = testSecrets();
/** Orders answered 2xx: each must reach the POS exactly once. */
const accepted = new Set<string>();
let bExit: number | null | 'running' = 'running';

beforeAll(async () => {
  if (!enabled) return;
  pg = (await throwawayPostgres())!;
  redis = (await throwawayRedis())!;
  const scratch = await temporaryDatabase(pg.url, 'faults');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'faults-'));
  const database = { url: scratch.url, dataDir, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  // Deliveries outlast any outage here: none may run out of attempts while the database is away.
  const env = { REDIS_URL: redis.url, OUTBOX_RETRY_BASE_MS: '50', OUTBOX_RETRY_MAX_MS: '500', OUTBOX_MAX_ATTEMPTS: '1000' };
  a = asTestService(await startService(testConfig(database, env)), database);
  pos = await startPos(a, secrets);
  m = await merchantTakingOrders(a);
  const port = await freePort();
  bUrl = `http://127.0.0.1:${port}`;
  b = spawnService({ ...env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: scratch.url });
  void b.exited.then((code) => (bExit = code));
  await b.ready();
}, 120_000);
afterAll(async () => {
  if (!enabled) return;
  await b?.kill('SIGTERM');
  await pos?.close();
  await a?.stop();
  pg?.remove();
  await redis?.kill().catch(() => undefined);
});

/** A pickup order from the DSP to one instance; remembered when it is answered 2xx. */
async function order(base: string) {
  const sent = await sendDspOrder(base, secrets.webhookSecret, m.storeId, { fulfillment_type: 'pickup' });
  if (sent.status === 201 || sent.status === 200) accepted.add(sent.body.order_id!);
  return sent;
}
const both = () => [a.url, bUrl];
/** A call that must be answered, never left hanging: aborted after five seconds. */
const call = (url: string, init: RequestInit = {}) => fetch(url, { ...init, signal: AbortSignal.timeout(5_000) });
/** The instance's `dependency_up` for a dependency, as /metrics shows it. */
async function metric(base: string, dependency: string): Promise<number> {
  const text = await (await call(`${base}/metrics`)).text();
  const match = new RegExp(`dependency_up\\{dependency="${dependency}"\\} (\\d)`).exec(text);
  return match ? Number(match[1]) : Number.NaN;
}

maybe('Redis killed under two instances, three times: no exit, orders go on, subscribers see their own instance’s orders', async () => {
  const seen = new Set<string>();
  const ws = createClient({
    url: `${a.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${m.token}` },
    retryAttempts: 0,
  });
  ws.subscribe(
    { query: 'subscription($o: ID!) { orderUpdated(orgId: $o) { id } }', variables: { o: m.orgId } },
    { next: (r) => void seen.add((r.data as { orderUpdated: { id: string } }).orderUpdated.id), error: () => {}, complete: () => {} },
  );
  await until(async () => (await order(a.url)).status === 201 && seen.size > 0);

  for (let cycle = 0; cycle < 3; cycle++) {
    for (const base of both()) expect((await order(base)).status).toBe(201);
    await redis.kill();
    await until(async () => (await metric(a.url, 'redis')) === 0 && (await metric(bUrl, 'redis')) === 0);
    for (let i = 0; i < 6; i++) {
      const sent = await order(both()[i % 2]!);
      expect({ cycle, status: sent.status }).toEqual({ cycle, status: 201 });
      if (i % 2 === 0) await until(async () => seen.has(sent.body.order_id!));
    }
    expect(bExit).toBe('running');
    await redis.start();
    await until(async () => (await metric(a.url, 'redis')) === 1 && (await metric(bUrl, 'redis')) === 1, 15_000);
    for (const base of both()) expect((await order(base)).status).toBe(201);
  }
  await ws.dispose();
  expect(bExit).toBe('running');
});

maybe('PostgreSQL stopped hard under orders, three times: no exit, 503 with Retry-After at once, then orders flow again', async () => {
  const tokenRequest = { grant_type: 'client_credentials', client_id: 'pc_whoever', client_secret: 'x' };
  for (let cycle = 0; cycle < 3; cycle++) {
    // A burst in flight when the server goes: some taken before, some during, some refused.
    const burst = Array.from({ length: 30 }, (_, i) => order(both()[i % 2]!));
    await Promise.all(burst.slice(0, 8));
    pg.stopHard();
    for (const sent of await Promise.all(burst)) expect([200, 201, 503]).toContain(sent.status);

    for (const base of both()) {
      const webhook = await order(base);
      expect({ cycle, status: webhook.status, code: (webhook.body as { code?: string }).code }).toEqual({
        cycle,
        status: 503,
        code: 'unavailable',
      });
      const rest = await call(`${base}/v1/onboarding/org/${m.orgId}/locations`, { headers: { authorization: `Bearer ${m.token}` } });
      expect(rest.status).toBe(503);
      expect(Number(rest.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await rest.json()).toMatchObject({ statusCode: 503, error: 'Service Unavailable', code: 'unavailable' });
      const token = await call(`${base}/v1/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(tokenRequest),
      });
      expect(token.status).toBe(503);
      const graph = await call(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${m.token}` },
        body: JSON.stringify({ query: `{ orders(orgId: "${m.orgId}") { orders { id } } }` }),
      });
      expect((await graph.json()).errors[0].extensions).toMatchObject({ code: 'unavailable', statusCode: 503 });
      expect((await call(`${base}/ready`)).status).toBe(503);
    }
    expect(bExit).toBe('running');

    pg.start();
    await until(async () => (await call(`${a.url}/ready`)).status === 200 && (await call(`${bUrl}/ready`)).status === 200, 15_000);
    // Orders flow again within seconds (a connection or two may still be the old, broken ones).
    for (const base of both()) await until(async () => (await order(base)).status === 201, 10_000);
  }
  expect(bExit).toBe('running');
});

maybe('every order answered 2xx reached the POS exactly once', async () => {
  expect(accepted.size).toBeGreaterThan(50);
  expect(bExit).toBe('running');
  const keys = () => new Set(pos.received.filter((r) => r.path === '/v1/orders').map((r) => String(r.headers['idempotency-key'])));
  await until(async () => [...accepted].every((id) => keys().has(`order.created:${id}`)), 30_000);
  // One order at the POS per order taken: each took its own key, and none was taken twice.
  const orders = await a.services.db.order.findMany({
    where: { id: { in: [...accepted] } },
    select: { id: true, dspOrderId: true, posOrderId: true },
  });
  expect(orders).toHaveLength(accepted.size);
  expect(new Set(orders.map((o) => o.dspOrderId)).size).toBe(accepted.size);
  await until(async () => (await a.services.db.order.count({ where: { id: { in: [...accepted] }, posOrderId: null } })) === 0, 30_000);
  expect(bExit).toBe('running');
});
