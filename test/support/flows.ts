// Steps many tests share: a merchant organization with completed onboardings, over REST.
import { authorizeInBrowser } from './sandbox.js';
import { get, post } from './service.js';

export async function createOrg(base: string, token: string, providerId = `org-${Math.random().toString(36).slice(2)}`) {
  const res = await post(
    base,
    '/v1/onboarding/org',
    { name: `Merchant ${providerId}`, provider_id: providerId, user: { email: `owner@${providerId}.example` } },
    token,
  );
  if (res.status !== 201) throw new Error(`create org: ${res.status} ${JSON.stringify(res.body)}`);
  return { orgId: res.body.org_id as string, providerOrgId: providerId };
}

/** Initializes and completes an onboarding through the browser hops; returns the record. */
export async function completeOnboarding(base: string, token: string, orgId: string, type: 'pos' | 'dsp') {
  const init = await post(
    base,
    '/v1/onboarding/integrations',
    { org_id: orgId, source: type === 'pos' ? 'sandbox-pos' : 'sandbox-dsp', type, return_url: 'https://partner.example/back' },
    token,
  );
  const walk = await authorizeInBrowser(init.body.onboarding.entry_url);
  const done = await post(base, `/v1/onboarding/integrations/${init.body.onboarding._id}/complete`, { code: walk.code }, token);
  if (done.status !== 200) throw new Error(`complete: ${done.status} ${JSON.stringify(done.body)}`);
  return done.body as { _id: string; integration_id: string; org_id: string };
}

export async function ingest(base: string, token: string, onboardingId: string, providerIds: string[]) {
  const res = await post(
    base,
    '/v1/onboarding/locations/ingest',
    { onboarding_id: onboardingId, locations: providerIds.map((provider_id) => ({ provider_id })) },
    token,
  );
  if (res.status !== 201) throw new Error(`ingest: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body.locations as { _id: string }[]).map((l) => l._id);
}

/** The stores the DSP lists for a DSP onboarding's merchant account, by their short names
 * (berlin, berlin_late, austin, brooklyn), as the service's onboarding locations give them. */
export async function dspStores(base: string, token: string, dspOnboardingId: string): Promise<Record<string, string>> {
  const res = await get(base, `/v1/onboarding/locations?onboarding_id=${dspOnboardingId}`, token);
  if (res.status !== 200) throw new Error(`DSP stores: ${res.status} ${JSON.stringify(res.body)}`);
  return Object.fromEntries(
    (res.body.locations as { provider_id: string }[]).map((s) => [s.provider_id.replace(/^store_[^_]+_/, ''), s.provider_id]),
  );
}

export async function bind(base: string, token: string, dspOnboardingId: string, locationId: string, storeId: string) {
  const res = await post(
    base,
    '/v1/onboarding/locations/bind',
    {
      onboarding_id: dspOnboardingId,
      locations: [{ pos_location_id: locationId, dsp_provider_id: storeId, dsp_store_name: `Store ${storeId}` }],
    },
    token,
  );
  if (res.status !== 201) throw new Error(`bind: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.locations[0]._id as string;
}

/** An organization with a POS onboarding, two of its locations and a DSP onboarding whose stores
 * are known, nothing bound yet. */
export async function merchantWithStores(base: string, token: string) {
  const { orgId } = await createOrg(base, token);
  const posOnboarding = await completeOnboarding(base, token, orgId, 'pos');
  const [location, second] = await ingest(base, token, posOnboarding._id, [
    `loc_2_${posOnboarding.integration_id}`,
    `loc_3_${posOnboarding.integration_id}`,
  ]);
  const dsp = await completeOnboarding(base, token, orgId, 'dsp');
  return { orgId, location: location!, second: second!, dsp: dsp._id, stores: await dspStores(base, token, dsp._id) };
}

/** Binds a DSP store to a location and answers as the service did, refusals included. */
export const bindStore = (base: string, token: string, dsp: string, location: string, store: string) =>
  post(
    base,
    '/v1/onboarding/locations/bind',
    { onboarding_id: dsp, locations: [{ pos_location_id: location, dsp_provider_id: store, dsp_store_name: 'Store' }] },
    token,
  );
