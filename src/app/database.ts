// Opening the database, for the service and for the commands that work on its data without it.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { openDatabase, pingDatabase, type DatabaseHooks } from '../db/client.js';
import { applyPendingMigrations } from '../db/schema-engine.js';

/** Applies pending migrations and opens the database. */
export async function prepareDatabase(config: Config, log: Logger, hooks: DatabaseHooks = {}) {
  const applied = await applyPendingMigrations(config.databaseUrl);
  if (applied.length) log.info({ migrations: applied }, 'applied pending migrations');
  const db = openDatabase(
    config.databaseUrl,
    { onWarning: (message) => log.warn(message), ...hooks },
    { sqliteSynchronous: config.sqliteSynchronous, postgresPrepared: config.postgresPrepared, pool: config.databasePool },
  );
  // The first query loads Prisma's query compiler; do it now rather than inside a request.
  await pingDatabase(db);
  return db;
}
