// The error bodies every refusal is answered with (docs/reference.md § Errors), as a table: each
// kind of error, its status, its code and its default message; and how a long list is named.
import {
  type AppError,
  Conflict,
  errorBody,
  FeatureDisabled,
  Forbidden,
  internalError,
  Invalid,
  InvalidTransition,
  NotFound,
  PayloadTooLarge,
  ReauthorizationRequired,
  someOf,
  TooMany,
  Unauthenticated,
  Unavailable,
  UpstreamFailed,
} from './errors.js';

test.each<[string, () => AppError, { statusCode: number; error: string; code: string; message: string }]>([
  [
    'Invalid',
    () => new Invalid('name is required'),
    { statusCode: 400, error: 'Bad Request', code: 'invalid_request', message: 'name is required' },
  ],
  [
    'Invalid, its own code',
    () => new Invalid('bad cursor', 'invalid_cursor'),
    { statusCode: 400, error: 'Bad Request', code: 'invalid_cursor', message: 'bad cursor' },
  ],
  [
    'Unauthenticated',
    () => new Unauthenticated(),
    { statusCode: 401, error: 'Unauthorized', code: 'invalid_token', message: 'a valid bearer token is required' },
  ],
  [
    'Unauthenticated, its own words',
    () => new Unauthenticated('token expired', 'token_expired'),
    { statusCode: 401, error: 'Unauthorized', code: 'token_expired', message: 'token expired' },
  ],
  ['Forbidden', () => new Forbidden('not yours'), { statusCode: 403, error: 'Forbidden', code: 'forbidden', message: 'not yours' }],
  [
    'Forbidden, its own code',
    () => new Forbidden('a viewer', 'insufficient_role'),
    { statusCode: 403, error: 'Forbidden', code: 'insufficient_role', message: 'a viewer' },
  ],
  [
    'NotFound',
    () => new NotFound('order o not found'),
    { statusCode: 404, error: 'Not Found', code: 'not_found', message: 'order o not found' },
  ],
  [
    'NotFound, its own code',
    () => new NotFound('no such route', 'route_not_found'),
    { statusCode: 404, error: 'Not Found', code: 'route_not_found', message: 'no such route' },
  ],
  ['Conflict', () => new Conflict('taken'), { statusCode: 409, error: 'Conflict', code: 'conflict', message: 'taken' }],
  [
    'Conflict, its own code',
    () => new Conflict('in use', 'in_use'),
    { statusCode: 409, error: 'Conflict', code: 'in_use', message: 'in use' },
  ],
  [
    'FeatureDisabled',
    () => new FeatureDisabled('order is not modifiable'),
    { statusCode: 409, error: 'Conflict', code: 'feature_disabled', message: 'order is not modifiable' },
  ],
  [
    'InvalidTransition',
    () => new InvalidTransition('completed cannot go back'),
    { statusCode: 409, error: 'Conflict', code: 'invalid_transition', message: 'completed cannot go back' },
  ],
  [
    'PayloadTooLarge',
    () => new PayloadTooLarge(),
    { statusCode: 413, error: 'Payload Too Large', code: 'payload_too_large', message: 'the request body is too large' },
  ],
  [
    'UpstreamFailed',
    () => new UpstreamFailed('the POS is down'),
    { statusCode: 502, error: 'Bad Gateway', code: 'upstream_failed', message: 'the POS is down' },
  ],
  [
    'UpstreamFailed, its own code',
    () => new UpstreamFailed('no answer', 'upstream_timeout'),
    { statusCode: 502, error: 'Bad Gateway', code: 'upstream_timeout', message: 'no answer' },
  ],
  [
    'Unavailable',
    () => new Unavailable(),
    {
      statusCode: 503,
      error: 'Service Unavailable',
      code: 'unavailable',
      message: 'the service cannot reach its database right now; try again shortly',
    },
  ],
  [
    'ReauthorizationRequired',
    () => new ReauthorizationRequired('authorize the POS again'),
    { statusCode: 409, error: 'Conflict', code: 'reauthorization_required', message: 'authorize the POS again' },
  ],
  [
    'TooMany',
    () => new TooMany('slow down', 30),
    { statusCode: 429, error: 'Too Many Requests', code: 'rate_limited', message: 'slow down' },
  ],
])('%s', (name, make, body) => {
  const error = make();
  expect(error.body()).toEqual(body);
  expect(error).toBeInstanceOf(Error);
  expect(error.name).toBe(name.split(',')[0]);
  expect(error.message).toBe(body.message);
});

test('a 429 says when to try again; other errors add no header', () => {
  expect(new TooMany('slow down', 30).headers).toEqual({ 'retry-after': '30' });
  expect(new Invalid('x').headers).toBeUndefined();
  expect(Unavailable.RETRY_AFTER_S).toBe(2);
});

test('errorBody names the status by its HTTP reason, or "Error" when HTTP has none', () => {
  expect(errorBody(404, 'x', 'm')).toEqual({ statusCode: 404, error: 'Not Found', code: 'x', message: 'm' });
  expect(errorBody(599, 'x', 'm')).toEqual({ statusCode: 599, error: 'Error', code: 'x', message: 'm' });
});

test('what an unexpected error is answered with: nothing of the error itself', () => {
  expect(internalError()).toEqual({
    statusCode: 500,
    error: 'Internal Server Error',
    code: 'internal_error',
    message: 'an unexpected error occurred',
  });
});

test.each<[string, unknown[], number | undefined, string]>([
  ['none', [], undefined, ''],
  ['one', ['a'], undefined, 'a'],
  ['five, all named', ['a', 'b', 'c', 'd', 'e'], undefined, 'a, b, c, d, e'],
  ['six: five and one more', ['a', 'b', 'c', 'd', 'e', 'f'], undefined, 'a, b, c, d, e and 1 more'],
  ['40,000: the count written out', Array.from({ length: 40_000 }, (_, i) => i), undefined, '0, 1, 2, 3, 4 and 39,995 more'],
  ['three of them shown', ['a', 'b', 'c', 'd'], 3, 'a, b, c and 1 more'],
  ['as many as shown', ['a', 'b', 'c'], 3, 'a, b, c'],
])('someOf: %s', (_case, values, shown, text) => expect(someOf(values, shown)).toBe(text));
