// The API reference (docs/reference.md § Partner API): an OpenAPI 3.1 document made from the routes themselves.
// A REST row is described from its own GraphQL operation: its parameters and body from the
// variables' input types, its answer from the selection, in wire names. A plain handler (the
// token call, the hops, the webhooks, OFREP) carries its description in its route's
// `config.openapi`. Nothing here is written beside a route; a route without a description
// fails the coverage test (test/server/openapi.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import {
  GraphQLNonNull,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  typeFromAST,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { rootFieldOf, snake, stepsOf, type RestRoute, type Source } from '../http/rest-route.js';
import {
  ERROR_BODY,
  errorRef,
  json,
  MERCHANT_TOKEN,
  REFUSALS,
  type JsonSchema,
  type OpenApiOperation,
  type Outgoing,
  type RouteDoc,
} from '../http/route-docs.js';

const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  JSON: {},
};

function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string')
    return { ...schema, type: [schema.type, 'null'], ...(schema.enum ? { enum: [...(schema.enum as unknown[]), null] } : {}) };
  return schema;
}

const described = (schema: JsonSchema, description: string | null | undefined) => (description ? { ...schema, description } : schema);

function leafSchema(type: GraphQLInputType | GraphQLOutputType): JsonSchema {
  const named = getNamedType(type);
  if (isEnumType(named)) return { type: 'string', enum: named.getValues().map((v) => v.name) };
  if (isScalarType(named) && SCALARS[named.name]) return SCALARS[named.name]!;
  throw new Error(`no JSON schema for the GraphQL type ${named.name}`);
}

/** An input type as JSON: unknown fields are refused (./rest-input.ts), required ones are the
 * non-null fields without a default. `skip` leaves out fields that come from elsewhere. */
export function inputSchema(type: GraphQLInputType, wire: (name: string) => string, skip: ReadonlySet<string> = new Set()): JsonSchema {
  // A required field is its type without `null`; only an optional one may be sent as null.
  const inner = isNonNullType(type) ? type.ofType : type;
  let schema: JsonSchema;
  if (isListType(inner)) schema = { type: 'array', items: inputSchema(inner.ofType, wire) };
  else if (isInputObjectType(inner)) {
    const fields = Object.values(inner.getFields()).filter((field) => !skip.has(field.name));
    schema = described(
      {
        type: 'object',
        properties: Object.fromEntries(
          fields.map((field) => [wire(field.name), described(inputSchema(field.type, wire), field.description)]),
        ),
        required: fields.filter((field) => isNonNullType(field.type) && field.defaultValue === undefined).map((field) => wire(field.name)),
        additionalProperties: false,
      },
      inner.description,
    );
  } else schema = leafSchema(inner);
  return inner === type ? nullable(schema) : schema;
}

/** How a row's answer shows nulls: as null, or (`omit`) by leaving the field out, but for the
 * fields (wire names) it keeps. */
export type Nulls = { omit: boolean; keep: ReadonlySet<string> };
const SHOWN: Nulls = { omit: false, keep: new Set() };

/** What a selection answers, as JSON: every selected field, null where GraphQL allows it, or
 * (with `omit`) left out instead; only the non-null ones are required. */
export function selectionSchema(
  type: GraphQLOutputType,
  selection: SelectionSetNode | undefined,
  wire: (name: string) => string,
  nulls: Nulls,
): JsonSchema {
  const inner = isNonNullType(type) ? type.ofType : type;
  let schema: JsonSchema;
  if (isListType(inner)) schema = { type: 'array', items: selectionSchema(inner.ofType, selection, wire, nulls) };
  else if (isObjectType(inner)) {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const node of selection?.selections ?? []) {
      if (node.kind !== Kind.FIELD) throw new Error('REST row selections are plain fields');
      const field = inner.getFields()[node.name.value]!;
      const key = wire(node.alias?.value ?? node.name.value);
      const kept = nulls.keep.has(key);
      properties[key] = described(selectionSchema(field.type, node.selectionSet, wire, kept ? SHOWN : nulls), field.description);
      // Required means always there and never null: a field that may be null is optional, so
      // a generated client types it `field?: T | null` and never `T | null` where T is promised.
      if (isNonNullType(field.type)) required.push(key);
    }
    schema = described({ type: 'object', properties, required }, inner.description);
  } else schema = leafSchema(inner);
  return inner !== type || nulls.omit ? schema : nullable(schema);
}

