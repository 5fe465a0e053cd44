// Plain SQL for the few statements every order and every webhook runs, where Prisma's own work
// per statement (about 0.4 ms of CPU, against 0.01 ms for the statement itself) was most of an
// order's cost, and for every write of the tables those statements share (docs/architecture.md
// lists them), so that each table is written one way. Everything else goes through Prisma.
//
// SQLite: better-sqlite3 statements on Prisma's own connection, prepared once and run
// synchronously; writes by group commit (below). A transaction holds the connection's lock
// (./client.ts) from BEGIN to COMMIT; its statements are synchronous, so it holds it for
// microseconds, not across I/O. Inside a transaction use only its `run`: anything else that
// touches the database waits for the lock.
// PostgreSQL: the same SQL on the pg pool Prisma's adapter uses (./client.ts), not through
// Prisma's raw queries, which cost a fifth of the read path's CPU there; a transaction holds one
// of the pool's connections from BEGIN to COMMIT.
//
// Write SQL with `?` placeholders and double-quoted identifiers (both databases read them).
// Dates go in as Date and come back as Date in columns named *At, *Until or *Time; integers
// come back as numbers. Columns with a Prisma default or @updatedAt must be given explicitly.
// Booleans come back as booleans in the columns BOOLEAN_COLUMNS names (SQLite keeps 1 or 0).
import pg from 'pg';
import type { Context } from '@opentelemetry/api';
import { SpanKind, activeContext, statementSpan, within, type Tracing } from '../telemetry/tracing.js';
import {
  postgresConnectionOf,
  sqliteConnectionOf,
  type Db,
  type PostgresConnection,
  type SqliteConnection,
  type Statement,
} from './client.js';

export type Row = Record<string, unknown>;

/** Spans for statements, for a database whose service traces (../tracing.ts). */
const tracers = new WeakMap<Db, Tracing>();
export function traceStatements(db: Db, tracing: Tracing): void {
  if (tracing.enabled) tracers.set(db, tracing);
}
export type Step = { sql: string; args?: unknown[] };

/** A write the transaction expected to change a row (Run.expect) changed none: the row changed
 * since it was read. The transaction is undone whole; read the row again and decide again. */
export class RowChanged extends Error {
  constructor() {
    super('the row changed since it was read');
  }
}
/** Runs one statement of a transaction: its rows (a SELECT, or a write with RETURNING). */
export type Run = {
  <T = Row>(step: Step): Promise<T[]>;
  /**
   * A write of this transaction whose rows nobody reads (an INSERT of a new row, a release). On
   * PostgreSQL the writes deferred one after another go to the server as one statement (each a
   * WITH part of it) before the transaction's next statement or at its commit, and a transaction
   * of nothing else is that one statement alone, with no BEGIN and COMMIT: one round trip where
   * there were several. So the writes deferred together must not depend on each other's rows,
   * nor touch one row twice (the parts of one statement do not see each other's changes); a
   * statement run after them sees them all. On SQLite it runs at once.
   */
  defer(step: Step): void;
  /**
   * A deferred write (as `defer`) that must change a row: a conditional update guarded by the row
   * as it was read, so that the writes worked out from that read need no lock and no round trip
   * of their own. When it changes none, the whole transaction is undone and fails with
   * RowChanged. Expect before any write that touches the same row, and before the reads that
   * follow it (they send it, as they send every deferred write).
   */
  expect(step: Step): void;
  /** Calls `callback` once the transaction has committed (never if it is undone): wake a worker
   * for the work it wrote. */
  after(callback: () => void): void;
};

/** A transaction's `run` over a statement runner, with its after-commit callbacks. */
function transactionRun(
  statement: <T>(step: Step) => Promise<T[]>,
  defer: (step: Step) => void,
  expect: (step: Step) => void,
): { run: Run; committed: () => void } {
  const callbacks: (() => void)[] = [];
  const run = Object.assign(statement, { defer, expect, after: (callback: () => void) => void callbacks.push(callback) }) as Run;
  return {
    run,
    committed: () => {
      for (const callback of callbacks) callback();
    },
  };
}

