// The database client itself: what every module relies on when it writes.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { isUniqueViolation, openDatabase, type Db } from '../../src/db/client.js';
import { BOOLEAN_COLUMNS, insertStep, RowChanged, statementsOf, updateStep, type Statements } from '../../src/db/statements.js';
import { migratedDatabase, type TestDatabase } from '../support/service.js';
import { until } from '../support/wait.js';

let database: TestDatabase;
let db: Db;
/** Hears each statement as the client sends it to the database (before SQLite's lock is taken). */
let onStatement: ((sql: string) => void) | undefined;

beforeAll(async () => {
  database = await migratedDatabase();
  db = openDatabase(database.url, { onQuery: (sql) => onStatement?.(sql) });
});

afterAll(async () => {
  await db.$disconnect();
  await database.drop();
});

const provider = (id: string) => ({ id, source: id, kind: 'pos', baseUrl: 'http://127.0.0.1:9', paths: '{}', notificationScope: '' });
const providerRow = (id: string) => ({ ...provider(id), createdAt: new Date() });

/** Work on a client of the same database that lists each statement it sends (PostgreSQL's round
 * trips), closed after. */
async function counted(work: (sql: Statements, sent: string[]) => Promise<void>) {
  const sent: string[] = [];
  const counting = openDatabase(database.url, { onQuery: (text) => sent.push(text) });
  try {
    await work(statementsOf(counting), sent);
  } finally {
    await counting.$disconnect();
  }
}

