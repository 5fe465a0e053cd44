// The files a database keeps its data in, read byte for byte, for tests of what must not be in
// them: SQLite's file and its log; on PostgreSQL, one database's files (base/<oid>/) and the
// server's log (pg_wal/), under the data directory the server says it has.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { pgConfig } from '../../src/db/adapters.js';
import { forgetOverwritten } from '../../src/db/client.js';
import { providerOf, sqliteFile } from '../../src/db/url.js';
import type { TestService } from './service.js';

async function onPostgres<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(pgConfig(url).config);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Where the PostgreSQL server at `url` keeps its files, when this process may read them; else
 * why not (the data directory is its system user's alone: run the tests as root, as CI does, or
 * as that user). */
export async function postgresDataDirectory(url: string): Promise<{ dir: string } | { unreadable: string }> {
  const dir = await onPostgres(
    url,
    async (client) => (await client.query<{ data_directory: string }>('SHOW data_directory')).rows[0]!.data_directory,
  );
  try {
    fs.readdirSync(path.join(dir, 'base'));
    fs.readdirSync(path.join(dir, 'pg_wal'));
    return { dir };
  } catch (error) {
    return { unreadable: `the server's data directory ${dir} is not readable by this process (${(error as Error).message})` };
  }
}

/** What was written made durable in the database's files: PostgreSQL's CHECKPOINT; SQLite's log
 * copied into the database and emptied (as the service does after a redaction). */
export async function checkpoint(service: TestService): Promise<void> {
  const url = service.database.url;
  if (providerOf(url) === 'sqlite') await forgetOverwritten(service.services.db);
  else await onPostgres(url, (client) => client.query('CHECKPOINT'));
}

const filesUnder = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const at = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(at) : entry.isFile() ? [at] : [];
  });

/** The files that hold the service's database: SQLite's file and log; PostgreSQL's files of that
 * database and the server's log, under `dataDirectory`. */
export async function databaseFiles(service: TestService, dataDirectory?: string): Promise<string[]> {
  const url = service.database.url;
  if (providerOf(url) === 'sqlite') return [sqliteFile(url), `${sqliteFile(url)}-wal`].filter((file) => fs.existsSync(file));
  const oid = await onPostgres(
    url,
    async (client) => (await client.query<{ oid: number }>('SELECT oid FROM pg_database WHERE datname = current_database()')).rows[0]!.oid,
  );
  return [...filesUnder(path.join(dataDirectory!, 'base', String(oid))), ...filesUnder(path.join(dataDirectory!, 'pg_wal'))];
}

/** How many times each text is in the files, byte for byte (UTF-8). */
export function occurrences(files: string[], texts: string[]): Record<string, number> {
  const counts = Object.fromEntries(texts.map((text) => [text, 0]));
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(file);
    } catch (error) {
      // A segment of the log the server removed or renamed since it was listed.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    for (const text of texts) {
      const needle = Buffer.from(text);
      for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1)) counts[text]! += 1;
    }
  }
  return counts;
}