export type Statements = {
  /** One read outside a transaction. */
  all<T = Row>(sql: string, args?: unknown[]): Promise<T[]>;
  /** The same, of a named statement (./sql/). */
  read<T = Row>(step: Step): Promise<T[]>;
  /** The statements `work` runs, in one transaction: committed if it returns, undone if it throws. */
  transaction<T>(work: (run: Run) => Promise<T>): Promise<T>;
  /** One write outside a transaction (committed before it resolves): its rows, with RETURNING. */
  write<T = Row>(step: Step): Promise<T[]>;
};

/** Prisma's SQLite format for DateTime columns: text that sorts and compares as time does. */
const sqliteDate = (date: Date) => date.toISOString().replace('Z', '+00:00');

const DATE_COLUMN = /(At|Until|Time)$/;
/** The schema's Boolean columns (test/db/database.test.ts checks the list against it). */
export const BOOLEAN_COLUMNS: ReadonlySet<string> = new Set(['bodyApart', 'connectionNotices', 'orderUpdates', 'markupLine', 'enabled']);

/** A prepared statement and how to turn its rows into objects. */
type Prepared = { statement: Statement; toRow?: (values: unknown[]) => Row };

/** Rows are read as arrays (raw mode) and made into objects here, by a function made once per
 * statement that returns one object literal with the statement's columns as its keys, dates
 * made Dates. better-sqlite3's own object rows cost about twice an array row; setting the keys
 * one by one from a list of names took V8's generic keyed stores, and cost as much again as
 * reading the rows (CPU profile of the read path); a literal is built at one fixed shape. The
 * names are the columns of our own SQL, written into the function as JSON string literals. */
function rowMaker(statement: Statement): (values: unknown[]) => Row {
  const fields = statement.columns().map(({ name }, i) => {
    const value = `values[${i}]`;
    const read = DATE_COLUMN.test(name)
      ? `${value} === null ? null : new Date(${value})`
      : BOOLEAN_COLUMNS.has(name)
        ? `${value} === null ? null : ${value} === 1`
        : value;
    return `${JSON.stringify(name)}: ${read}`;
  });
  return new Function('values', `'use strict'; return { ${fields.join(', ')} };`) as (values: unknown[]) => Row;
}

