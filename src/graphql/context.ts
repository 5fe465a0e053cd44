// What every resolver and REST row gets: the running service and the caller.
import type { Services } from '../services.js';
import type { Db } from '../db/client.js';
import type { AppError } from '../errors.js';
import type { AuthInfo } from '../scopes.js';
import type { contextCacheSymbol } from '@pothos/core';

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
