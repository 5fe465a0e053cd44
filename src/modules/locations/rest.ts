// REST rows for locations (docs/reference.md § Partner API).
import type { RestRoute } from '../../http/rest-route.js';

const SCHEDULE = 'schedule { monday tuesday wednesday thursday friday saturday sunday }';
const ADDRESS =
  'address { formattedAddress addressLine1 addressLine2 addressLine3 postalCode locality administrativeDistrictLevel1 country latitude longitude }';

export const locationRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/v1/onboarding/locations',
    summary: "The merchant's locations (POS) or stores (DSP) of a completed onboarding",
    document: `query OnboardingLocations($onboardingId: ID!) {
      onboardingLocations(onboardingId: $onboardingId) { locations { providerId name source isEligibleToOnboard ${ADDRESS} } }
    }`,
    from: { onboardingId: 'query.onboarding_id' },
    omitNulls: true,
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/onboarding/locations/ingest',
    summary: "Make POS locations the organization's own",
    document: `mutation IngestLocations($input: IngestLocationsInput!) { ingestLocations(input: $input) { locations { id providerId } } }`,
    from: { input: 'body' },
    status: 201,
  },
  {
    method: 'POST',
    path: '/v1/onboarding/locations/bind',
    summary: "Bind the merchant's DSP stores to ingested locations",
    document: `mutation BindDspLocations($input: BindDspLocationsInput!) {
      bindDspLocations(input: $input) { locations { id dspProviderId dspStoreName status } }
    }`,
    from: { input: 'body' },
    status: 201,
  },
  {
    method: 'GET',
    path: '/v1/onboarding/org/:id/locations',
    summary: "The organization's locations with their DSP connections",
    document: `query OrganizationLocations($orgId: ID!, $locationId: ID) {
      organizationLocations(orgId: $orgId, locationId: $locationId) {
        locations {
          id name source status providerId integrationStatus timezone closedDays { date name } openNow opensAt closesAt
          menus { providerId name ${SCHEDULE} } ${ADDRESS}
          dsps { id name source status changeTime integrationStatus pausedUntil dspStatus }
        }
      }
    }`,
    from: { orgId: 'path.id', locationId: 'query.location_id' },
    omitNulls: true,
    keepNulls: ['paused_until'],
    status: 200,
  },
  {
    method: 'DELETE',
    path: '/v1/onboarding/org/:id/locations/:location_id',
    summary: 'Delete a location: its DSP stores are released and the POS is told',
    document: `mutation DeleteLocation($input: DeleteLocationInput!) { deleteLocation(input: $input) { id } }`,
    from: { 'input.orgId': 'path.id', 'input.locationId': 'path.location_id' },
    status: 204,
  },
  {
    method: 'GET',
    path: '/v1/onboarding/org/:id/locations/:location_id/catalog',
    summary: "The location's current catalog from the POS: its menus' provider_ids are what menu assignment takes",
    document: `query LocationCatalog($orgId: ID!, $locationId: ID) {
      organizationLocations(orgId: $orgId, locationId: $locationId) {
        locations { catalog { version fetchedAt currency problems menus { providerId name categoryIds ${SCHEDULE} } categories { providerId name itemIds } } }
      }
    }`,
    from: { orgId: 'path.id', locationId: 'path.location_id' },
    returns: {
      path: 'locations[0].catalog[0]',
      missing: 'no catalog for this location: it is not one of the organization, or its POS catalog has not been fetched yet',
    },
    omitNulls: true,
    status: 200,
  },
];
