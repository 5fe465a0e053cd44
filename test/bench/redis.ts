// Redis for the bench's two-instance scenario, as .ci/run starts one: REDIS_URL's server, or a
// throw-away redis-server on 127.0.0.1 and a free port, nothing written to disk. Null when
// neither is at hand (the instances then run without it: each order is still sent by one of
// them, through the database; only the live events stay in each process).
import { execFileSync, spawn } from 'node:child_process';
import net from 'node:net';
import { freePort } from '../support/orders.js';
import { unpin } from './cores.js';

export type BenchRedis = { url: string; stop: () => void };

const installed = () => {
  try {
    execFileSync('redis-server', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

export async function benchRedis(): Promise<BenchRedis | null> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: () => {} };
  if (!installed()) return null;
  const port = await freePort();
  const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  process.on('exit', () => server.kill());
  unpin(server.pid!);
  const url = `redis://127.0.0.1:${port}`;
  // Ready once it accepts a connection.
  for (let tries = 0; tries < 100; tries++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return { url, stop: () => void server.kill() };
    await new Promise((r) => setTimeout(r, 50));
  }
  server.kill();
  return null;
}
