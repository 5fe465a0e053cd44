// The onboarding's wire: the record partners read in events (snake_case, docs/reference.md
// § Resources), the OAuth authorization request toward the provider (RFC 6749 § 4.1.1 with
// PKCE, RFC 7636), and the return to the partner's return_url.
import crypto from 'node:crypto';
import type { Onboarding } from './states.js';
import { providerCall, type JsonSchema, type OpenApiOperation } from '../../http/route-docs.js';

/** The onboarding as partners read it in its onboarding.updated event. */
export function onboardingWire(o: Onboarding) {
  return {
    _id: o.id,
    org_id: o.orgId,
    merchant_id: o.orgId,
    type: o.type,
    status: o.status,
    partner_id: o.partnerId,
    partner_org_id: o.partnerOrgId,
    source: o.source,
    entry_url: o.entryUrl,
    return_url: o.returnUrl,
    integration_id: o.integrationId,
  };
}

/** The provider's authorize URL for one authorization: the PKCE challenge of `verifier` (S256). */
export function authorizeUrl(
  endpoint: string,
  request: { clientId: string; redirectUri: string; state: string; verifier: string },
): string {
  const url = new URL(endpoint);
  url.searchParams.set('client_id', request.clientId);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', request.redirectUri);
  url.searchParams.set('state', request.state);
  url.searchParams.set('code_challenge', crypto.createHash('sha256').update(request.verifier).digest('base64url'));
  url.searchParams.set('code_challenge_method', 'S256');
  return url.toString();
}

/** Where the browser goes back to the partner: its return_url with the onboarding and the code,
 * or the provider's error (access_denied when it gave none). */
export function returnUrlWith(returnUrl: string, onboardingId: string, answer: { code?: string; error?: string }): string {
  const back = new URL(returnUrl);
  back.searchParams.set('onboarding_id', onboardingId);
  if (answer.code) back.searchParams.set('code', answer.code);
  else back.searchParams.set('error', answer.error ?? 'access_denied');
  return back.toString();
}

/** A provider's token answer (a POS's or a DSP's), the document's `components.schemas`. */
export const providerTokenSchemas = (): Record<string, JsonSchema> => ({
  ProviderToken: {
    type: 'object',
    description: "A provider's answer to the service's token request.",
    required: ['access_token'],
    properties: {
      access_token: { type: 'string', description: 'Sent back as Authorization: Bearer on every call.' },
      refresh_token: {
        type: 'string',
        description: 'Recommended: without one the merchant must onboard again when the access token expires.',
      },
      expire_time: {
        type: 'number',
        description:
          'When the access token expires: epoch milliseconds, epoch seconds, or a lifetime in seconds. The service refreshes a minute before.',
      },
      refresh_token_expire_time: { type: 'number', description: 'Likewise for the refresh token.' },
      id: { type: 'string', description: "Your id of the grant: the onboarding's integration_id." },
      email: { type: 'string', description: "The merchant's email: a new grant with the same email is the same merchant account." },
      sso_details: { type: 'object', description: 'Anything else; kept as is.', additionalProperties: true },
    },
  },
});

/** The service's token request to a provider, as the OpenAPI document's `webhooks` describe it. */
export function providerTokenDocs(): Record<string, OpenApiOperation> {
  const text = { type: 'string' };
  return {
    'provider token': providerCall(
      'post',
      'To a POS or a DSP: the token request',
      'POST {provider base_url}/v1/token (RFC 6749, with PKCE): JSON, or application/x-www-form-urlencoded for a provider that answered 415 to JSON. The code of the merchant’s authorization, later the refresh token.',
      {
        token: false,
        body: {
          type: 'object',
          required: ['client_id', 'client_secret', 'grant_type'],
          properties: {
            client_id: text,
            client_secret: text,
            grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
            code: text,
            redirect_uri: {
              type: 'string',
              description: '{PUBLIC_URL}/v1/onboarding/callback: allow it among the client’s redirect URIs.',
            },
            code_verifier: text,
            refresh_token: text,
          },
        },
        answers: {
          '2XX': { description: 'The grant.', schema: { $ref: '#/components/schemas/ProviderToken' } },
          '400': {
            description: 'A code used, expired or unknown, or a refresh token refused (invalid_grant): the merchant must authorize again.',
          },
          '401': { description: 'An unknown client or a wrong secret.' },
          '415': { description: 'JSON not taken: the service asks again with a form, and remembers.' },
        },
      },
    ),
  };
}
