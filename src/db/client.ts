// The Prisma client for the configured database. Both providers' clients are generated from the
// same models, so the SQLite client's type stands for both.
import { PrismaClient } from '../generated/prisma-sqlite/client.js';
import { PrismaClient as PostgresClient } from '../generated/prisma-postgresql/client.js';
import pg from 'pg';
import { adapterFor, pgConfig } from './adapters.js';
import { BACKSTOP_CHECKPOINT_PAGES, startCheckpointer, walSync } from './sqlite-wal.js';
import { providerOf } from './url.js';
import { POOL_DEFAULTS } from './pool.js';

export type Db = PrismaClient;
export { Prisma } from '../generated/prisma-sqlite/client.js';
/** The models' row types (the same for both providers). */
export type {
  Location,
  Onboarding,
  Organization,
  OutboxMessage,
  Store,
  WebhookEvent,
} from '../generated/prisma-sqlite/client.js';

import type { Order as PrismaOrder } from '../generated/prisma-sqlite/client.js';
/** The order as Prisma's client reads it (GraphQL's rows): its money as bigint. */
export type OrderModel = PrismaOrder;
/** The order's money columns (BIGINT: amounts reach 10^11), which our own statements read as
 * numbers (./statements.ts); Prisma's client reads them as bigint. */
export type OrderMoneyColumn = {
  [K in keyof PrismaOrder]: PrismaOrder[K] extends bigint | null ? K : never;
}[keyof PrismaOrder];
export type Order = Omit<PrismaOrder, OrderMoneyColumn> & {
  [K in OrderMoneyColumn]: null extends PrismaOrder[K] ? number | null : number;
};

export type DatabaseHooks = {
  /** Called for every statement sent to the database: the benchmark counts round-trips with it. */
  onQuery?: (sql: string) => void;
  /** Hears of trouble that does not fail a request (a background checkpoint that failed). */
  onWarning?: (message: string) => void;
};
export type DatabaseOptions = {
  sqliteSynchronous?: 'full' | 'normal';
  postgresPrepared?: boolean;
  /** PostgreSQL: connections in the pool, and how long a statement waits for one (ms). */
  pool?: { size: number; waitMs: number };
};

/** Counts statements at the driver adapter: what actually goes to the database. */
// biome-ignore lint/suspicious/noExplicitAny: Prisma's adapter factories type their connections loosely; this wrapper takes any of them.
function counted<F extends { connect: () => Promise<any> }>(factory: F, onQuery?: (sql: string) => void): F {
  if (!onQuery) return factory;
  // biome-ignore lint/suspicious/noExplicitAny: the adapter's queryable, patched in place
  const wrap = (queryable: any) => {
    for (const method of ['queryRaw', 'executeRaw'] as const) {
      const original = queryable[method].bind(queryable);
      queryable[method] = (query: { sql: string }) => {
        onQuery(query.sql);
        return original(query);
      };
    }
    if (typeof queryable.startTransaction === 'function') {
      const start = queryable.startTransaction.bind(queryable);
      queryable.startTransaction = async (...args: unknown[]) => wrap(await start(...args));
    }
    return queryable;
  };
  const connect = factory.connect.bind(factory);
  factory.connect = async () => wrap(await connect());
  return factory;
}

export type Statement = {
  reader: boolean;
  run: (...args: unknown[]) => { changes: number };
  all: (...args: unknown[]) => unknown[];
  columns: () => { name: string }[];
  raw: (on?: boolean) => Statement;
  safeIntegers: (on?: boolean) => Statement;
};

/**
 * The SQLite connection as we want it. Prepared statements: the adapter prepares every statement
 * it runs anew (a tenth of an order's CPU); it calls `prepare(sql).bind(args)` and then `run`,
 * `columns` and `raw().all()`; `bind` would fix the arguments of a statement for good, so the
 * cached statement is handed out behind a view that passes the arguments on each call.
 * Durability: the file is in WAL mode (set when it is migrated); synchronous FULL (the default)
 * makes a commit survive a power loss, not only a crash, because we answer 2xx only after it;
 * NORMAL saves the fsync of each commit and keeps what a crash of the service would lose: nothing.
 * The group commits of ./statements.ts make that fsync on libuv's thread pool instead, and
 * checkpoints run in a worker thread (./sqlite-wal.ts); Prisma's own writes sync as configured.
 * Isolation: the adapter runs interactive transactions and single statements on one connection,
 * and a statement sent while a transaction is open (awaiting, between its statements) would
 * run inside it: answered before it is committed, and undone if that transaction rolls back.
 * So a transaction (Prisma's, or one of ./statements.ts) holds the connection's lock while it is
 * open, and statements outside a transaction wait until no transaction holds it.
 */
