// A throw-away PostgreSQL database on the server a URL names: for tests, the drift check and
// Prisma's shadow database. Created and dropped through the server's `postgres` database.
import crypto from 'node:crypto';
import pg from 'pg';
import { pgConfig } from './adapters.js';

export type TemporaryDatabase = { name: string; url: string; drop: () => Promise<void> };

async function asAdmin(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ ...pgConfig(serverUrl).config, database: 'postgres' });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A new database named `<prefix>_<random>` beside the one `serverUrl` names: empty, or a copy
 * of the database `template` (which nobody may be connected to meanwhile). */
export async function temporaryDatabase(serverUrl: string, prefix: string, template?: string): Promise<TemporaryDatabase> {
  const name = `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
  await asAdmin(serverUrl, `CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString(), drop: () => asAdmin(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