function sqliteStatements(
  connection: SqliteConnection & { prepare: NonNullable<SqliteConnection['prepare']> },
  traced: () => Tracing | undefined,
): Statements {
  const prepared = new Map<string, Prepared>();
  const prepare = (sql: string): Prepared => {
    const statement = connection.prepare(sql).safeIntegers(false);
    return statement.reader ? { statement: statement.raw(true), toRow: rowMaker(statement) } : { statement };
  };
  const run = (step: Step): Row[] => {
    let made = prepared.get(step.sql);
    if (!made) {
      made = prepare(step.sql);
      // IN lists make a statement per list length: bounded, as the adapter's cache is.
      if (prepared.size > 1000) prepared.clear();
      prepared.set(step.sql, made);
    }
    connection.onQuery?.(step.sql);
    // As Prisma stores them: dates as its text, booleans as 1 or 0.
    const args = (step.args ?? []).map((a) => (a instanceof Date ? sqliteDate(a) : typeof a === 'boolean' ? Number(a) : a));
    const tracing = traced();
    const span = tracing && !GROUP_CONTROL.has(step.sql) ? statementSpanOf(tracing, 'sqlite', step.sql) : undefined;
    try {
      if (!made.toRow) {
        made.statement.run(...args);
        return [];
      }
      return (made.statement.all(...args) as unknown[][]).map(made.toRow);
    } finally {
      span?.end();
    }
  };
  // Group commit: the transactions asked for during one turn of the event loop run together,
  // each in its own savepoint, under one COMMIT (one fsync), and each caller hears back only
  // after that COMMIT. A transaction that throws is undone alone.
  type Job = {
    work: (run: Run) => Promise<unknown>;
    resolve: (value: unknown) => void;
    reject: (error: unknown) => void;
    committed?: () => void;
    /** The trace context of the caller, when tracing: its statements are its spans' children. */
    context?: Context;
  };
  let queue: Job[] = [];
  const flush = async () => {
    const jobs = queue;
    queue = [];
    const release = await connection.lock();
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    // The COMMIT does not wait for the disk here; the callers hear back once it is on disk.
    const synced = connection.syncLater?.();
    let onDisk: Promise<void> | undefined;
    // A group of one needs no savepoint: what it undoes is the whole transaction.
    const alone = jobs.length === 1;
    let undone = false;
    try {
      run({ sql: 'BEGIN' });
      for (const job of jobs) {
        if (!alone) run({ sql: 'SAVEPOINT grouped' });
        const made = transactionRun(
          async <R>(step: Step) => run(step) as R[],
          (step) => void run(step),
          (step) => {
            if (!run(changing(step)).length) throw new RowChanged();
          },
        );
        try {
          outcomes.push({ ok: true, value: await within(job.context, () => job.work(made.run)) });
          job.committed = made.committed;
          if (!alone) run({ sql: 'RELEASE grouped' });
        } catch (error) {
          if (alone) {
            // Some errors end the transaction on their own (SQLITE_FULL, an interrupted statement).
            if (connection.inTransaction?.() ?? true) run({ sql: 'ROLLBACK' });
            undone = true;
          } else {
            run({ sql: 'ROLLBACK TO grouped' });
            run({ sql: 'RELEASE grouped' });
          }
          outcomes.push({ ok: false, error });
          job.committed = undefined;
        }
      }
      if (!undone) run({ sql: 'COMMIT' });
    } catch (error) {
      // The COMMIT (or BEGIN) failed: nothing of the group is stored.
      if (connection.inTransaction?.()) run({ sql: 'ROLLBACK' });
      for (const job of jobs) job.reject(error);
      return;
    } finally {
      onDisk = synced?.();
      // Awaited below when the group committed; when it did not, nothing waits for it.
      onDisk?.catch(() => undefined);
      release();
    }
    try {
      await onDisk;
    } catch (error) {
      // Committed, but not known to be on disk: the callers must not answer that it is stored.
      for (const job of jobs) job.reject(error);
      return;
    }
    jobs.forEach((job, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) {
        job.resolve(outcome.value);
        job.committed?.();
      } else job.reject(outcome.error);
    });
  };
  const transaction = <T>(work: (run: Run) => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      if (!queue.length) setImmediate(() => void flush());
      queue.push({ work, resolve: resolve as (value: unknown) => void, reject, context: activeContext() });
    });
  return {
    async all<T>(sql: string, args?: unknown[]) {
      await connection.idle();
      return run({ sql, args }) as T[];
    },
    async read<T>(step: Step) {
      await connection.idle();
      return run(step) as T[];
    },
    transaction,
    write: <T>(step: Step) => transaction((run) => run<T>(step)),
  };
}

/** Prisma writes DateTime columns (`timestamp(3)`, no zone) as UTC wall time: read them back as
 * UTC whatever the process's time zone, and write Dates the same way. Counts (int8) are numbers. */
const postgresTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === pg.types.builtins.TIMESTAMP) return (text: string) => new Date(`${text.replace(' ', 'T')}Z`);
    if (oid === pg.types.builtins.INT8) return Number;
    return pg.types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser,
};

