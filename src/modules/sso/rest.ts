// REST for SSO: the partner's session call, and the merchant's browser hop to the dashboard.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { Invalid } from '../../common/errors.js';
import type { RestRoute } from '../../http/rest-route.js';
import { consumeSsoToken } from './service.js';
import { sessionCookie } from './cookie.js';
import { queryParameter, redirect, REFUSALS } from '../../http/route-docs.js';

export const ssoRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/v1/sso/sessions',
    summary: "A one-time login link to the merchant dashboard for one of an organization's users",
    document: `mutation GenerateSsoSession($partnerId: ID, $input: GenerateSsoSessionInput!) {
      generateSsoSession(partnerId: $partnerId, input: $input) { ssoLoginToken }
    }`,
    from: { partnerId: 'query.partner_id', input: 'body' },
    status: 201,
  },
];

export function ssoHops(app: FastifyInstance, services: Services): void {
  const login = () => ({
    operationId: 'ssoLogin',
    summary: "A merchant user's one-time login link: starts their dashboard session",
    tags: ['sso'],
    parameters: [queryParameter('token', 'The sso_login_token of POST /v1/sso/sessions; it works once.', true)],
    responses: {
      ...redirect('To /dashboard, with the session cookie set.'),
      '400': REFUSALS['400'],
      '401': REFUSALS['401'],
      default: REFUSALS.default,
    },
  });
  app.get<{ Querystring: { token?: string } }>('/v1/sso/login', { config: { openapi: login } }, async (request, reply) => {
    if (!request.query.token) throw new Invalid('token is required');
    const { session, maxAge } = await consumeSsoToken(services, request.query.token);
    reply.header('set-cookie', sessionCookie(services.publicUrl, session, maxAge));
    return reply.redirect('/dashboard', 302);
  });
}
