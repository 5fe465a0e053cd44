// Claims on the outbox and the webhook inbox are leases renewed while the work goes on
// (src/delivery/runner.ts): a live runner keeps its rows however long the work takes, and the
// rows of a runner that died are taken up by another once its lease lapses. Real database
// (SQLite, or PostgreSQL with DATABASE_URL). Time passes by writing the lease's end, not by
// waiting for it. A key's messages have their turns one after another, and the release ending
// one says when the next has its turn.
import pino from 'pino';
import { openDatabase, type Db, type OutboxMessage } from '../../src/db/client.js';
import { deliveredReleases, Runner } from '../../src/delivery/runner.js';
import { claimDue, endingRelease, renewLeases, successorWaits } from '../../src/db/sql/work.js';
import { statementsOf } from '../../src/db/statements.js';
import { migratedDatabase, type TestDatabase } from '../support/service.js';
import { until } from '../support/orders.js';

let database: TestDatabase;
let db: Db;
const LEASE = 60_000;

beforeAll(async () => {
  database = await migratedDatabase();
  db = openDatabase(database.url);
});
afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

async function pendingMessage(id: string, ordering?: { key: string; position: number }): Promise<void> {
  await db.outboxMessage.create({
    data: {
      id,
      kind: 'order.created',
      source: 'pos',
      operation: 'orders',
      body: '{}',
      idempotencyKey: id,
      orderingKey: ordering?.key,
      orderingPosition: ordering?.position,
    },
  });
}
const claim = () => claimDue<OutboxMessage>(db, 'outbox', LEASE, 32);
/** The lease of a row ends now: what the clock does to a lease nobody renews. */
const lapse = (id: string) => db.outboxMessage.update({ where: { id }, data: { lockedUntil: new Date(Date.now() - 1) } });
const leaseEnd = async (id: string) => (await db.outboxMessage.findUniqueOrThrow({ where: { id } })).lockedUntil?.getTime() ?? 0;

test('a claim holds a row for one lease, and no other claimer gets it meanwhile', async () => {
  await pendingMessage('out_lease_1');
  const before = Date.now();
  const [row] = await claim();
  expect(row?.id).toBe('out_lease_1');
  expect(row!.lockedUntil!.getTime()).toBeGreaterThanOrEqual(before + LEASE - 1000);
  expect(row!.lockedUntil!.getTime()).toBeLessThanOrEqual(Date.now() + LEASE + 50);
  expect(await claim()).toEqual([]);
  // The runner that claimed it died (nothing renews it): once the lease lapses, another takes it.
  await lapse('out_lease_1');
  const [again] = await claim();
  expect(again).toMatchObject({ id: 'out_lease_1', attempts: 2 });
  await db.outboxMessage.update({ where: { id: 'out_lease_1' }, data: { status: 'delivered', lockedUntil: null } });
});

test('a live runner renews its leases: work that outlasts its lease keeps its row', async () => {
  await pendingMessage('out_lease_2');
  const taken: string[] = [];
  let rivalGotIt = false;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const runner = new Runner<OutboxMessage>(
    'lease-test',
    pino({ level: 'silent' }),
    async () => (taken.length ? [] : claim()),
    async (row) => {
      taken.push(row.id);
      // The work outlasts its lease: the lease is made to end now, and the runner's next renewal
      // (every 50 ms here) gives it a whole lease again, before another instance can claim it.
      await lapse(row.id);
      await until(async () => (await leaseEnd(row.id)) > Date.now() + LEASE / 2, 10_000);
      rivalGotIt = (await claim()).length > 0;
      await db.outboxMessage.update({ where: { id: row.id }, data: { status: 'delivered', lockedUntil: null } });
      finished();
    },
    (ids) => renewLeases(db, 'outbox', ids, LEASE),
    () => false,
    50,
    50,
  );
  runner.start();
  await done;
  await runner.stop();
  expect(taken).toEqual(['out_lease_2']);
  expect(rivalGotIt).toBe(false);
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
  await renewLeases(db, 'outbox', ['out_lease_3'], LEASE);
  expect((await db.outboxMessage.findUniqueOrThrow({ where: { id: 'out_lease_3' } })).lockedUntil).toBeNull();
});

test('a key’s next message has its turn once the one before it ends, and the release ending it says so (its sender claims at once)', async () => {
  await pendingMessage('out_key_1', { key: 'order:key', position: 1 });
  await pendingMessage('out_key_2', { key: 'order:key', position: 2 });
  await pendingMessage('out_key_3', { key: 'order:key', position: 3 });
  await pendingMessage('out_unkeyed');
  expect((await claim()).map((row) => row.id).sort()).toEqual(['out_key_1', 'out_unkeyed']);
  const releaseDelivered = deliveredReleases(db, 0);
  const [first, unkeyed] = await Promise.all([releaseDelivered('out_key_1', 200), releaseDelivered('out_unkeyed', 200)]);
  expect([first, unkeyed]).toEqual([true, false]);
  expect((await claim()).map((row) => row.id)).toEqual(['out_key_2']);
  // Dead ends it too, and the last of the key has nothing behind it.
  const sql = statementsOf(db);
  expect(successorWaits(await sql.write(endingRelease('out_key_2', { status: 'dead', lastError: 'refused' })))).toBe(true);
  expect((await claim()).map((row) => row.id)).toEqual(['out_key_3']);
  expect(await releaseDelivered('out_key_3', 200)).toBe(false);
  expect(await db.outboxMessage.count({ where: { orderingKey: 'order:key', status: 'pending' } })).toBe(0);
});