const openApiPath = (fastifyPath: string) => fastifyPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** A REST row as an OpenAPI operation, from its GraphQL operation. */
export function restOperation(schema: GraphQLSchema, route: RestRoute, operation: OperationDefinitionNode): OpenApiOperation {
  const wire = route.names === 'graphql' ? (name: string) => name : snake;
  const variableType = (name: string) => {
    const definition = operation.variableDefinitions!.find((d) => d.variable.name.value === name)!;
    return typeFromAST(schema, definition.type as never) as GraphQLInputType;
  };
  // The type a `from` key fills: a variable's, or a field's of an input variable.
  const targetType = (target: string): GraphQLInputType => {
    const [name, field] = target.split('.') as [string, string | undefined];
    const type = variableType(name);
    if (field === undefined) return type;
    const object = getNamedType(type);
    if (!isInputObjectType(object)) throw new Error(`${route.path}: ${name} is not an input object`);
    return object.getFields()[field]!.type;
  };

  const parameters: unknown[] = [];
  const bodyProperties: Record<string, JsonSchema> = {};
  const bodyRequired: string[] = [];
  let bodyTarget: string | undefined;
  const elsewhere = new Map<string, Set<string>>();
  for (const [target, source] of Object.entries(route.from) as [string, Source][]) {
    const [where, name] = source.split(/\.(.*)/) as [string, string | undefined];
    const type = targetType(target);
    if (target.includes('.') && where !== 'body') {
      const [variable, field] = target.split('.') as [string, string];
      elsewhere.set(variable, (elsewhere.get(variable) ?? new Set()).add(field));
    }
    if (where === 'path' || where === 'query') {
      // A path parameter is always there: never null, whatever its variable allows.
      const given = where === 'path' && !isNonNullType(type) ? new GraphQLNonNull(type) : type;
      parameters.push({ name, in: where, required: where === 'path' || isNonNullType(type), schema: inputSchema(given, wire) });
    } else if (name === undefined) {
      bodyTarget = target;
    } else {
      bodyProperties[name] = inputSchema(type, wire);
      if (isNonNullType(type)) bodyRequired.push(name);
    }
  }
  const body: JsonSchema | undefined = bodyTarget
    ? inputSchema(targetType(bodyTarget), wire, elsewhere.get(bodyTarget))
    : Object.keys(bodyProperties).length
      ? { type: 'object', properties: bodyProperties, required: bodyRequired }
      : undefined;

  const root = rootFieldOf(operation);
  const rootType = operation.operation === 'mutation' ? schema.getMutationType()! : schema.getQueryType()!;
  const rootDefinition = rootType.getFields()[root.name.value]!;
  let answerType: GraphQLOutputType = rootDefinition.type;
  let answerSelection = root.selectionSet;
  for (const step of route.returns ? stepsOf(route.returns.path) : []) {
    const unwrapped = isNonNullType(answerType) ? answerType.ofType : answerType;
    if (typeof step === 'number') {
      if (!isListType(unwrapped)) throw new Error(`${route.path}: [${step}] of a non-list`);
      answerType = unwrapped.ofType;
    } else {
      const object = getNamedType(answerType);
      if (!isObjectType(object)) throw new Error(`${route.path}: .${step} of a non-object`);
      const node = answerSelection!.selections.find((s) => s.kind === Kind.FIELD && s.name.value === step);
      if (node?.kind !== Kind.FIELD) throw new Error(`${route.path}: ${step} is not selected`);
      answerType = object.getFields()[step]!.type;
      answerSelection = node.selectionSet;
    }
  }
  const answer =
    route.status === 204
      ? { description: 'Done.' }
      : json(
          selectionSchema(answerType, answerSelection, wire, { omit: route.omitNulls ?? false, keep: new Set(route.keepNulls) }),
          'Done.',
        );

  return {
    operationId: operation.name?.value,
    summary: route.summary,
    ...(rootDefinition.description
      ? { description: `${rootDefinition.description}\n\nGraphQL: \`${root.name.value}\`.` }
      : { description: `GraphQL: \`${root.name.value}\`.` }),
    tags: [route.path.split('/')[2]],
    security: [{ bearer: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } } : {}),
    // A write can meet a conflict: a taken provider_id or store, a final order, an Idempotency-Key
    // reused with another body or still in flight.
    responses: { [String(route.status)]: answer, ...REFUSALS, ...(route.method === 'GET' ? {} : { '409': errorRef }) },
  };
}

export type DocumentedRoute = { method: string; url: string; doc: RouteDoc | undefined };

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route, with its description if it has one. */
    routeTable: readonly DocumentedRoute[];
  }
}

/** Every route the app registers, with its description; call before any route is added. */
export function trackRoutes(app: FastifyInstance): DocumentedRoute[] {
  const routes: DocumentedRoute[] = [];
  app.decorate('routeTable', routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routes.push({ method, url: route.url, doc: route.config?.openapi });
    }
  });
  return routes;
}

/** Every call that reaches the database may answer 503 while it is away (with Retry-After). */
function withUnavailable(operations: Record<string, OpenApiOperation>): Record<string, OpenApiOperation> {
  const unavailable = {
    ...json({ $ref: '#/components/schemas/Error' }, 'The database is away: nothing was done; try again after Retry-After (seconds).'),
    headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds.' } },
  };
  return Object.fromEntries(
    Object.entries(operations).map(([method, operation]) => [
      method,
      (operation.tags as string[] | undefined)?.includes('operations')
        ? operation
        : { ...operation, responses: { '503': unavailable, ...(operation.responses as object) } },
    ]),
  );
}

