// Backups: `cli backup` copies the SQLite database while the service serves and orders keep
// coming; `cli restore` puts the copy back once the service has stopped (refused while it runs,
// and refused for a file that is not a database of ours, leaving the database as it was). On
// PostgreSQL both commands say to use pg_dump and pg_restore.
import { runMain } from '../support/build.js';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { providerOf } from '../../src/db/url.js';
import { sqliteFile } from '../../src/db/url.js';
import { startService } from '../../src/app/service.js';
import { startPos, testSecrets } from '../support/sandbox.js';
import { merchantTakingOrders, placeOrder, sendDspOrder, until } from '../support/orders.js';
import { asTestService, freshDatabase, testConfig } from '../support/service.js';

const _run = promisify(execFile);
/** The CLI as `npm run cli -- <args>` runs it: its exit code and what it said. */
async function cli(args: string[], env: NodeJS.ProcessEnv) {
  try {
    const { stdout, stderr } = await runMain(args, {
      env: { ...process.env, ...env },
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}
const onPostgres = !!process.env.DATABASE_URL && providerOf(process.env.DATABASE_URL) === 'postgresql';
const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

(onPostgres ? test : test.skip)('on PostgreSQL, backup and restore say how with pg_dump and pg_restore', async () => {
  const database = await freshDatabase();
  try {
    const env = { DATA_DIR: database.dataDir, DATABASE_URL: database.url };
    for (const args of [
      ['backup', '--to', path.join(database.dataDir, 'x')],
      ['restore', '--from', path.join(database.dataDir, 'x')],
    ]) {
      const answer = await cli(args, env);
      expect(answer.code).toBe(1);
      expect(answer.out).toMatch(/pg_dump --format=custom/);
      expect(answer.out).toMatch(/pg_restore/);
    }
  } finally {
    await database.drop();
  }
});

(onPostgres ? test.skip : test)(
  'a backup taken during a burst of orders holds every order before it; restored into a stopped service, they are all there',
  async () => {
    const database = await freshDatabase();
    const env = { DATA_DIR: database.dataDir, DATABASE_URL: database.url };
    const config = testConfig(database);
    const file = sqliteFile(database.url);
    const copy = path.join(database.dataDir, 'backup.db');
    let service = asTestService(await startService(config), database);
    const secrets = testSecrets();
    const pos = await startPos(service, secrets);
    try {
      const m = await merchantTakingOrders(service);
      const before = await Promise.all(Array.from({ length: 30 }, () => placeOrder(pos, m.storeId, { fulfillment_type: 'pickup' })));
      const taken = before.map((placed) => placed.body.order_id!);
      // Orders keep coming while the backup runs.
      let burst = true;
      const during = (async () => {
        while (burst) await placeOrder(pos, m.storeId, { fulfillment_type: 'pickup' });
      })();
      const backup = await cli(['backup', '--to', copy], env);
      burst = false;
      await during;
      expect(backup).toMatchObject({ code: 0, out: expect.stringContaining('backed up') });
      const inCopy = new Database(copy, { readonly: true });
      expect(inCopy.pragma('integrity_check', { simple: true })).toBe('ok');
      const ids = new Set(inCopy.prepare('SELECT "id" FROM "Order"').pluck().all() as string[]);
      inCopy.close();
      expect(taken.filter((id) => !ids.has(id))).toEqual([]);

      // Refused while the service runs on it.
      const refused = await cli(['restore', '--from', copy], env);
      expect(refused.code).toBe(1);
      expect(refused.out).toMatch(/runs on .*stop it/);

      await service.close();
      // Not a database of ours: refused, and the database is as it was.
      const unchanged = sha(file);
      const garbage = path.join(database.dataDir, 'notes.txt');
      fs.writeFileSync(garbage, 'these are not orders');
      expect(await cli(['restore', '--from', garbage], env)).toMatchObject({
        code: 1,
        out: expect.stringMatching(/not an SQLite database/),
      });
      const foreign = path.join(database.dataDir, 'foreign.db');
      new Database(foreign).exec('CREATE TABLE notes (id TEXT)');
      expect(await cli(['restore', '--from', foreign], env)).toMatchObject({ code: 1, out: expect.stringMatching(/not this service's/) });
      expect(sha(file)).toBe(unchanged);

      // The database is lost; the backup brings back every order taken before it.
      for (const lost of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(lost, { force: true });
      expect(await cli(['restore', '--from', copy], env)).toMatchObject({ code: 0, out: expect.stringContaining('restored') });
      service = asTestService(await startService(config), database);
      const back = new Set((await service.services.db.order.findMany({ select: { id: true } })).map((order) => order.id));
      expect(taken.filter((id) => !back.has(id))).toEqual([]);
      // And the service (on a new port) goes on taking orders.
      const after = await sendDspOrder(service.url, secrets.webhookSecret, m.storeId, { fulfillment_type: 'pickup' });
      expect(after.status).toBe(201);
      await until(() => service.services.db.order.findUnique({ where: { id: after.body.order_id! } }));
    } finally {
      await pos.close();
      await service.stop();
    }
  },
  120_000,
);

(onPostgres ? test.skip : test)(
  "DATA_DIR, the lock beside the database, a backup and a restored copy are the service user's alone",
  async () => {
    const database = await freshDatabase();
    const env = { DATA_DIR: database.dataDir, DATABASE_URL: database.url };
    const file = sqliteFile(database.url);
    const mode = (f: string) => (fs.statSync(f).mode & 0o777).toString(8);
    // A DATA_DIR left open by an earlier version, or by hand.
    fs.chmodSync(database.dataDir, 0o755);
    const service = asTestService(await startService(testConfig(database)), database);
    try {
      expect(mode(database.dataDir)).toBe('700');
      expect(mode(`${file}.lock`)).toBe('600');
      const copy = path.join(database.dataDir, 'backups', 'nightly.db');
      expect(await cli(['backup', '--to', copy], env)).toMatchObject({ code: 0 });
      expect({ file: mode(copy), folder: mode(path.dirname(copy)) }).toEqual({ file: '600', folder: '700' });
      await service.close();
      // A copy made readable by others on its way back is the service's file again once restored.
      fs.chmodSync(copy, 0o644);
      fs.chmodSync(database.dataDir, 0o755);
      expect(await cli(['restore', '--from', copy], env)).toMatchObject({ code: 0 });
      expect({ database: mode(file), folder: mode(database.dataDir) }).toEqual({ database: '600', folder: '700' });
    } finally {
      await service.stop();
    }
  },
);
