// The service's configuration: every environment variable, its default, validated once.
// docs/operations.md, "Configuration", lists the same variables.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { z } from 'zod';
import { databaseUrl } from './db/url.js';
import type { RateLimitConfig } from './common/rate-limits.js';
import { POOL_DEFAULTS } from './db/pool.js';
import type { TracingConfig } from './telemetry/tracing.js';

/** How long a POS that answers an order "later" has for its decision, unless POS_CONFIRMATION_TIMEOUT_MS
 * says otherwise (the conformance kit holds a POS to it). */
export const POS_CONFIRMATION_DEFAULT_MS = 60_000;

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  SANDBOX: z.enum(['on', 'off']).default('on'),
  SANDBOX_DELIVERY_STEP_MS: z.coerce.number().int().min(0).max(3_600_000).default(3000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  SQLITE_SYNCHRONOUS: z.enum(['full', 'normal']).default('full'),
  POSTGRES_PREPARED_STATEMENTS: z.enum(['on', 'off']).default('on'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(1000).default(POOL_DEFAULTS.size),
  DATABASE_POOL_WAIT_MS: z.coerce.number().int().min(100).max(600_000).default(POOL_DEFAULTS.waitMs),
  SIGNING_KEY: z.string().min(32).optional(),
  ENCRYPTION_KEY: z.string().min(32).optional(),
  ALLOW_GENERATED_KEYS: z.enum(['true', 'false']).default('false'),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().positive().default(2000),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().positive().default(10),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(15),
  GRAPHQL_MAX_DIRECTIVES: z.coerce.number().int().min(0).default(20),
  GRAPHQL_MAX_COST: z.coerce.number().int().positive().default(5000),
  METRICS_TOKEN: z.string().min(1).optional(),
  RATE_LIMIT_API_PER_MINUTE: z.coerce.number().int().positive().default(6000),
  RATE_LIMIT_TOKEN_PER_MINUTE: z.coerce.number().int().positive().default(60),
  RATE_LIMIT_TOKEN_ADDRESS_PER_MINUTE: z.coerce.number().int().positive().default(600),
  RATE_LIMIT_WEBHOOKS_PER_MINUTE: z.coerce.number().int().positive().default(120_000),
  RATE_LIMIT_BAD_SIGNATURES_PER_MINUTE: z.coerce.number().int().positive().default(600),
  TRUST_PROXY: z.string().default('false'),
  OUTBOX_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(12),
  OUTBOX_RETRY_BASE_MS: z.coerce.number().int().min(1).default(1000),
  OUTBOX_RETRY_MAX_MS: z.coerce
    .number()
    .int()
    .min(1)
    .default(5 * 60 * 1000),
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  POS_CONFIRMATION_TIMEOUT_MS: z.coerce.number().int().min(1000).default(POS_CONFIRMATION_DEFAULT_MS),
  CATALOG_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(10 * 1024 * 1024),
  OTEL_SDK_DISABLED: z.enum(['true', 'false']).default('false'),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().url().optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: z.enum(['http/protobuf', 'http/json', 'grpc']).default('http/protobuf'),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: z.enum(['http/protobuf', 'http/json', 'grpc']).optional(),
  OTEL_EXPORTER_OTLP_HEADERS: z.string().default(''),
  OTEL_EXPORTER_OTLP_TIMEOUT: z.coerce.number().int().positive().default(10_000),
  OTEL_SERVICE_NAME: z.string().default('partner-ordering'),
  OTEL_TRACES_SAMPLER: z
    .enum(['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'])
    .default('parentbased_always_on'),
  OTEL_TRACES_SAMPLER_ARG: z.coerce.number().min(0).max(1).optional(),
  OTEL_BSP_SCHEDULE_DELAY: z.coerce.number().int().positive().default(5000),
  RETENTION_DAYS: z.coerce.number().int().min(1).default(90),
  OUTBOX_KEEP_DAYS: z.coerce.number().min(0).default(7),
  WEBHOOKS_KEEP_DAYS: z.coerce.number().min(0).default(7),
  CATALOG_KEEP_DAYS: z.coerce.number().min(0).default(30),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  WEBHOOK_CONCURRENCY_PER_PARTNER: z.coerce.number().int().min(1).default(32),
  WEBHOOK_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  FLAGS_FILE: z.string().optional(),
  ACCESS_TOKEN_TTL: z.coerce.number().int().positive().default(3600),
  REFRESH_TOKEN_TTL: z.coerce
    .number()
    .int()
    .positive()
    .default(30 * 24 * 3600),
  PARTNER_TOKEN_TTL: z.coerce
    .number()
    .int()
    .positive()
    .default(365 * 24 * 3600),
});

