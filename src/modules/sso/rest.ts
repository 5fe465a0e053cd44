// REST for SSO: the partner's session call, and the merchant's browser hop and dashboard.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../graphql/context.js';
import { Invalid } from '../../errors.js';
import type { RestRoute } from '../../server/rest-route.js';
import { consumeSsoToken, dashboardUser } from './service.js';
import { queryParameter, redirect, REFUSALS } from '../../server/openapi.js';

const SESSION_COOKIE = 'merchant_session';

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

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function cookie(header: string | undefined, name: string): string | undefined {
  return header?.split(';').map((p) => p.trim().split('=')).find(([k]) => k === name)?.[1];
}

export function ssoHops(app: FastifyInstance, services: Services): void {
  const login = () => ({
    operationId: 'ssoLogin',
    summary: "A merchant user's one-time login link: starts their dashboard session",
    tags: ['sso'],
    parameters: [queryParameter('token', 'The sso_login_token of POST /v1/sso/sessions; it works once.', true)],
    responses: { ...redirect('To /dashboard, with the session cookie set.'), '400': REFUSALS['400'], '401': REFUSALS['401'], default: REFUSALS.default },
  });
  app.get<{ Querystring: { token?: string } }>('/v1/sso/login', { config: { openapi: login } }, async (request, reply) => {
    if (!request.query.token) throw new Invalid('token is required');
    const { session, maxAge } = await consumeSsoToken(services, request.query.token);
    const secure = services.publicUrl.startsWith('https:') ? '; Secure' : '';
    reply.header('set-cookie', `${SESSION_COOKIE}=${session}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`);
    return reply.redirect('/dashboard', 302);
  });

  // The merchant dashboard's landing page: who is signed in, for which organization.
  app.get('/dashboard', async (request, reply) => {
    const user = await dashboardUser(services, cookie(request.headers.cookie, SESSION_COOKIE));
    reply.type('text/html; charset=utf-8');
    if (!user) return reply.status(401).send('<!doctype html><title>Dashboard</title><p>Not signed in. Ask your partner for a new login link.</p>');
    return reply.send(
      `<!doctype html><title>Dashboard</title><h1>${escapeHtml(user.org.name)}</h1><p>Signed in as ${escapeHtml(user.fullName ?? user.email)} (${escapeHtml(user.email)}, ${escapeHtml(user.role)}).</p>`,
    );
  });
}
