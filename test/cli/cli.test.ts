// The operator CLI: `npm run cli -- partners create` on a database it migrates itself.
import { runMain, spawnMain } from '../support/build.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/db/client.js';
import { createPartner, hashSecret } from '../../src/modules/auth/service.js';
import { freshDatabase, migratedDatabase } from '../support/service.js';

/** The CLI as `npm run cli -- <args>` runs it (from the run's build). */
const cli = (args: string[], options: { env: NodeJS.ProcessEnv }) => runMain(args, options);

test('migrate applies the migrations, names them, and ends once it has said so', async () => {
  const database = await freshDatabase();
  try {
    const child = spawnMain(['migrate'], {
      env: { ...process.env, DATA_DIR: database.dataDir, DATABASE_URL: database.url },
    });
    let stdout = '';
    let saidAt = 0;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      saidAt ||= Date.now();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect({ code, stdout: stdout.trim() }).toEqual({ code: 0, stdout: expect.stringMatching(/^applied: \d+_init, /) });
    // Not a speed goal: the schema engine's own 10-second timers once kept it alive that long
    // after it had finished on PostgreSQL (src/db/schema-engine.ts).
    expect(Date.now() - saidAt).toBeLessThan(5000);
  } finally {
    await database.drop();
  }
});

test('partners create --json prints the credentials once and stores only the secret hash', async () => {
  const database = await migratedDatabase();
  try {
    const { stdout } = await cli(['partners', 'create', '--name', 'Acme Ordering', '--scopes', 'user,onboarding', '--json'], {
      env: { ...process.env, DATA_DIR: database.dataDir, DATABASE_URL: database.url },
    });
    const printed = JSON.parse(stdout);
    expect(printed).toEqual({
      partner_id: expect.stringMatching(/^ptr_/),
      client_id: expect.stringMatching(/^pc_/),
      client_secret: expect.any(String),
      scopes: ['user', 'onboarding'],
    });
    const db = openDatabase(database.url);
    try {
      const stored = await db.partner.findUniqueOrThrow({ where: { id: printed.partner_id } });
      expect(stored.clientSecretHash).toBe(hashSecret(printed.client_secret));
      expect(JSON.stringify(stored)).not.toContain(printed.client_secret);
    } finally {
      await db.$disconnect();
    }
  } finally {
    await database.drop();
  }
});

test('an unknown scope is a usage error (exit 2) with a JSON error under --json', async () => {
  const database = await migratedDatabase();
  try {
    const failure = await cli(['partners', 'create', '--name', 'X', '--scopes', 'root', '--json'], {
      env: { ...process.env, DATA_DIR: database.dataDir, DATABASE_URL: database.url },
    }).catch((e: { code: number; stdout: string }) => e);
    expect((failure as { code: number }).code).toBe(2);
    expect(JSON.parse((failure as { stdout: string }).stdout)).toEqual({ error: 'unknown scopes: root' });
  } finally {
    await database.drop();
  }
});

