// The one HTTP server: Yoga at /graphql (HTTP, SSE, GraphiQL), graphql-ws on the same path,
// the REST adapter under /v1, the plain handlers (token call, webhooks), /health and /ready.
import crypto from 'node:crypto';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import type { IncomingHttpHeaders } from 'node:http';
import { GraphQLError, getOperationAST, Kind, type DocumentNode, type GraphQLSchema } from 'graphql';
import { dashboardRefusal } from '../modules/access/index.js';
import type { Context } from '../graphql/context.js';
import type { SandboxDoors, Services } from '../services.js';
import { maskError } from '../graphql/errors.js';
import { useRequestScopeRelease } from '../graphql/request-scope.js';
import { boundedCache, boundedVariables, limitPlugins } from '../graphql/limits.js';

/** What the parsed operations kept for their next use may hold, by their text. */
const DOCUMENT_CACHE_BYTES = 8 * 1024 * 1024;
import { literalInputs } from '../graphql/literals.js';
import { subscriptionsEndWithTheirCaller } from '../graphql/subscription-guard.js';
import { idempotencyKeys } from './idempotency.js';
import { SpanKind, SpanStatusCode, within, type Tracing } from '../telemetry/tracing.js';
import type { Context as TraceContext, Span } from '@opentelemetry/api';
import { AppError, Unauthenticated, Unavailable, errorBody, internalError, type ErrorBody } from '../common/errors.js';
import { isDatabaseUnavailable, isValueTooLarge, pingDatabase } from '../db/client.js';
import type { Metrics } from '../telemetry/metrics.js';
import { sameBytes } from '../common/signatures.js';
import { createContext, identifyRequest, type Identity } from './context.js';
import { callers } from './caller.js';
import { assertCleanInput } from '../common/input.js';
import { registerRestRoutes } from './rest.js';
import type { RestRoute } from '../http/rest-route.js';
import { openApiRoutes, trackRoutes } from './openapi.js';
import { errorRef, json, type Outgoing } from '../http/route-docs.js';
import { answerCommonOperation, commonOperation, sendResponse } from './graphql-post.js';

export type PlainRoutes = (app: FastifyInstance, services: Services) => void;

declare module 'fastify' {
  interface FastifyRequest {
    partnerId: string | null;
    operation: string | null;
    /** The request's span and the context it makes, when tracing. */
    trace: { span: Span; context: TraceContext } | null;
  }
}

type ServerContext = { req?: FastifyRequest; connectionParams?: Record<string, unknown> };

/** A graphql-ws connection's caller: a bearer token in its connection parameters, else what its
 * upgrade request's headers say (a bearer token, or the dashboard's session cookie). */
function identifyConnection(
  services: Services,
  initial: ServerContext & { extra?: { request?: { headers: IncomingHttpHeaders } } },
): Promise<Identity> {
  const fromParams = initial.connectionParams?.Authorization ?? initial.connectionParams?.authorization;
  const headers = initial.extra?.request?.headers ?? {};
  return identifyRequest(services, headers, typeof fromParams === 'string' ? fromParams : headers.authorization);
}

/** What a dashboard session may run (../modules/access): refused before anything executes, with
 * the error body a resolver's refusal would have, as a 403. */
function dashboardRules(mask: (error: unknown) => Error): Plugin<Context> {
  return {
    onExecute: ({ args, setResultAndStopExecution }) => {
      // Only a dashboard session's operations are looked at; a token's run as they are.
      if (!args.contextValue.auth?.dashboard) return;
      const operation = getOperationAST(args.document, args.operationName);
      if (!operation) return;
      const fields = operation.selectionSet.selections.map((s) => (s.kind === Kind.FIELD ? s.name.value : '…'));
      const refusal = dashboardRefusal(args.contextValue.auth, operation.operation, fields);
      if (refusal)
        setResultAndStopExecution({
          errors: [
            mask(new GraphQLError(refusal.message, { originalError: refusal, extensions: { http: { status: 403 } } })) as GraphQLError,
          ],
        });
    },
  };
}

/** How many operation names GET /metrics shows as series of their own, at most. */
const KNOWN_OPERATIONS = 500;
/** How many of those one partner's callers may name: no partner uses up the others' names. */
const KNOWN_OPERATIONS_PER_PARTNER = 50;
/** A name that may be a label: what clients name operations, not a 500 KB token. */
const LABEL_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** GraphQL operations by name and outcome, as they finish (subscriptions are not counted). The
 * names are labels from a bounded set: those authenticated callers ran, up to KNOWN_OPERATIONS
 * of them and KNOWN_OPERATIONS_PER_PARTNER first named by each partner; every other operation is
 * `other` (each name was a series kept forever: 100 unauthenticated names of 500 KB grew
 * /metrics to 51.6 MB; one partner naming 500 left the others none). */
