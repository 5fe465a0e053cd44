// The GraphQL request partners send most, answered without Yoga's HTTP layer: a POST of one
// JSON operation, a query or a mutation, from a client that is not a browser. Yoga's HTTP layer
// (a fetch Request and Response made for every request, its hooks and its content negotiation)
// cost about 95 µs a request, where Fastify, envelop and graphql-jit together take 155 µs for
// the bench's query over data in memory (docs/performance.md). The operation still runs
// through Yoga's envelop, as graphql-ws's do (./app.ts): the same parse and validation caches,
// graphql-jit, error masking and plugins.
//
// Everything else goes to Yoga: GET, GraphiQL, subscriptions, batches, browsers (CORS is
// Yoga's), other Accept headers, and every request this path would answer otherwise than Yoga:
// bodies Yoga rejects, syntax and validation errors, and several operations without a name.
// Results with errors are shown by Yoga's own result processor. test/server/graphql-http.test.ts sends
// each kind of request both ways and expects the same answer.
import { GraphQLError, getOperationAST, type ExecutionResult } from 'graphql';
import { processRegularResult, type YogaServerInstance } from 'graphql-yoga';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../graphql/context.js';
import { maskError } from '../graphql/errors.js';
import { isPlainObject } from '../common/input.js';

/** A request's operation: GraphQL over HTTP's parameters. */
export type OperationParams = {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
  extensions?: Record<string, unknown> | null;
};

/** The media type Yoga answers with, for the Accept headers this path takes: Yoga lets the last
 * of the types it can serve win, in its own order. */
const ANSWERED_AS = new Map<string | undefined, string>([
  [undefined, 'application/json'],
  ['*/*', 'application/json'],
  ['application/json', 'application/json'],
  ['application/graphql-response+json', 'application/graphql-response+json'],
  // graphql-request's own.
  ['application/graphql-response+json, application/json', 'application/graphql-response+json'],
]);

const PARAMS = new Set(['query', 'variables', 'operationName', 'extensions']);
const isOptionalObject = (value: unknown) => value == null || isPlainObject(value);

/** The operation and the media type of its answer, when this path takes the request. */
export function commonOperation(req: FastifyRequest): { params: OperationParams; mediaType: string } | undefined {
  if (req.method !== 'POST' || req.headers.origin !== undefined) return undefined;
  const mediaType = ANSWERED_AS.get(req.headers.accept);
  const body = req.body;
  if (!mediaType || !isPlainObject(body) || typeof body.query !== 'string') return undefined;
  for (const key in body) if (body[key] != null && !PARAMS.has(key)) return undefined;
  if (!isOptionalObject(body.variables) || !isOptionalObject(body.extensions)) return undefined;
  if (body.operationName != null && typeof body.operationName !== 'string') return undefined;
  return { params: body as OperationParams, mediaType };
}

/** Sends a fetch Response made by Yoga as Fastify's reply. A single result goes out as one
 * string: piping Yoga's body stream into Fastify cost a fifth of the read path's throughput.
 * Only subscriptions over SSE and multipart stream. */
export async function sendResponse(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  for (const [key, value] of response.headers) reply.header(key, value);
  reply.status(response.status);
  const type = response.headers.get('content-type') ?? '';
  const streamed = type.startsWith('text/event-stream') || type.startsWith('multipart/');
  return reply.send(streamed ? response.body : await response.text());
}

/**
 * Marks a parse or validation error as Yoga does for its own requests (the HTTP status GraphQL
 * over HTTP asks for: 400 for application/graphql-response+json). Yoga's parse and validation
 * caches keep the error this path made first and hand that one back, without marking it again.
 */
function markRequestError(error: unknown, code: string): void {
  if (!(error instanceof GraphQLError)) return;
  const extensions = error.extensions as { code?: string; http?: { spec?: boolean; status?: number } };
  extensions.code ||= code;
  extensions.http ||= {};
  extensions.http.spec ??= true;
  extensions.http.status ||= 400;
}

/** Answers the request and resolves true, or resolves false having done nothing for Yoga to
 * answer it: everything before execution (parse, validation, the context) only reads. */
export async function answerCommonOperation(
  yoga: YogaServerInstance<{ req?: FastifyRequest }, Context>,
  log: Parameters<typeof maskError>[0],
  req: FastifyRequest,
  reply: FastifyReply,
  { params, mediaType }: { params: OperationParams; mediaType: string },
): Promise<boolean> {
  const { parse, validate, contextFactory, execute, schema } = yoga.getEnveloped({ req, params } as never);
  let document: ReturnType<typeof parse>;
  try {
    document = parse(params.query);
  } catch (error) {
    markRequestError(error, 'GRAPHQL_PARSE_FAILED');
    return false;
  }
  const operation = getOperationAST(document, params.operationName);
  if (!operation || operation.operation === 'subscription') return false;
  const invalid = validate(schema, document);
  if (invalid.length) {
    for (const error of invalid) markRequestError(error, 'GRAPHQL_VALIDATION_FAILED');
    return false;
  }
  let contextValue: Context;
  try {
    contextValue = (await contextFactory()) as Context;
  } catch {
    return false;
  }
  let result: ExecutionResult & { stringify?: (result: ExecutionResult) => string };
  try {
    result = (await execute({
      schema,
      document,
      contextValue,
      variableValues: params.variables,
      operationName: params.operationName,
    })) as typeof result;
  } catch (error) {
    // As Yoga does with an operation that throws: masked (and logged, when unexpected).
    result = { errors: [maskError(log)(error) as never] };
  }
  if (result.errors || result.extensions) {
    await sendResponse(reply, processRegularResult(result, yoga.fetchAPI, mediaType));
    return true;
  }
  reply.header('content-type', `${mediaType}; charset=utf-8`);
  reply.send(result.stringify ? result.stringify(result) : JSON.stringify(result));
  return true;
}
