// Under a steady load, a POS's yes is never recorded as a no: 60 orders a second for 30 seconds
// from the sandbox DSP, to a sandbox POS in a process of its own, with every database connection
// taken for a second and a half in the middle (what a busy machine's bursts did to the pool).
// Every order the POS took is accepted, every DSP hears `location.order.accept` once, no message
// dies with a 2xx answer and no request is answered 503 for want of a connection. On PostgreSQL
// this load once ended 267 of 1,800 orders `failed`/`pos_unreachable`: the pool's one-second wait
// for a connection timed out while recording the POS's answer, and that was taken for a failed
// send.
import path from 'node:path';
import { spawn } from 'node:child_process';
import { sandboxSecrets } from '../../../src/sandbox/register.js';
import { posProcess } from '../../support/sandbox.js';
import { startTestService, type TestService } from '../../support/service.js';
import { merchantTakingOrders, until } from '../../support/orders.js';
import { postgresConnectionOf, sqliteConnectionOf } from '../../../src/db/client.js';

const RATE = Number(process.env.LOAD_RATE ?? 60);
const SECONDS = 30;

let service: TestService;
let pos: Awaited<ReturnType<typeof posProcess>>;

/** A script of ours (`node --import tsx`) in a process of its own; resolves with the first group
 * of `ready` once its output shows it, and with what it printed once it exits. */
function child(script: string, args: string[], env: Record<string, string>, ready: RegExp) {
  const started = spawn(process.execPath, ['--import', 'tsx', path.resolve(script), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const printed = new Promise<string>((resolve) => {
    started.stdout!.on('data', (chunk) => (out += chunk));
    started.on('exit', () => resolve(out));
  });
  const match = until(async () => ready.exec(out)?.[1], 60_000);
  return { process: started, match, printed };
}

/** Takes every connection the service has to its database (PostgreSQL: the whole pool; SQLite:
 * its one connection's lock) and gives them back after `ms`: requests, deliveries and their
 * records wait meanwhile. */
async function everyConnectionTaken(running: TestService, ms: number): Promise<void> {
  const postgres = await postgresConnectionOf(running.services.db);
  const sqlite = postgres ? undefined : await sqliteConnectionOf(running.services.db);
  const held = postgres
    ? await Promise.all(Array.from({ length: running.services.config.databasePool.size }, () => postgres.pool.connect()))
    : [{ release: await sqlite!.lock() }];
  // A timer on purpose: how long the connections are held is what is tested, longer than the
  // second the pool used to wait for a connection before failing the statement.
  await new Promise((resolve) => setTimeout(resolve, ms));
  for (const connection of held) connection.release();
}

beforeAll(async () => {
  service = await startTestService({ RATE_LIMIT_WEBHOOKS_PER_MINUTE: '1000000' });
  pos = await posProcess(service);
}, 90_000);
afterAll(async () => {
  await pos?.close();
  await service?.stop();
});

test(`${RATE} orders a second for ${SECONDS} s: every order the POS took is accepted, none failed, no 2xx dead, no 503`, async () => {
  const { orgId, storeId } = await merchantTakingOrders(service);

  const job = {
    url: `${service.url}/v1/webhooks/dsp/sandbox-dsp`,
    signed: { secret: sandboxSecrets(service.database.dataDir).webhookSecret, kind: 'order', storeId },
    rate: RATE,
    duration: SECONDS,
    connections: 50,
  };
  const load = child('test/bench/load.ts', [JSON.stringify(job)], {}, /(\{.*\})/);
  const { db } = service.services;
  await until(async () => (await db.order.count({ where: { orgId } })) >= (RATE * SECONDS) / 2, 60_000);
  await everyConnectionTaken(service, 1500);
  const answered = JSON.parse(await load.printed) as { total: number; non2xx: number; errors: number };
  expect(answered).toMatchObject({ non2xx: 0, errors: 0 });
  expect(answered.total).toBeGreaterThanOrEqual(RATE * SECONDS * 0.95);

  const orders = await db.order.count({ where: { orgId } });
  expect(orders).toBe(answered.total);
  // Every order has its outcome: taken by the POS and its accept delivered to the DSP.
  await until(async () => (await db.outboxMessage.count({ where: { status: 'pending' } })) === 0, 120_000);
  const received = await pos.received();
  const atPos = new Set(received.filter((r) => r.path === '/v1/orders').map((r) => r.headers['idempotency-key']));
  const accepts = new Set(received.filter((r) => r.path === '/v1/events').map((r) => r.headers['idempotency-key']));
  expect(atPos.size).toBe(orders);
  expect(accepts.size).toBe(orders);
  expect(await db.order.count({ where: { orgId, status: 'failed' } })).toBe(0);
  expect(await db.order.count({ where: { orgId, posOrderId: null } })).toBe(0);
  expect(await db.outboxMessage.count({ where: { status: 'dead' } })).toBe(0);
  expect(await db.event.count({ where: { type: { in: ['order.failed', 'delivery.dead'] } } })).toBe(0);
}, 300_000);
