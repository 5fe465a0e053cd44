// The disk work of SQLite's write-ahead log, kept off the main thread. better-sqlite3 is
// synchronous: a COMMIT with synchronous=full waits for the WAL's fsync (0.3-1 ms here), and a
// commit that crosses the auto-checkpoint threshold copies the log into the database and syncs
// both (5-30 ms). Either stops every request the service is serving for that long.
//
// - walSync: group commits are made with synchronous=normal (the WAL is written, not synced),
//   then the WAL file is synced with an fdatasync on libuv's thread pool, and only then are their
//   callers answered. That is the sync synchronous=full makes at each commit, so a 2xx survives a
//   power loss as before; the event loop goes on meanwhile, and one sync covers every commit made
//   before it starts.
// - checkpointer: a worker thread with its own connection checkpoints the log (PASSIVE: it never
//   blocks the writer) a few times a second. The main connection's automatic checkpoint stays as
//   a backstop, at a threshold the worker keeps the log below unless it falls far behind.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Pages in the log at which the main connection checkpoints itself (SQLite's default: 1000). */
export const BACKSTOP_CHECKPOINT_PAGES = 10_000;
const CHECKPOINT_EVERY_MS = 200;

export type WalSync = {
  /** Resolves when everything committed before the call is on disk. */
  synced(): Promise<void>;
  /** The last sync asked for while it is under way (settled either way), else undefined. */
  unsettled(): Promise<void> | undefined;
  close(): Promise<void>;
};

export function walSync(databaseFile: string): WalSync {
  let handle: Promise<fs.promises.FileHandle> | undefined;
  const open = () =>
    (handle ??= (async () => {
      const wal = await fs.promises.open(`${databaseFile}-wal`, 'r+');
      // The log's directory entry too, once: a file created since the last sync of its folder
      // may not be found after a power loss.
      const folder = await fs.promises.open(path.dirname(databaseFile), 'r');
      await folder.sync().finally(() => folder.close());
      return wal;
    })());
  let inFlight: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  let last: Promise<void> | undefined;
  // A sync already under way may have started before the caller's commit was written: the
  // caller waits for the next one, which every caller arriving meanwhile shares.
  const synced = (): Promise<void> => {
    const sync = requestSync();
    const settled = sync.then(
      () => undefined,
      () => undefined,
    );
    last = settled;
    void settled.then(() => {
      if (last === settled) last = undefined;
    });
    return sync;
  };
  const requestSync = (): Promise<void> => {
    if (!inFlight) {
      inFlight = open()
        .then((wal) => wal.datasync())
        .finally(() => (inFlight = undefined));
      return inFlight;
    }
    next ??= inFlight
      .catch(() => undefined)
      .then(() => {
        next = undefined;
        return requestSync();
      });
    return next;
  };
  return {
    synced,
    unsettled: () => last,
    async close() {
      await inFlight?.catch(() => undefined);
      await (await handle?.catch(() => undefined))?.close();
    },
  };
}

// The worker's code: plain CommonJS, so it runs the same under node, tsx and jest.
const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: 0 });
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    // SQLITE_BUSY: another checkpoint is running; the next tick tries again.
    if (error.code !== 'SQLITE_BUSY') parentPort.postMessage({ error: String(error) });
  }
}, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  process.exit(0);
});
`;

export type Checkpointer = { stop(): Promise<void> };

/** Checkpoints the log of this database file from a worker thread until stopped. `onError`
 * hears of a failed checkpoint (the backstop still bounds the log). */
export function startCheckpointer(databaseFile: string, onError: (message: string) => void): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(CHECKPOINTER, { eval: true, workerData: { driver, file: databaseFile, everyMs: CHECKPOINT_EVERY_MS } });
  worker.unref();
  worker.on('message', (message: { error?: string }) => message.error && onError(message.error));
  worker.on('error', (error) => onError(String(error)));
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async stop() {
      // Unreferenced, the worker would not keep the process up while we wait for it to end: a
      // command would exit right here, before the rest of its work (and with status 0).
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