test('providers add seals the secrets; providers list shows source, kind, name and base_url', async () => {
  const database = await migratedDatabase();
  const env = { ...process.env, DATA_DIR: database.dataDir, DATABASE_URL: database.url };
  try {
    const added = await cli(
      [
        'providers',
        'add',
        '--source',
        'acme-pos',
        '--kind',
        'pos',
        '--base-url',
        'https://pos.acme.example/api',
        '--name',
        'Acme POS',
        '--client-id',
        'cid',
        '--client-secret',
        'very-secret',
        '--webhook-secret',
        'hook-secret',
        '--connection-notices',
        '--path',
        'orders=/v2/orders',
        '--json',
      ],
      { env },
    );
    expect(JSON.parse(added.stdout)).toEqual({
      source: 'acme-pos',
      kind: 'pos',
      name: 'Acme POS',
      base_url: 'https://pos.acme.example/api',
    });
    const listed = await cli(['providers', 'list', '--json'], { env });
    expect(JSON.parse(listed.stdout)).toEqual({
      providers: [{ source: 'acme-pos', kind: 'pos', name: 'Acme POS', base_url: 'https://pos.acme.example/api' }],
    });
    const db = openDatabase(database.url);
    try {
      const row = await db.provider.findUniqueOrThrow({ where: { source: 'acme-pos' } });
      expect(JSON.stringify(row)).not.toContain('very-secret');
      expect(JSON.stringify(row)).not.toContain('hook-secret');
      expect(row).toMatchObject({ connectionNotices: true, paths: JSON.stringify({ orders: '/v2/orders' }) });
    } finally {
      await db.$disconnect();
    }
    const bad = await cli(['providers', 'add', '--source', 'x', '--kind', 'kiosk', '--base-url', 'https://x.example', '--json'], {
      env,
    }).catch((e: { code: number; stdout: string }) => e);
    expect((bad as { code: number }).code).toBe(2);
    expect(JSON.parse((bad as { stdout: string }).stdout).error).toContain('kind must be one of');
    const unnamed = await cli(
      ['providers', 'add', '--source', 'x', '--kind', 'pos', '--base-url', 'https://x.example', '--name', ' ', '--json'],
      { env },
    ).catch((e: { code: number; stdout: string }) => e);
    expect(JSON.parse((unnamed as { stdout: string }).stdout).error).toContain('name must not be empty');
    // A name that turns itself around on the merchant's screen.
    const turned = await cli(
      ['providers', 'add', '--source', 'x', '--kind', 'pos', '--base-url', 'https://x.example', '--name', 'Eats\u202Eppa', '--json'],
      { env },
    ).catch((e: { code: number; stdout: string }) => e);
    expect(JSON.parse((turned as { stdout: string }).stdout).error).toContain(
      'name must not hold control or bidirectional characters (U+202E)',
    );
  } finally {
    await database.drop();
  }
});

test('providers remove: refused while an open order waits on the provider; then removed, and the organizations that named it name none', async () => {
  const database = await migratedDatabase();
  const env = { ...process.env, DATA_DIR: database.dataDir, DATABASE_URL: database.url };
  const failed = (error: { code: number; stdout: string }) => ({ code: error.code, error: JSON.parse(error.stdout).error as string });
  const db = openDatabase(database.url);
  try {
    await cli(['providers', 'add', '--source', 'fleet', '--kind', 'event_provider', '--base-url', 'https://fleet.example', '--json'], {
      env,
    });
    const { partnerId } = await createPartner(db, { name: 'p' });
    await db.organization.create({ data: { id: 'org_fleet', partnerId, name: 'Tacos', providerId: 'tacos', eventProvider: 'fleet' } });
    await db.order.create({
      data: {
        id: 'ord_open',
        partnerId,
        orgId: 'org_fleet',
        dspSource: 'dsp',
        dspStoreId: 's',
        dspOrderId: 'd1',
        body: '{}',
        eventProvider: 'fleet',
      },
    });
    const refused = await cli(['providers', 'remove', '--source', 'fleet', '--json'], { env }).catch(failed);
    expect(refused).toEqual({
      code: 1,
      error:
        'fleet is not removed: 1 open order waits on it (as their DSP, POS or event provider); remove it once they are completed or canceled',
    });
    expect(await db.provider.count({ where: { source: 'fleet' } })).toBe(1);

    await db.order.update({ where: { id: 'ord_open' }, data: { status: 'completed' } });
    const removed = await cli(['providers', 'remove', '--source', 'fleet', '--json'], { env });
    expect(JSON.parse(removed.stdout)).toEqual({ removed: 'fleet', organizations_released: 1 });
    expect(JSON.parse((await cli(['providers', 'list', '--json'], { env })).stdout)).toEqual({ providers: [] });
    expect((await db.organization.findUniqueOrThrow({ where: { id: 'org_fleet' } })).eventProvider).toBeNull();

    const unknown = await cli(['providers', 'remove', '--source', 'fleet', '--json'], { env }).catch(failed);
    expect(unknown).toEqual({ code: 2, error: 'no provider fleet is registered (providers list shows them)' });
  } finally {
    await db.$disconnect();
    await database.drop();
  }
});

test('a command other than start and migrate on a DATA_DIR with no database says where it looked, and creates nothing', async () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-empty-'));
  try {
    const refused = (await cli(['providers', 'list', '--json'], {
      env: { ...process.env, DATA_DIR: empty, DATABASE_URL: '' },
    }).catch((e: unknown) => e)) as { code: number; stdout: string };
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stdout).error).toContain(`no database at ${path.join(empty, 'service.db')}`);
    expect(fs.readdirSync(empty)).toEqual([]);
  } finally {
    fs.rmSync(empty, { recursive: true, force: true });
  }
});
