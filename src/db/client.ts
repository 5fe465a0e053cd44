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

export function openDatabase(url: string, hooks: DatabaseHooks = {}): Db {
  if (providerOf(url) === 'postgresql') {
    return new PostgresClient({ adapter: counted(adapterFor(url), hooks.onQuery) as never }) as unknown as Db;
  }
  // The file is in WAL mode (set when it is migrated); synchronous stays FULL: a commit
  // survives a power loss, not only a crash, because we answer 2xx only after it.
  return new PrismaClient({ adapter: counted(adapterFor(url), hooks.onQuery) as never });
}

/** True when a write failed on a unique constraint (P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string })?.code === 'P2002';
}
