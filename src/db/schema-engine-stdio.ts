// The stand-in for Prisma's native schema-engine binary (run through prisma/schema-engine).
// The Prisma CLI spawns it with --datamodels/--datasource and speaks line-delimited JSON-RPC on
// stdin/stdout; every method goes to the WASM engine (see schema-engine.ts), with the faults of
// the 7.10.0 WASM build absorbed here (machines without internet cannot download its engine: docs/architecture.md, "Storage and migrations").
import fs from 'node:fs';
import readline from 'node:readline';
import { createRequire } from 'node:module';
import pg from 'pg';
import type { SchemaEngine } from '@prisma/schema-engine-wasm';
import { prepareSqliteFile, openSchemaEngine, schemaFiles } from './schema-engine.js';
import { pgConfig } from './adapters.js';
import { providerOf, sqliteFile } from './url.js';

const require = createRequire(import.meta.url);
const args = process.argv.slice(2);

if (args.includes('--version') || args.includes('-V')) {
  const version = require('@prisma/engines-version/package.json').prisma.enginesVersion as string;
  process.stdout.write(`schema-engine-cli ${version}\n`);
  process.exit(0);
}

function argValues(name: string): string[] {
  return args.flatMap((a, i) => (a === name && args[i + 1] ? [args[i + 1]!] : []));
}

const datamodels = argValues('--datamodels').map((p) => ({ path: p, content: fs.readFileSync(p, 'utf8') }));
const datasource = JSON.parse(argValues('--datasource')[0] ?? '{}') as { url?: string };
type Params = Record<string, unknown> & { datasource?: { tag: string; url?: string } };

function urlOf(params?: Params): string {
  const url = params?.datasource?.url ?? datasource.url;
  if (!url) throw Object.assign(new Error('No database URL: set it in the Prisma config'), { code: 'P1012' });
  return url;
}

let engineUrl: string | undefined;
let engine: SchemaEngine | undefined;
let closeEngine: (() => Promise<void>) | undefined;
async function engineFor(url: string): Promise<SchemaEngine> {
  if (engine && engineUrl === url) return engine;
  await closeEngine?.();
  await prepareSqliteFile(url);
  // The CLI names no schema for some commands; the engine still needs one to know its provider.
  const schema = datamodels.length ? datamodels : schemaFiles(providerOf(url));
  ({ engine, close: closeEngine } = await openSchemaEngine(url, schema, (line) =>
    process.stderr.write(line.endsWith('\n') ? line : `${line}\n`),
  ));
  engineUrl = url;
  return engine;
}

async function dropSqliteObjects(url: string): Promise<void> {
  const Database = require('better-sqlite3') as typeof import('better-sqlite3');
  const db = new Database(sqliteFile(url));
  try {
    db.pragma('foreign_keys = OFF');
    const objects = db
      .prepare(`SELECT type, name FROM sqlite_master WHERE type IN ('table','view','trigger') AND name NOT LIKE 'sqlite_%'`)
      .all() as { type: string; name: string }[];
    for (const o of objects) db.exec(`DROP ${o.type.toUpperCase()} IF EXISTS "${o.name.replace(/"/g, '""')}"`);
  } finally {
    db.close();
  }
}

async function withPgAdmin<T>(url: string, run: (client: pg.Client, database: string) => Promise<T>): Promise<T> {
  const { config } = pgConfig(url);
  const client = new pg.Client({ ...config, database: 'postgres' });
  await client.connect();
  try {
    return await run(client, config.database ?? 'postgres');
  } finally {
    await client.end();
  }
}

// Methods the WASM engine does not have, or gets wrong, answered here.
const overrides: Record<string, (params: Params) => Promise<unknown>> = {
  async createDatabase(params) {
    const url = urlOf(params);
    if (providerOf(url) === 'sqlite') {
      await prepareSqliteFile(url);
      return { databaseName: sqliteFile(url) };
    }
    return withPgAdmin(url, async (client, database) => {
      const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
      if (!exists.rowCount) await client.query(`CREATE DATABASE "${database}"`);
      return { databaseName: database };
    });
  },
  async dropDatabase(params) {
    const url = urlOf(params);
    if (providerOf(url) === 'sqlite') {
      fs.rmSync(sqliteFile(url), { force: true });
      return {};
    }
    return withPgAdmin(url, async (client, database) => {
      await client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      return {};
    });
  },
  async reset(params) {
    const url = urlOf(params);
    if (providerOf(url) === 'sqlite') {
      await closeEngine?.();
      engine = undefined;
      await dropSqliteObjects(url);
      return {};
    }
    return (await engineFor(url)).reset(params as never);
  },
  async ensureConnectionValidity(params) {
    await (await engineFor(urlOf(params))).version();
    return {};
  },
  async getDatabaseVersion(params) {
    return (await engineFor(urlOf(params))).version();
  },
};

