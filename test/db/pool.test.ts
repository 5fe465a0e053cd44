// A PostgreSQL pool with every connection lent out is not a database away: the requests that
// wait past DATABASE_POOL_WAIT_MS answer 503 `unavailable` (try again shortly), and the log says
// the pool is exhausted, naming its size and the settings, not "database unreachable" (an
// operator would look for a server that is up). Runs on PostgreSQL; SQLite has no pool.
import pino from 'pino';
import type pg from 'pg';
import { providerOf } from '../../src/db/url.js';
import { postgresConnectionOf } from '../../src/db/client.js';
import { startService } from '../../src/app/service.js';
import { asTestService, get, migratedDatabase, testConfig, type TestService } from '../support/service.js';

const enabled = providerOf(process.env.DATABASE_URL ?? '') === 'postgresql';
const maybe = enabled ? test : test.skip;

let service: TestService;
const lines: { level: number; msg: string }[] = [];

beforeAll(async () => {
  if (!enabled) return;
  const database = await migratedDatabase();
  const config = testConfig(database, { DATABASE_POOL_SIZE: '2', DATABASE_POOL_WAIT_MS: '200' });
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  service = asTestService(await startService(config, log), database);
});
afterAll(() => service?.stop());

maybe(
  'every connection lent out: 503 unavailable with Retry-After, and the log says the pool is exhausted, not the database away',
  async () => {
    const partner = await service.partner();
    const pool = (await postgresConnectionOf(service.services.db))!.pool;
    // Whatever the service holds now, the rest of the pool is taken here and held.
    const held: pg.PoolClient[] = [];
    while (pool.totalCount < 2 || pool.idleCount > 0) held.push(await pool.connect());
    try {
      const answer = await get(service.url, '/v1/orders/ord_none', partner.token);
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ code: 'unavailable' });
      expect(answer.headers.get('retry-after')).toBe('2');
    } finally {
      for (const client of held) client.release();
    }
    const said = lines.filter((line) => line.level >= 40).map((line) => line.msg);
    expect(said.some((msg) => msg.startsWith('database pool exhausted: all 2 connections in use'))).toBe(true);
    expect(said.filter((msg) => msg.includes('unreachable'))).toEqual([]);
    // The database never went away: the next request is served.
    expect((await get(service.url, '/v1/orders/ord_none', partner.token)).status).toBe(404);
  },
);