export type Config = {
  port: number;
  host: string;
  publicUrl: string | undefined;
  dataDir: string;
  databaseUrl: string;
  redisUrl: string | undefined;
  sandbox: boolean;
  /** How long each step of a delivery takes at the sandbox event provider (0: only when told). */
  sandboxDeliveryStepMs: number;
  logLevel: string;
  bodyLimit: number;
  /** full: a 2xx survives a power loss; normal: it survives a crash of the service (quicker). */
  sqliteSynchronous: 'full' | 'normal';
  /** Our plain statements as named prepared statements (off behind a pooler that cannot keep them). */
  postgresPrepared: boolean;
  /** PostgreSQL's connection pool: how many, and how long a statement waits for one (ms). */
  databasePool: { size: number; waitMs: number };
  /** The HS256 secret of our tokens; the service signs with Services.tokenKey, made from it. */
  signingKey: Uint8Array;
  encryptionKey: Uint8Array;
  /** ordered: one order's events to its DSP go out one at a time, in sequence (always; the
   * bench alone turns it off, to measure what it costs). */
  outbox: { maxAttempts: number; retryBaseMs: number; retryMaxMs: number; ordered: boolean };
  providerTimeoutMs: number;
  /** How long a POS that answered "later" (async acceptance) has to decide an order. */
  posConfirmationTimeoutMs: number;
  /** The largest catalog answer read from a POS; a larger one is refused as invalid. */
  catalogMaxBytes: number;
  /** OpenTelemetry traces over OTLP/HTTP (../tracing.ts), from the standard OTEL_* variables. */
  tracing: TracingConfig;
  /** Final orders keep their customer's data this many days (then "redacted"). */
  retentionDays: number;
  /** How long what traffic writes is kept before it is pruned, in days: delivered outbox messages,
   * applied webhooks, catalog versions no store uses. */
  keep: { outboxDays: number; webhooksDays: number; catalogDays: number };
  /** Partner webhook endpoints: how long a call may take, how many calls per partner at once (per
   * instance), and whether endpoints may be at private addresses (a partner on our network). */
  webhooks: { timeoutMs: number; concurrencyPerPartner: number; allowPrivate: boolean };
  flagsFile: string | undefined;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  partnerTokenTtl: number;
  /** SIGNING_KEY or ENCRYPTION_KEY was not given: a key generated into DATA_DIR is in use. */
  generatedKeys: boolean;
  allowGeneratedKeys: boolean;
  /** Bounds of a GraphQL operation, checked before it runs (src/graphql/limits.ts). */
  graphqlLimits: { maxTokens: number; maxDepth: number; maxAliases: number; maxDirectives: number; maxCost: number };
  /** When set, GET /metrics needs it as a bearer token. */
  metricsToken: string | undefined;
  /** Rate limits and GraphQL bounds: always on, but for the bench, which measures what they cost
   * with them off (not a setting: no deployment should run without them). */
  limits: boolean;
  /** Requests a minute (src/rate-limits.ts). */
  rateLimits: RateLimitConfig;
  /** Which proxies' X-Forwarded-For to believe for the caller's address (Fastify's trustProxy):
   * false (the peer's address is the caller's), true (every hop), a hop count, or addresses and CIDRs. */
  trustProxy: boolean | number | string;
};