// `schema-engine --datasource … cli <command>`: one-shot commands, answered by the exit code
// and, on failure, a JSON log line the CLI reads (error_code and message).
async function runCliCommand(command: string): Promise<never> {
  const url = urlOf();
  const fail = (error_code: string, message: string): never => {
    process.stderr.write(
      `starting\n${JSON.stringify({ level: 'ERROR', target: 'schema_engine::logger', fields: { error_code, message } })}\n`,
    );
    process.exit(1);
  };
  try {
    if (command === 'can-connect-to-database') {
      if (providerOf(url) === 'sqlite') {
        if (!fs.existsSync(sqliteFile(url))) fail('P1003', `Database ${sqliteFile(url)} does not exist`);
      } else {
        const client = new pg.Client(pgConfig(url).config);
        try {
          await client.connect();
        } catch (error) {
          const e = error as { code?: string; message: string };
          fail(e.code === '3D000' ? 'P1003' : 'P1001', e.message);
        } finally {
          await client.end().catch(() => {});
        }
      }
    } else if (command === 'create-database') {
      await overrides.createDatabase!({});
    } else if (command === 'drop-database') {
      await overrides.dropDatabase!({});
    } else {
      fail('P1000', `Unknown schema engine command ${command}`);
    }
  } catch (error) {
    fail('P1001', (error as Error).message);
  }
  process.exit(0);
}

if (args.includes('cli')) await runCliCommand(args[args.indexOf('cli') + 1] ?? '');

function send(message: unknown): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

// Requests to the CLI (print) wait for its acknowledgement before the answer goes out.
let nextOwnId = 1_000_000;
const pendingPrints = new Map<number, () => void>();
function print(content: string): Promise<void> {
  const id = nextOwnId++;
  return new Promise((resolve) => {
    pendingPrints.set(id, resolve);
    send({ jsonrpc: '2.0', id, method: 'print', params: { content } });
  });
}

async function call(method: string, params: Params): Promise<unknown> {
  const own = overrides[method];
  if (own) return own(params);
  const url = urlOf(params);
  const target = await engineFor(url);
  const fn = (target as unknown as Record<string, (p: unknown) => Promise<unknown>>)[method];
  if (typeof fn !== 'function') throw new Error(`The WASM schema engine has no method ${method}`);
  let result: unknown;
  try {
    result = await fn.call(target, params);
  } catch (error) {
    // A fault of the 7.10.0 WASM build: after `migrate dev` applies pending migrations, its next
    // step asks for an "external" shadow database. The pending migrations are applied by then,
    // so the same command succeeds when run again; say so instead of the engine's riddle.
    if (/shadow DB must be provided/i.test(String((error as Error).message))) {
      throw new Error('pending migrations were applied; run the same command again to continue (a known fault of the WASM schema engine)');
    }
    throw error;
  }
  if (method === 'diff') {
    const { stdout, exitCode } = result as { stdout: string | null; exitCode: number };
    if (stdout) await print(stdout);
    return { exitCode };
  }
  return result ?? {};
}

function errorBody(error: unknown) {
  const e = error as { message?: string; error_code?: string; code?: string; meta?: unknown };
  const message = e?.message ?? String(error);
  return { code: 4466, message, data: { message, error_code: e?.error_code ?? e?.code, meta: e?.meta, is_panic: false } };
}

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
let queue = Promise.resolve();
lines.on('line', (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line) as { id: number; method?: string; params?: Params; result?: unknown };
  if (!message.method) {
    pendingPrints.get(message.id)?.();
    pendingPrints.delete(message.id);
    return;
  }
  // One request at a time, in order, as the native engine does.
  queue = queue.then(async () => {
    try {
      send({ jsonrpc: '2.0', id: message.id, result: await call(message.method!, message.params ?? {}) });
    } catch (error) {
      send({ jsonrpc: '2.0', id: message.id, error: errorBody(error) });
    }
  });
});
lines.on('close', () => {
  void queue.then(async () => {
    await closeEngine?.();
    process.exit(0);
  });
});
