// The error model shared by GraphQL and REST. Domain code throws these; GraphQL shows `code`
// and `statusCode` in `extensions`, REST answers docs/reference.md § Errors's body. Anything else is
// masked as 500 internal_error and logged.
import { STATUS_CODES } from 'node:http';

export type ErrorBody = { statusCode: number; error: string; code: string; message: string };

export class AppError extends Error {
  /** Headers the answer carries besides the body (a 429's Retry-After). */
  headers?: Record<string, string>;
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }

  body(): ErrorBody {
    return errorBody(this.statusCode, this.code, this.message);
  }
}

export function errorBody(statusCode: number, code: string, message: string): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', code, message };
}

export class Invalid extends AppError {
  constructor(message: string, code = 'invalid_request') {
    super(400, code, message);
  }
}
export class Unauthenticated extends AppError {
  constructor(message = 'a valid bearer token is required', code = 'invalid_token') {
    super(401, code, message);
  }
}
export class Forbidden extends AppError {
  constructor(message: string, code = 'forbidden') {
    super(403, code, message);
  }
}
export class NotFound extends AppError {
  constructor(message: string, code = 'not_found') {
    super(404, code, message);
  }
}
export class Conflict extends AppError {
  constructor(message: string, code = 'conflict') {
    super(409, code, message);
  }
}
export class FeatureDisabled extends AppError {
  constructor(message: string) {
    super(409, 'feature_disabled', message);
  }
}
/** An order (or its delivery) cannot go there from where it is. */
export class InvalidTransition extends AppError {
  constructor(message: string) {
    super(409, 'invalid_transition', message);
  }
}
export class PayloadTooLarge extends AppError {
  constructor(message = 'the request body is too large') {
    super(413, 'payload_too_large', message);
  }
}
export class UpstreamFailed extends AppError {
  constructor(message: string, code = 'upstream_failed') {
    super(502, code, message);
  }
}

/** What the service cannot answer now because something it runs on is away (the database):
 * 503 with Retry-After, so a client or a load balancer tries again shortly. */
export class Unavailable extends AppError {
  static readonly RETRY_AFTER_S = 2;
  constructor(message = 'the service cannot reach its database right now; try again shortly') {
    super(503, 'unavailable', message);
  }
}

/** The merchant revoked our access at the provider (it refuses our refresh token): nothing can be
 * sent for that onboarding until the merchant authorizes the provider again. */
export class ReauthorizationRequired extends AppError {
  constructor(message: string) {
    super(409, 'reauthorization_required', message);
  }
}

/** More of something at once than a partner may have under way (resends): 429, try again later. */
export class TooMany extends AppError {
  constructor(message: string, retryAfterS: number) {
    super(429, 'rate_limited', message);
    this.headers = { 'retry-after': String(retryAfterS) };
  }
}

export const internalError = (): ErrorBody => errorBody(500, 'internal_error', 'an unexpected error occurred');

/** Values named in a message, the first few only: `a, b, c and 39,997 more`. An answer to a
 * request naming 40,000 unknown ids stays a line, not 649 KB. */
export function someOf(values: readonly unknown[], shown = 5): string {
  const first = values.slice(0, shown).map(String).join(', ');
  return values.length > shown ? `${first} and ${(values.length - shown).toLocaleString('en-US')} more` : first;
}
