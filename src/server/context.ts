// Builds the request context from the Authorization header (or, at /graphql, the dashboard's
// session cookie), once per request.
import type { IncomingHttpHeaders } from 'node:http';
import { initContextCache } from '@pothos/core';
import { AppError, Forbidden, Unauthenticated } from '../common/errors.js';
import type { Context } from '../graphql/context.js';
import type { Services } from '../services.js';
import { authenticate } from '../modules/auth/service.js';
import { dashboardCaller } from '../modules/sso/service.js';
import { sessionOf } from '../modules/sso/cookie.js';
import { fromOwnPages } from '../http/origin.js';

/** Who a request's Authorization header names: the caller, or why its token is not accepted
 * (answered when an operation needs a caller), and how to ask again later (a subscription ends
 * when its caller's token expires or is revoked). */
export type Identity = Pick<Context, 'auth' | 'authError' | 'recheck'>;

/** The dashboard's caller, from its session cookie (docs/reference.md § Partner API), or why it is refused. */
async function identifySession(services: Services, headers: IncomingHttpHeaders, session: string): Promise<Identity> {
  if (!fromOwnPages(services, headers)) {
    return {
      auth: null,
      authError: new Forbidden(
        "the dashboard session works only from this service's own pages; this request came from another origin",
        'cross_origin',
      ),
    };
  }
  const ended = () => new Unauthenticated('the dashboard session has expired or ended: sign in again', 'session_expired');
  const auth = await dashboardCaller(services, session);
  return auth
    ? { auth, authError: null, recheck: async () => ((await dashboardCaller(services, session)) ? null : ended()) }
    : { auth: null, authError: ended() };
}

/** The caller of a request: its bearer token (`bearer`: from the headers, or a graphql-ws
 * connection's parameters), else a dashboard session cookie, else none. */
export async function identifyRequest(services: Services, headers: IncomingHttpHeaders, bearer = headers.authorization): Promise<Identity> {
  const session = bearer === undefined ? sessionOf(headers.cookie) : undefined;
  return session ? identifySession(services, headers, session) : identify(services, bearer);
}

export async function identify(services: Services, authorization: string | undefined): Promise<Identity> {
  if (authorization === undefined) return { auth: null, authError: null };
  try {
    return { auth: await authenticate(services, authorization), authError: null, recheck: () => stillValid(services, authorization) };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { auth: null, authError: error };
  }
}

/** Why a token accepted before is not accepted now (expired, revoked, its session deleted), or null. */
async function stillValid(services: Services, authorization: string): Promise<AppError | null> {
  try {
    await authenticate(services, authorization);
    return null;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

/** The context of one request; `known` is its identity when the route has already established
 * it (the /graphql route does, to count the partner's requests), so it is not worked out twice. */
export async function createContext(
  services: Services,
  authorization: string | undefined,
  requestId: string,
  known?: Identity,
): Promise<Context> {
  // Pothos's per-context caches hang off initContextCache's key, which the request can let go
  // of when it is done (graphql/request-scope.ts). The spread comes last on purpose: V8 gives
  // each evaluation of a non-empty spread followed by properties hidden classes of its own,
  // about ten times slower and kept through young collections (docs/performance.md).
  const context: Context = {
    services,
    db: services.db,
    auth: null,
    authError: null,
    recheck: undefined,
    requestId,
    ...initContextCache(),
  };
  const { auth, authError, recheck } = known ?? (await identify(services, authorization));
  context.auth = auth;
  context.authError = authError;
  context.recheck = recheck;
  return context;
}
