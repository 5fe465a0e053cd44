// A real service for one test file: its own database (a fresh SQLite file, or a fresh
// PostgreSQL database when DATABASE_URL points at a server), an ephemeral port, no mocks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { loadConfig, type Config } from '../../src/config.js';
import { startService, type Overrides, type RunningService } from '../../src/app/service.js';
import { Prisma } from '../../src/generated/prisma-sqlite/client.js';
import { temporaryDatabase } from '../../src/db/temporary-database.js';
import { providerOf } from '../../src/db/url.js';
import { applyPendingMigrations } from '../../src/db/schema-engine.js';
import { openDatabase, type Db } from '../../src/db/client.js';
import { createPartner } from '../../src/modules/auth/service.js';
import type { Scope } from '../../src/common/scopes.js';
import { assertDocumentedAnswer } from './openapi-conformance.js';
import { send, type Target } from './http.js';

export type { Target };

export type TestDatabase = { url: string; dataDir: string; drop: () => Promise<void> };

/** A database of its own, empty: SQLite in a temporary folder, or a new database on the
 * PostgreSQL server when DATABASE_URL points at one. For tests of migrating and starting up. */
export async function freshDatabase(): Promise<TestDatabase> {
  return databaseOf();
}

/** A database as an earlier version left it: migrated through `migration`, then given what that
 * version wrote (`fill`, through this version's client, naming only the columns it had). For
 * tests of what a start of this version makes of it. */
export async function databaseThrough(migration: string, fill: (db: Db) => Promise<void>): Promise<TestDatabase> {
  const database = await freshDatabase();
  await applyPendingMigrations(database.url, { through: migration });
  const db = openDatabase(database.url);
  try {
    await fill(db);
  } finally {
    await db.$disconnect();
  }
  return database;
}

/** Rows as text, to look for what they hold: the order's amounts are BigInt columns. */
export const rowsAsText = (rows: unknown) => JSON.stringify(rows, (_key, value) => (typeof value === 'bigint' ? value.toString() : value));

/** A row as an earlier version wrote it, naming only its columns: this version's client would
 * name (and read back) the columns later migrations add, which that version's tables lack. */
export async function insertBefore(db: Db, table: string, row: Record<string, string | number | Date | null>): Promise<void> {
  const columns = Object.keys(row).map((column) => `"${column}"`);
  await db.$executeRaw(
    Prisma.sql`INSERT INTO ${Prisma.raw(`"${table}"`)} (${Prisma.raw(columns.join(', '))}) VALUES (${Prisma.join(Object.values(row))})`,
  );
}

/** A database of its own with every migration applied, as after a first `npm start`: a copy of
 * the run's template (./global-setup.ts), so that no test migrates its own. */
export async function migratedDatabase(): Promise<TestDatabase> {
  return databaseOf(true);
}

async function databaseOf(migrated = false): Promise<TestDatabase> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-test-'));
  const server = process.env.DATABASE_URL;
  if (!server || providerOf(server) !== 'postgresql') {
    const file = path.join(dataDir, 'service.db');
    const template = process.env.TEST_SQLITE_TEMPLATE;
    if (migrated && template) fs.copyFileSync(template, file);
    else if (migrated) await applyPendingMigrations(`file:${file}`);
    return { url: `file:${file}`, dataDir, drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }) };
  }
  const template = migrated ? process.env.TEST_POSTGRES_TEMPLATE : undefined;
  const scratch = await temporaryDatabase(server, 'test', template);
  if (migrated && !template) await applyPendingMigrations(scratch.url);
  return {
    url: scratch.url,
    dataDir,
    drop: async () => {
      await scratch.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function testConfig(database: TestDatabase, env: Record<string, string> = {}): Config {
  return loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: database.dataDir,
    DATABASE_URL: database.url,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    SANDBOX: 'off',
    // A test service joins Redis only when it asks to (the multi-instance test).
    REDIS_URL: '',
    ...env,
  });
}

export type TestService = RunningService & {
  database: TestDatabase;
  stop: () => Promise<void>;
  /** A partner with the given scopes (all by default) and a fresh access token. */
  partner: (scopes?: Scope[]) => Promise<{ partnerId: string; clientId: string; clientSecret: string; token: string }>;
};

/** A client_credentials access token, fetched over HTTP as a partner would. */
export async function clientToken(base: string, clientId: string, clientSecret: string): Promise<string> {
  const response = await post(base, '/v1/oauth/token', {
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
  });
  if (response.status !== 201) throw new Error(`token: ${response.status} ${JSON.stringify(response.body)}`);
  return (response.body as { access_token: string }).access_token;
}

/** A client_credentials grant asking for these scopes: its access and refresh tokens. */
export async function tokenPair(base: string, clientId: string, clientSecret: string, scopes: string[]) {
  const res = await post(base, '/v1/oauth/token', {
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
    scopes,
  });
  expect(res.status).toBe(201);
  return res.body as { access_token: string; refresh_token: string };
}

/** A running service with what tests need around it: stop (and drop its database), partners. */
export function asTestService(service: RunningService, database: TestDatabase): TestService {
  return {
    ...service,
    database,
    stop: async () => {
      await service.close();
      await database.drop();
    },
    partner: async (scopes) => {
      const created = await createPartner(service.services.db, { name: `partner ${crypto.randomUUID()}`, scopes });
      const token = await clientToken(service.url, created.clientId, created.clientSecret);
      return { partnerId: created.partnerId, clientId: created.clientId, clientSecret: created.clientSecret, token };
    },
  };
}

export async function startTestService(env: Record<string, string> = {}, overrides: Overrides = {}): Promise<TestService> {
  const database = await migratedDatabase();
  const config = testConfig(database, env);
  return asTestService(await startService(config, undefined, undefined, overrides), database);
}

export type JsonResponse = { status: number; body: any; headers: Headers };

export async function request(
  target: Target,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string>; raw?: string } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.raw;
  if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await send(target, method, path, headers, body);
  const text = response.text;
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  await assertDocumentedAnswer(target, method, path, response.status, response.headers.get('content-type'), parsed);
  return { status: response.status, body: parsed, headers: response.headers };
}

export const post = (target: Target, path: string, body: unknown, token?: string) => request(target, 'POST', path, { body, token });
/** One GraphQL operation POSTed as a partner's backend sends it (or, with a cookie, the dashboard). */
export const graphqlPost = (
  base: string,
  token: string | undefined,
  query: string,
  variables: Record<string, unknown> = {},
  headers?: Record<string, string>,
) => request(base, 'POST', '/graphql', { token, body: { query, variables }, headers });
export const get = (target: Target, path: string, token?: string) => request(target, 'GET', path, { token });
