// The Prisma client for the configured database. Both providers' clients are generated from the
// same models, so the SQLite client's type stands for both.
import { PrismaClient } from '../generated/prisma-sqlite/client.js';
import { PrismaClient as PostgresClient } from '../generated/prisma-postgresql/client.js';
import { adapterFor } from './adapters.js';
import { providerOf } from './url.js';

export type Db = PrismaClient;
export { Prisma } from '../generated/prisma-sqlite/client.js';

export type DatabaseHooks = {
  /** Called for every statement sent to the database: the benchmark counts round-trips with it. */
  onQuery?: (sql: string) => void;
};
export type DatabaseOptions = { sqliteSynchronous?: 'full' | 'normal' };

/** Counts statements at the driver adapter: what actually goes to the database. */
function counted<F extends { connect: () => Promise<any> }>(factory: F, onQuery?: (sql: string) => void): F {
  if (!onQuery) return factory;
  const wrap = (queryable: any) => {
    for (const method of ['queryRaw', 'executeRaw'] as const) {
      const original = queryable[method].bind(queryable);
      queryable[method] = (query: { sql: string }) => (onQuery(query.sql), original(query));
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
  columns: () => unknown[];
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
 * Isolation: the adapter runs interactive transactions and single statements on one connection,
 * and a statement sent while a transaction is open (awaiting, between its statements) would
 * run inside it: answered before it is committed, and undone if that transaction rolls back.
 * Statements outside a transaction therefore wait until none is open.
 */
function tunedSqlite<F extends { connect: () => Promise<any> }>(factory: F, options: DatabaseOptions, connection: SqliteConnection): F {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const client = adapter.client as { prepare: (sql: string) => Statement; pragma: (source: string) => unknown; transaction: NonNullable<SqliteConnection['transaction']> };
    connection.prepare = client.prepare.bind(client);
    connection.transaction = client.transaction.bind(client);
    connection.idle = async () => {
      while (open) await open;
    };
    client.pragma(`synchronous = ${options.sqliteSynchronous ?? 'full'}`);
    let open: Promise<void> | undefined;
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (...args: unknown[]) => {
      const tx = await startTransaction(...args);
      let close!: () => void;
      open = new Promise<void>((resolve) => (close = resolve));
      for (const end of ['commit', 'rollback'] as const) {
        const original = tx[end].bind(tx);
        tx[end] = async () => {
          try {
            return await original();
          } finally {
            open = undefined;
            close();
          }
        };
      }
      return tx;
    };
    for (const method of ['queryRaw', 'executeRaw'] as const) {
      const original = adapter[method].bind(adapter);
      // better-sqlite3 runs the statement synchronously: nothing can open a transaction
      // between the check and the statement.
      adapter[method] = async (query: unknown) => {
        await connection.idle();
        return original(query);
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
  transaction?: <T>(fn: () => T) => () => T;
  /** Resolves when no interactive transaction is open on the connection. */
  idle: () => Promise<void>;
  onQuery?: (sql: string) => void;
};
const sqliteConnections = new WeakMap<Db, SqliteConnection>();

/** The SQLite connection of a client opened by openDatabase, connected; undefined for PostgreSQL. */
export async function sqliteConnectionOf(db: Db): Promise<SqliteConnection | undefined> {
  const connection = sqliteConnections.get(db);
  if (connection && !connection.prepare) await db.$connect();
  return connection;
}

export function openDatabase(url: string, hooks: DatabaseHooks = {}, options: DatabaseOptions = {}): Db {
  if (providerOf(url) === 'postgresql') {
    return new PostgresClient({ adapter: counted(adapterFor(url), hooks.onQuery) as never }) as unknown as Db;
  }
  const connection: SqliteConnection = { idle: async () => {}, onQuery: hooks.onQuery };
  const db = new PrismaClient({ adapter: counted(tunedSqlite(adapterFor(url), options, connection), hooks.onQuery) as never });
  sqliteConnections.set(db, connection);
  return db;
}

/** True when a write failed on a unique constraint (P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string })?.code === 'P2002';
}
