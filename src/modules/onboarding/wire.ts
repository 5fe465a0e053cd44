// The onboarding's wire: the record partners read in events (snake_case, docs/reference.md
// § Resources), the OAuth authorization request toward the provider (RFC 6749 § 4.1.1 with
// PKCE, RFC 7636), and the return to the partner's return_url.
import crypto from 'node:crypto';
import type { Onboarding } from './states.js';

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
