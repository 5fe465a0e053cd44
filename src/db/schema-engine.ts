// Prisma's WASM schema engine over our driver adapters: migrations with no native engine
// download (docs/architecture.md says why). Used by start-up migrations, the drift check and the
// stand-in binary (prisma/schema-engine) that the Prisma CLI talks to.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import pg from 'pg';
import * as runtime from '@prisma/schema-engine-wasm/schema_engine_bg';
import type { SchemaEngine, MigrationList, SchemaContainer } from '@prisma/schema-engine-wasm';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPg } from '@prisma/adapter-pg';
import { adapterFor, pgConfig, privateSqliteFile } from './adapters.js';
import { temporaryDatabase } from './temporary-database.js';
import { convertStoredAmounts, MONEY_MIGRATION } from './money-conversion.js';
import { providerOf, sqliteFile, type Provider } from './url.js';

const require = createRequire(import.meta.url);
export const prismaDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../prisma');
export const noFilters = { externalTables: [], externalEnums: [] };

/** The engine's timers. It arms one for each of its timeouts (on PostgreSQL, 10 s ones while it
 * migrates) and never clears them: its bindings import no clearTimeout. They count as any wait of
 * ours while an engine is open, and stop holding the process once none is: a `migrate` that had
 * finished otherwise stayed alive ten more seconds. */
const engineTimers = new Set<NodeJS.Timeout>();
let openEngines = 0;
function engineSetTimeout(callback: () => void, ms: number): NodeJS.Timeout {
  const timer = setTimeout(() => {
    engineTimers.delete(timer);
    callback();
  }, ms >>> 0);
  engineTimers.add(timer);
  return timer;
}
function engineClosed(): void {
  if (--openEngines > 0) return;
  for (const timer of engineTimers) timer.unref();
  engineTimers.clear();
}

/** The engine's one instance, kept on its glue module: every engine of the process runs on the
 * instance the glue holds (under Jest's shared runtime, test/support/shared-runtime.cjs, the glue
 * outlives one test file's copy of this module, and a second instance would replace the first
 * under an engine still open). */
const glue = runtime.__wbg_set_wasm as typeof runtime.__wbg_set_wasm & { ready?: Promise<void> };
function loadWasm(): Promise<void> {
  glue.ready ??= (async () => {
    // The WASM build reports a panic's message here before it throws.
    const registry = {
      message: '',
      set_message(m: string) {
        registry.message = m;
      },
    };
    (globalThis as Record<string, unknown>).PRISMA_WASM_PANIC_REGISTRY = registry;
    const expected = require('@prisma/engines-version/package.json').prisma.enginesVersion as string;
    const pkgDir = path.dirname(require.resolve('@prisma/schema-engine-wasm'));
    const actual = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).version as string;
    if (!actual.endsWith(expected)) {
      throw new Error(`@prisma/schema-engine-wasm ${actual} is not the build of Prisma's engine ${expected}`);
    }
    const bytes = fs.readFileSync(path.join(pkgDir, 'schema_engine_bg.wasm'));
    const imports: Record<string, unknown> = { ...runtime };
    for (const name of Object.keys(imports)) if (name.startsWith('__wbg_setTimeout_')) imports[name] = engineSetTimeout;
    const instance = await WebAssembly.instantiate(await WebAssembly.compile(bytes), {
      './schema_engine_bg.js': imports as WebAssembly.ModuleImports,
    });
    runtime.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
  })();
  return glue.ready;
}

/** The schema files of one provider: its schema.prisma and the shared models it links. */
export function schemaFiles(provider: Provider): SchemaContainer[] {
  const dir = path.join(prismaDir, provider);
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.prisma'))
    .sort()
    .map((f) => ({ path: path.join(dir, f), content: fs.readFileSync(path.join(dir, f), 'utf8') }));
}