function postgresStatements({ pool, onQuery, prepared: named }: PostgresConnection, traced: () => Tracing | undefined): Statements {
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  // Named, so each connection has the server parse and plan a statement once and then only binds
  // it: parsing and planning the read path's statement each time was most of PostgreSQL's work per
  // request. IN lists make a statement per list length; past the bound, statements go unnamed.
  // POSTGRES_PREPARED_STATEMENTS=off leaves them all unnamed, for a pooler in transaction mode
  // that cannot keep a connection's prepared statements (PgBouncer before 1.21).
  const names = new Map<string, { text: string; name?: string }>();
  let count = 0;
  const prepared = (sql: string) => {
    let made = names.get(sql);
    if (!made) {
      made = { text: numbered(sql), ...(named && names.size < 500 ? { name: `s${count++}` } : {}) };
      names.set(sql, made);
    }
    return made;
  };
  const query = async <T>(client: pg.Pool | pg.PoolClient, step: Step): Promise<T[]> => {
    const tracing = traced();
    if (!tracing) return queryOnce<T>(client, step);
    const span = statementSpanOf(tracing, 'postgresql', step.sql);
    try {
      return await queryOnce<T>(client, step);
    } finally {
      span.end();
    }
  };
  const queryOnce = async <T>(client: pg.Pool | pg.PoolClient, step: Step): Promise<T[]> => {
    onQuery?.(step.sql);
    const values = (step.args ?? []).map((a) => (a instanceof Date ? a.toISOString() : a));
    const statement = prepared(step.sql);
    try {
      return (await client.query({ ...statement, values, types: postgresTypes })).rows as T[];
    } catch (error) {
      // A migration changed a table under a prepared `*` (another instance of a newer version ran
      // it): under a new name every connection prepares the statement again. Outside a
      // transaction it is run again at once; a transaction fails, and its caller's retry succeeds.
      if ((error as { code?: string }).code !== '0A000' || !statement.name) throw error;
      statement.name = `s${count++}`;
      if (client !== pool) throw error;
      return (await client.query({ ...statement, values, types: postgresTypes })).rows as T[];
    }
  };
  return {
    all: <T>(sql: string, args?: unknown[]) => query<T>(pool, { sql, args }),
    read: <T>(step: Step) => query<T>(pool, step),
    write: <T>(step: Step) => query<T>(pool, step),
    async transaction<T>(work: (run: Run) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      // A connection whose ROLLBACK failed is in an unknown state: it is closed, not reused.
      let broken: Error | undefined;
      // BEGIN goes out with the transaction's first write: reads before it are answered as the
      // transaction's first statement would answer them (READ COMMITTED, PostgreSQL's default:
      // each statement sees what was committed when it starts), and a transaction whose writes
      // were all deferred is one statement, atomic on its own.
      let begun = false;
      let deferred: Deferred[] = [];
      const flush = async () => {
        const steps = deferred;
        deferred = [];
        if (!steps.length) return;
        try {
          await query(client, combined(steps));
        } catch (error) {
          // combined's check of the expected writes (nothing else in it divides).
          if ((error as { code?: string }).code === DIVISION_BY_ZERO && steps.some((step) => step.expected)) throw new RowChanged();
          throw error;
        }
      };
      const begin = async () => {
        if (begun) return;
        await query(client, { sql: 'BEGIN' });
        begun = true;
      };
      try {
        const made = transactionRun(
          async <R>(step: Step) => {
            if (begun || deferred.length || !READ.test(step.sql)) {
              await begin();
              await flush();
            }
            return query<R>(client, step);
          },
          (step) => void deferred.push(step),
          (step) => void deferred.push({ ...changing(step), expected: true }),
        );
        const value = await work(made.run);
        await flush();
        if (begun) await query(client, { sql: 'COMMIT' });
        // After the caller hears back (the caller's own after-commit code runs first).
        queueMicrotask(made.committed);
        return value;
      } catch (error) {
        if (begun) await query(client, { sql: 'ROLLBACK' }).catch((rollback: Error) => (broken = rollback));
        throw error;
      } finally {
        client.release(broken);
      }
    },
  };
}

/** A statement that only reads: it may run before its transaction's BEGIN (a locking read may not). */
const READ = /^\s*SELECT\b(?![\s\S]*\bFOR\s+(UPDATE|SHARE|NO\s+KEY|KEY)\b)/i;

/** A write deferred, and whether the transaction expects it to change a row (Run.expect). */
type Deferred = Step & { expected?: true };

/** An expected write as it tells whether it changed a row: a row back for each it changed. */
const changing = (step: Step): Step => ({ ...step, sql: `${step.sql} RETURNING 1` });

const DIVISION_BY_ZERO = '22012';

/** Writes as one PostgreSQL statement: every one but the last a part of its WITH. A data-changing
 * WITH must be at the top level, so a deferred write may not have a WITH of its own. With expected
 * writes, every write is a part and the statement ends by dividing by the rows each changed: one
 * that changed none fails the statement, and nothing of it is written (a statement is atomic,
 * its parts included), in one round trip where a transaction's BEGIN, check and COMMIT took three. */
function combined(steps: Deferred[]): Step {
  const expected = steps.flatMap((step, i) => (step.expected ? [i] : []));
  if (steps.length === 1 && !expected.length) return steps[0]!;
  if (steps.some((step) => /^\s*WITH\b/i.test(step.sql))) throw new Error('a deferred write may not have a WITH of its own');
  const inParts = expected.length ? steps : steps.slice(0, -1);
  const parts = inParts.map((step, i) => `"w${i}" AS (${step.sql})`);
  const last = expected.length ? `SELECT 1${expected.map((i) => ` / (SELECT COUNT(*) FROM "w${i}")`).join('')}` : steps.at(-1)!.sql;
  return {
    sql: `WITH ${parts.join(', ')} ${last}`,
    args: steps.flatMap((step) => step.args ?? []),
  };
}

