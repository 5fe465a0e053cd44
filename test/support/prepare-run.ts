// Run once per `npm test` by ./global-setup.ts, as a process of its own (Jest loads a global
// setup as CommonJS, which our ESM sources are not): the service built into build/, and the
// template databases, migrated once. Prints where the templates are, as JSON.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildService } from './build.js';
import { applyPendingMigrations } from '../../src/db/schema-engine.js';
import { providerOf } from '../../src/db/url.js';
import { temporaryDatabase } from '../../src/db/temporary-database.js';

await buildService();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-template-'));
const sqlite = path.join(dir, 'template.db');
await applyPendingMigrations(`file:${sqlite}`);
const server = process.env.DATABASE_URL;
let postgres: string | undefined;
if (server && providerOf(server) === 'postgresql') {
  const template = await temporaryDatabase(server, 'template');
  await applyPendingMigrations(template.url);
  postgres = template.name;
}
process.stdout.write(JSON.stringify({ dir, sqlite, postgres }));