/** The migration history on disk, in the shape the engine takes (up to `through`, when given). */
export function migrationsList(
  provider: Provider,
  baseDir = path.join(prismaDir, provider, 'migrations'),
  through?: string,
): MigrationList {
  const dirs = fs.existsSync(baseDir)
    ? fs
        .readdirSync(baseDir, { withFileTypes: true })
        .filter((d) => d.isDirectory() && (through === undefined || d.name <= through))
        .map((d) => d.name)
        .sort()
    : [];
  const lock = path.join(baseDir, 'migration_lock.toml');
  return {
    baseDir,
    lockfile: { path: 'migration_lock.toml', content: fs.existsSync(lock) ? fs.readFileSync(lock, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: dirs.map((name) => {
      const file = path.join(baseDir, name, 'migration.sql');
      return {
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: fs.existsSync(file)
            ? { tag: 'ok' as const, value: fs.readFileSync(file, 'utf8') }
            : { tag: 'error' as const, value: `${file} is missing` },
        },
      };
    }),
  };
}

const CHAR_OIDS: Record<number, number> = { 18: 25, 19: 25, 1002: 1009, 1003: 1009 };

/** A pool whose results show PostgreSQL's catalog types `char` and `name` as text, which the
 * adapter cannot read otherwise (the engine's introspection selects them). */
function catalogFriendlyPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  const relabel = (result: pg.QueryResult | pg.QueryResult[] | undefined) => {
    for (const r of Array.isArray(result) ? result : [result]) {
      for (const f of r?.fields ?? []) f.dataTypeID = CHAR_OIDS[f.dataTypeID] ?? f.dataTypeID;
    }
    return result;
  };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: unknown }).query = (...args: unknown[]) => {
      const callback = args[args.length - 1];
      if (typeof callback === 'function') {
        // pg.Pool#query calls its client in callback style.
        args[args.length - 1] = (error: Error | null, result: pg.QueryResult) => callback(error, relabel(result));
        return query(...args);
      }
      return (query(...args) as Promise<pg.QueryResult>).then(relabel);
    };
  });
  return pool;
}

/** better-sqlite3 runs one statement per call: multi-statement SQL goes through executeScript. */
function withScriptFallback(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const executeRaw = adapter.executeRaw.bind(adapter);
  adapter.executeRaw = async (query) => {
    try {
      return await executeRaw(query);
    } catch (error) {
      if (query.args.length === 0 && /more than one statement/i.test(String((error as Error).message ?? error))) {
        await adapter.executeScript(query.sql);
        return 0;
      }
      throw error;
    }
  };
  return adapter;
}

function migrationAdapter(url: string): SqlMigrationAwareDriverAdapterFactory {
  if (providerOf(url) === 'postgresql') {
    const { config, schema } = pgConfig(url);
    const factory = new PrismaPg(catalogFriendlyPool(config), { schema, disposeExternalPool: true });
    // The shadow database is a temporary one beside the main database, never the main one.
    factory.connectToShadowDb = async () => {
      const scratch = await temporaryDatabase(url, 'prisma_shadow');
      const shadow = new PrismaPg(catalogFriendlyPool({ ...config, database: scratch.name }), { disposeExternalPool: true });
      const adapter = await shadow.connect();
      const dispose = adapter.dispose.bind(adapter);
      adapter.dispose = async () => {
        await dispose();
        await scratch.drop();
      };
      return adapter;
    };
    return factory as unknown as SqlMigrationAwareDriverAdapterFactory;
  }
  const factory = adapterFor(url) as unknown as SqlMigrationAwareDriverAdapterFactory;
  const connect = factory.connect.bind(factory);
  const connectToShadowDb = factory.connectToShadowDb.bind(factory);
  factory.connect = async () => withScriptFallback(await connect());
  factory.connectToShadowDb = async () => withScriptFallback(await connectToShadowDb());
  return factory;
}

const SQLITE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL, "finished_at" DATETIME,
  "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME,
  "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
  "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0)`;

