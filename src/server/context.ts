// Builds the request context from the Authorization header, once per request.
import { initContextCache } from '@pothos/core';
import { AppError } from '../errors.js';
import type { Context, Services } from '../graphql/context.js';
import { authenticate } from '../modules/auth/service.js';

export async function createContext(services: Services, authorization: string | undefined, requestId: string): Promise<Context> {
  // Pothos's per-context caches hang off initContextCache's key, which the request can let go
  // of when it is done (graphql/request-scope.ts). The spread comes last on purpose: V8 gives
  // each evaluation of a non-empty spread followed by properties hidden classes of its own,
  // about ten times slower and kept through young collections (README "Performance").
  const context: Context = { services, db: services.db, auth: null, authError: null, requestId, ...initContextCache() };
  if (authorization === undefined) return context;
  try {
    context.auth = await authenticate(services, authorization);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    context.authError = error;
  }
  return context;
}
