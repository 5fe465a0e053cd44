// Redis for the bench's two-instance scenario: REDIS_URL's server, or a throw-away redis-server
// (test/support/servers.ts). Null when neither is at hand (the instances then run without it:
// each order is still sent by one of them, through the database; only the live events stay in
// each process).
import { throwawayRedis } from '../support/servers.js';
import { unpin } from './cores.js';

export type BenchRedis = { url: string; stop: () => void };

export async function benchRedis(): Promise<BenchRedis | null> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: () => {} };
  const redis = await throwawayRedis();
  if (!redis) return null;
  unpin(redis.process().pid!);
  return { url: redis.url, stop: () => void redis.kill() };
}
