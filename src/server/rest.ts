// The REST adapter of CONTRACT.md section 1. A route is a row: method, path, the GraphQL
// document it runs, how the request maps to variables and the result to the SPEC.md body.
// Authorization, validation and errors are the GraphQL schema's; no rule lives here.
import type { FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import { getOperationAST, parse, validate, execute, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Services } from '../graphql/context.js';
import { toErrorBody } from '../graphql/errors.js';
import { Invalid, Unauthenticated } from '../errors.js';
import { wireInputProblem } from './rest-input.js';
import { createContext } from './context.js';
import { releaseRequestScope } from '../graphql/request-scope.js';

export type RestRequest = {
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  body: unknown;
};

export type RestRoute = {
  method: HTTPMethods;
  path: string;
  /** The GraphQL operation this route runs. */
  document: string;
  variables: (req: RestRequest) => Record<string, unknown>;
  /** The response body, from the operation's data. */
  result: (data: Record<string, unknown>) => unknown;
  status: number;
};

const camel = (key: string) => (key === '_id' ? 'id' : key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()));
const snake = (key: string) =>
  key === 'id' ? '_id' : key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/([a-z])(\d)/g, '$1_$2');

function mapKeys(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => mapKeys(v, rename));
  // Plain objects only (GraphQL results have a null prototype); dates and buffers pass as they are.
  const proto = value && typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (proto === Object.prototype || proto === null) {
    return Object.fromEntries(Object.entries(value as object).map(([k, v]) => [rename(k), mapKeys(v, rename)]));
  }
  return value;
}

/** SPEC.md wire names (snake_case, `_id`) to GraphQL names (camelCase, `id`), and back. */
export const fromWire = (value: unknown) => mapKeys(value, camel);
export const toWire = (value: unknown) => mapKeys(value, snake);

export function registerRestRoutes(app: FastifyInstance, services: Services, schema: GraphQLSchema, routes: RestRoute[]): void {
  for (const route of routes) {
    const document: DocumentNode = parse(route.document);
    const operation = getOperationAST(document)!;
    const problems = validate(schema, document);
    if (problems.length) throw new Error(`REST route ${route.method} ${route.path}: ${problems.map((p) => p.message).join('; ')}`);

    app.route({
      method: route.method,
      url: route.path,
      handler: async (request: FastifyRequest, reply) => {
        const req: RestRequest = {
          params: (request.params ?? {}) as Record<string, string>,
          query: (request.query ?? {}) as Record<string, string>,
          body: request.body ?? {},
        };
        const contextValue = await createContext(services, request.headers.authorization, request.id);
        request.partnerId = contextValue.auth?.partnerId ?? null;
        request.operation = `${route.method} ${route.path}`;
        // Every row needs a caller: say 401 before judging a body the caller may not send.
        if (!contextValue.auth) {
          const body = (contextValue.authError ?? new Unauthenticated()).body();
          return reply.status(body.statusCode).send(body);
        }
        await services.limits.api(contextValue.auth.partnerId);
        const variableValues = route.variables(req);
        const problem = wireInputProblem(schema, operation, variableValues, snake);
        if (problem) {
          releaseRequestScope(contextValue);
          throw new Invalid(problem);
        }
        const result = await execute({ schema, document, variableValues, contextValue });
        releaseRequestScope(contextValue);
        if (result.errors?.length) {
          const body = toErrorBody(result.errors[0], request.log);
          return reply.status(body.statusCode).send(body);
        }
        const body = route.result(result.data as Record<string, unknown>);
        return body === undefined ? reply.status(route.status).send() : reply.status(route.status).send(body);
      },
    });
  }
}
