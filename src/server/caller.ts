// Who is calling, worked out once per request, before its route runs: a route that takes a caller
// says how in its config (`caller: 'token'` for the REST rows and OFREP, `'token-or-session'` for
// /graphql, where the dashboard's session cookie also names one), and the request's `caller` is
// set then, and counted against its partner's rate limit. Idempotency keys, the REST adapter,
// OFREP and GraphQL's context all read it: nothing authenticates a request twice.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { identify, identifyRequest, type Identity } from './context.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How the route's caller is named: by bearer token, or also by the dashboard's session. */
    caller?: 'token' | 'token-or-session';
  }
  interface FastifyRequest {
    /** The caller, for a route that takes one (null for the others): who, or why not. */
    caller: Identity | null;
  }
}

export function callers(app: FastifyInstance, services: Services): void {
  app.decorateRequest('caller', null);
  app.addHook('preHandler', async (request) => {
    const how = request.routeOptions.config?.caller;
    if (!how) return;
    request.caller =
      how === 'token' ? await identify(services, request.headers.authorization) : await identifyRequest(services, request.headers);
    const auth = request.caller.auth;
    if (!auth) return;
    request.partnerId = auth.partnerId;
    // A request without a valid token is the route's to refuse (401), not the limiter's.
    if (services.config.limits) await services.limits.api(auth.partnerId);
  });
}
