// Starting and stopping the service: migrate, connect, serve; on stop, drain and disconnect.
import { DECISIONS_SWEEP_MS, failOverdueDecisions } from '../modules/orders/decisions.js';
import { NO_RATE_LIMITS, createRateLimits } from '../common/rate-limits.js';
import { createMetrics } from '../telemetry/metrics.js';
import { Dependencies } from '../common/dependencies.js';
import type { Logger } from 'pino';
import { createLogger } from './log.js';
import { prepareDatabase } from './database.js';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { DatabaseHooks } from '../db/client.js';
import { Doorbell, type Services } from '../services.js';
import { schema } from './schema.js';
import { buildServer } from '../server/app.js';
import { outgoing, plainRoutes, restRoutes } from './routes.js';
import { importTokenKey, sealer } from '../common/crypto.js';
import { createEvents } from '../common/pubsub.js';
import { DeliveryWorker } from '../delivery/worker.js';
import { WebhookProcessor } from '../webhooks/processor.js';
import { featureClient } from '../modules/flags/openfeature.js';
import { answerChecks, deadLetter, outcomes, webhooks } from './handlers.js';
import { endpointTransport } from '../delivery/endpoint-transport.js';
import { providerTransport } from '../delivery/provider-transport.js';
import { requireReauthorization } from '../modules/onboarding/service.js';
import { retentionSweep } from '../modules/privacy/service.js';
import { openMessage } from '../modules/privacy/customer.js';
import { prune } from '../db/pruning.js';
import { ATTEMPT_KEEP_DAYS, endpointRules } from '../modules/events/endpoints.js';
import { EVENT_KEEP_DAYS } from '../changes/record.js';
import { KEEP_MS } from '../server/idempotency.js';
import { REPLAY_WINDOW_MS } from '../webhooks/intake.js';
import { storedCounts } from '../db/sql/counts.js';
import { periodic } from '../delivery/periodic.js';
import { holdDatabase } from '../db/backup.js';
import { privateFolder } from '../common/private-files.js';
import { createTracing } from '../telemetry/tracing.js';
import { statementsOf, traceStatements } from '../db/statements.js';
import { providerOf, sqliteFile } from '../db/url.js';
import { isDatabaseUnavailable, poolExhausted, poolState } from '../db/client.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
import { applyDefinitions, readDefinitionsFile } from '../modules/flags/definitions.js';

export type RunningService = {
  url: string;
  services: Services;
  app: FastifyInstance;
  worker: DeliveryWorker;
  /** Pruning and the redaction of expired customer data, run now (they also run on their own). */
  housekeeping: { prune: () => Promise<void>; redact: () => Promise<void>; decisions: () => Promise<void> };
  close: () => Promise<void>;
};

/** What a test hands the service in place of the machine's own (its DNS). */
export type Overrides = Pick<Services, 'resolveHost'>;

export async function startService(
  config: Config,
  log: Logger = createLogger(config),
  hooks: DatabaseHooks = {},
  overrides: Overrides = {},
): Promise<RunningService> {
  // DATA_DIR holds the keys (and, on SQLite, the database): the service user's alone, even when
  // an older version or an operator made it readable by others.
  privateFolder(config.dataDir);
  const db = await prepareDatabase(config, log, hooks);
  // An embedded database says it is served (a restore waits for the service to stop).
  const held = providerOf(config.databaseUrl) === 'sqlite' ? holdDatabase(sqliteFile(config.databaseUrl)) : null;
  if (config.flagsFile) {
    const loaded = await applyDefinitions(db, await readDefinitionsFile(config.flagsFile));
    log.info({ file: config.flagsFile, ...loaded }, 'loaded flag definitions');
  }
  const tracing = await createTracing(config.tracing);
  traceStatements(db, tracing);
  const metrics = createMetrics(storedCounts(statementsOf(db)));
  metrics.measurePool(() => poolState(db));
  const dependencies = new Dependencies(log, metrics.dependencyUp, (name) => {
    const pool = name === 'database' ? poolExhausted(db) : null;
    return pool
      ? `database pool exhausted: all ${pool.size} connections in use, ${pool.waiting} statements waiting past ${config.databasePool.waitMs} ms (DATABASE_POOL_SIZE, DATABASE_POOL_WAIT_MS); the database answers, requests meanwhile get 503 unavailable`
      : null;
  });
  dependencies.back('database');
  const events = await createEvents(config.redisUrl, dependencies);
  const features = await featureClient(db);
  const services: Services = {
    config,
    db,
    log,
    sealer: sealer(config.encryptionKey),
    tokenKey: await importTokenKey(config.signingKey),
    delivery: new Doorbell(),
    reauthorizationRequired: (onboardingId) => requireReauthorization(services, onboardingId),
    inbox: new Doorbell(),
    pubsub: events.pubsub,
    limits: config.limits
      ? createRateLimits(config.rateLimits, events.redis, (limit) => metrics.rateLimited.inc({ limit }))
      : NO_RATE_LIMITS,
    metrics,
    tracing,
    dependencies,
    features: features.client,
    publicUrl: config.publicUrl ?? '',
    ...overrides,
  };
  // The one outbox: its two transports, and what each kind of message's outcome writes.
  const worker = new DeliveryWorker(services, {
    transports: {
      provider: providerTransport(services, outcomes, answerChecks, (stored) => openMessage(services.sealer, stored)),
      endpoint: endpointTransport(services, endpointRules(services)),
    },
    deadLetter,
  });
  const inbox = new WebhookProcessor(services, webhooks);
  const { app } = buildServer(services, schema, restRoutes, plainRoutes, outgoing());
  await app.listen({ port: config.port, host: config.host });
  worker.start();
  inbox.start();
  const outage = (error: unknown) => {
    if (!isDatabaseUnavailable(error)) return false;
    dependencies.lost('database', error);
    return true;
  };
  // What each kind of row is kept for: the configuration's days, and the keeps of the modules
  // whose rows they are.
  const keeps = {
    keep: config.keep,
    eventDays: EVENT_KEEP_DAYS,
    attemptDays: ATTEMPT_KEEP_DAYS,
    idempotencyMs: KEEP_MS,
    replayMs: REPLAY_WINDOW_MS,
  };
  const housekeeping = [
    periodic('retention', HOUR, () => retentionSweep(services), log, outage),
    periodic(
      'pruning',
      10 * MINUTE,
      async () => {
        const deleted = await prune(db, keeps);
        if (Object.values(deleted).some(Boolean)) log.info({ deleted }, 'pruned what is past its keep');
      },
      log,
      outage,
    ),
    // A POS's decisions taken later: each order past its stored deadline fails (modules/orders/decisions.ts).
    periodic('confirmations', DECISIONS_SWEEP_MS, () => failOverdueDecisions(services), log, outage),
  ];
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  services.publicUrl = config.publicUrl ?? url;
  let closing: Promise<void> | undefined;
  return {
    url,
    services,
    app,
    worker,
    housekeeping: { redact: housekeeping[0]!.runNow, prune: housekeeping[1]!.runNow, decisions: housekeeping[2]!.runNow },
    // Stop accepting, let in-flight requests finish, then close the database.
    close: () =>
      (closing ??= (async () => {
        await app.close();
        for (const job of housekeeping) await job.stop();
        await inbox.stop();
        await worker.stop();
        await events.close();
        await features.release();
        metrics.close();
        await db.$disconnect();
        held?.release();
        // What is batched goes out, unless the collector is away: a stop does not wait for it.
        await Promise.race([tracing.shutdown().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
      })()),
  };
}