describe('database client', () => {
  it('keeps a write made while another request’s transaction is open when that transaction rolls back', async () => {
    let inside!: () => void;
    const started = new Promise<void>((resolve) => (inside = resolve));
    let sent!: () => void;
    const outsideSent = new Promise<void>((resolve) => (sent = resolve));
    const failing = db
      .$transaction(async (tx) => {
        await tx.provider.create({ data: provider('prv_undone') });
        inside();
        // Open until the write outside it has gone to the database (on SQLite it then waits for
        // this transaction's end).
        await outsideSent;
        throw new Error('this transaction fails');
      })
      .catch((error: Error) => error.message);
    await started;
    onStatement = (sql) => {
      if (/^\s*insert\b/i.test(sql)) sent();
    };
    try {
      await db.provider.create({ data: provider('prv_kept') });
    } finally {
      onStatement = undefined;
    }
    expect(await failing).toBe('this transaction fails');
    const ids = (await db.provider.findMany({ orderBy: { id: 'asc' } })).map((p) => p.id);
    expect(ids).toEqual(['prv_kept']);
  });

  it('undoes a failing plain transaction alone: the others asked for at the same time are stored', async () => {
    const sql = statementsOf(db);
    const now = new Date();
    const row = (id: string) => ({ ...provider(id), createdAt: now });
    const results = await Promise.allSettled([
      sql.transaction((run) => run(insertStep('Provider', row('prv_group_a')))),
      sql.transaction(async (run) => {
        await run(insertStep('Provider', row('prv_group_failing')));
        throw new Error('refused after its insert');
      }),
      sql.transaction((run) => run(insertStep('Provider', row('prv_group_b')))),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const ids = (
      await db.provider.findMany({ where: { id: { in: ['prv_group_a', 'prv_group_failing', 'prv_group_b'] } }, orderBy: { id: 'asc' } })
    ).map((p) => p.id);
    expect(ids).toEqual(['prv_group_a', 'prv_group_b']);
  });

  it('undoes a failing plain transaction that was alone in its group, and the next one is stored', async () => {
    const sql = statementsOf(db);
    const row = (id: string) => ({ ...provider(id), createdAt: new Date() });
    const failing = await sql
      .transaction(async (run) => {
        await run(insertStep('Provider', row('prv_alone_failing')));
        throw new Error('refused after its insert');
      })
      .catch((error: Error) => error.message);
    expect(failing).toBe('refused after its insert');
    await sql.transaction((run) => run(insertStep('Provider', row('prv_alone_next'))));
    const ids = (
      await db.provider.findMany({ where: { id: { in: ['prv_alone_failing', 'prv_alone_next'] } }, orderBy: { id: 'asc' } })
    ).map((p) => p.id);
    expect(ids).toEqual(['prv_alone_next']);
  });

  it('stores a transaction’s deferred writes all or none: one refused (a repeated key) undoes the others', async () => {
    const sql = statementsOf(db);
    const row = (id: string) => ({ ...provider(id), createdAt: new Date() });
    await sql.write(insertStep('Provider', row('prv_deferred_taken')));
    const error = await sql
      .transaction(async (run) => {
        run.defer(insertStep('Provider', row('prv_deferred_undone')));
        run.defer(insertStep('Provider', row('prv_deferred_taken')));
      })
      .catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
    expect(await db.provider.findUnique({ where: { id: 'prv_deferred_undone' } })).toBeNull();
  });

  it('lets a statement after deferred writes see them, and undoes them when the transaction throws', async () => {
    const sql = statementsOf(db);
    const row = (id: string) => ({ ...provider(id), createdAt: new Date() });
    const seen = await sql
      .transaction(async (run) => {
        run.defer(insertStep('Provider', row('prv_deferred_seen')));
        const rows = await run<{ id: string }>({ sql: 'SELECT "id" FROM "Provider" WHERE "id" = ?', args: ['prv_deferred_seen'] });
        run.defer(insertStep('Provider', row('prv_deferred_later')));
        throw new Error(`saw ${rows.map((r) => r.id).join()}`);
      })
      .catch((e: Error) => e.message);
    expect(seen).toBe('saw prv_deferred_seen');
    const ids = await db.provider.findMany({ where: { id: { in: ['prv_deferred_seen', 'prv_deferred_later'] } } });
    expect(ids).toEqual([]);
  });

  it('sends PostgreSQL a transaction that reads and then only defers its writes as two statements, with no BEGIN or COMMIT', async () => {
    if (database.url.startsWith('file:')) return; // SQLite's statements are calls in this process
    await counted(async (sql, sent) => {
      await sql.all('SELECT 1');
      sent.length = 0;
      await sql.transaction(async (run) => {
        await run({ sql: 'SELECT "id" FROM "Provider" WHERE "id" = ?', args: ['prv_one_trip_a'] });
        run.defer(insertStep('Provider', providerRow('prv_one_trip_a')));
        run.defer(insertStep('Provider', providerRow('prv_one_trip_b')));
      });
      expect(sent.map((text) => text.split(' ')[0])).toEqual(['SELECT', 'WITH']);
    });
    const stored = await db.provider.findMany({ where: { id: { in: ['prv_one_trip_a', 'prv_one_trip_b'] } }, orderBy: { id: 'asc' } });
    expect(stored.map((p) => p.id)).toEqual(['prv_one_trip_a', 'prv_one_trip_b']);
  });

  it('stores the writes worked out from a row read when the expected write finds it as read, and none when it changed', async () => {
    const sql = statementsOf(db);
    await sql.write(insertStep('Provider', providerRow('prv_expected')));
    // The writes a read decided, guarded by what was read: the row's base URL.
    const decided = (seen: string, beside: string) =>
      sql.transaction(async (run) => {
        run.expect(updateStep('Provider', 'prv_expected', { baseUrl: `${seen}/next` }, { and: { sql: '"baseUrl" = ?', args: [seen] } }));
        run.defer(insertStep('Provider', providerRow(beside)));
      });
    await decided('http://127.0.0.1:9', 'prv_expected_beside');
    const error = await decided('http://127.0.0.1:9', 'prv_expected_undone').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RowChanged);
    const stored = await db.provider.findMany({ where: { id: { startsWith: 'prv_expected' } }, orderBy: { id: 'asc' } });
    expect(stored.map((p) => [p.id, p.baseUrl])).toEqual([
      ['prv_expected', 'http://127.0.0.1:9/next'],
      ['prv_expected_beside', 'http://127.0.0.1:9'],
    ]);
  });

  it('sends PostgreSQL a read and its expected writes as two statements, and undoes them when the row changed', async () => {
    if (database.url.startsWith('file:')) return; // SQLite's statements are calls in this process
    await counted(async (sql, sent) => {
      await sql.write(insertStep('Provider', providerRow('prv_guarded')));
      sent.length = 0;
      const error = await sql
        .transaction(async (run) => {
          const [read] = await run<{ baseUrl: string }>({ sql: 'SELECT "baseUrl" FROM "Provider" WHERE "id" = ?', args: ['prv_guarded'] });
          // Another writer changes the row between the read and the writes.
          await sql.write(updateStep('Provider', 'prv_guarded', { baseUrl: 'http://127.0.0.1:8' }));
          run.defer(insertStep('Provider', providerRow('prv_guarded_beside')));
          run.expect(updateStep('Provider', 'prv_guarded', { kind: 'dsp' }, { and: { sql: '"baseUrl" = ?', args: [read!.baseUrl] } }));
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RowChanged);
      expect(sent.map((text) => text.split(' ')[0])).toEqual(['SELECT', 'UPDATE', 'WITH']);
    });
    expect(await db.provider.findUnique({ where: { id: 'prv_guarded_beside' } })).toBeNull();
    expect((await db.provider.findUnique({ where: { id: 'prv_guarded' } }))?.kind).toBe('pos');
  });

  it('reports a repeated key of a plain write as a unique violation', async () => {
    const sql = statementsOf(db);
    const insert = insertStep('Provider', { ...provider('prv_twice'), createdAt: new Date() });
    await sql.write(insert);
    const error = await sql.write(insert).catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
  });

  it('knows every Boolean column of the schema, to read it back as a boolean', () => {
    const schema = fs.readFileSync('prisma/models.prisma', 'utf8');
    const booleans = [...schema.matchAll(/^\s+(\w+)\s+Boolean\b/gm)].map((match) => match[1]);
    expect(booleans.sort()).toEqual([...BOOLEAN_COLUMNS].sort());
  });

  it('reads a row back as Prisma does: dates as dates, nulls as null, integers as numbers, booleans as booleans', async () => {
    const stored = await db.outboxMessage.create({
      data: {
        id: 'out_read_back',
        kind: 'location.connect',
        source: 'pos',
        operation: 'connect',
        body: '{}',
        idempotencyKey: 'read-back',
        attempts: 2,
        deliveredAt: new Date('2026-01-02T03:04:05.678Z'),
      },
    });
    const [row] = await statementsOf(db).all('SELECT * FROM "OutboxMessage" WHERE "id" = ?', [stored.id]);
    expect(row).toEqual(stored);
    expect(row!.lockedUntil).toBeNull();
    expect(row!.deliveredAt).toEqual(new Date('2026-01-02T03:04:05.678Z'));
  });

  it('writes and reads dates as Prisma does in a time zone away from UTC (jest.config.ts sets one)', async () => {
    const at = new Date('2026-06-01T12:00:00.000Z');
    expect(at.getTimezoneOffset()).not.toBe(0);
    const sql = statementsOf(db);
    await sql.write(insertStep('Provider', { ...provider('prv_zone'), createdAt: at }));
    expect((await db.provider.findUniqueOrThrow({ where: { id: 'prv_zone' } })).createdAt).toEqual(at);
    const [row] = await sql.all<{ createdAt: Date }>('SELECT "createdAt" FROM "Provider" WHERE "id" = ?', ['prv_zone']);
    expect(row!.createdAt).toEqual(at);
  });

  it('copies the log into the database file in the background, without a checkpoint on this connection', async () => {
    if (!database.url.startsWith('file:')) return; // the write-ahead log is SQLite's
    const file = database.url.slice('file:'.length);
    const before = fs.statSync(file).size;
    const sql = statementsOf(db);
    const padding = 'x'.repeat(2000);
    await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        sql.write(insertStep('Provider', { ...provider(`prv_log_${i}`), paths: padding, createdAt: new Date() })),
      ),
    );
    // 100 rows of 2 kB are about 50 pages: far below the backstop at which this connection would
    // checkpoint itself, so a bigger file means the worker's checkpoint ran.
    // Given up on after five seconds: the assertion below then says by how much it fell short.
    await until(() => fs.statSync(file).size >= before + 100 * 2000, 5000).catch(() => undefined);
    expect(fs.statSync(file).size).toBeGreaterThanOrEqual(before + 100 * 2000);
  });

  it('tells of a write only after the writes committed before it are on disk and told of', async () => {
    // A subscriber hears of each change when its writer is told it is stored: heard out of
    // order, a later state would be replaced by an earlier one. The pool's threads kept busy
    // make the sync of a group commit (./statements.ts) wait its turn, while a write of
    // Prisma's own after it syncs on the main thread.
    const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
    const busy = Array.from({ length: threads }, () => new Promise((r) => crypto.pbkdf2('x', 'y', 400_000, 32, 'sha256', r)));
    const heard: string[] = [];
    const first = statementsOf(db)
      .write(insertStep('Provider', { ...provider('prv_told_first'), createdAt: new Date() }))
      .then(() => heard.push('first'));
    while (!(await db.provider.findUnique({ where: { id: 'prv_told_first' } }))) await new Promise((r) => setImmediate(r));
    await db.provider.create({ data: provider('prv_told_second') }).then(() => heard.push('second'));
    await Promise.all([first, ...busy]);
    expect(heard).toEqual(['first', 'second']);
  });

  it('reads a table again after a migration changed it under a prepared statement (PostgreSQL)', async () => {
    if (database.url.startsWith('file:')) return; // SQLite's statements are prepared per connection of ours
    const sql = statementsOf(db);
    const everything = 'SELECT * FROM "Provider" WHERE "id" = ?';
    await db.provider.create({ data: provider('prv_prepared') });
    // Prepared on every connection of the pool: each is used at least once.
    await Promise.all(Array.from({ length: 12 }, () => sql.all(everything, ['prv_prepared'])));
    // Another instance, a version newer, migrates: the table gains a column.
    await db.$executeRawUnsafe('ALTER TABLE "Provider" ADD COLUMN "addedByNewerVersion" TEXT');
    const rows = await Promise.all(Array.from({ length: 12 }, () => sql.all<{ id: string }>(everything, ['prv_prepared'])));
    expect(rows.map(([row]) => row?.id)).toEqual(Array(12).fill('prv_prepared'));
  });

  it('prepares no statement on the server with POSTGRES_PREPARED_STATEMENTS=off (a pooler in transaction mode)', async () => {
    if (database.url.startsWith('file:')) return;
    const prepared = async (client: Db) => {
      const sql = statementsOf(client);
      await sql.all('SELECT "id" FROM "Provider" WHERE "id" = ?', ['prv_none']);
      // Run one after the other, the statements take the pool's same idle connection.
      return sql.all<{ statement: string }>('SELECT "statement" FROM pg_prepared_statements');
    };
    expect((await prepared(db)).map((p) => p.statement)).toContain('SELECT "id" FROM "Provider" WHERE "id" = $1');
    const unprepared = openDatabase(database.url, {}, { postgresPrepared: false });
    try {
      expect(await prepared(unprepared)).toEqual([]);
    } finally {
      await unprepared.$disconnect();
    }
  });

  it('syncs each of Prisma’s own commits again once a group commit, which syncs on its own, is done', async () => {
    if (!database.url.startsWith('file:')) return; // SQLite's setting
    const synchronous = async () =>
      ((await db.$queryRawUnsafe('PRAGMA synchronous')) as { synchronous: bigint | number }[])[0]!.synchronous;
    expect(Number(await synchronous())).toBe(2); // FULL
    await statementsOf(db).write(insertStep('Provider', { ...provider('prv_sync'), createdAt: new Date() }));
    expect(Number(await synchronous())).toBe(2);
  });
});
