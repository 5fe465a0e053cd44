// REST rows for stores that stop and start: pause, resume, items off sale.
import type { RestRoute } from '../../http/rest-route.js';

const PAUSED = 'locations { id dspProviderId dspStoreName status pausedUntil }';
const at = { 'input.orgId': 'path.id', 'input.locationId': 'path.location_id' } as const;

const BUSY = 'locationId extraPrepMinutes untilMs prepTimeMinutes';

export const storeRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/v1/onboarding/org/:id/locations/:location_id/busy',
    summary:
      'Keep the location taking orders, each quoted extra_prep_minutes (5-120) more, until until_ms or ended; each bound store is told',
    document: `mutation SetLocationBusy($input: SetLocationBusyInput!) { setLocationBusy(input: $input) { ${BUSY} } }`,
    from: { ...at, 'input.extraPrepMinutes': 'body.extra_prep_minutes', 'input.untilMs': 'body.until_ms' },
    status: 200,
  },
  {
    method: 'DELETE',
    path: '/v1/onboarding/org/:id/locations/:location_id/busy',
    summary: 'End the location’s busy spell; each bound store is told the base prep time again',
    document: `mutation EndLocationBusy($input: EndLocationBusyInput!) { endLocationBusy(input: $input) { ${BUSY} } }`,
    from: at,
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/onboarding/org/:id/locations/:location_id/pause',
    summary: "Pause the location's DSP stores (or those named), until until_ms or until resumed",
    document: `mutation PauseStores($input: PauseStoresInput!) { pauseStores(input: $input) { ${PAUSED} } }`,
    from: { ...at, 'input.untilMs': 'body.until_ms', 'input.dspLocationIds': 'body.dsp_location_ids' },
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/onboarding/org/:id/locations/:location_id/resume',
    summary: "Resume the location's DSP stores (or those named)",
    document: `mutation ResumeStores($input: ResumeStoresInput!) { resumeStores(input: $input) { ${PAUSED} } }`,
    from: { ...at, 'input.dspLocationIds': 'body.dsp_location_ids' },
    status: 200,
  },
  {
    method: 'PUT',
    path: '/v1/onboarding/org/:id/locations/:location_id/availability',
    summary: 'Take items or modifiers of the location’s catalog off sale (available: false, until until_ms or put back), or put them back',
    document: `mutation SetItemAvailability($input: SetItemAvailabilityInput!) { setItemAvailability(input: $input) { unavailable { itemId untilMs } } }`,
    from: { ...at, 'input.itemIds': 'body.item_ids', 'input.available': 'body.available', 'input.untilMs': 'body.until_ms' },
    status: 200,
  },
  {
    method: 'GET',
    path: '/v1/onboarding/org/:id/locations/:location_id/availability',
    summary: 'The location’s items and modifiers off sale now',
    document: `query ItemAvailability($orgId: ID!, $locationId: ID!) { itemAvailability(orgId: $orgId, locationId: $locationId) { unavailable { itemId untilMs } } }`,
    from: { orgId: 'path.id', locationId: 'path.location_id' },
    status: 200,
  },
];
