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

type Statement = { reader: boolean; run: (...args: unknown[]) => unknown; all: (...args: unknown[]) => unknown[]; columns: () => unknown[]; raw: (on?: boolean) => Statement };

/**
 * The SQLite connection as we want it. Prepared statements: the adapter prepares every statement
 * it runs anew (a tenth of an order's CPU); it calls `prepare(sql).bind(args)` and then `run`,
 * `columns` and `raw().all()`; `bind` would fix the arguments of a statement for good, so the
 * cached statement is handed out behind a view that passes the arguments on each call.
 * Durability: the file is in WAL mode (set when it is migrated); synchronous FULL (the default)
 * makes a commit survive a power loss, not only a crash, because we answer 2xx only after it;
 * NORMAL saves the fsync of each commit and keeps what a crash of the service would lose: nothing.
 */
function tunedSqlite<F extends { connect: () => Promise<any> }>(factory: F, options: DatabaseOptions): F {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    const client = adapter.client as { prepare: (sql: string) => Statement; pragma: (source: string) => unknown };
    client.pragma(`synchronous = ${options.sqliteSynchronous ?? 'full'}`);
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

export function openDatabase(url: string, hooks: DatabaseHooks = {}, options: DatabaseOptions = {}): Db {
  if (providerOf(url) === 'postgresql') {
    return new PostgresClient({ adapter: counted(adapterFor(url), hooks.onQuery) as never }) as unknown as Db;
  }
  return new PrismaClient({ adapter: counted(tunedSqlite(adapterFor(url), options), hooks.onQuery) as never });
}

/** True when a write failed on a unique constraint (P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string })?.code === 'P2002';
}