const WRITE = /^\s*(insert|update|delete|replace)\b/i;

// biome-ignore lint/suspicious/noExplicitAny: as counted() above
function tunedSqlite<F extends { connect: () => Promise<any> }>(
  factory: F,
  options: DatabaseOptions,
  hooks: DatabaseHooks,
  connection: SqliteConnection,
): F {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const client = adapter.client as {
      prepare: (sql: string) => Statement;
      pragma: (source: string) => unknown;
      inTransaction: boolean;
      name: string;
    };
    const synchronous = options.sqliteSynchronous ?? 'full';
    client.pragma(`synchronous = ${synchronous}`);
    // What a statement deletes or overwrites (a customer's data, redacted) is zeroed on its page,
    // not left in free space for a backup or a file read to find (modules/privacy).
    client.pragma('secure_delete = on');
    // The log's sync and checkpoints off the main thread (./sqlite-wal.ts).
    const wal = walSync(client.name);
    const checkpointer = startCheckpointer(client.name, (message) => hooks.onWarning?.(`background checkpoint failed: ${message}`));
    client.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
    // Prepared once: `pragma()` compiles its statement at every call, and these two run at every
    // group commit.
    const syncInCommit = client.prepare('PRAGMA synchronous = full');
    const syncLaterOn = client.prepare('PRAGMA synchronous = normal');
    connection.syncLater = () => {
      if (synchronous === 'normal') return async () => {};
      syncLaterOn.run();
      return () => {
        syncInCommit.run();
        return wal.synced();
      };
    };
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      await checkpointer.stop();
      await wal.close();
      return dispose();
    };
    connection.truncateLog = () => {
      // Busy while a reader (the checkpointer's thread) holds an older snapshot: tried again. The
      // adapter's connection reads integers as BigInt (0n).
      const [result] = client.pragma('wal_checkpoint(TRUNCATE)') as { busy: number | bigint }[];
      return result !== undefined && Number(result.busy) === 0;
    };
    connection.prepare = client.prepare.bind(client);
    connection.inTransaction = () => client.inTransaction;
    let held: Promise<void> | undefined;
    connection.idle = async () => {
      while (held) await held;
    };
    connection.lock = async () => {
      // The wait stays inline: between the last check and taking the lock there is no await,
      // so two waiters woken by one release cannot both take it.
      while (held) await held;
      let release!: () => void;
      held = new Promise<void>((resolve) => (release = resolve));
      return () => {
        held = undefined;
        release();
      };
    };
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (...args: unknown[]) => {
      const release = await connection.lock();
      let tx: Awaited<ReturnType<typeof startTransaction>>;
      try {
        tx = await startTransaction(...args);
      } catch (error) {
        release();
        throw error;
      }
      for (const end of ['commit', 'rollback'] as const) {
        const original = tx[end].bind(tx);
        tx[end] = async () => {
          try {
            return await original();
          } finally {
            release();
            await inCommitOrder();
          }
        };
      }
      return tx;
    };
    // Prisma's writes sync in their COMMIT; a group commit made before one may still be waiting
    // for its sync, its callers not yet told. Told first, a later write's caller would publish a
    // change (orderUpdated) that an earlier one's caller then overwrites with an older state.
    const inCommitOrder = async () => {
      const earlier = wal.unsettled();
      if (earlier) await earlier;
    };
    for (const method of ['queryRaw', 'executeRaw'] as const) {
      const original = adapter[method].bind(adapter);
      // better-sqlite3 runs the statement synchronously: nothing can open a transaction
      // between the check and the statement.
      adapter[method] = async (query: { sql: string }) => {
        await connection.idle();
        const result = await original(query as never);
        if (WRITE.test(query.sql)) await inCommitOrder();
        return result;
      };
    }
    const prepare = client.prepare.bind(client);
    const statements = new Map<string, Statement>();
    client.prepare = (sql: string) => {
      let statement = statements.get(sql);
      if (!statement) {
        statement = prepare(sql);
        // Prisma's SQL is parameterized, so its distinct statements are few; the bound is a guard.
        if (statements.size > 1000) statements.clear();
        statements.set(sql, statement);
      }
      const stmt = statement;
      const bound = (args: unknown[] = []) => ({
        reader: stmt.reader,
        run: () => stmt.run(...args),
        columns: () => stmt.columns(),
        raw: () => ({ all: () => stmt.raw(true).all(...args) }),
      });
      return { ...bound(), bind: (args: unknown[]) => bound(args) } as never;
    };
    return adapter;
  };
  return factory;
}