/** A secret from the environment, or one generated once and kept in DATA_DIR. */
function keptSecret(dataDir: string, file: string, fromEnv: string | undefined): Uint8Array {
  if (fromEnv) return new TextEncoder().encode(fromEnv);
  const keyPath = path.join(dataDir, file);
  if (!fs.existsSync(keyPath)) {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    try {
      fs.writeFileSync(keyPath, crypto.randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      // Another process made it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return new TextEncoder().encode(fs.readFileSync(keyPath, 'utf8').trim());
}

/** TRUST_PROXY as Fastify's trustProxy takes it: off by default, so a forged X-Forwarded-For
 * cannot pick the address that rate limits count against. */
function trustProxyOf(value: string): boolean | number | string {
  const text = value.trim();
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  if (/^\d+$/.test(text)) return Number(text);
  return text;
}

/** OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, or OTEL_EXPORTER_OTLP_ENDPOINT with /v1/traces
 * (as the OTLP specification has it); none, or OTEL_SDK_DISABLED=true: tracing off. */
function tracingConfig(e: z.infer<typeof schema>): TracingConfig {
  const protocol = e.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? e.OTEL_EXPORTER_OTLP_PROTOCOL;
  const url =
    e.OTEL_SDK_DISABLED === 'true'
      ? undefined
      : (e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
        (e.OTEL_EXPORTER_OTLP_ENDPOINT ? `${e.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/$/, '')}/v1/traces` : undefined));
  if (url && protocol === 'grpc')
    throw new Error(
      'Invalid configuration: OTEL_EXPORTER_OTLP_PROTOCOL: grpc is not supported; use http/protobuf (the default) or http/json',
    );
  const headers = Object.fromEntries(
    e.OTEL_EXPORTER_OTLP_HEADERS.split(',')
      .map((pair) => pair.split('=').map((part) => decodeURIComponent(part.trim())))
      .filter(([key, value]) => key && value !== undefined) as [string, string][],
  );
  return {
    url,
    protocol: protocol === 'http/json' ? 'http/json' : 'http/protobuf',
    headers,
    serviceName: e.OTEL_SERVICE_NAME,
    sampler: e.OTEL_TRACES_SAMPLER,
    samplerArg: e.OTEL_TRACES_SAMPLER_ARG,
    scheduleDelayMs: e.OTEL_BSP_SCHEDULE_DELAY,
    timeoutMs: e.OTEL_EXPORTER_OTLP_TIMEOUT,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
    dataDir,
    databaseUrl: databaseUrl({ ...env, DATA_DIR: dataDir }),
    redisUrl: e.REDIS_URL,
    sandbox: e.SANDBOX === 'on',
    sandboxDeliveryStepMs: e.SANDBOX_DELIVERY_STEP_MS,
    logLevel: e.LOG_LEVEL,
    bodyLimit: e.BODY_LIMIT,
    sqliteSynchronous: e.SQLITE_SYNCHRONOUS,
    postgresPrepared: e.POSTGRES_PREPARED_STATEMENTS === 'on',
    databasePool: { size: e.DATABASE_POOL_SIZE, waitMs: e.DATABASE_POOL_WAIT_MS },
    generatedKeys: !e.SIGNING_KEY || !e.ENCRYPTION_KEY,
    allowGeneratedKeys: e.ALLOW_GENERATED_KEYS === 'true',
    graphqlLimits: {
      maxTokens: e.GRAPHQL_MAX_TOKENS,
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      maxDirectives: e.GRAPHQL_MAX_DIRECTIVES,
      maxCost: e.GRAPHQL_MAX_COST,
    },
    // Always on in the product: only the bench turns them off, to measure what they cost.
    limits: true,
    metricsToken: e.METRICS_TOKEN,
    rateLimits: {
      apiPerMinute: e.RATE_LIMIT_API_PER_MINUTE,
      tokenPerMinute: e.RATE_LIMIT_TOKEN_PER_MINUTE,
      tokenPerAddressPerMinute: e.RATE_LIMIT_TOKEN_ADDRESS_PER_MINUTE,
      webhooksPerMinute: e.RATE_LIMIT_WEBHOOKS_PER_MINUTE,
      badSignaturesPerAddressPerMinute: e.RATE_LIMIT_BAD_SIGNATURES_PER_MINUTE,
    },
    trustProxy: trustProxyOf(e.TRUST_PROXY),
    signingKey: keptSecret(dataDir, 'signing.key', e.SIGNING_KEY),
    encryptionKey: keptSecret(dataDir, 'encryption.key', e.ENCRYPTION_KEY),
    outbox: {
      maxAttempts: e.OUTBOX_MAX_ATTEMPTS,
      retryBaseMs: e.OUTBOX_RETRY_BASE_MS,
      retryMaxMs: e.OUTBOX_RETRY_MAX_MS,
      ordered: true,
    },
    providerTimeoutMs: e.PROVIDER_TIMEOUT_MS,
    posConfirmationTimeoutMs: e.POS_CONFIRMATION_TIMEOUT_MS,
    catalogMaxBytes: e.CATALOG_MAX_BYTES,
    tracing: tracingConfig(e),
    retentionDays: e.RETENTION_DAYS,
    keep: { outboxDays: e.OUTBOX_KEEP_DAYS, webhooksDays: e.WEBHOOKS_KEEP_DAYS, catalogDays: e.CATALOG_KEEP_DAYS },
    webhooks: {
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      concurrencyPerPartner: e.WEBHOOK_CONCURRENCY_PER_PARTNER,
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE === 'true',
    },
    flagsFile: e.FLAGS_FILE ? path.resolve(e.FLAGS_FILE) : undefined,
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL,
    partnerTokenTtl: e.PARTNER_TOKEN_TTL,
  };
}
