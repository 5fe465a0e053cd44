// REST for SSO: the partner's session call, and the merchant's browser hop and dashboard.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../graphql/context.js';
import { Invalid } from '../../errors.js';
import { fromWire, toWire, type RestRoute } from '../../server/rest.js';
import { consumeSsoToken, dashboardUser } from './service.js';

const SESSION_COOKIE = 'merchant_session';

export const ssoRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/v1/sso/sessions',
    document: `mutation GenerateSsoSession($partnerId: ID, $input: GenerateSsoSessionInput!) {
      generateSsoSession(partnerId: $partnerId, input: $input) { ssoLoginToken }
    }`,
    variables: (req) => ({ partnerId: req.query.partner_id || null, input: fromWire(req.body) }),
    result: (data) => toWire(data.generateSsoSession),
    status: 201,
  },
];

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function cookie(header: string | undefined, name: string): string | undefined {
  return header?.split(';').map((p) => p.trim().split('=')).find(([k]) => k === name)?.[1];
}

export function ssoHops(app: FastifyInstance, services: Services): void {
  app.get<{ Querystring: { token?: string } }>('/v1/sso/login', async (request, reply) => {
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