function countOperations(metrics: Metrics): Plugin<Context> {
  const known = new Set<string>();
  const namedBy = new Map<string, number>();
  const label = (name: string | undefined, caller: { partnerId: string } | null | undefined) => {
    if (name === undefined) return 'anonymous';
    if (known.has(name)) return name;
    if (!caller || known.size >= KNOWN_OPERATIONS || !LABEL_NAME.test(name)) return 'other';
    const named = namedBy.get(caller.partnerId) ?? 0;
    if (named >= KNOWN_OPERATIONS_PER_PARTNER) return 'other';
    namedBy.set(caller.partnerId, named + 1);
    known.add(name);
    return name;
  };
  return {
    onExecute: ({ args }) => ({
      onExecuteDone: ({ result }) => {
        if (!('errors' in result) && !('data' in result)) return;
        const name = args.operationName ?? getOperationAST(args.document, undefined)?.name?.value;
        metrics.graphql.inc({ operation: label(name, args.contextValue.auth), outcome: result.errors?.length ? 'error' : 'ok' });
      },
    }),
  };
}

/** A span per GraphQL operation, by name, around its execution (the spans of what it reads and
 * calls are its children). After graphql-jit's: it wraps the compiled execution. */
function traceOperations(tracing: Tracing): Plugin {
  return {
    onExecute: ({ args, executeFn, setExecuteFn }) => {
      if (!tracing.enabled) return;
      const operation = getOperationAST(args.document, args.operationName ?? undefined);
      const name = operation?.name?.value ?? 'anonymous';
      setExecuteFn((execution) =>
        tracing.span(`graphql ${operation?.operation ?? 'operation'} ${name}`, { 'graphql.operation.name': name }, async () =>
          executeFn(execution),
        ),
      );
    },
  };
}

const trustHops =
  (hops: number) =>
  (_address: string, hop: number): boolean =>
    hop < hops;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** GET /: the service's name and its doors, each as its clients take it; with the sandbox on, its
 * peers and where the demo partner's credentials are kept. */
