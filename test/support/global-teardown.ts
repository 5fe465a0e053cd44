// After the run: the browser the files shared (./chromium.ts), if one started it, and the
// template databases of ./global-setup.ts go.
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';

export default async function globalTeardown(): Promise<void> {
  const templates = globalThis.testTemplates;
  if (!templates) return;
  const chromium = path.join(templates.dir, 'chromium.json');
  if (fs.existsSync(chromium)) {
    // Its whole process group (it was started detached: its renderers are in it), at once: its
    // profile is thrown away with the directory.
    const { pid } = JSON.parse(fs.readFileSync(chromium, 'utf8')) as { pid: number };
    try {
      process.kill(-pid, 'SIGKILL');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
    }
  }
  // A killed renderer may still be closing a file of the profile: removal tries again.
  fs.rmSync(templates.dir, { recursive: true, force: true, maxRetries: 5 });
  if (!templates.postgres || !process.env.DATABASE_URL) return;
  const admin = new URL(process.env.DATABASE_URL);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${templates.postgres}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
