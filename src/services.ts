// The composition root's vocabulary: what the running service is made of (`Services`), built
// completely once at start-up (../service.ts) and handed down. It sits at the bottom of the
// house: it imports only types, from the layers below the modules, so nothing here can start an
// import cycle.
import type { Logger } from 'pino';
import type { Client } from '@openfeature/server-sdk';
import type { Config } from './config.js';
import type { Db, OutboxMessage } from './db/client.js';
import type { Sealer } from './common/crypto.js';
import type { PubSub } from './common/pubsub.js';
import type { RateLimits } from './common/rate-limits.js';
import type { Metrics } from './telemetry/metrics.js';
import type { Dependencies } from './common/dependencies.js';
import type { Tracing } from './telemetry/tracing.js';

/**
 * A call from code that wrote work (an outbox message, a webhook) to the worker that does it.
 * It exists before the worker does, so that `Services` is complete when it is built; the worker
 * answers it once it runs, and a ring before then is a no-op (the worker looks for due work
 * when it starts).
 */
export class Doorbell<T = never> {
  private worker: { wake: () => void; dispatch?: (item: T) => void } | null = null;
  answerWith(worker: { wake: () => void; dispatch?: (item: T) => void } | null): void {
    this.worker = worker;
  }
  wake(): void {
    this.worker?.wake();
  }
  /** Hands the worker an item already claimed for it, to do at once. */
  dispatch(item: T): void {
    this.worker?.dispatch?.(item);
  }
}

/** An outbox message as the worker is handed it: its row, and its subject's row when its writer
 * had it (delivery/outbox.ts, `subjectRow`). */
export type Dispatched = OutboxMessage & { subjectRow?: unknown };

/** The parts of the running service that domain code uses. Built once at start-up. */
export type Services = {
  config: Config;
  db: Db;
  log: Logger;
  /** Encrypts the secrets and OAuth tokens we keep. */
  sealer: Sealer;
  /** Signs and verifies our tokens (HS256): imported once, as jose would on every call. */
  tokenKey: CryptoKey;
  /** Wakes the delivery worker after a transaction that wrote to the outbox, or hands it a
   * message written already claimed (delivery/outbox.ts, `now`). */
  delivery: Doorbell<Dispatched>;
  /** Notes that the merchant revoked the app at the provider (modules/onboarding): the
   * onboarding needs reauthorization, and its partner hears of it. False if already noted. */
  reauthorizationRequired: (onboardingId: string) => Promise<boolean>;
  /** Resolves the host names of partner webhook endpoints; tests hand in their own DNS. */
  resolveHost?: (hostname: string) => Promise<string[]>;
  /** Wakes the webhook processor after a webhook is stored. */
  inbox: Doorbell;
  /** The service's own feature flags, read through OpenFeature. */
  features: Client;
  /** Live events for subscriptions. */
  pubsub: PubSub;
  /** Request counts per partner, client, address and sender. */
  limits: RateLimits;
  /** Traces over OTLP, when an endpoint is configured (../tracing.ts); otherwise plain calls. */
  tracing: Tracing;
  /** What GET /metrics shows. */
  metrics: Metrics;
  /** Whether the database and Redis answer: noted once when lost and once when back. */
  dependencies: Dependencies;
  /** Where partners and browsers reach us: PUBLIC_URL, or the address we listen on. */
  publicUrl: string;
  /** The sandbox peers beside the service (SANDBOX=on), set once they listen, which is after the
   * service does (they call it): the front page links them. */
  sandbox?: SandboxDoors;
};

/** Where a newcomer finds the sandbox: its peers, and the file that keeps the demo partner's
 * credentials. */
export type SandboxDoors = { pos: string; events: string; demoPartnerFile: string };
