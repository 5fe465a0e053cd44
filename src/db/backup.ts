// Backups of the embedded SQLite database (docs/operations.md, "Backups"): a consistent copy taken
// while the service serves, with SQLite's online backup (better-sqlite3's), and a restore that
// puts a copy in place of a stopped service's database. A running service keeps a lock file
// beside its database (its process id); a restore is refused while that process lives. On
// PostgreSQL both are pg_dump's and pg_restore's.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { newPrivateFile, privateFolder } from '../common/private-files.js';

/** What a PostgreSQL operator runs instead. */
export const POSTGRES_BACKUPS = [
  'This service keeps its data in PostgreSQL: back it up and restore it with PostgreSQL’s own tools.',
  '  backup:   pg_dump --format=custom --file=FILE "$DATABASE_URL"   (consistent while the service runs)',
  '  restore:  stop every instance, then pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" FILE',
  'Keep DATA_DIR’s keys (or SIGNING_KEY and ENCRYPTION_KEY) with the dump: the sealed secrets in it need them.',
].join('\n');

const lockFile = (database: string) => `${database}.lock`;
type Lock = { pid: number; host: string; startedAt: string };

/** Marks the database as served by this process, until `release`. */
export function holdDatabase(database: string): { release: () => void } {
  const lock: Lock = { pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() };
  fs.writeFileSync(lockFile(database), JSON.stringify(lock), { mode: 0o600 });
  fs.chmodSync(lockFile(database), 0o600);
  return {
    release: () => {
      try {
        const held = JSON.parse(fs.readFileSync(lockFile(database), 'utf8')) as Lock;
        if (held.pid === process.pid) fs.rmSync(lockFile(database), { force: true });
      } catch {
        // Gone already.
      }
    },
  };
}

/** The process serving the database, if one is alive on this machine. */
export function servedBy(database: string): Lock | null {
  let lock: Lock;
  try {
    lock = JSON.parse(fs.readFileSync(lockFile(database), 'utf8')) as Lock;
  } catch {
    return null;
  }
  if (lock.host !== os.hostname()) return lock;
  try {
    process.kill(lock.pid, 0);
    return lock;
  } catch (error) {
    // EPERM: alive, someone else's. ESRCH: gone without releasing (kill -9): not served.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? lock : null;
  }
}

/** A consistent copy of the database at `to`, taken while it is in use: SQLite's online backup,
 * whose last step copies every remaining page at once, so writes in between cannot restart it. */
export async function backupDatabase(database: string, to: string): Promise<{ bytes: number }> {
  if (!fs.existsSync(database)) throw new Error(`no database at ${database}`);
  if (fs.existsSync(to)) throw new Error(`${to} exists already: name a new file`);
  // Made 0600 before SQLite writes into it: the copy holds customers' data and sealed secrets.
  newPrivateFile(to);
  const source = new Database(database, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(to, { progress: ({ remainingPages }) => Math.max(remainingPages, 100) });
  } catch (error) {
    fs.rmSync(to, { force: true });
    throw error;
  } finally {
    source.close();
  }
  return { bytes: fs.statSync(to).size };
}

/** Why `file` is not a database of this service, or null. */
function notOurs(file: string): string | null {
  if (!fs.existsSync(file)) return `${file} does not exist`;
  const head = Buffer.alloc(16);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, 16, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (head.toString('latin1') !== 'SQLite format 3\u0000') return `${file} is not an SQLite database`;
  const copy = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = new Set(copy.prepare(`SELECT "name" FROM sqlite_master WHERE "type" = 'table'`).pluck().all() as string[]);
    const missing = ['_prisma_migrations', 'Partner', 'Order', 'OutboxMessage'].filter((table) => !tables.has(table));
    if (missing.length) return `${file} is an SQLite database, but not this service's (no ${missing.join(', ')} table)`;
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') return `${file} is damaged: ${String(check)}`;
  } finally {
    copy.close();
  }
  return null;
}

/** Puts a backup in place of the database of a stopped service. The database is untouched when
 * the file is not one of ours or a service runs on it. */
export function restoreDatabase(database: string, from: string): { bytes: number } {
  const served = servedBy(database);
  if (served)
    throw new Error(
      `a service (process ${served.pid} on ${served.host}, since ${served.startedAt}) runs on ${database}: stop it, then restore`,
    );
  const problem = notOurs(from);
  if (problem) throw new Error(`${problem}: nothing restored; ${database} is as it was`);
  privateFolder(path.dirname(database));
  const staged = `${database}.restoring`;
  fs.copyFileSync(from, staged);
  // The copy's own mode is not kept: a backup left readable by others restores as the service's file.
  fs.chmodSync(staged, 0o600);
  // The old log would be replayed onto the restored file: it goes with the old database.
  for (const left of [`${database}-wal`, `${database}-shm`]) fs.rmSync(left, { force: true });
  fs.renameSync(staged, database);
  return { bytes: fs.statSync(database).size };
}
