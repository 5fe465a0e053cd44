// What every resolver and REST row gets: the running service and the caller.
import type { Services } from '../services.js';
import type { Db } from '../db/client.js';
import type { AppError } from '../common/errors.js';
import type { AuthInfo } from '../common/scopes.js';
import type { contextCacheSymbol } from '@pothos/core';

export type Context = {
  services: Services;
  db: Db;
  /** The authenticated caller, or null. */
  auth: AuthInfo | null;
  /** Why a bearer token that was sent is not accepted (answered when an operation needs auth). */
  authError: AppError | null;
  requestId: string;
  /** Asks again whether the caller is still who it was (its token not expired nor revoked):
   * null if so, else why not. Subscriptions ask it while they run (./subscription-guard.ts). */
  recheck?: (() => Promise<AppError | null>) | undefined;
  /** Request-scoped DataLoaders by batch function (./request-scope.ts), dropped once the
   * operation has answered. */
  loaders?: Map<unknown, unknown>;
  /** The key of Pothos's per-context caches (initContextCache), dropped with the loaders. */
  [contextCacheSymbol]?: object;
};