/** The better-sqlite3 connection under a SQLite client, for the statements of ./statements.ts. */
export type SqliteConnection = {
  /** better-sqlite3's own prepare (the adapter's goes through the statement cache above). */
  prepare?: (sql: string) => Statement;
  inTransaction?: () => boolean;
  /** Holds the connection for one transaction; resolves to its release. */
  lock: () => Promise<() => void>;
  /** Resolves when no transaction holds the connection. */
  idle: () => Promise<void>;
  /** Called holding the lock: the commits made until the function it returns is called skip the
   * fsync on this thread; that function ends this and resolves once they are on disk. */
  syncLater?: () => () => Promise<void>;
  /** Called holding the lock: copies the whole log into the database and empties it, so that no
   * older version of a page stays in it; false when a reader kept it from finishing. */
  truncateLog?: () => boolean;
  onQuery?: (sql: string) => void;
};
const sqliteConnections = new WeakMap<Db, SqliteConnection>();

/** The SQLite connection of a client opened by openDatabase, connected; undefined for PostgreSQL. */
export async function sqliteConnectionOf(db: Db): Promise<SqliteConnection | undefined> {
  const connection = sqliteConnections.get(db);
  if (connection && !connection.prepare) await db.$connect();
  return connection;
}

/**
 * Leaves no older version of what was just overwritten in the database's files. SQLite: the log
 * (which keeps every page as each commit wrote it) is copied into the database and emptied, with
 * `secure_delete` having zeroed what the change freed. PostgreSQL keeps the old row versions
 * until a vacuum removes them (autovacuum, or `VACUUM`): nothing to do here.
 */
