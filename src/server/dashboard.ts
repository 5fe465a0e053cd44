// The merchant dashboard's pages (docs/reference.md § Partner API): the page for a live session, its built
// assets (src/dashboard, `npm run build`), and logout. What the page reads comes from /graphql.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { Forbidden } from '../common/errors.js';
import { DASHBOARD_DIST } from '../dashboard/dist.js';
import { fromOwnPages } from '../http/origin.js';
import { dashboardUser, endDashboardSessions } from '../modules/sso/service.js';
import { sessionCookie, sessionOf } from '../modules/sso/cookie.js';
import { htmlPage as page } from '../http/page.js';

/** The dashboard's built assets (../../dashboard, `npm run build`), read once. */
const ASSETS: Record<string, string> = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
  'favicon.ico': 'image/x-icon',
};
const assets = new Map<string, Buffer>();
function asset(file: string): Buffer | null {
  if (!assets.has(file)) {
    const at = path.join(DASHBOARD_DIST, file);
    if (!fs.existsSync(at)) return null;
    assets.set(file, fs.readFileSync(at));
  }
  return assets.get(file)!;
}

export function dashboardPages(app: FastifyInstance, services: Services): void {
  // The merchant dashboard (docs/reference.md § Partner API): its page for a live session, else a sign-in hint.
  app.get<{ Querystring: { 'signed-out'?: string } }>('/dashboard', async (request, reply) => {
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    const session = sessionOf(request.headers.cookie);
    // Someone who never signed in is greeted, not told their session ended.
    if (!session && request.query['signed-out'] === undefined) {
      return reply.send(
        page(
          "Your restaurant's dashboard",
          'Live orders, stores and menus, for merchants. You sign in from your ordering partner: their app opens this dashboard for you with a sign-in link.',
        ),
      );
    }
    if (!(await dashboardUser(services, session))) {
      return reply.status(401).send(page('You are signed out', 'Open the dashboard from your ordering partner to sign in again.'));
    }
    const html = asset('index.html');
    if (!html) return reply.status(503).send(page('The dashboard is not built', 'Run <code>npm run build</code>, then reload.'));
    return reply.send(html);
  });
  // Browsers ask every site for its icon at this path.
  app.get('/favicon.ico', async (_request, reply) => {
    const icon = asset('favicon.ico');
    if (!icon) return reply.callNotFound();
    return reply.type('image/x-icon').header('cache-control', 'public, max-age=86400').send(icon);
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
    reply.header('set-cookie', sessionCookie(services.publicUrl, '', 0));
    return reply.redirect('/dashboard?signed-out', 303);
  });
}