function homePage(publicUrl: string, sandbox: SandboxDoors | undefined): string {
  const door = (href: string, name: string, what: string) => `<li><a href="${href}">${name}</a> <span>${what}</span></li>`;
  const peers = sandbox
    ? `<h2>Sandbox</h2>
<p>Peers to try the whole flow with, on this machine (<code>SANDBOX=on</code>):</p>
<ul>
${door(sandbox.pos, 'Sandbox POS and DSP', `${escapeHtml(sandbox.pos)}: providers <code>sandbox-pos</code> and <code>sandbox-dsp</code>, controls under <code>/v1/_sandbox/</code>`)}
${door(sandbox.events, 'Sandbox event provider', `${escapeHtml(sandbox.events)}: provider <code>sandbox-events</code>`)}
</ul>
<p>The demo partner's credentials (<code>client_id</code>, <code>client_secret</code>) are kept in <code>${escapeHtml(sandbox.demoPartnerFile)}</code>; <code>npm start</code> prints them at every start.</p>`
    : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Partner ordering integration service</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1c2430;line-height:1.5}li{margin:.4rem 0}span{color:#5b6675}code{background:#f1f3f6;padding:0 .25rem}</style></head>
<body><h1>Partner ordering integration service</h1>
<p>Onboard restaurants, publish their menus to delivery platforms, and send every order to their point of sale exactly once.</p>
<ul>
${door('/graphql', 'GraphQL', 'GraphiQL in a browser; subscriptions over graphql-ws (the token in <code>connectionParams</code>)')}
${door('/docs', 'REST API reference', 'OpenAPI 3.1, also as <a href="/v1/openapi.json">/v1/openapi.json</a>; tokens from <code>POST /v1/oauth/token</code>')}
${door('/dashboard', 'Merchant dashboard', "opened from a partner's sign-in link")}
${door('/docs#/ofrep', 'Feature flags (OFREP)', `give an OFREP provider <code>${publicUrl}</code> as its <code>baseUrl</code>`)}
${door('/health', 'Health', 'with <a href="/ready">/ready</a> and <a href="/metrics">/metrics</a>')}
${door('/.well-known/oauth-authorization-server', 'OAuth 2.0 metadata', 'RFC 8414, for clients configured by discovery')}
</ul>
${peers}</body></html>`;
}

export function buildServer(
  services: Services,
  schema: GraphQLSchema,
  routes: RestRoute[],
  plainRoutes: PlainRoutes[],
  /** What the service sends others, for the OpenAPI document's `webhooks` and the schemas they share. */
  outgoing?: Outgoing,
): { app: FastifyInstance; yoga: YogaServerInstance<ServerContext, Context> } {
  const app: FastifyInstance = Fastify({
    loggerInstance: services.log as FastifyBaseLogger,
    // Our onResponse hook writes the one line per request (below).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: services.config.bodyLimit,
    // A hop count trusts that many proxies nearest to us, as proxy-addr reads a number.
    trustProxy: typeof services.config.trustProxy === 'number' ? trustHops(services.config.trustProxy) : services.config.trustProxy,
    requestIdHeader: 'x-request-id',
    genReqId: () => crypto.randomUUID(),
    forceCloseConnections: 'idle',
  });
  app.decorateRequest('partnerId', null);
  app.decorateRequest('operation', null);
  app.decorateRequest('trace', null);
  traceRequests(app, services);
  const documented = trackRoutes(app);
  // The caller first: idempotency keys read it.
  callers(app, services);
  idempotencyKeys(app, services);

  checkAndLogRequests(app, services);
  answerRefusals(app, services);
  const yoga = graphqlRoutes(app, services, schema);
  operationsRoutes(app, services);
  registerRestRoutes(app, services, yoga, schema, routes);
  for (const register of plainRoutes) register(app, services);
  openApiRoutes(app, documented, () => services.publicUrl, outgoing);
  return { app, yoga };
}

/** Fastify's hooks for tracing: a span per request, continuing the caller's traceparent. */
function traceRequests(app: FastifyInstance, services: Services): void {
  // A span per request, continuing the caller's traceparent; what the request does runs in it.
  // The context is entered again before the handler: reading the body can lose it.
  if (services.tracing.enabled) {
    const { tracing } = services;
    app.addHook('onRequest', (request, _reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      request.trace = tracing.start(
        `${request.method} ${route}`,
        { 'http.request.method': request.method, 'http.route': route, 'url.path': request.url.split('?')[0] },
        tracing.extract(request.headers),
        SpanKind.SERVER,
      );
      within(request.trace.context, done);
    });
    app.addHook('preHandler', (request, _reply, done) => within(request.trace?.context, done));
    app.addHook('onResponse', (request, reply, done) => {
      request.trace?.span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) request.trace?.span.setStatus({ code: SpanStatusCode.ERROR });
      request.trace?.span.end();
      done();
    });
  }
}

/** Input checks before any route, one log line per request, and closing connections while stopping. */
function checkAndLogRequests(app: FastifyInstance, services: Services): void {
  // OAuth clients (RFC 6749) send the token request form-encoded.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  // Malformed input of any shape is a 400 here, before any route sees it (../input.ts). Webhook
  // bodies arrive as raw bytes for their signature; the intake checks them once parsed.
  app.addHook('preValidation', async (request) => {
    if (request.body !== null && typeof request.body === 'object' && !Buffer.isBuffer(request.body))
      assertCleanInput(request.body, 'the request body');
    assertCleanInput(request.query, 'the query string');
    assertCleanInput(request.params, 'the path');
  });

  // One log line per request: who, what, how it ended, how long it took.
  // While stopping, answers close their connection: a keep-alive client would otherwise hold
  // the stop until its idle timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('onResponse', async (request, reply) => {
    // By route pattern: an unmatched path is one label, so scanners cannot grow the series.
    services.metrics.http.observe(
      { route: request.routeOptions.url ?? 'unmatched', method: request.method, status: reply.statusCode },
      reply.elapsedTime / 1000,
    );
    request.log.info(
      {
        partnerId: request.partnerId,
        // The route's pattern, or for an unmatched one its path: never the query string, which
        // may carry secrets (a client_secret sent the wrong way).
        operation: request.operation ?? `${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]}`,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
  });
}

/** Every refusal in the one error body: errors thrown by routes, unknown paths and methods. */
function answerRefusals(app: FastifyInstance, services: Services): void {
  // At /graphql, a refusal made before the operation runs (a rate limit, the database away) is
  // also a GraphQL error, so that a GraphQL client reads it where it reads every other error.
  const refuse = (request: FastifyRequest, reply: FastifyReply, body: ErrorBody) =>
    reply
      .status(body.statusCode)
      .send(
        request.routeOptions.url === '/graphql'
          ? { ...body, errors: [{ message: body.message, extensions: { code: body.code, statusCode: body.statusCode } }] }
          : body,
      );
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return refuse(request, reply, error.body());
    }
    if (isDatabaseUnavailable(error)) {
      services.dependencies.lost('database', error);
      return refuse(request, reply.header('retry-after', String(Unavailable.RETRY_AFTER_S)), new Unavailable().body());
    }
    if (isValueTooLarge(error))
      return refuse(request, reply, errorBody(400, 'invalid_request', 'a value of the request is too long to be stored'));
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 413)
      return reply.status(413).send(errorBody(413, 'payload_too_large', `the request body exceeds ${services.config.bodyLimit} bytes`));
    if (status === 415) return reply.status(415).send(errorBody(415, 'unsupported_media_type', error.message));
    if (status && status >= 400 && status < 500) return reply.status(status).send(errorBody(status, 'invalid_request', error.message));
    request.log.error({ err: error }, 'unexpected error');
    return reply.status(500).send(internalError());
  });
  // A known path with another method is 405 with the methods it takes (HEAD comes with GET).
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].filter((method) => app.findRoute({ method: method as never, url: path }));
    if (allowed.length) {
      return reply
        .status(405)
        .header('allow', [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])].join(', '))
        .send(errorBody(405, 'method_not_allowed', `${request.method} is not a method of ${path}; it takes ${allowed.join(', ')}`));
    }
    return reply.status(404).send(errorBody(404, 'not_found', `no route ${request.method} ${path}`));
  });
}

/** GraphQL at /graphql: Yoga over HTTP (and the fast path for a partner's POST), graphql-ws on
 * the same path. */
function graphqlRoutes(app: FastifyInstance, services: Services, schema: GraphQLSchema): YogaServerInstance<ServerContext, Context> {
  const documentCache = boundedCache<DocumentNode>(DOCUMENT_CACHE_BYTES);
  services.metrics.measureDocumentCache(() => documentCache.bytes);
  const yoga = createYoga<ServerContext, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    // GraphiQL from the service's own assets (bundled in @graphql-yoga/render-graphiql): Yoga's
    // default loads it from a CDN, a blank page on any machine that cannot reach it.
    renderGraphiQL,
    graphiql: {
      title: 'Partner ordering API',
      defaultQuery: [
        '# The partner ordering API. Put your access token under Headers:',
        '#   { "Authorization": "Bearer <access_token>" }',
        '# then try: { organizationLocations(orgId: "org_…") { locations { id name dsps { id name } } } }',
        '{ __typename }',
        '',
      ].join('\n'),
    },
    // Yoga reports every error of a result at error level, with its stack: most are the caller's
    // (not found, syntax, scope), already answered to them. Those are info lines here; our own
    // faults are logged at error by maskError, once, with the request id.
    logging: {
      debug: (...args) => services.log.debug({ yoga: args }, 'graphql'),
      info: (...args) => services.log.info({ yoga: args }, 'graphql'),
      warn: (...args) => services.log.warn({ yoga: args }, 'graphql'),
      error: (...args) => services.log.info({ graphqlErrors: args.map((a) => (a instanceof Error ? a.message : a)) }, 'graphql error'),
    },
    maskedErrors: { maskError: maskError(services.log) },
    // Operations compiled to JavaScript once, then run without the interpreter's per-field work.
    // Bounds first: an operation over one is refused before anything else looks at it.
    // graphql-jit for queries and mutations only: its subscribe hands the raw variables to the
    // field's subscribe function, so an argument written inline (or a variable named otherwise)
    // was lost. Subscriptions run through graphql-js, which resolves their arguments.
    parserAndValidationCache: { documentCache, errorCache: boundedCache<unknown>(DOCUMENT_CACHE_BYTES) },
    plugins: [
      ...(services.config.limits ? limitPlugins(services.config.graphqlLimits) : []),
      boundedVariables(),
      literalInputs(),
      subscriptionsEndWithTheirCaller(maskError(services.log)),
      { onExecute: useGraphQlJit().onExecute },
      traceOperations(services.tracing),
      useRequestScopeRelease(),
      dashboardRules(maskError(services.log)),
      countOperations(services.metrics),
    ],
    context: async (initial) => {
      const req = initial.req;
      const identity = req?.caller ?? (await identifyConnection(services, initial));
      const context = await createContext(services, undefined, req?.id ?? crypto.randomUUID(), identity);
      if (req) {
        req.partnerId = context.auth?.partnerId ?? null;
        const params = (initial as { params?: { operationName?: string } }).params;
        req.operation = `graphql ${params?.operationName ?? 'anonymous'}`;
      }
      return context;
    },
  });

  app.route({
    url: '/graphql',
    method: ['GET', 'POST', 'OPTIONS'],
    // The caller (./caller.ts): a bearer token, or the dashboard's session cookie.
    config: { caller: 'token-or-session' },
    handler: async (req, reply) => {
      // Every operation needs a caller. Over SSE, Yoga would open the stream (200) or answer 500
      // before the operation refuses the caller inside it: a client without one is refused here,
      // as 401 with the error body, as every other refusal of its token.
      if (req.headers.accept?.includes('text/event-stream') && !req.caller?.auth) throw req.caller?.authError ?? new Unauthenticated();
      const common = commonOperation(req);
      if (common && (await answerCommonOperation(yoga, services.log, req, reply, common))) return reply;
      return sendResponse(reply, await yoga.handleNodeRequestAndResponse(req, reply, { req }));
    },
  });

  // graphql-ws on the same path: the HTTP server hands upgrades for /graphql to it.
  const wsServer = new WebSocketServer({ noServer: true });
  app.server.on('upgrade', (request, socket, head) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== '/graphql') return socket.destroy();
    wsServer.handleUpgrade(request, socket, head, (ws) => wsServer.emit('connection', ws, request));
  });
  const wsDisposable = useServer(
    {
      execute: (args) => (args.rootValue as { execute: typeof import('graphql').execute }).execute(args),
      subscribe: (args) => (args.rootValue as { subscribe: typeof import('graphql').subscribe }).subscribe(args),
      onSubscribe: async (ctx, _id, params) => {
        const {
          schema: envelopedSchema,
          execute,
          subscribe,
          contextFactory,
          parse,
          validate,
        } = yoga.getEnveloped({
          ...ctx,
          req: undefined,
          extra: ctx.extra,
          connectionParams: ctx.connectionParams,
          params,
        } as never);
        const args = {
          schema: envelopedSchema,
          operationName: params.operationName,
          document: parse(params.query),
          variableValues: params.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        return errors.length ? errors : args;
      },
    },
    wsServer,
  );
  app.addHook('onClose', async () => {
    await wsDisposable.dispose();
    wsServer.close();
  });

  return yoga;
}

/** What operators and browsers open: the front page, health, readiness and metrics. */
function operationsRoutes(app: FastifyInstance, services: Services): void {
  // Someone who opens the service's address in a browser: where everything is.
  app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(homePage(services.publicUrl, services.sandbox)));

  const operations = (operationId: string, summary: string, responses: Record<string, unknown>) => () => ({
    operationId,
    summary,
    tags: ['operations'],
    responses,
  });
  const status = { type: 'object', required: ['status'], properties: { status: { type: 'string' }, database: { type: 'string' } } };
  app.get('/health', { config: { openapi: operations('health', 'The process answers', { '200': json(status, 'Up.') }) } }, async () => ({
    status: 'ok',
  }));
  const metricsDoc = () => ({
    ...operations('metrics', 'Prometheus metrics (with METRICS_TOKEN set, as a bearer token)', {
      '200': { description: 'Prometheus text format.', content: { 'text/plain': { schema: { type: 'string' } } } },
      '401': errorRef,
    })(),
    // Open, or METRICS_TOKEN as a bearer token: either is a way in.
    security: [{}, { bearer: [] }],
  });
  app.get('/metrics', { config: { openapi: metricsDoc } }, async (request, reply) => {
    const token = services.config.metricsToken;
    if (token && !sameBytes(request.headers.authorization ?? '', `Bearer ${token}`))
      throw new Unauthenticated('GET /metrics needs the METRICS_TOKEN as a bearer token');
    return reply.type(services.metrics.registry.contentType).send(await services.metrics.registry.metrics());
  });
  const readyDoc = operations('ready', 'The database is reachable', { '200': json(status, 'Ready.'), '503': errorRef });
  app.get('/ready', { config: { openapi: readyDoc } }, async (_request, reply) => {
    try {
      await pingDatabase(services.db);
      services.dependencies.back('database');
      return { status: 'ready', database: 'reachable' };
    } catch (error) {
      services.dependencies.lost('database', error);
      return reply
        .status(503)
        .header('retry-after', String(Unavailable.RETRY_AFTER_S))
        .send(errorBody(503, 'not_ready', 'the database is not reachable'));
    }
  });
}