/** The engine fails with P1014 on a fresh SQLite file until the migrations table exists. */
export async function prepareSqliteFile(url: string): Promise<void> {
  if (providerOf(url) !== 'sqlite') return;
  const Database = require('better-sqlite3') as typeof import('better-sqlite3');
  const db = new Database(privateSqliteFile(url));
  try {
    // WAL is a property of the file: set once here, it lets readers run beside the one writer.
    db.pragma('journal_mode = WAL');
    db.exec(SQLITE_MIGRATIONS_TABLE);
  } finally {
    db.close();
  }
}

export type OpenEngine = { engine: SchemaEngine; close: () => Promise<void> };

/** The engine over a database; close() frees it and the connections it opened (free() alone
 * leaves them open, which holds SQLite's write lock). */
export async function openSchemaEngine(
  url: string,
  datamodels: SchemaContainer[] = schemaFiles(providerOf(url)),
  log: (message: string) => void = () => {},
): Promise<OpenEngine> {
  await loadWasm();
  const factory = migrationAdapter(url);
  const opened: SqlDriverAdapter[] = [];
  for (const method of ['connect', 'connectToShadowDb'] as const) {
    const connect = factory[method].bind(factory);
    factory[method] = async () => {
      const adapter = await connect();
      opened.push(adapter);
      return adapter;
    };
  }
  openEngines++;
  let engine: SchemaEngine;
  try {
    engine = await (runtime.SchemaEngine as unknown as typeof SchemaEngine).new(
      { datamodels: datamodels.map((f) => [f.path, f.content]) },
      log,
      bindMigrationAwareSqlAdapterFactory(factory),
    );
  } catch (error) {
    engineClosed();
    throw error;
  }
  return {
    engine,
    close: async () => {
      engine.free();
      await Promise.allSettled(opened.splice(0).map((adapter) => adapter.dispose()));
      engineClosed();
    },
  };
}

/** The names of the migrations recorded as finished in the database. */
async function appliedMigrationNames(url: string): Promise<Set<string>> {
  const sql = `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
  if (providerOf(url) === 'sqlite') {
    const Database = require('better-sqlite3') as typeof import('better-sqlite3');
    const db = new Database(sqliteFile(url), { readonly: true });
    try {
      return new Set((db.prepare(sql).all() as { migration_name: string }[]).map((r) => r.migration_name));
    } finally {
      db.close();
    }
  }
  const client = new pg.Client(pgConfig(url).config);
  await client.connect();
  try {
    return new Set((await client.query<{ migration_name: string }>(sql)).rows.map((r) => r.migration_name));
  } catch (error) {
    if ((error as { code?: string }).code === '42P01') return new Set(); // no migrations table yet
    throw error;
  } finally {
    await client.end();
  }
}

/** Applies the migrations not yet applied (those up to `through`, when given: a test's database
 * as an earlier version left it); returns their names. When every migration is already applied
 * (the usual start), the engine is not loaded at all: that is quicker, and it takes no write lock
 * on a database another process is using. Then the data a migration leaves to convert is
 * converted (./money-conversion.ts), before anything serves from it. */
export async function applyPendingMigrations(url: string, options: { through?: string } = {}): Promise<string[]> {
  const provider = providerOf(url);
  await prepareSqliteFile(url);
  const list = () => migrationsList(provider, undefined, options.through);
  const onDisk = list().migrationDirectories.map((d) => d.path);
  const applied = await appliedMigrationNames(url);
  let appliedNow: string[] = [];
  if (!onDisk.every((name) => applied.has(name))) {
    const { engine, close } = await openSchemaEngine(url);
    try {
      appliedNow = (await engine.applyMigrations({ migrationsList: list(), filters: noFilters })).appliedMigrationNames;
    } finally {
      await close();
    }
  }
  if (applied.has(MONEY_MIGRATION) || appliedNow.includes(MONEY_MIGRATION)) await convertStoredAmounts(url);
  return appliedNow;
}
