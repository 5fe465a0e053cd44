// The Prisma client for the configured database. Both providers' clients are generated from the
// same models, so the SQLite client's type stands for both.
import { PrismaClient } from '../generated/prisma-sqlite/client.js';
import { PrismaClient as PostgresClient } from '../generated/prisma-postgresql/client.js';
import { adapterFor } from './adapters.js';
import { providerOf } from './url.js';

export type Db = PrismaClient;
export { Prisma } from '../generated/prisma-sqlite/client.js';

export function openDatabase(url: string): Db {
  if (providerOf(url) === 'postgresql') {
    return new PostgresClient({ adapter: adapterFor(url) }) as unknown as Db;
  }
  // The file is in WAL mode (set when it is migrated); synchronous stays FULL: a commit
  // survives a power loss, not only a crash, because we answer 2xx only after it.
  return new PrismaClient({ adapter: adapterFor(url) });
}

/** True when a write failed on a unique constraint (P2002). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string })?.code === 'P2002';
}
