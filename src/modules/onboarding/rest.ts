// REST for onboarding (CONTRACT.md section 1): the partner API rows, and the two browser hops.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../graphql/context.js';
import { fromWire, toWire, type RestRoute } from '../../server/rest.js';
import { authorizeRedirect, callbackRedirect } from './service.js';

const ONBOARDING_FIELDS = 'id orgId merchantId type status partnerId partnerOrgId source entryUrl returnUrl integrationId';

export const onboardingRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/v1/onboarding/integrations',
    document: `mutation InitializeOnboarding($input: InitializeOnboardingInput!) {
      initializeOnboarding(input: $input) { onboarding { ${ONBOARDING_FIELDS} } }
    }`,
    variables: (req) => ({ input: fromWire(req.body) }),
    result: (data) => toWire(data.initializeOnboarding),
    status: 201,
  },
  {
    method: 'GET',
    path: '/v1/onboarding/integrations/:id',
    document: `query OnboardingStatus($id: ID!) { onboarding(id: $id) { ${ONBOARDING_FIELDS} } }`,
    variables: (req) => ({ id: req.params.id }),
    result: (data) => toWire(data.onboarding),
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/onboarding/integrations/:id/complete',
    document: `mutation CompleteOnboarding($input: CompleteOnboardingInput!) { completeOnboarding(input: $input) { ${ONBOARDING_FIELDS} } }`,
    variables: (req) => ({ input: { ...(fromWire(req.body) as object), id: req.params.id } }),
    result: (data) => toWire(data.completeOnboarding),
    status: 200,
  },
];

/** The browser hops: no bearer token (a browser follows them), the signed state guards them. */
export function onboardingHops(app: FastifyInstance, services: Services): void {
  app.get<{ Params: { id: string } }>('/v1/onboarding/integrations/:id/start', async (request, reply) => {
    return reply.redirect(await authorizeRedirect(services, request.params.id), 302);
  });
  app.get<{ Querystring: { code?: string; state?: string; error?: string } }>('/v1/onboarding/callback', async (request, reply) => {
    return reply.redirect(await callbackRedirect(services, request.query), 302);
  });
}
