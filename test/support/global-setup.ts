// Once per `npm test` run, before any test file (./prepare-run.ts does the work): the service
// built once into build/, so that what the tests start as a process of its own runs from it and
// not through tsx each time, and a template database migrated once, of which each test's
// database is a copy (a copied file on SQLite, CREATE DATABASE … TEMPLATE on PostgreSQL). The
// workers inherit where the templates are through the environment.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

declare global {
  var testTemplates: { dir: string; sqlite: string; postgres?: string } | undefined;
}

export default function globalSetup(): void {
  const root = path.resolve(__dirname, '../..');
  const output = execFileSync(process.execPath, ['--import', 'tsx', path.join(root, 'test/support/prepare-run.ts')], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const templates = JSON.parse(output) as NonNullable<typeof globalThis.testTemplates>;
  globalThis.testTemplates = templates;
  // The run's directory: the templates, and the browser the files share (./chromium.ts).
  process.env.TEST_RUN_DIR = templates.dir;
  process.env.TEST_SQLITE_TEMPLATE = templates.sqlite;
  if (templates.postgres) process.env.TEST_POSTGRES_TEMPLATE = templates.postgres;
}
