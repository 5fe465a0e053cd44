// After the run: the template databases of ./global-setup.ts go.
import fs from 'node:fs';
import pg from 'pg';

export default async function globalTeardown(): Promise<void> {
  const templates = globalThis.testTemplates;
  if (!templates) return;
  fs.rmSync(templates.dir, { recursive: true, force: true });
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
