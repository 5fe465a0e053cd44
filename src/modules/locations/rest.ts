// REST rows for locations (CONTRACT.md section 1).
import { fromWire, toWire, type RestRoute } from '../../server/rest.js';

const ADDRESS = 'address { formattedAddress addressLine1 addressLine2 addressLine3 postalCode locality administrativeDistrictLevel1 country latitude longitude }';

/** Leaves out the address fields a POS did not give, as SPEC.md's optional fields. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
  }
  return value;
}

export const locationRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/v1/onboarding/locations',
    document: `query OnboardingLocations($onboardingId: ID!) {
      onboardingLocations(onboardingId: $onboardingId) { locations { providerId name source isEligibleToOnboard ${ADDRESS} } }
    }`,
    variables: (req) => ({ onboardingId: req.query.onboarding_id }),
    result: (data) => withoutNulls(toWire(data.onboardingLocations)),
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/onboarding/locations/ingest',
    document: `mutation IngestLocations($input: IngestLocationsInput!) { ingestLocations(input: $input) { locations { id providerId } } }`,
    variables: (req) => ({ input: fromWire(req.body) }),
    result: (data) => toWire(data.ingestLocations),
    status: 201,
  },
  {
    method: 'POST',
    path: '/v1/onboarding/locations/bind',
    document: `mutation BindDspLocations($input: BindDspLocationsInput!) {
      bindDspLocations(input: $input) { locations { id dspProviderId dspStoreName status } }
    }`,
    variables: (req) => ({ input: fromWire(req.body) }),
    result: (data) => toWire(data.bindDspLocations),
    status: 201,
  },
  {
    method: 'GET',
    path: '/v1/onboarding/org/:id/locations',
    document: `query OrganizationLocations($orgId: ID!, $locationId: ID) {
      organizationLocations(orgId: $orgId, locationId: $locationId) {
        locations { id name source status providerId ${ADDRESS} dsps { id name source status changeTime } }
      }
    }`,
    variables: (req) => ({ orgId: req.params.id, locationId: req.query.location_id || null }),
    result: (data) => withoutNulls(toWire(data.organizationLocations)),
    status: 200,
  },
  {
    method: 'DELETE',
    path: '/v1/onboarding/org/:id/locations/:location_id',
    document: `mutation DeleteLocation($input: DeleteLocationInput!) { deleteLocation(input: $input) { id } }`,
    variables: (req) => ({ input: { orgId: req.params.id, locationId: req.params.location_id } }),
    result: () => undefined,
    status: 204,
  },
];
