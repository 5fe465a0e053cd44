// REST for authentication: the token call is a plain handler (form-encoded bodies, no bearer);
// createPartnerToken is a row of the adapter.
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Services } from '../../services.js';
import { AppError, Invalid } from '../../common/errors.js';
import type { RestRoute } from '../../http/rest-route.js';
import { issueToken } from './service.js';
import { tokenRequestOf, tokenRequestSchema, tokenResponseSchema, wireToken } from './wire.js';
import { SCOPES } from '../../common/scopes.js';
import { ERROR_BODY, json, zodSchema } from '../../http/route-docs.js';
import { RateLimited } from '../../common/rate-limits.js';

/** Form-encoded requests carry strings: read numbers and a `scopes` list the way RFC 6749
 * clients send them (`scope` is RFC 6749's own field, read by the request schema). */
function fromForm(body: Record<string, string>): Record<string, unknown> {
  const { scopes, exp, ...rest } = body;
  return {
    ...rest,
    ...(exp !== undefined ? { exp: /^\d+(\.\d+)?$/.test(exp) ? Number(exp) : exp } : {}),
    ...(scopes !== undefined ? { scopes: scopes.split(/[\s,]+/).filter(Boolean) } : {}),
  };
}

/** RFC 6749 2.3.1: `Authorization: Basic base64(urlencode(client_id):urlencode(client_secret))`. */
function basicCredentials(header: string | undefined): { client_id: string; client_secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new Invalid('the Basic credentials must be client_id:client_secret');
  const part = (text: string) => {
    try {
      return decodeURIComponent(text.replace(/\+/g, ' '));
    } catch {
      throw new Invalid('the Basic credentials are not form-encoded as RFC 6749 2.3.1 says');
    }
  };
  return { client_id: part(decoded.slice(0, colon)), client_secret: part(decoded.slice(colon + 1)) };
}

const RFC6749_ERRORS = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
]);

/** RFC 6749 5.2's error code for one of ours, where one fits (else the status in words). */
const oauthError = (error: AppError): string => (RFC6749_ERRORS.has(error.code) ? error.code : (error.body().error as string));

/** A malformed token request, by which field and how: a scope outside SCOPES is invalid_scope, a
 * grant type we do not issue is unsupported_grant_type, anything else invalid_request. */
function refusal(issue: z.core.$ZodIssue): Invalid {
  const [field] = issue.path;
  const badValue = issue.code === 'invalid_value' || issue.code === 'custom';
  if (badValue && (field === 'scopes' || field === 'scope')) return new Invalid(issue.message, 'invalid_scope');
  if (issue.code === 'invalid_value' && field === 'grant_type') return new Invalid(issue.message, 'unsupported_grant_type');
  return new Invalid(issue.message);
}

const tokenCallDoc = () => {
  const token = zodSchema(tokenResponseSchema);
  const request = zodSchema(tokenRequestSchema);
  const refused = json(
    {
      ...ERROR_BODY,
      properties: {
        ...(ERROR_BODY.properties as object),
        error_description: { type: 'string', description: 'Form requests: the message, as RFC 6749 5.2 names it.' },
      },
    },
    "Refused. Form requests get RFC 6749's error code in `error`.",
  );
  return {
    operationId: 'token',
    summary: 'Get an access token (client credentials or a refresh token)',
    description:
      'JSON (201), or form-encoded as RFC 6749 clients send it (200, with `scope` as a space-separated string). ' +
      'The client authenticates in the body or with HTTP Basic (RFC 6749 2.3.1), not both.',
    tags: ['oauth'],
    security: [{}, { basic: [] }],
    requestBody: {
      required: true,
      content: { 'application/json': { schema: request }, 'application/x-www-form-urlencoded': { schema: request } },
    },
    responses: {
      '200': json(
        { ...token, properties: { ...(token.properties as object), scope: { type: 'string' } } },
        'A token, for a form-encoded request (RFC 6749 5.1).',
      ),
      '201': json(token, 'A token, for a JSON request.'),
      '400': refused,
      '401': refused,
      '429': refused,
      default: refused,
    },
  };
};

/** RFC 8414: what a client configured by discovery alone needs to get a token. There is no
 * authorization endpoint (partners hold client credentials), so no response type is supported. */
