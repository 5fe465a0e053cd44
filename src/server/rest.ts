// The REST adapter of docs/reference.md § Partner API. A route is a row: method, path, the GraphQL
// document it runs, how the request maps to variables and the result to the docs/reference.md body.
// Authorization, validation and errors are the GraphQL schema's; no rule lives here.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  getNamedType,
  getOperationAST,
  isListType,
  isNonNullType,
  parse,
  validate,
  typeFromAST,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import type { Context } from '../graphql/context.js';
import { fromWire, rootFieldOf, snake, stepsOf, toWire, type RestRequest, type RestRoute, type Source } from '../http/rest-route.js';
import type { Services } from '../services.js';
import { errorHeaders, toErrorBody } from '../graphql/errors.js';
import { oversizedVariables } from '../graphql/limits.js';
import { Invalid, NotFound, Unauthenticated, Unavailable } from '../common/errors.js';
import { restOperation } from './openapi.js';
import { wireInputProblem } from './rest-input.js';
import { isPlainObject } from '../common/input.js';

/** One `from` entry, parsed once when the row is registered. */
type Fill = { name: string; field: string | undefined; where: string; key: string | undefined; fromText?: (text: string) => unknown };

/** A query parameter is text: a number where the variable is one (`limit=5`), a list where it is
 * a list of strings (`types=a,b`); text that is no number stays text, for the strict check to name. */
function queryReader(schema: GraphQLSchema, operation: OperationDefinitionNode, name: string): Fill['fromText'] {
  const definition = operation.variableDefinitions?.find((d) => d.variable.name.value === name);
  const type = definition ? typeFromAST(schema, definition.type as never) : undefined;
  if (!type) return undefined;
  const bare = isNonNullType(type) ? type.ofType : type;
  if (isListType(bare)) return (text) => text.split(',').filter(Boolean);
  const named = getNamedType(bare).name;
  if (named === 'Int' || named === 'Float') return (text) => (/^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text);
  return undefined;
}

/** A row's `from` as fills: whole variables first, then the fields filled into them. */
function fillsOf(from: RestRoute['from'], schema: GraphQLSchema, operation: OperationDefinitionNode): Fill[] {
  const fills = Object.entries(from).map(([target, source]: [string, Source]) => {
    const [name, field] = target.split('.') as [string, string | undefined];
    const [where, key] = source.split(/\.(.*)/) as [string, string | undefined];
    const fromText = where === 'query' && field === undefined ? queryReader(schema, operation, name) : undefined;
    return { name, field, where, key, fromText };
  });
  return fills.sort((a, b) => Number(a.field !== undefined) - Number(b.field !== undefined));
}

function read({ where, key, fromText }: Fill, req: RestRequest): unknown {
  if (where === 'path') return req.params[key!];
  if (where === 'query') {
    const value = req.query[key!];
    if (value === '') return undefined;
    return fromText && typeof value === 'string' ? fromText(value) : value;
  }
  if (key === undefined) return fromWire(req.body);
  return isPlainObject(req.body) ? fromWire(req.body[key]) : undefined;
}

/** A row's variables from the request, as its `from` says. A body that is not an object stays
 * as sent, for the strict check to name. */
function variablesOf(fills: Fill[], req: RestRequest): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const fill of fills) {
    const value = read(fill, req);
    if (value === undefined) continue;
    const { name, field } = fill;
    if (field === undefined) variables[name] = value;
    else {
      variables[name] ??= {};
      const holder = variables[name];
      if (isPlainObject(holder)) holder[field] = value;
    }
  }
  return variables;
}

function withoutNulls(value: unknown, keep: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutNulls(v, keep));
  if (isPlainObject(value) || (value && typeof value === 'object' && Object.getPrototypeOf(value) === null)) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k, v]) => v !== null || keep.has(k))
        .map(([k, v]) => [k, withoutNulls(v, keep)]),
    );
  }
  return value;
}

function bodyOf(route: RestRoute, rootField: string, steps: (string | number)[], data: Record<string, unknown>): unknown {
  let value: unknown = data[rootField];
  for (const step of steps) value = (value as Record<string | number, unknown> | null | undefined)?.[step];
  if (value === undefined || value === null) throw new NotFound(route.returns?.missing ?? 'not found');
  const named = route.names === 'graphql' ? value : toWire(value, route.verbatim && new Set(route.verbatim));
  return route.omitNulls ? withoutNulls(named, new Set(route.keepNulls)) : named;
}

/** Runs each REST row's document through the same envelop as /graphql (its plugins: the bounds of
 * variables, graphql-jit, tracing, metrics, the release of the request's scope), with the
 * caller the request was given (./caller.ts). */
export function registerRestRoutes(
  app: FastifyInstance,
  services: Services,
  yoga: YogaServerInstance<{ req?: FastifyRequest }, Context>,
  schema: GraphQLSchema,
  routes: RestRoute[],
): void {
  for (const route of routes) {
    const document: DocumentNode = parse(route.document);
    const operation = getOperationAST(document)!;
    const problems = validate(schema, document);
    if (problems.length) throw new Error(`REST route ${route.method} ${route.path}: ${problems.map((p) => p.message).join('; ')}`);
    const rootField = rootFieldOf(operation).name.value;
    const fills = fillsOf(route.from, schema, operation);
    const steps = route.returns ? stepsOf(route.returns.path) : [];

    app.route({
      method: route.method,
      url: route.path,
      config: { openapi: () => restOperation(schema, route, operation), caller: 'token' },
      handler: async (request: FastifyRequest, reply) => {
        const req: RestRequest = {
          params: (request.params ?? {}) as Record<string, string>,
          query: (request.query ?? {}) as Record<string, string>,
          body: request.body ?? {},
        };
        request.operation = `${route.method} ${route.path}`;
        // Every row needs a caller: say 401 before judging a body the caller may not send.
        if (!request.caller?.auth) {
          const body = (request.caller?.authError ?? new Unauthenticated()).body();
          return reply.status(body.statusCode).send(body);
        }
        // The bounds of GraphQL's variables, on the body as sent (its wire names), then on what
        // the query string made (a list parameter); then the wire names' own check.
        const oversized = oversizedVariables(req.body);
        const variableValues = oversized ? {} : variablesOf(fills, req);
        const problem = oversized ?? oversizedVariables(variableValues) ?? wireInputProblem(schema, operation, variableValues, snake);
        if (problem) throw new Invalid(problem);
        const enveloped = yoga.getEnveloped({ req: request } as never);
        const contextValue = (await enveloped.contextFactory()) as Context;
        request.operation = `${route.method} ${route.path}`;
        const result = (await enveloped.execute({ schema: enveloped.schema, document, variableValues, contextValue })) as ExecutionResult;
        if (result.errors?.length) {
          const body = toErrorBody(result.errors[0], request.log);
          const headers = errorHeaders(result.errors[0]);
          if (headers) reply.headers(headers);
          if (body.statusCode === 503) {
            services.dependencies.lost('database', result.errors[0]);
            reply.header('retry-after', String(Unavailable.RETRY_AFTER_S));
          }
          return reply.status(body.statusCode).send(body);
        }
        if (route.status === 204) return reply.status(204).send();
        return reply.status(route.status).send(bodyOf(route, rootField, steps, result.data as Record<string, unknown>));
      },
    });
  }
}
