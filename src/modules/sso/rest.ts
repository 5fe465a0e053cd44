// REST for SSO: the partner's session call, and the merchant's browser hop and dashboard.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { Forbidden, Invalid } from '../../errors.js';
import type { RestRoute } from '../../server/rest-route.js';
import fs from 'node:fs';
import path from 'node:path';
import { SESSION_COOKIE, consumeSsoToken, dashboardUser, endDashboardSessions, sessionOf } from './service.js';
import { DASHBOARD_DIST } from '../../dashboard/dist.js';
import { fromOwnPages } from '../../server/context.js';
import { queryParameter, redirect, REFUSALS } from '../../server/openapi.js';

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

/** The dashboard's built assets (../../dashboard, `npm run build`), read once. */
const ASSETS: Record<string, string> = { 'app.js': 'text/javascript; charset=utf-8', 'app.css': 'text/css; charset=utf-8' };
const assets = new Map<string, Buffer>();
function asset(file: string): Buffer | null {
  if (!assets.has(file)) {
    const at = path.join(DASHBOARD_DIST, file);
    if (!fs.existsSync(at)) return null;
    assets.set(file, fs.readFileSync(at));
  }
  return assets.get(file)!;
}

const page = (title: string, text: string) =>
  `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>` +
  `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;text-align:center;color:#1c2430"><h1>${title}</h1><p>${text}</p></body></html>`;

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
    // HttpOnly: no script reads it; SameSite=Lax: other sites' requests do not carry it (and
    // /graphql checks the origin of those that do); Secure whenever we are served over https.
    const secure = services.publicUrl.startsWith('https:') ? '; Secure' : '';
    reply.header('set-cookie', `${SESSION_COOKIE}=${session}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`);
    return reply.redirect('/dashboard', 302);
  });

  // The merchant dashboard (CONTRACT.md 7.10): its page for a live session, else a sign-in hint.
  app.get('/dashboard', async (request, reply) => {
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    if (!(await dashboardUser(services, sessionOf(request.headers.cookie)))) {
      return reply.status(401).send(page('You are signed out', 'Open the dashboard from your ordering partner to sign in again.'));
    }
    const html = asset('index.html');
    if (!html) return reply.status(503).send(page('The dashboard is not built', 'Run <code>npm run build</code>, then reload.'));
    return reply.send(html);
  });
  app.get<{ Params: { file: string } }>('/dashboard/assets/:file', async (request, reply) => {
    const type = ASSETS[request.params.file];
    const body = type ? asset(request.params.file) : null;
    if (!type || !body) return reply.callNotFound();
    return reply.type(type).header('cache-control', 'no-cache').send(body);
  });
  // Logout ends the user's sessions; only the dashboard's own page may ask (a form post carries Origin).
  app.post('/dashboard/logout', async (request, reply) => {
    if (!fromOwnPages(services, request.headers)) throw new Forbidden("sign out from the dashboard's own page", 'cross_origin');
    await endDashboardSessions(services, sessionOf(request.headers.cookie));
    reply.header('set-cookie', `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`);
    return reply.redirect('/dashboard', 303);
  });
}
