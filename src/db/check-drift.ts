// CI's migration drift check: for each provider, a fresh database migrated with the committed
// history must match that provider's schema exactly. Exits 1 and prints the difference if not.
// PostgreSQL is checked when DATABASE_URL points at a server (a temporary database is used).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyPendingMigrations, noFilters, openSchemaEngine, prismaDir, schemaFiles } from './schema-engine.js';
import { temporaryDatabase } from './temporary-database.js';
import { providerOf, type Provider } from './url.js';

async function drift(provider: Provider, url: string): Promise<string> {
  await applyPendingMigrations(url);
  const { engine, close } = await openSchemaEngine(url);
  try {
    const result = await engine.diff({
      // The migrated database, reached through the engine's adapter.
      from: { tag: 'schemaDatasource', files: schemaFiles(provider), configDir: prismaDir },
      to: { tag: 'schemaDatamodel', files: schemaFiles(provider) },
      script: true,
      exitCode: null,
      filters: noFilters,
    } as never);
    const script = (result.stdout ?? '').trim();
    return script === '' || script === '-- This is an empty migration.' ? '' : script;
  } finally {
    await close();
  }
}

async function main(): Promise<void> {
  const problems: string[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drift-'));
  try {
    const sqlite = await drift('sqlite', `file:${path.join(dir, 'drift.db')}`);
    if (sqlite) problems.push(`sqlite: the migrations do not produce the schema; missing:\n${sqlite}`);
    else process.stdout.write('sqlite: migrations match the schema\n');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const server = process.env.DATABASE_URL;
  if (server && providerOf(server) === 'postgresql') {
    const scratch = await temporaryDatabase(server, 'drift');
    try {
      const postgres = await drift('postgresql', scratch.url);
      if (postgres) problems.push(`postgresql: the migrations do not produce the schema; missing:\n${postgres}`);
      else process.stdout.write('postgresql: migrations match the schema\n');
    } finally {
      await scratch.drop();
    }
  } else {
    process.stdout.write('postgresql: skipped (DATABASE_URL does not name a PostgreSQL server)\n');
  }

  if (problems.length) {
    process.stderr.write(`${problems.join('\n\n')}\n\nCreate a migration: npx prisma migrate dev --config prisma/<provider>.config.ts\n`);
    process.exit(1);
  }
}

await main();
