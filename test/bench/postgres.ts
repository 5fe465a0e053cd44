// PostgreSQL for the bench, so that `npm run bench` reports both databases: the server that
// DATABASE_URL names, or else a throw-away cluster (test/support/servers.ts), free to run on any
// core (it would inherit the servers' core from this process). Null when neither is at hand.
import { throwawayPostgres } from '../support/servers.js';
import { ALL_CORES, taskset } from './cores.js';

export type BenchPostgres = { url: string; stop: () => void };

export async function benchPostgres(): Promise<BenchPostgres | null> {
  const given = process.env.DATABASE_URL;
  if (given?.startsWith('postgres')) return { url: given, stop: () => {} };
  const cluster = await throwawayPostgres(taskset ? ['taskset', '-c', ALL_CORES] : []);
  if (!cluster) return null;
  process.env.DATABASE_URL = cluster.url;
  return { url: cluster.url, stop: cluster.remove };
}
