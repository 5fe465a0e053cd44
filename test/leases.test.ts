// Claims on the outbox and the webhook inbox are short leases renewed while the work goes on
// (src/delivery/runner.ts): a live runner keeps its rows however long the work takes, and the
// rows of a runner that died are taken up by another within one lease. Real database (SQLite,
// or PostgreSQL with DATABASE_URL), short leases so the test is quick.
import pino from 'pino';
import { openDatabase, type Db, type OutboxMessage } from '../src/db/client.js';
import { applyPendingMigrations } from '../src/db/schema-engine.js';
import { claimDue, renewLeases, Runner } from '../src/delivery/runner.js';
import { freshDatabase, type TestDatabase } from './support/service.js';

let database: TestDatabase;
let db: Db;
const LEASE = 400;

beforeAll(async () => {
  database = await freshDatabase();
  await applyPendingMigrations(database.url);
  db = openDatabase(database.url);
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

async function pendingMessage(id: string): Promise<void> {
  await db.outboxMessage.create({
    data: { id, kind: 'order.created', source: 'pos', operation: 'orders', body: '{}', idempotencyKey: id },
  });
}
const claim = () => claimDue<OutboxMessage>(db, 'OutboxMessage', LEASE);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a claim holds a row for one lease, and no other claimer gets it meanwhile', async () => {
  await pendingMessage('out_lease_1');
  const before = Date.now();
  const [row] = await claim();
  expect(row?.id).toBe('out_lease_1');
  expect(row!.lockedUntil!.getTime()).toBeLessThanOrEqual(before + LEASE + 50);
  expect(await claim()).toEqual([]);
  // The runner that claimed it died (nothing renews it): once the lease lapses, another takes it.
  await sleep(LEASE + 100);
  const [again] = await claim();
  expect(again).toMatchObject({ id: 'out_lease_1', attempts: 2 });
  await db.outboxMessage.update({ where: { id: 'out_lease_1' }, data: { status: 'delivered', lockedUntil: null } });
});

test('a live runner renews its leases: work longer than several leases keeps its row', async () => {
  await pendingMessage('out_lease_2');
  const taken: string[] = [];
  let rival = true;
  const runner = new Runner<OutboxMessage>(
    'lease-test',
    pino({ level: 'silent' }),
    async () => (taken.length ? [] : claim()),
    async (row) => {
      taken.push(row.id);
      // Meanwhile another instance keeps trying to claim it: it never gets it.
      for (const end = Date.now() + LEASE * 4; Date.now() < end; await sleep(50)) if ((await claim()).length) rival = false;
      await db.outboxMessage.update({ where: { id: row.id }, data: { status: 'delivered', lockedUntil: null } });
    },
    (ids) => renewLeases(db, 'OutboxMessage', ids, LEASE),
    () => false,
    50,
    LEASE / 4,
  );
  runner.start();
  for (let i = 0; i < 100 && !taken.length; i++) await sleep(20);
  await sleep(LEASE * 4 + 200);
  await runner.stop();
  expect(taken).toEqual(['out_lease_2']);
  expect(rival).toBe(true);
  expect(await db.outboxMessage.findUniqueOrThrow({ where: { id: 'out_lease_2' } })).toMatchObject({
    status: 'delivered',
    attempts: 1,
    lockedUntil: null,
  });
});

test('a renewal leaves a released row released', async () => {
  await pendingMessage('out_lease_3');
  await claim();
  await db.outboxMessage.update({
    where: { id: 'out_lease_3' },
    data: { lockedUntil: null, nextAttemptAt: new Date(Date.now() + 60_000) },
  });
  await renewLeases(db, 'OutboxMessage', ['out_lease_3'], LEASE);
  expect((await db.outboxMessage.findUniqueOrThrow({ where: { id: 'out_lease_3' } })).lockedUntil).toBeNull();
});
