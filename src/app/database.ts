// Opening the database, for the service and for the commands that work on its data without it.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { openDatabase, pingDatabase, type DatabaseHooks } from '../db/client.js';
import { applyPendingMigrations } from '../db/schema-engine.js';
import { providerOf } from '../db/url.js';
import { sealer } from '../common/crypto.js';
import { sealStoredCustomers } from '../modules/privacy/customer.js';

/** Applies pending migrations and opens the database; customers stored in clear by a version
 * before are sealed then, before anything serves from it. */
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
  const sealed = await sealStoredCustomers(db, sealer(config.encryptionKey));
  if (sealed && providerOf(config.databaseUrl) === 'postgresql')
    log.warn(
      { sealed },
      `customers stored in clear by an earlier version are sealed; their old row versions stay in the files until VACUUM FULL "Order", "OutboxMessage" (docs/operations.md, "Customers' data")`,
    );
  else if (sealed) log.info({ sealed }, 'customers stored in clear by an earlier version are sealed');
  return db;
}
