// Builds the request context from the Authorization header, once per request.
import { initContextCache } from '@pothos/core';
import { AppError } from '../errors.js';
import type { Context, Services } from '../graphql/context.js';
import { authenticate } from '../modules/auth/service.js';

/** Who a request's Authorization header names: the caller, or why its token is not accepted
 * (answered when an operation needs a caller). */
export type Identity = Pick<Context, 'auth' | 'authError'>;

export async function identify(services: Services, authorization: string | undefined): Promise<Identity> {
  if (authorization === undefined) return { auth: null, authError: null };
  try {
    return { auth: await authenticate(services, authorization), authError: null };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { auth: null, authError: error };
  }
}

/** The context of one request; `known` is its identity when the route has already established
 * it (the /graphql route does, to count the partner's requests), so it is not worked out twice. */
export async function createContext(services: Services, authorization: string | undefined, requestId: string, known?: Identity): Promise<Context> {
  // Pothos's per-context caches hang off initContextCache's key, which the request can let go
  // of when it is done (graphql/request-scope.ts). The spread comes last on purpose: V8 gives
  // each evaluation of a non-empty spread followed by properties hidden classes of its own,
  // about ten times slower and kept through young collections (README "Performance").
  const context: Context = { services, db: services.db, auth: null, authError: null, requestId, ...initContextCache() };
  const { auth, authError } = known ?? (await identify(services, authorization));
  context.auth = auth;
  context.authError = authError;
  return context;
}