const statements = new WeakMap<Db, Statements>();

/** The plain statements of a database client opened by openDatabase. The connection is made on
 * the first statement (the service makes it at start-up). */
export function statementsOf(db: Db): Statements {
  let made = statements.get(db);
  if (!made) {
    const ready = (async () => {
      const postgres = await postgresConnectionOf(db);
      const traced = () => tracers.get(db);
      return postgres
        ? postgresStatements(postgres, traced)
        : sqliteStatements((await sqliteConnectionOf(db)) as Parameters<typeof sqliteStatements>[0], traced);
    })();
    made = {
      all: async (sql, args) => (await ready).all(sql, args),
      read: async (step) => (await ready).all(step.sql, step.args),
      transaction: async (work) => (await ready).transaction(work),
      write: async (step) => (await ready).write(step),
    };
    statements.set(db, made);
  }
  return made;
}

/** The statements of a SQLite group commit itself: they belong to every transaction of the group
 * at once, so to no one request's trace. */
const GROUP_CONTROL = new Set(['BEGIN', 'COMMIT', 'ROLLBACK', 'SAVEPOINT grouped', 'RELEASE grouped', 'ROLLBACK TO grouped']);

/** Span names and attributes by statement text, worked out once each (bounded as the prepared
 * statements are). */
const spanShapes = {
  sqlite: new Map<string, ReturnType<typeof statementSpan>>(),
  postgresql: new Map<string, ReturnType<typeof statementSpan>>(),
};

/** A statement's span, child of the active context (ended by the caller). */
function statementSpanOf(tracing: Tracing, system: 'sqlite' | 'postgresql', sql: string) {
  const shapes = spanShapes[system];
  let shape = shapes.get(sql);
  if (!shape) {
    shape = statementSpan(system, sql);
    if (shapes.size > 1000) shapes.clear();
    shapes.set(sql, shape);
  }
  const { name, attributes } = shape;
  return tracing.start(name, attributes, activeContext()!, SpanKind.CLIENT).span;
}

/** `?, ?, ?` for a list of values. */
export const placeholders = (values: unknown[]) => values.map(() => '?').join(', ');

/** `"a", "b"` for a list of column names. */
export const columnList = (columns: readonly string[]) => columns.map((column) => `"${column}"`).join(', ');

/** An INSERT of one row, its columns named as in the model. */
export function insertStep(table: string, row: Row): Step {
  const columns = Object.keys(row);
  return { sql: `INSERT INTO "${table}" (${columnList(columns)}) VALUES (${placeholders(columns)})`, args: Object.values(row) };
}

/** An INSERT of several rows of the same columns, in one statement. */
export function insertRowsStep(table: string, rows: Row[]): Step {
  const columns = Object.keys(rows[0]!);
  const values = rows.map(() => `(${placeholders(columns)})`).join(', ');
  return {
    sql: `INSERT INTO "${table}" (${columnList(columns)}) VALUES ${values}`,
    args: rows.flatMap((row) => columns.map((c) => row[c])),
  };
}

/** An UPDATE of the row with this id, its columns named as in the model; `and` narrows it
 * further (a guard on the row's state), `increment` counts columns up by one, `returning` gives
 * the updated row back. */
export function updateStep(
  table: string,
  id: string,
  data: Row,
  options: { and?: Step; returning?: boolean; increment?: readonly string[] } = {},
): Step {
  const columns = Object.keys(data).map((c) => `"${c}" = ?`);
  for (const counted of options.increment ?? []) columns.push(`"${counted}" = "${counted}" + 1`);
  return {
    sql: `UPDATE "${table}" SET ${columns.join(', ')} WHERE "id" = ?${options.and ? ` AND ${options.and.sql}` : ''}${options.returning ? ' RETURNING *' : ''}`,
    args: [...Object.values(data), id, ...(options.and?.args ?? [])],
  };
}
