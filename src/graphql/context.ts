// What every resolver and REST row gets: the running service and the caller.
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import type { AppError } from '../errors.js';
import type { AuthInfo } from '../modules/auth/scopes.js';
import type { Sealer } from '../crypto.js';
import type { PubSub } from './pubsub.js';
import type { RateLimits } from '../rate-limits.js';
import type { Metrics } from '../metrics.js';
import type { Client } from '@openfeature/server-sdk';
import type { Message } from '../delivery/worker.js';
import type { contextCacheSymbol } from '@pothos/core';

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
   * message written already claimed (outbox.ts, enqueueDispatched). */
  delivery: { wake: () => void; dispatch: (message: Message) => void };
  /** Wakes the webhook processor after a webhook is stored. */
  inbox: { wake: () => void };
  /** The service's own feature flags, read through OpenFeature. */
  features: Client;
  /** Live events for subscriptions. */
  pubsub: PubSub;
  /** Request counts per partner, client, address and sender. */
  limits: RateLimits;
  /** What GET /metrics shows. */
  metrics: Metrics;
  /** Where partners and browsers reach us: PUBLIC_URL, or the address we listen on. */
  publicUrl: string;
};

export type Context = {
  services: Services;
  db: Db;
  /** The authenticated caller, or null. */
  auth: AuthInfo | null;
  /** Why a bearer token that was sent is not accepted (answered when an operation needs auth). */
  authError: AppError | null;
  requestId: string;
  /** Request-scoped DataLoaders by batch function (./request-scope.ts), dropped once the
   * operation has answered. */
  loaders?: Map<unknown, unknown>;
  /** The key of Pothos's per-context caches (initContextCache), dropped with the loaders. */
  [contextCacheSymbol]?: object;
};