export async function forgetOverwritten(db: Db): Promise<void> {
  const connection = await sqliteConnectionOf(db);
  if (!connection?.truncateLog) return;
  for (let attempt = 0; attempt < 50; attempt++) {
    const release = await connection.lock();
    let done: boolean;
    try {
      done = connection.truncateLog();
    } finally {
      release();
    }
    if (done) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the SQLite log could not be emptied: a reader kept an older snapshot for a second');
}

/** The pg pool under a PostgreSQL client: Prisma's adapter and the statements of
 * ./statements.ts share it. */
export type PostgresConnection = {
  pool: pg.Pool;
  onQuery?: (sql: string) => void;
  prepared: boolean;
  /** Statements that gave up waiting for a connection of the pool, since it opened. */
  timeouts: number;
  /** When a statement last gave up waiting while every connection of the pool was open and lent
   * out: the pool was exhausted, not the server away. */
  exhaustedAt?: number;
};
const postgresConnections = new WeakMap<Db, PostgresConnection>();

/** The pg pool of a PostgreSQL client opened by openDatabase, its client connected (so that
 * disconnecting the client ends the pool); undefined for SQLite. */
/** How a PostgreSQL client's pool stands (GET /metrics); null for SQLite. */
export function poolState(db: Db): { size: number; waiting: number; timeouts: number } | null {
  const connection = postgresConnections.get(db);
  return connection ? { size: connection.pool.totalCount, waiting: connection.pool.waitingCount, timeouts: connection.timeouts } : null;
}

/** How long after a wait that found every connection lent out a connection timeout is taken for
 * the pool's exhaustion. */
const EXHAUSTION_SEEN_MS = 5_000;

/** When the database's last failures were the pool's exhaustion (every connection open and lent
 * out, a statement waiting past DATABASE_POOL_WAIT_MS) rather than the server away: its size
 * and how many wait; null otherwise, and for SQLite. */
export function poolExhausted(db: Db, now = Date.now()): { size: number; waiting: number } | null {
  const connection = postgresConnections.get(db);
  if (!connection?.exhaustedAt || now - connection.exhaustedAt > EXHAUSTION_SEEN_MS) return null;
  return { size: connection.pool.totalCount, waiting: connection.pool.waitingCount };
}

export async function postgresConnectionOf(db: Db): Promise<PostgresConnection | undefined> {
  const connection = postgresConnections.get(db);
  if (connection) await db.$connect();
  return connection;
}

export function openDatabase(url: string, hooks: DatabaseHooks = {}, options: DatabaseOptions = {}): Db {
  if (providerOf(url) === 'postgresql') {
    // A server that is down refuses a new connection at once (a 503, not a wait); a statement
    // that gets no answer in 30 s fails (a frozen server, a lost network).
    const { size, waitMs } = options.pool ?? POOL_DEFAULTS;
    const pool = new pg.Pool({ ...pgConfig(url).config, max: size, connectionTimeoutMillis: waitMs, query_timeout: 30_000 });
    const connection: PostgresConnection = { pool, onQuery: hooks.onQuery, prepared: options.postgresPrepared ?? true, timeouts: 0 };
    // Counted for GET /metrics: a timeout here while the server is up means the pool is too small.
    // (pg's own `query` asks with a callback, Prisma's adapter and ours with a promise.)
    type Callback = (error: Error | undefined, client?: pg.PoolClient, done?: (release?: unknown) => void) => void;
    const connect = pool.connect.bind(pool) as (callback?: Callback) => Promise<pg.PoolClient> | undefined;
    const note = (error: Error | undefined) => {
      if (!error || !/timeout exceeded when trying to connect/i.test(error.message)) return;
      connection.timeouts++;
      if (pool.totalCount >= size) connection.exhaustedAt = Date.now();
    };
    pool.connect = ((callback?: Callback) =>
      callback
        ? connect((error, client, done) => {
            note(error);
            callback(error, client, done);
          })
        : connect()!.catch((error: Error) => {
            note(error);
            throw error;
          })) as typeof pool.connect;
    // A connection that breaks (the server restarted or was stopped) is dropped and replaced.
    // pg emits the break on the pool for an idle connection and on the connection itself while
    // it is lent out (between a transaction's statements, say): without these listeners either
    // would be thrown out of the process.
    pool.on('error', (error) => hooks.onWarning?.(`database connection lost while idle: ${error.message}`));
    pool.on('connect', (client) => client.on('error', (error) => hooks.onWarning?.(`database connection lost: ${error.message}`)));
    const db = new PostgresClient({ adapter: counted(adapterFor(url, pool), hooks.onQuery) as never }) as unknown as Db;
    postgresConnections.set(db, connection);
    return db;
  }
  const connection: SqliteConnection = { lock: async () => () => {}, idle: async () => {}, onQuery: hooks.onQuery };
  const db = new PrismaClient({ adapter: counted(tunedSqlite(adapterFor(url), options, hooks, connection), hooks.onQuery) as never });
  sqliteConnections.set(db, connection);
  return db;
}

/** Whether the database answers (GET /ready): throws when it does not. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.$queryRawUnsafe('SELECT 1');
}

/** Network errors and PostgreSQL's connection and shutdown errors (SQLSTATE classes 08 and 57P),
 * as pg and Prisma's adapter report them, at any depth of `cause`: the database is away, not
 * the request wrong. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'P1001',
  'P1002',
  'P1017',
  'P2024',
]);
const UNREACHABLE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
const UNREACHABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection is closed|Query read timeout/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    const { code, message, kind, cause, meta } = current as {
      code?: unknown;
      message?: unknown;
      kind?: unknown;
      cause?: unknown;
      meta?: { driverAdapterError?: { cause?: { kind?: unknown } } };
    };
    if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || /^(08|57P0)/.test(code))) return true;
    if (typeof kind === 'string' && UNREACHABLE_KINDS.has(kind)) return true;
    const adapterKind = meta?.driverAdapterError?.cause?.kind;
    if (typeof adapterKind === 'string' && UNREACHABLE_KINDS.has(adapterKind)) return true;
    if (typeof message === 'string' && UNREACHABLE_MESSAGES.test(message)) return true;
    // GraphQL wraps what a resolver threw (originalError; thrownValue when it was no Error of its realm).
    const wrapped = current as { originalError?: unknown; thrownValue?: unknown };
    current = cause ?? wrapped.originalError ?? wrapped.thrownValue;
  }
  return false;
}

/** A value past what the database can store or index (PostgreSQL's 54000, program_limit_exceeded:
 * an index entry over 2,704 bytes): the request's, a 400, never a 5xx. The edge bounds text
 * before this can happen (common/input.ts); this is the net under it. */
export function isValueTooLarge(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 6; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (code === '54000' || (typeof message === 'string' && /index row (size|requires)|exceeds .*maximum/i.test(message))) return true;
    const wrapped = current as { originalError?: unknown; thrownValue?: unknown };
    current = cause ?? wrapped.originalError ?? wrapped.thrownValue;
  }
  return false;
}

/** True when a write failed on a unique constraint: through Prisma's models (P2002), or a plain
 * statement on SQLite or on PostgreSQL (23505, unique_violation). */
export function isUniqueViolation(error: unknown): boolean {
  const { code } = (error ?? {}) as { code?: string };
  return code === 'P2002' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}
