// Prisma driver adapters for a database URL: the same connection rules for the service's
// client and for the schema engine that migrates it.
import fs from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { providerOf, sqliteFile } from './url.js';

/**
 * pg connection settings from a URL, as separate fields. A connection string would override a
 * `database` set beside it, which is how a "shadow" database silently became the main one.
 * `?schema=` is not understood by the adapter: it becomes the session's search_path.
 */
export function pgConfig(url: string): { config: pg.PoolConfig; schema?: string } {
  const u = new URL(url);
  const schema = u.searchParams.get('schema') ?? undefined;
  const sslmode = u.searchParams.get('sslmode');
  return {
    schema,
    config: {
      host: decodeURIComponent(u.hostname) || '127.0.0.1',
      port: u.port ? Number(u.port) : 5432,
      user: decodeURIComponent(u.username) || undefined,
      password: decodeURIComponent(u.password) || undefined,
      database: decodeURIComponent(u.pathname.replace(/^\//, '')) || undefined,
      ssl: sslmode && sslmode !== 'disable' ? { rejectUnauthorized: sslmode === 'verify-full' } : undefined,
      options: schema ? `-c search_path="${schema}"` : undefined,
    },
  };
}

export type AdapterFactory = PrismaBetterSqlite3 | PrismaPg;

/**
 * The SQLite file of a URL, readable by this user only: it holds customers' names, phones and
 * addresses. Its folder is made 0700 and the file 0600 before SQLite opens it (an existing
 * one is narrowed too); SQLite gives its -wal and -shm files the mode of the database file.
 */
export function privateSqliteFile(url: string): string {
  const file = sqliteFile(url);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  fs.chmodSync(file, 0o600);
  return file;
}

export function adapterFor(url: string, pool?: pg.Pool): AdapterFactory {
  if (providerOf(url) === 'sqlite') {
    const file = privateSqliteFile(url);
    // timeout: how long a writer waits for the lock instead of failing with SQLITE_BUSY.
    return new PrismaBetterSqlite3({ url: `file:${file}`, timeout: 5000 });
  }
  const { config, schema } = pgConfig(url);
  // A pool handed in is shared with ./statements.ts: the adapter ends it when the client disconnects.
  return new PrismaPg(pool ?? config, { ...(schema ? { schema } : {}), ...(pool ? { disposeExternalPool: true } : {}) });
}
