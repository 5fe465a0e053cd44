// REST for authentication: the token call is a plain handler (form-encoded bodies, no bearer);
// createPartnerToken is a row of the adapter.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../graphql/context.js';
import { AppError, Invalid } from '../../errors.js';
import { fromWire, toWire, type RestRoute } from '../../server/rest.js';
import { issueToken, tokenRequestSchema } from './service.js';

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

export function tokenRoutes(app: FastifyInstance, services: Services): void {
  app.post('/v1/oauth/token', async (request, reply) => {
    request.operation = 'POST /v1/oauth/token';
    const form = request.headers['content-type']?.startsWith('application/x-www-form-urlencoded');
    const body = (request.body ?? {}) as Record<string, unknown>;
    if (typeof body !== 'object' || Array.isArray(body)) throw new Invalid('the request body must be a JSON object');
    const parsed = tokenRequestSchema.safeParse(form ? fromForm(body as Record<string, string>) : body);
    if (!parsed.success) throw new Invalid(parsed.error.issues[0]!.message);
    // Per client and per address; a failed authentication costs more (../../rate-limits.ts).
    const { client_id: clientId } = parsed.data;
    await services.limits.tokenAllowed(clientId, request.ip);
    let token;
    try {
      token = await issueToken(services, parsed.data);
    } catch (error) {
      const failedAuth = error instanceof AppError && (error.code === 'invalid_client' || error.code === 'invalid_grant');
      await services.limits.tokenSettled(clientId, request.ip, !failedAuth);
      throw error;
    }
    await services.limits.tokenSettled(clientId, request.ip, true);
    return reply.status(201).header('cache-control', 'no-store').send(token);
  });
}

export const authRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/v1/oauth/partner-tokens',
    document: /* GraphQL */ `
      mutation CreatePartnerToken($input: CreatePartnerTokenInput!) {
        createPartnerToken(input: $input) { id orgId tokenName scopes accessToken tokenType expiresIn }
      }`,
    variables: (req) => ({ input: fromWire(req.body) }),
    result: (data) => toWire(data.createPartnerToken),
    status: 201,
  },
];
