// What the service leaves lying around: log lines (no query strings or secrets; the caller's
// mistakes at info, only our faults at error), the database file and keys (this user only), and
// a production start on keys it made up itself (refused unless the operator says so).
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { startService } from '../../src/app/service.js';
import { providerOf } from '../../src/db/url.js';
import { spawnService, until } from '../support/orders.js';
import { asTestService, freshDatabase, get, post, request, testConfig, type TestService } from '../support/service.js';

let service: TestService;
const lines: { level: number; text: string }[] = [];

beforeAll(async () => {
  const database = await freshDatabase();
  const config = testConfig(database, { LOG_LEVEL: 'info' });
  const log = pino(
    { level: 'info' },
    { write: (text: string) => void lines.push({ level: (JSON.parse(text) as { level: number }).level, text }) },
  );
  service = asTestService(await startService(config, log), database);
});
afterAll(async () => {
  await service?.stop();
});

test("no log line carries a query string or secret, and the caller's mistakes are not logged as errors", async () => {
  const partner = await service.partner(['user']);
  lines.length = 0;
  await get(service.url, '/nowhere?client_secret=sekrit-in-the-url');
  await get(service.url, '/v1/onboarding/locations?onboarding_id=onb_x&client_secret=sekrit-in-a-route');
  await post(service.url, '/graphql', { query: '{ organization(id: "org_missing") { id } }' }, partner.token);
  await post(service.url, '/graphql', { query: '{ organization(id: ' }, partner.token);
  await post(
    service.url,
    '/graphql',
    { query: 'mutation { createPartnerToken(input: { orgId: "x", tokenName: "t", scopes: [user] }) { accessToken } }' },
    'not-a-token',
  );
  await post(
    service.url,
    '/v1/onboarding/integrations',
    { org_id: 'org_x', source: 'sandbox-pos', type: 'pos', return_url: 'https://x.example' },
    partner.token,
  );
  await post(service.url, '/v1/oauth/token', {
    grant_type: 'client_credentials',
    client_id: partner.clientId,
    client_secret: 'sekrit-wrong',
  });
  await until(async () => lines.length >= 7);
  expect(lines.filter((l) => /sekrit/.test(l.text))).toEqual([]);
  expect(lines.filter((l) => l.level >= 50).map((l) => l.text)).toEqual([]);
});

test('the database file, its WAL and the generated keys are readable by this user only', async () => {
  const files = ['signing.key', 'encryption.key'].map((f) => path.join(service.database.dataDir, f));
  if (providerOf(service.database.url) === 'sqlite') {
    await request(service.url, 'POST', '/v1/onboarding/org', {
      token: (await service.partner()).token,
      body: { name: 'W', provider_id: 'wal', user: { email: 'w@w.example' } },
    });
    const db = service.database.url.replace(/^file:/, '');
    files.push(db, `${db}-wal`);
  }
  const modes = Object.fromEntries(files.map((f) => [path.basename(f), (fs.statSync(f).mode & 0o777).toString(8)]));
  expect(modes).toEqual(Object.fromEntries(files.map((f) => [path.basename(f), '600'])));
});

test('with SANDBOX=off the service will not start on keys it generated, and says how to set them', async () => {
  const database = await freshDatabase();
  try {
    const started = spawnService({ DATA_DIR: database.dataDir, DATABASE_URL: database.url, PORT: '0', ALLOW_GENERATED_KEYS: 'false' });
    expect(await started.exited).toBe(1);
    expect(started.logs()).toContain('SIGNING_KEY and ENCRYPTION_KEY');
    expect(started.logs()).toContain('ALLOW_GENERATED_KEYS=true');
  } finally {
    await database.drop();
  }
});
