// Prisma CLI configuration for the sqlite schema: `prisma <command> --config prisma/sqlite.config.ts`.
// The CLI would download a native schema engine; ours (prisma/schema-engine) runs Prisma's WASM
// build instead. It must be set here: the config loads before the CLI looks for an engine.
import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { databaseUrlFor } from '../src/db/url.js';

const root = path.resolve(process.cwd());
process.env.PRISMA_SCHEMA_ENGINE_BINARY = path.join(root, 'prisma', 'schema-engine');

export default defineConfig({
  schema: path.join(root, 'prisma', 'sqlite'),
  migrations: { path: path.join(root, 'prisma', 'sqlite', 'migrations') },
  datasource: { url: databaseUrlFor('sqlite') },
});
