// PostgreSQL for the bench, so that `npm run bench` reports both databases: the server that
// DATABASE_URL names, or else a throw-away cluster started here, as .ci/run starts one (Debian's
// binaries, on 127.0.0.1 and a free port, run as the postgres user when we are root), free to run
// on any core (it would inherit the servers' core from this process). Null when neither is at hand.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { freePort } from '../support/orders.js';
import { ALL_CORES, taskset } from './cores.js';

export type BenchPostgres = { url: string; stop: () => void };

function binaries(): string | null {
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return null;
  const versions = fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')));
  versions.sort((a, b) => Number(a) - Number(b));
  return versions.length ? path.join(root, versions.at(-1)!, 'bin') : null;
}

export async function benchPostgres(): Promise<BenchPostgres | null> {
  const given = process.env.DATABASE_URL;
  if (given?.startsWith('postgres')) return { url: given, stop: () => {} };
  const bin = binaries();
  if (!bin) return null;
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-pg-'));
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  const run = (file: string, args: string[]) => {
    const command = [...(taskset ? ['taskset', '-c', ALL_CORES] : []), path.join(bin, file), ...args];
    execFileSync(asRoot ? 'runuser' : command[0]!, asRoot ? ['-u', 'postgres', '--', ...command] : command.slice(1), { stdio: 'ignore' });
  };
  const port = await freePort();
  run('initdb', ['-D', path.join(dir, 'data'), '-A', 'trust', '-U', 'postgres']);
  run('pg_ctl', [
    '-D',
    path.join(dir, 'data'),
    '-l',
    path.join(dir, 'log'),
    '-w',
    '-o',
    `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c max_connections=200`,
    'start',
  ]);
  const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
  process.env.DATABASE_URL = url;
  return {
    url,
    stop: () => {
      try {
        run('pg_ctl', ['-D', path.join(dir, 'data'), '-m', 'immediate', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
