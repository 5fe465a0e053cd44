// The operator CLI: `npm run cli -- partners create` on a database it migrates itself.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { openDatabase } from '../src/db/client.js';
import { hashSecret } from '../src/modules/auth/service.js';
import { freshDatabase } from './support/service.js';

const run = promisify(execFile);

test('partners create --json prints the credentials once and stores only the secret hash', async () => {
  const database = await freshDatabase();
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'partners', 'create', '--name', 'Acme Ordering', '--scopes', 'user,onboarding', '--json'], {
      env: { ...process.env, DATA_DIR: database.dataDir, DATABASE_URL: database.url },
    });
    const printed = JSON.parse(stdout);
    expect(printed).toEqual({ partner_id: expect.stringMatching(/^ptr_/), client_id: expect.stringMatching(/^pc_/), client_secret: expect.any(String), scopes: ['user', 'onboarding'] });
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
  const database = await freshDatabase();
  try {
    const failure = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'partners', 'create', '--name', 'X', '--scopes', 'root', '--json'], {
      env: { ...process.env, DATA_DIR: database.dataDir, DATABASE_URL: database.url },
    }).catch((e: { code: number; stdout: string }) => e);
    expect((failure as { code: number }).code).toBe(2);
    expect(JSON.parse((failure as { stdout: string }).stdout)).toEqual({ error: 'unknown scopes: root' });
  } finally {
    await database.drop();
  }
});
