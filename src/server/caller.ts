// Who is calling, worked out once per request, before its route runs: a route that takes a caller
// says how in its config (`caller: 'token'` for the REST rows and OFREP, `'token-or-session'` for
// /graphql, where the dashboard's session cookie also names one), and the request's `caller` is
// set then, and counted against its partner's rate limit. Idempotency keys, the REST adapter,
// OFREP and GraphQL's context all read it: nothing authenticates a request twice.
import type { FastifyContextConfig, FastifyInstance, onSendAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
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
  const name: preHandlerAsyncHookHandler = async (request) => {
    const how = request.routeOptions.config?.caller;
    request.caller =
      how === 'token' ? await identify(services, request.headers.authorization) : await identifyRequest(services, request.headers);
    const auth = request.caller.auth;
    if (!auth) return;
    request.partnerId = auth.partnerId;
    // A request without a valid token is the route's to refuse (401), not the limiter's.
    if (services.config.limits) await services.limits.api(auth.partnerId);
  };
  // Only the routes that take a caller run it: the others (a webhook, a page) cross none of this.
  takenBy(app, (config) => !!config?.caller, 'preHandler', name);
}

/** Adds a hook to the routes whose config `takes`, after the hooks of that name they have (routes
 * added after this call, in any plugin of the app). */
export function takenBy<Name extends 'preHandler' | 'onSend'>(
  app: FastifyInstance,
  takes: (config: FastifyContextConfig | undefined) => boolean,
  name: Name,
  hook: Name extends 'preHandler' ? preHandlerAsyncHookHandler : onSendAsyncHookHandler<unknown>,
): void {
  app.addHook('onRoute', (route) => {
    if (!takes(route.config as FastifyContextConfig | undefined)) return;
    const before = route[name] === undefined ? [] : Array.isArray(route[name]) ? route[name] : [route[name]];
    (route as unknown as Record<string, unknown>)[name] = [...before, hook];
  });
}
