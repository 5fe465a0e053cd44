// REST for SSO: the partner's session call, and the merchant's browser hop to the dashboard.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import { AppError, Invalid } from '../../common/errors.js';
import type { RestRoute } from '../../http/rest-route.js';
import { consumeSsoToken } from './service.js';
import { sessionCookie } from './cookie.js';
import { queryParameter, redirect, REFUSALS } from '../../http/route-docs.js';
import { htmlPage, wantsPage } from '../../http/page.js';

/** What a person who followed a link that no longer works reads: why, and how to get a new one. */
const LINK_SPENT = htmlPage(
  'This sign-in link no longer works',
  'A sign-in link works once, within five minutes of being made: this one was used already, or it expired. ' +
    'To sign in, open the dashboard again from your ordering partner’s app or website: it makes a new link for you.',
);
const LINK_INCOMPLETE = htmlPage(
  'This sign-in link is incomplete',
  'The link is missing its sign-in code. Open the dashboard again from your ordering partner’s app or website: it makes a new link for you.',
);

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

/** A refusal: the error body, or to a browser the page that says it. */
const withPage = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } }, 'text/html': { schema: { type: 'string' } } },
});

export function ssoHops(app: FastifyInstance, services: Services): void {
  const login = () => ({
    operationId: 'ssoLogin',
    summary: "A merchant user's one-time login link: starts their dashboard session",
    tags: ['sso'],
    parameters: [queryParameter('token', 'The sso_login_token of POST /v1/sso/sessions; it works once.', true)],
    responses: {
      ...redirect('To /dashboard, with the session cookie set.'),
      '400': withPage('No token; to a browser (Accept: text/html), a page saying so.'),
      '401': withPage('Used, expired or unknown; to a browser (Accept: text/html), a page saying so and how to get a new link.'),
      default: REFUSALS.default,
    },
  });
  app.get<{ Querystring: { token?: string } }>('/v1/sso/login', { config: { openapi: login } }, async (request, reply) => {
    // A person who followed the link reads a page; a client that asked for JSON gets the error body.
    const page = wantsPage(request.headers.accept);
    const answer = (status: number, html: string) =>
      reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
    if (!request.query.token) {
      if (page) return answer(400, LINK_INCOMPLETE);
      throw new Invalid('token is required');
    }
    let consumed: Awaited<ReturnType<typeof consumeSsoToken>>;
    try {
      consumed = await consumeSsoToken(services, request.query.token);
    } catch (error) {
      if (page && error instanceof AppError && error.code === 'invalid_sso_token') return answer(401, LINK_SPENT);
      throw error;
    }
    const { session, maxAge } = consumed;
    reply.header('set-cookie', sessionCookie(services.publicUrl, session, maxAge));
    return reply.redirect('/dashboard', 302);
  });
}
