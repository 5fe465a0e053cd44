// REST for onboarding (docs/reference.md § Partner API): the partner API rows, and the two browser hops.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services.js';
import type { RestRoute } from '../../http/rest-route.js';
import { authorizeRedirect, callbackRedirect } from './service.js';
import { pathParameter, queryParameter, redirect, REFUSALS } from '../../http/route-docs.js';

const ONBOARDING_FIELDS = 'id orgId merchantId type status partnerId partnerOrgId source entryUrl returnUrl integrationId';

export const onboardingRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/v1/onboarding/integrations',
    summary: "Start an OAuth onboarding of a merchant's POS or DSP; send the merchant to its entry_url",
    document: `mutation InitializeOnboarding($input: InitializeOnboardingInput!) {
      initializeOnboarding(input: $input) { onboarding { ${ONBOARDING_FIELDS} } }
    }`,
    from: { input: 'body' },
    status: 201,
  },
  {
    method: 'GET',
    path: '/v1/onboarding/integrations/:id',
    summary: 'The state of an onboarding',
    document: `query OnboardingStatus($id: ID!) { onboarding(id: $id) { ${ONBOARDING_FIELDS} } }`,
    from: { id: 'path.id' },
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/onboarding/integrations/:id/complete',
    summary: 'Complete an onboarding with the code its return_url received',
    document: `mutation CompleteOnboarding($input: CompleteOnboardingInput!) { completeOnboarding(input: $input) { ${ONBOARDING_FIELDS} } }`,
    from: { input: 'body', 'input.id': 'path.id' },
    status: 200,
  },
];

/** The browser hops: no bearer token (a browser follows them), the signed state guards them. */
export function onboardingHops(app: FastifyInstance, services: Services): void {
  const start = () => ({
    operationId: 'onboardingStart',
    summary: "An onboarding's entry_url: sends the browser to the provider's consent form",
    tags: ['onboarding'],
    parameters: [pathParameter('id', 'The onboarding.')],
    responses: {
      ...redirect("To the provider's authorize endpoint, with our redirect_uri, a signed state and a PKCE challenge."),
      '404': REFUSALS['404'],
      default: REFUSALS.default,
    },
  });
  const callback = () => ({
    operationId: 'onboardingCallback',
    summary: 'The redirect_uri registered with every provider',
    tags: ['onboarding'],
    parameters: [
      queryParameter('code', 'The authorization code.'),
      queryParameter('state', 'The state the start hop signed.', true),
      queryParameter('error', "The provider's refusal, if any."),
    ],
    responses: {
      ...redirect("To the onboarding's return_url, with code and onboarding_id added."),
      '400': REFUSALS['400'],
      default: REFUSALS.default,
    },
  });
  app.get<{ Params: { id: string } }>('/v1/onboarding/integrations/:id/start', { config: { openapi: start } }, async (request, reply) => {
    return reply.redirect(await authorizeRedirect(services, request.params.id), 302);
  });
  app.get<{ Querystring: { code?: string; state?: string; error?: string } }>(
    '/v1/onboarding/callback',
    { config: { openapi: callback } },
    async (request, reply) => {
      return reply.redirect(await callbackRedirect(services, request.query), 302);
    },
  );
}