/** An operation that names no security needs no token (the hops, the webhooks, health): it says
 * so with `security: []`, which generators and linters read as "public". */
function declaredSecurity(operations: Record<string, OpenApiOperation>): Record<string, OpenApiOperation> {
  return Object.fromEntries(
    Object.entries(operations).map(([method, operation]) => [method, 'security' in operation ? operation : { ...operation, security: [] }]),
  );
}

export function openApiDocument(
  routes: DocumentedRoute[],
  serverUrl: string,
  outgoing: Outgoing = { webhooks: {}, schemas: {} },
): Record<string, unknown> {
  const paths: Record<string, Record<string, OpenApiOperation>> = {};
  for (const route of routes) {
    if (!route.doc) continue;
    const doc = route.doc();
    const entries =
      'paths' in doc
        ? Object.entries(doc.paths as Record<string, Record<string, OpenApiOperation>>)
        : [[openApiPath(route.url), { [route.method.toLowerCase()]: doc }] as const];
    for (const [at, operations] of entries) paths[at] = { ...paths[at], ...withUnavailable(declaredSecurity(operations)) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Partner ordering API',
      version: '1.0',
      description:
        'REST for partners, the token call, the browser hops and the webhooks the service takes. ' +
        'Every REST call runs a GraphQL operation of `/graphql` (named in its description) and answers in snake_case wire names. ' +
        'Errors have one body: `{statusCode, error, code, message}`.',
    },
    servers: [{ url: serverUrl }],
    tags: [
      { name: 'oauth', description: 'Tokens' },
      { name: 'onboarding', description: 'Organizations, OAuth onboardings, locations, DSP stores and menus' },
      { name: 'sso', description: 'The merchant dashboard' },
      { name: 'flags', description: 'Feature flags' },
      { name: 'segments', description: 'Segments of flag targeting' },
      { name: 'contexts', description: 'Contexts of flag targeting' },
      { name: 'webhooks', description: 'Signed webhooks from POS systems, DSPs and event providers' },
      { name: 'ofrep', description: 'OpenFeature Remote Evaluation Protocol' },
      { name: 'operations', description: 'Health, readiness and metrics' },
    ],
    paths,
    // What the service sends others: the events a DSP (and a partner endpoint) receives, and its
    // calls on a POS. The receiver checks our signature, or the merchant's token from its own
    // token answer; no security scheme of ours applies to them.
    webhooks: Object.fromEntries(
      Object.entries(outgoing.webhooks).map(([name, operations]) => [
        name,
        declaredSecurity(operations as Record<string, OpenApiOperation>),
      ]),
    ),
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'An access token from POST /v1/oauth/token.' },
        basic: { type: 'http', scheme: 'basic', description: 'The token call only: client_id and client_secret (RFC 6749 2.3.1).' },
        [MERCHANT_TOKEN]: {
          type: 'http',
          scheme: 'bearer',
          description: "What the service sends a provider: the access_token of the merchant's grant, from the provider's own token answer.",
        },
      },
      schemas: { Error: ERROR_BODY, ...outgoing.schemas },
      responses: { Error: json({ $ref: '#/components/schemas/Error' }, 'Refused: the body says why; nothing changed.') },
    },
  };
}

/** Swagger UI's files, from the swagger-ui-dist package: no CDN. */
const SWAGGER_UI_FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Partner ordering API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/start.js"></script>
</body>
</html>`;

const DOCS_START = `window.ui = SwaggerUIBundle({ url: '/v1/openapi.json', dom_id: '#reference', deepLinking: true, validatorUrl: null, tryItOutEnabled: false });`;

/** GET /v1/openapi.json and the reference that renders it at /docs. */
export function openApiRoutes(app: FastifyInstance, routes: DocumentedRoute[], serverUrl: () => string, outgoing?: Outgoing): void {
  let document: Record<string, unknown> | undefined;
  // Made at the first request: the public URL is known only once the service listens (PORT=0).
  app.get('/v1/openapi.json', async () => (document ??= openApiDocument(routes, serverUrl(), outgoing)));
  const dist = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const files = new Map<string, Buffer>();
  app.get('/docs', async (_request, reply) => reply.type('text/html; charset=utf-8').send(DOCS_PAGE));
  app.get<{ Params: { file: string } }>('/docs/:file', async (request, reply) => {
    const { file } = request.params;
    if (file === 'start.js') return reply.type('text/javascript; charset=utf-8').send(DOCS_START);
    const type = SWAGGER_UI_FILES[file];
    if (!type) return reply.callNotFound();
    if (!files.has(file)) files.set(file, fs.readFileSync(path.join(dist, file)));
    return reply.type(type).header('cache-control', 'public, max-age=3600').send(files.get(file));
  });
}