function authorizationServerMetadata(publicUrl: string) {
  return {
    issuer: publicUrl,
    token_endpoint: `${publicUrl}/v1/oauth/token`,
    grant_types_supported: ['client_credentials', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    scopes_supported: [...SCOPES],
    response_types_supported: [],
    service_documentation: `${publicUrl}/docs`,
  };
}

const metadataDoc = () => ({
  operationId: 'authorizationServerMetadata',
  summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
  description: 'The issuer, the token endpoint, its grant types, client authentication methods and scopes.',
  tags: ['oauth'],
  security: [],
  responses: {
    '200': json(
      {
        type: 'object',
        required: ['issuer', 'token_endpoint', 'grant_types_supported', 'token_endpoint_auth_methods_supported', 'scopes_supported'],
        properties: {
          issuer: { type: 'string' },
          token_endpoint: { type: 'string' },
          grant_types_supported: { type: 'array', items: { type: 'string' } },
          token_endpoint_auth_methods_supported: { type: 'array', items: { type: 'string' } },
          scopes_supported: { type: 'array', items: { type: 'string' } },
          response_types_supported: { type: 'array', items: { type: 'string' } },
          service_documentation: { type: 'string' },
        },
      },
      'The metadata.',
    ),
  },
});

/**
 * The token call (docs/reference.md § Resources; docs/reference.md § Authentication). JSON requests are answered as docs/reference.md says (201).
 * Form-encoded ones, which RFC 6749 clients send, are answered as RFC 6749 5.1 and 5.2: 200 with
 * `scope` as a string beside `scopes`, and errors whose `error` is RFC 6749's code, with
 * `error_description`. The client authenticates in the body or with HTTP Basic, never both.
 */
export function tokenRoutes(app: FastifyInstance, services: Services): void {
  app.get('/.well-known/oauth-authorization-server', { config: { openapi: metadataDoc } }, async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=3600').send(authorizationServerMetadata(services.publicUrl)),
  );
  app.post('/v1/oauth/token', { config: { openapi: tokenCallDoc } }, async (request, reply) => {
    request.operation = 'POST /v1/oauth/token';
    const form = request.headers['content-type']?.startsWith('application/x-www-form-urlencoded') ?? false;
    reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    const body = (request.body ?? {}) as Record<string, unknown>;
    let basic = false;
    try {
      if (typeof body !== 'object' || Array.isArray(body)) throw new Invalid('the request body must be a JSON object');
      const credentials = basicCredentials(request.headers.authorization);
      basic = credentials !== null;
      if (credentials && ((body.client_id !== undefined && body.client_id !== credentials.client_id) || body.client_secret !== undefined)) {
        throw new Invalid('authenticate the client one way: in the body or with HTTP Basic, not both');
      }
      const fields = { ...(form ? fromForm(body as Record<string, string>) : body), ...credentials };
      const parsed = tokenRequestSchema.safeParse(fields);
      if (!parsed.success) throw refusal(parsed.error.issues[0]!);
      // Per client and per address; a failed authentication costs more (../../rate-limits.ts).
      const { client_id: clientId } = parsed.data;
      await services.limits.tokenAllowed(clientId, request.ip);
      let token: ReturnType<typeof wireToken>;
      try {
        token = wireToken(await issueToken(services, tokenRequestOf(parsed.data)));
      } catch (error) {
        const failedAuth = error instanceof AppError && (error.code === 'invalid_client' || error.code === 'invalid_grant');
        await services.limits.tokenSettled(clientId, request.ip, !failedAuth);
        throw error;
      }
      await services.limits.tokenSettled(clientId, request.ip, true);
      return form ? reply.status(200).send({ ...token, scope: token.scopes.join(' ') }) : reply.status(201).send(token);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (error.code === 'invalid_client' && basic) reply.header('www-authenticate', 'Basic realm="partner-api", charset="UTF-8"');
      if (error instanceof RateLimited) reply.headers(error.headers);
      // RFC 6749 5.2's code in `error` and `code`, JSON or form alike; form requests also get
      // `error_description`, as RFC 6749 clients read it.
      const code = oauthError(error);
      const shaped = RFC6749_ERRORS.has(code) ? { error: code, code } : {};
      return reply.status(error.statusCode).send({ ...error.body(), ...shaped, ...(form ? { error_description: error.message } : {}) });
    }
  });
}

export const authRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/v1/oauth/partner-tokens',
    summary: 'Create a named token for one organization, with some of your scopes',
    document: /* GraphQL */ `
      mutation CreatePartnerToken($input: CreatePartnerTokenInput!) {
        createPartnerToken(input: $input) { id orgId tokenName scopes accessToken tokenType expiresIn }
      }`,
    from: { input: 'body' },
    status: 201,
  },
];
