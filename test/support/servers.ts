// Throw-away PostgreSQL and Redis servers of a test's (or the bench's) own, started as .ci/run
// starts CI's: Debian's binaries, on 127.0.0.1 and a free port, PostgreSQL run as the postgres
// user when we are root. A test that stops, kills and restarts them (test/db/faults.test.ts) needs
// servers nobody else uses. Null where the binaries are not installed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './orders.js';
import { polled } from './wait.js';

/** The newest PostgreSQL's binaries of Debian's packages. */
export function postgresBinaries(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')));
  versions.sort((a, b) => Number(a) - Number(b));
  return versions.length ? path.join(root, versions.at(-1)!, 'bin') : null;
}

export function redisInstalled(): boolean {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Resolves once something accepts connections on the port (or gives up after five seconds). */
export async function listening(port: number): Promise<boolean> {
  const open = () =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
  return (await polled(open, 5000, { everyMs: 50 })) ?? false;
}

export type ThrowawayPostgres = {
  url: string;
  /** `pg_ctl stop -m immediate`: the server goes at once, as a crash would. */
  stopHard: () => void;
  /** Starts it again on the same port and data; resolves once it takes connections. */
  start: () => void;
  /** Stopped and its files removed. */
  remove: () => void;
};

/** A cluster of its own. `prefix` runs its commands through another (the bench's taskset). */
export async function throwawayPostgres(prefix: string[] = []): Promise<ThrowawayPostgres | null> {
  const bin = postgresBinaries();
  if (!bin) return null;
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-'));
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  const run = (file: string, args: string[]) => {
    const command = [...prefix, path.join(bin, file), ...args];
    execFileSync(asRoot ? 'runuser' : command[0]!, asRoot ? ['-u', 'postgres', '--', ...command] : command.slice(1), { stdio: 'ignore' });
  };
  const port = await freePort();
  const data = path.join(dir, 'data');
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres']);
  const start = () =>
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      path.join(dir, 'log'),
      '-w',
      '-o',
      `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c max_connections=200`,
      'start',
    ]);
  const stopHard = () => run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
  start();
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    stopHard,
    start,
    remove: () => {
      try {
        stopHard();
      } catch {
        // already stopped
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export type ThrowawayRedis = {
  url: string;
  process: () => ChildProcess;
  /** SIGKILL: gone at once, every connection dropped. */
  kill: () => Promise<void>;
  /** Started again on the same port (empty: nothing is written to disk). */
  start: () => Promise<void>;
};

export async function throwawayRedis(): Promise<ThrowawayRedis | null> {
  if (!redisInstalled()) return null;
  const port = await freePort();
  let server: ChildProcess;
  const start = async () => {
    server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    if (!(await listening(port))) throw new Error(`redis-server did not listen on ${port}`);
  };
  process.on('exit', () => server?.kill('SIGKILL'));
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    process: () => server,
    kill: async () => {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGKILL');
      await exited;
    },
    start,
  };
}
