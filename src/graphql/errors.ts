// How errors leave GraphQL: domain errors keep their code and status in `extensions`; GraphQL's
// own errors (syntax, validation, variable types) are invalid requests; anything else is masked.
import { GraphQLError } from 'graphql';
import type { FastifyBaseLogger } from 'fastify';
type Logger = Pick<FastifyBaseLogger, 'error'>;
import { AppError, Unavailable, errorBody, internalError, type ErrorBody } from '../common/errors.js';
import { isDatabaseUnavailable, isValueTooLarge } from '../db/client.js';
import { isTooComplex } from './limits.js';

function domainError(error: unknown): AppError | undefined {
  let current = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    if (current instanceof AppError) return current;
    current = (current as { originalError?: unknown }).originalError;
  }
  return undefined;
}

/** GraphQL's own errors about the request (syntax, validation, variable values), at any depth. */
function isRequestError(error: unknown): boolean {
  if (!(error instanceof GraphQLError)) return false;
  return !error.originalError || isRequestError(error.originalError);
}

/** The headers a domain error asks its answer to carry (a 429's Retry-After), for REST. */
export const errorHeaders = (error: unknown): Record<string, string> | undefined => domainError(error)?.headers;

/** Errors this module made: masking one again leaves it as it is (a subscription's refusal is
 * masked where it is made, and may pass Yoga's masking after that). */
const masked = new WeakSet<object>();

/** The docs/reference.md § Errors body for an error raised while running a GraphQL operation. */
export function toErrorBody(error: unknown, log: Logger): ErrorBody {
  const domain = domainError(error);
  if (domain) return domain.body();
  // Masked already (./maskError): its code and status are decided.
  if (error instanceof GraphQLError && masked.has(error)) {
    const { code, statusCode } = error.extensions as { code: string; statusCode: number };
    return errorBody(statusCode, code, error.message);
  }
  const bound = isTooComplex(error)
    ? error
    : isTooComplex((error as GraphQLError)?.originalError)
      ? (error as GraphQLError).originalError
      : undefined;
  if (bound) return errorBody(400, 'query_too_complex', bound.message);
  if (isRequestError(error)) return errorBody(400, 'invalid_request', (error as GraphQLError).message);
  // The database is away: the caller may try again shortly (the loss is logged once, elsewhere).
  if (isDatabaseUnavailable(error)) return new Unavailable().body();
  if (isValueTooLarge(error)) return errorBody(400, 'invalid_request', 'a value of the request is too long to be stored');
  log.error({ err: (error as GraphQLError)?.originalError ?? error }, 'unexpected error');
  return internalError();
}

/** Yoga's maskError: the same decision, shown as a GraphQL error with extensions. */
export function maskError(log: Logger) {
  return (error: unknown): Error => {
    if (typeof error === 'object' && error !== null && masked.has(error)) return error as Error;
    const body = toErrorBody(error, log);
    const path = error instanceof GraphQLError ? error.path : undefined;
    const nodes = error instanceof GraphQLError ? error.nodes : undefined;
    // Yoga's own errors about the request carry the HTTP status GraphQL over HTTP asks for (400
    // for a parse or validation failure, 405 for a mutation over GET) in extensions.http, which
    // Yoga reads for the answer and leaves out of the body: keep it.
    const http = error instanceof GraphQLError ? error.extensions?.http : undefined;
    // The domain error stays its original (never shown): the REST adapter, which runs the same
    // envelop, reads its body and headers (a 429's Retry-After) from it.
    const shown = new GraphQLError(body.message, {
      nodes,
      path,
      originalError: domainError(error),
      extensions: { code: body.code, statusCode: body.statusCode, ...(http ? { http } : {}) },
    });
    masked.add(shown);
    return shown;
  };
}
