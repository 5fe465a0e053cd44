// The tenant matrix: every query, mutation and subscription of the schema and every REST row,
// tried against a victim merchant's data by four callers that must not reach it: no token,
// another partner, an organization token of another organization of the same partner, and the
// victim partner's own login without the operation's scope. Each must be refused (401 for no
// token; 403 or 404 otherwise), must not show a victim id it was not given, and must leave the
// victim's data as it was. Operations are read from the schema and the route table, so a new
// one fails this test until it has a row below.
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { parse, type OperationDefinitionNode, type FieldNode } from 'graphql';
import { schema } from '../../src/app/schema.js';
import { restRoutes } from '../../src/app/routes.js';
import { SCOPES, type Scope } from '../../src/common/scopes.js';
import type { SandboxPos } from '../../src/sandbox/pos/server.js';
import { authorizeInBrowser, startPos } from '../support/sandbox.js';
import { bind, completeOnboarding, createOrg, dspStores, ingest } from '../support/flows.js';
import { placeOrder, until } from '../support/orders.js';
import { get, post, request, startTestService, type TestService } from '../support/service.js';
import { saveProvider } from '../../src/integrations/providers.js';
import { signBody } from '../../src/common/signatures.js';

let service: TestService;
let pos: SandboxPos;
/** Where an attacker would point an endpoint: this machine, on a port nothing listens on. */
const ATTACKER_URL = 'https://127.0.0.1:1/attacker';

type Attacker = 'none' | 'otherPartner' | 'otherOrg' | 'noScope';
const ATTACKERS: Attacker[] = ['none', 'otherPartner', 'otherOrg', 'noScope'];

/** The victim's ids, filled in by the set-up. */
const v = {} as {
  partnerId: string;
  clientId: string;
  orgId: string;
  providerOrgId: string;
  posOnboarding: string;
  pendingOnboarding: string;
  pendingCode: string;
  dspOnboarding: string;
  location: string;
  connection: string;
  freeStore: string;
  order: string;
  dead: string;
  endpoint: string;
  event: string;
};
const tokens = {} as Record<Exclude<Attacker, 'none' | 'noScope'>, string> & { withoutScope: Partial<Record<Scope, string>> };

/**
 * One row per GraphQL operation: the call on the victim's data, the scope it needs (null: any
 * token), and the callers for which it acts on their own tenancy instead (creating their own
 * organization, listing their own deliveries): those may succeed, but still must not show or
 * change the victim's data.
 */
type OperationRow = { call: () => { query: string; variables?: Record<string, unknown> }; scope: Scope | null; own?: Attacker[] };
const op = (query: string, variables?: Record<string, unknown>) => () => ({ query, variables });
const contexts = () => ({ partnerId: v.partnerId, key: 'victim-flag', contexts: [{ key: 'ctx-1' }] });

const operations: Record<string, OperationRow> = {
  // Queries
  deliveries: { call: op('{ deliveries(status: "dead") { id } }'), scope: null, own: ['otherPartner', 'otherOrg'] },
  evaluateFlag: {
    call: () => op(`{ evaluateFlag(partnerId: "${v.partnerId}", flagKey: "victim-flag", key: "k") { value } }`)(),
    scope: null,
  },
  onboarding: { call: () => op(`{ onboarding(id: "${v.posOnboarding}") { id } }`)(), scope: 'onboarding' },
  onboardingLocations: {
    call: () => op(`{ onboardingLocations(onboardingId: "${v.dspOnboarding}") { __typename } }`)(),
    scope: 'onboarding',
  },
  order: { call: () => op(`{ order(id: "${v.order}") { id } }`)(), scope: 'user' },
  orders: { call: () => op(`{ orders(orgId: "${v.orgId}") { orders { id } } }`)(), scope: 'user' },
  orderStats: {
    call: () => op(`{ orderStats(orgId: "${v.orgId}", from: ${Date.now() - 3600_000}, to: ${Date.now()}) { failures { reason } } }`)(),
    scope: 'user',
  },
  organization: {
    call: () => op(`{ organization(id: "${v.orgId}") { id eventProvider eventProviderInUse eventProviderChoices } }`)(),
    scope: 'user',
  },
  // Only a dashboard session has a `me`; for any token it is null, about no one.
  me: { call: op('{ me { user { id } organization { id } } }'), scope: null, own: ['otherPartner', 'otherOrg'] },
  // The deployment's registrations and their display names: no tenant's data, any token reads them.
  providers: { call: op('{ providers { source kind name } }'), scope: null, own: ['otherPartner', 'otherOrg'] },
  organizationLocations: { call: () => op(`{ organizationLocations(orgId: "${v.orgId}") { __typename } }`)(), scope: 'onboarding' },
  searchContexts: { call: () => op(`{ searchContexts(partnerId: "${v.partnerId}") { __typename } }`)(), scope: null },
  // Mutations
  addFlagContexts: {
    call: () => op('mutation($i: ChangeContextsInput!) { addFlagContexts(input: $i) { __typename } }', { i: contexts() })(),
    scope: null,
  },
  removeFlagContexts: {
    call: () => op('mutation($i: ChangeContextsInput!) { removeFlagContexts(input: $i) { __typename } }', { i: contexts() })(),
    scope: null,
  },
  addSegmentContexts: {
    call: () => op('mutation($i: ChangeContextsInput!) { addSegmentContexts(input: $i) { __typename } }', { i: contexts() })(),
    scope: null,
  },
  removeSegmentContexts: {
    call: () => op('mutation($i: ChangeContextsInput!) { removeSegmentContexts(input: $i) { __typename } }', { i: contexts() })(),
    scope: null,
  },
  assignMenus: {
    call: () =>
      op('mutation($i: AssignMenusInput!) { assignMenus(input: $i) { __typename } }', {
        i: { orgId: v.orgId, dspLocationId: v.connection, menuProviderIds: [] },
      })(),
    scope: 'onboarding',
  },
  bindDspLocations: {
    call: () =>
      op('mutation($i: BindDspLocationsInput!) { bindDspLocations(input: $i) { __typename } }', {
        i: { onboardingId: v.dspOnboarding, locations: [{ posLocationId: v.location, dspProviderId: v.freeStore, dspStoreName: 'Mine' }] },
      })(),
    scope: 'onboarding',
  },
  completeOnboarding: {
    call: () =>
      op('mutation($i: CompleteOnboardingInput!) { completeOnboarding(input: $i) { id } }', {
        i: { id: v.pendingOnboarding, code: v.pendingCode },
      })(),
    scope: 'onboarding',
  },
  createOrganization: {
    call: op(
      'mutation { createOrganization(input: { name: "Mine", providerId: "attacker-org", user: { email: "me@mine.example" } }) { __typename } }',
    ),
    scope: 'user',
    own: ['otherPartner'],
  },
  createPartnerToken: {
    call: () =>
      op('mutation($i: CreatePartnerTokenInput!) { createPartnerToken(input: $i) { __typename } }', {
        i: { orgId: v.orgId, tokenName: 'mine', scopes: ['user'] },
      })(),
    scope: null,
  },
  deleteLocation: {
    call: () =>
      op('mutation($i: DeleteLocationInput!) { deleteLocation(input: $i) { __typename } }', {
        i: { orgId: v.orgId, locationId: v.location },
      })(),
    scope: 'onboarding',
  },
  generateSsoSession: {
    call: () =>
      op('mutation($i: GenerateSsoSessionInput!) { generateSsoSession(input: $i) { __typename } }', {
        i: { email: 'me@mine.example', fullName: 'Me', phoneNumber: '1', providerOrgId: v.providerOrgId },
      })(),
    scope: 'sso',
  },
  ingestLocations: {
    call: () =>
      op('mutation($i: IngestLocationsInput!) { ingestLocations(input: $i) { __typename } }', {
        i: { onboardingId: v.posOnboarding, locations: [{ providerId: 'loc_3_x' }] },
      })(),
    scope: 'onboarding',
  },
  pauseStores: {
    call: () =>
      op('mutation($i: PauseStoresInput!) { pauseStores(input: $i) { __typename } }', { i: { orgId: v.orgId, locationId: v.location } })(),
    scope: 'onboarding',
  },
  resumeStores: {
    call: () =>
      op('mutation($i: ResumeStoresInput!) { resumeStores(input: $i) { __typename } }', {
        i: { orgId: v.orgId, locationId: v.location, dspLocationIds: [v.connection] },
      })(),
    scope: 'onboarding',
  },
  setLocationBusy: {
    call: () =>
      op('mutation($i: SetLocationBusyInput!) { setLocationBusy(input: $i) { __typename } }', {
        i: { orgId: v.orgId, locationId: v.location, extraPrepMinutes: 20 },
      })(),
    scope: 'onboarding',
  },
  endLocationBusy: {
    call: () =>
      op('mutation($i: EndLocationBusyInput!) { endLocationBusy(input: $i) { __typename } }', {
        i: { orgId: v.orgId, locationId: v.location },
      })(),
    scope: 'onboarding',
  },
  setItemAvailability: {
    call: () =>
      op('mutation($i: SetItemAvailabilityInput!) { setItemAvailability(input: $i) { __typename } }', {
        i: { orgId: v.orgId, locationId: v.location, itemIds: ['item_us_rings'], available: false },
      })(),
    scope: 'onboarding',
  },
  itemAvailability: {
    call: () => op(`{ itemAvailability(orgId: "${v.orgId}", locationId: "${v.location}") { unavailable { itemId } } }`)(),
    scope: 'onboarding',
  },
  initializeOnboarding: {
    call: () =>
      op('mutation($i: InitializeOnboardingInput!) { initializeOnboarding(input: $i) { __typename } }', {
        i: { orgId: v.orgId, source: 'sandbox-pos', type: 'pos', returnUrl: 'https://mine.example' },
      })(),
    scope: 'onboarding',
  },
  redeliver: { call: () => op(`mutation { redeliver(id: "${v.dead}") { id } }`)(), scope: null },
  dailyStatements: {
    call: () =>
      op(`{ dailyStatements(orgId: "${v.orgId}", locationId: "${v.location}", from: "2026-01-01", to: "2026-01-01") { date } }`)(),
    scope: 'user',
  },
  setPlatformCommission: {
    call: () =>
      op('mutation($i: SetPlatformCommissionInput!) { setPlatformCommission(input: $i) { orgId } }', {
        i: { orgId: v.orgId, source: 'sandbox-dsp', commissionPercent: 99 },
      })(),
    scope: 'onboarding',
  },
  setEventProvider: {
    call: () =>
      op('mutation($i: SetEventProviderInput!) { setEventProvider(input: $i) { orgId } }', {
        i: { orgId: v.orgId, source: 'rogue-events' },
      })(),
    scope: 'onboarding',
  },
  // The token call authenticates the client itself: the victim's client id without its secret.
  token: {
    call: () =>
      op(
        `mutation { token(input: { grantType: client_credentials, clientId: "${v.clientId}", clientSecret: "guessed" }) { __typename } }`,
      )(),
    scope: null,
  },
  events: { call: () => op(`{ events(orgId: "${v.orgId}", limit: 100) { events { id } } }`)(), scope: 'user', own: ['otherPartner'] },
  webhookEndpoints: { call: op('{ webhookEndpoints { endpoints { id url } } }'), scope: null, own: ['otherPartner'] },
  webhookEndpoint: { call: () => op(`{ webhookEndpoint(id: "${v.endpoint}") { id url } }`)(), scope: null },
  webhookAttempts: { call: () => op(`{ webhookAttempts(endpointId: "${v.endpoint}") { attempts { eventId } } }`)(), scope: null },
  createWebhookEndpoint: {
    call: () =>
      op('mutation($i: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $i) { id } }', {
        i: { url: ATTACKER_URL, orgId: v.orgId },
      })(),
    scope: null,
  },
  updateWebhookEndpoint: {
    call: () =>
      op('mutation($i: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(input: $i) { id } }', {
        i: { id: v.endpoint, url: ATTACKER_URL },
      })(),
    scope: null,
  },
  deleteWebhookEndpoint: { call: () => op(`mutation { deleteWebhookEndpoint(id: "${v.endpoint}") { id } }`)(), scope: null },
  rotateWebhookEndpointSecret: {
    call: () => op(`mutation { rotateWebhookEndpointSecret(id: "${v.endpoint}") { secret } }`)(),
    scope: null,
  },
  resendWebhookEvents: {
    call: () =>
      op('mutation($i: ResendWebhookEventsInput!) { resendWebhookEvents(input: $i) { queued } }', {
        i: { endpointId: v.endpoint, eventId: v.event },
      })(),
    scope: null,
  },
  requestErasure: {
    call: () =>
      op('mutation($i: RequestErasureInput!) { requestErasure(input: $i) { ordersRedacted } }', {
        i: { orgId: v.orgId, phone: '+15125550123' },
      })(),
    scope: 'user',
  },
  // Subscriptions
  onboardingUpdated: {
    call: () => op('subscription($id: ID!) { onboardingUpdated(id: $id) { id } }', { id: v.pendingOnboarding })(),
    scope: 'onboarding',
  },
  orderUpdated: { call: () => op('subscription($orgId: ID!) { orderUpdated(orgId: $orgId) { id } }', { orgId: v.orgId })(), scope: 'user' },
  organizationChanged: {
    call: () => op('subscription($orgId: ID!) { organizationChanged(orgId: $orgId) { id } }', { orgId: v.orgId })(),
    scope: 'user',
  },
};

/** One row per REST row: the request on the victim's data. Scope and own-tenancy callers come
 * from the GraphQL operation the row runs. */
type RestCall = { path: () => string; body?: () => unknown };
const rest: Record<string, RestCall> = {
  'POST /v1/oauth/partner-tokens': {
    path: () => '/v1/oauth/partner-tokens',
    body: () => ({ org_id: v.orgId, token_name: 'mine', scopes: ['user'] }),
  },
  'POST /v1/onboarding/org': {
    path: () => '/v1/onboarding/org',
    body: () => ({ name: 'Mine', provider_id: 'attacker-org', user: { email: 'me@mine.example' } }),
  },
  'POST /v1/onboarding/integrations': {
    path: () => '/v1/onboarding/integrations',
    body: () => ({ org_id: v.orgId, source: 'sandbox-pos', type: 'pos', return_url: 'https://mine.example' }),
  },
  'GET /v1/onboarding/integrations/:id': { path: () => `/v1/onboarding/integrations/${v.posOnboarding}` },
  'POST /v1/onboarding/integrations/:id/complete': {
    path: () => `/v1/onboarding/integrations/${v.pendingOnboarding}/complete`,
    body: () => ({ code: v.pendingCode }),
  },
  'GET /v1/onboarding/locations': { path: () => `/v1/onboarding/locations?onboarding_id=${v.dspOnboarding}` },
  'POST /v1/onboarding/locations/ingest': {
    path: () => '/v1/onboarding/locations/ingest',
    body: () => ({ onboarding_id: v.posOnboarding, locations: [{ provider_id: 'loc_3_x' }] }),
  },
  'POST /v1/onboarding/locations/bind': {
    path: () => '/v1/onboarding/locations/bind',
    body: () => ({
      onboarding_id: v.dspOnboarding,
      locations: [{ pos_location_id: v.location, dsp_provider_id: v.freeStore, dsp_store_name: 'Mine' }],
    }),
  },
  'PUT /v1/onboarding/menus': {
    path: () => '/v1/onboarding/menus',
    body: () => ({ org_id: v.orgId, dsp_location_id: v.connection, menu_provider_ids: [] }),
  },
  'GET /v1/onboarding/org/:id/locations': { path: () => `/v1/onboarding/org/${v.orgId}/locations` },
  'PUT /v1/onboarding/org/:id/event-provider': {
    path: () => `/v1/onboarding/org/${v.orgId}/event-provider`,
    body: () => ({ source: null }),
  },
  'GET /v1/onboarding/org/:id/locations/:location_id/catalog': {
    path: () => `/v1/onboarding/org/${v.orgId}/locations/${v.location}/catalog`,
  },
  'DELETE /v1/onboarding/org/:id/locations/:location_id': { path: () => `/v1/onboarding/org/${v.orgId}/locations/${v.location}` },
  'POST /v1/onboarding/org/:id/locations/:location_id/pause': {
    path: () => `/v1/onboarding/org/${v.orgId}/locations/${v.location}/pause`,
    body: () => ({}),
  },
  'POST /v1/onboarding/org/:id/locations/:location_id/resume': {
    path: () => `/v1/onboarding/org/${v.orgId}/locations/${v.location}/resume`,
    body: () => ({ dsp_location_ids: [v.connection] }),
  },
  'POST /v1/onboarding/org/:id/locations/:location_id/busy': {
    path: () => `/v1/onboarding/org/${v.orgId}/locations/${v.location}/busy`,
    body: () => ({ extra_prep_minutes: 20 }),
  },
  'DELETE /v1/onboarding/org/:id/locations/:location_id/busy': {
    path: () => `/v1/onboarding/org/${v.orgId}/locations/${v.location}/busy`,
  },
  'PUT /v1/onboarding/org/:id/locations/:location_id/availability': {
    path: () => `/v1/onboarding/org/${v.orgId}/locations/${v.location}/availability`,
    body: () => ({ item_ids: ['item_us_rings'], available: false }),
  },
  'GET /v1/onboarding/org/:id/locations/:location_id/availability': {
    path: () => `/v1/onboarding/org/${v.orgId}/locations/${v.location}/availability`,
  },
  'POST /v1/sso/sessions': {
    path: () => '/v1/sso/sessions',
    body: () => ({ email: 'me@mine.example', full_name: 'Me', phone_number: '1', provider_org_id: v.providerOrgId }),
  },
  'POST /v1/flags/:key/contexts': {
    path: () => `/v1/flags/victim-flag/contexts?partner_id=${v.partnerId}`,
    body: () => ({ contexts: [{ key: 'ctx-1' }] }),
  },
  'DELETE /v1/flags/:key/contexts': {
    path: () => `/v1/flags/victim-flag/contexts?partner_id=${v.partnerId}`,
    body: () => ({ contexts: [{ key: 'ctx-1' }] }),
  },
  'POST /v1/segments/:key/contexts': {
    path: () => `/v1/segments/victim-segment/contexts?partner_id=${v.partnerId}`,
    body: () => ({ contexts: [{ key: 'ctx-1' }] }),
  },
  'DELETE /v1/segments/:key/contexts': {
    path: () => `/v1/segments/victim-segment/contexts?partner_id=${v.partnerId}`,
    body: () => ({ contexts: [{ key: 'ctx-1' }] }),
  },
  'GET /v1/contexts': { path: () => `/v1/contexts?partner_id=${v.partnerId}` },
  'POST /v1/privacy/erasures': { path: () => '/v1/privacy/erasures', body: () => ({ org_id: v.orgId, phone: '+15125550123' }) },
  'GET /v1/events': { path: () => `/v1/events?org_id=${v.orgId}&limit=100` },
  'GET /v1/orders/:id': { path: () => `/v1/orders/${v.order}` },
  'PUT /v1/organizations/:id/platforms/:source': {
    path: () => `/v1/organizations/${v.orgId}/platforms/sandbox-dsp`,
    body: () => ({ commission_percent: 99 }),
  },
  'POST /v1/webhook-endpoints': { path: () => '/v1/webhook-endpoints', body: () => ({ url: ATTACKER_URL, org_id: v.orgId }) },
  'GET /v1/webhook-endpoints': { path: () => '/v1/webhook-endpoints' },
  'GET /v1/webhook-endpoints/:id': { path: () => `/v1/webhook-endpoints/${v.endpoint}` },
  'PATCH /v1/webhook-endpoints/:id': { path: () => `/v1/webhook-endpoints/${v.endpoint}`, body: () => ({ url: ATTACKER_URL }) },
  'DELETE /v1/webhook-endpoints/:id': { path: () => `/v1/webhook-endpoints/${v.endpoint}` },
  'POST /v1/webhook-endpoints/:id/rotate-secret': { path: () => `/v1/webhook-endpoints/${v.endpoint}/rotate-secret`, body: () => ({}) },
  'GET /v1/webhook-endpoints/:id/attempts': { path: () => `/v1/webhook-endpoints/${v.endpoint}/attempts` },
  'POST /v1/webhook-endpoints/:id/resend': {
    path: () => `/v1/webhook-endpoints/${v.endpoint}/resend`,
    body: () => ({ event_id: v.event }),
  },
  'POST /v1/flags/:key/evaluate': { path: () => `/v1/flags/victim-flag/evaluate?partner_id=${v.partnerId}`, body: () => ({ key: 'k' }) },
};

beforeAll(async () => {
  // Endpoints on this machine only (WEBHOOK_ALLOW_PRIVATE): the victim's gets its events at a port
  // nothing listens on, and nothing is ever sent beyond 127.0.0.1.
  service = await startTestService({
    OUTBOX_RETRY_BASE_MS: '50',
    OUTBOX_RETRY_MAX_MS: '100',
    OUTBOX_MAX_ATTEMPTS: '1',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  pos = await startPos(service);
  const victim = await service.partner();
  const t = victim.token;
  const endpoint = (await post(service.url, '/v1/webhook-endpoints', { url: 'https://127.0.0.1:1/victim' }, t)).body._id as string;
  const { orgId, providerOrgId } = await createOrg(service.url, t, 'victim-org');
  const posOnboarding = await completeOnboarding(service.url, t, orgId, 'pos');
  const [location] = await ingest(service.url, t, posOnboarding._id, [`loc_2_${posOnboarding.integration_id}`]);
  const dsp = await completeOnboarding(service.url, t, orgId, 'dsp');
  const stores = await dspStores(service.url, t, dsp._id);
  const connection = await bind(service.url, t, dsp._id, location!, stores.austin!);
  const pending = (
    await post(
      service.url,
      '/v1/onboarding/integrations',
      { org_id: orgId, source: 'sandbox-pos', type: 'pos', return_url: 'https://partner.example/back' },
      t,
    )
  ).body.onboarding;
  const walk = await authorizeInBrowser(pending.entry_url);
  // A catalog, so that the catalog row has something to leak.
  await fetch(`${pos.url}/v1/_sandbox/catalog-updated`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ location_id: `loc_2_${posOnboarding.integration_id}` }),
  });
  await until(async () => (await get(service.url, `/v1/onboarding/org/${orgId}/locations/${location}/catalog`, t)).status === 200);
  await pos.waitFor('/v1/notifications', 1);
  const order = await placeOrder(pos, stores.austin!);
  await pos.waitFor('/v1/orders', 1);
  await fetch(`${pos.url}/v1/_sandbox/fail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path: '/v1/orders', count: 1, status: 400 }),
  });
  const refused = await placeOrder(pos, stores.austin!);
  const dead = await until(() =>
    service.services.db.outboxMessage.findFirst({
      where: { idempotencyKey: `order.created:${refused.body.order_id}`, status: 'dead' },
    }),
  );
  // Everything the setup set going has ended (the refusal's order.failed to the victim's
  // endpoint waits its turn behind order.created, up to a poll of the sender): the matrix
  // compares the victim's rows before and after, and only an attack may change them.
  await until(async () => !(await service.services.db.outboxMessage.count({ where: { partnerId: victim.partnerId, status: 'pending' } })));
  Object.assign(v, {
    partnerId: victim.partnerId,
    clientId: victim.clientId,
    orgId,
    providerOrgId,
    posOnboarding: posOnboarding._id,
    pendingOnboarding: pending._id,
    pendingCode: walk.code,
    dspOnboarding: dsp._id,
    location: location!,
    connection,
    freeStore: stores.brooklyn!,
    order: order.body.order_id!,
    dead: dead.id,
    endpoint,
    event: (await service.services.db.event.findFirstOrThrow({ where: { partnerId: victim.partnerId } })).id,
  });

  tokens.otherPartner = (await service.partner()).token;
  const { orgId: sibling } = await createOrg(service.url, t);
  tokens.otherOrg = (
    await post(service.url, '/v1/oauth/partner-tokens', { org_id: sibling, token_name: 'sibling', scopes: [...SCOPES] }, t)
  ).body.access_token;
  tokens.withoutScope = {};
  for (const scope of SCOPES) {
    const others = SCOPES.filter((s) => s !== scope);
    const res = await post(service.url, '/v1/oauth/token', {
      grant_type: 'client_credentials',
      client_id: victim.clientId,
      client_secret: victim.clientSecret,
      scopes: others,
    });
    tokens.withoutScope[scope] = res.body.access_token;
  }
});
afterAll(async () => {
  await pos?.close();
  await service?.stop();
});

/** The victim's rows, as far as any of these calls could change them. */
async function victimState() {
  const db = service.services.db;
  const mine = { partnerId: v.partnerId };
  const [orgs, users, onboardings, locations, connections, outbox, orders, sessions, flags, segments, sso, endpoints] = await Promise.all([
    db.organization.findMany({ where: mine, select: { id: true, name: true, eventProvider: true }, orderBy: { id: 'asc' } }),
    db.user.findMany({ where: { orgId: v.orgId }, select: { id: true, role: true, fullName: true }, orderBy: { id: 'asc' } }),
    db.onboarding.findMany({ where: mine, select: { id: true, status: true, codeHash: true }, orderBy: { id: 'asc' } }),
    db.location.findMany({
      where: mine,
      select: { id: true, status: true, availabilityVersion: true, unavailable: true },
      orderBy: { id: 'asc' },
    }),
    db.store.findMany({
      where: mine,
      select: { id: true, status: true, assignedMenus: true, boundStoreId: true, pausedAt: true, pausedUntil: true, dspStatus: true },
      orderBy: { id: 'asc' },
    }),
    db.outboxMessage.findMany({ where: mine, select: { id: true, status: true, attempts: true }, orderBy: { id: 'asc' } }),
    db.order.findMany({ where: mine, select: { id: true, status: true, body: true, redactedAt: true }, orderBy: { id: 'asc' } }),
    db.session.count({ where: mine }),
    db.flag.findMany({ where: mine, select: { key: true, targets: { select: { key: true } } } }),
    db.segment.findMany({ where: mine, select: { key: true, members: { select: { key: true } } } }),
    db.ssoToken.count({ where: { user: { orgId: v.orgId } } }),
    db.webhookEndpoint.findMany({ where: mine, select: { id: true, url: true, status: true, secretEnc: true } }),
  ]);
  return { orgs, users, onboardings, locations, connections, outbox, orders, sessions, flags, segments, sso, endpoints };
}

function tokenOf(attacker: Attacker, scope: Scope | null): string | undefined | null {
  if (attacker === 'none') return undefined;
  if (attacker === 'noScope') return scope ? tokens.withoutScope[scope]! : null;
  return tokens[attacker];
}

/** Victim ids in an answer that the request did not carry: a leak. */
function leakedIds(answer: unknown, asked: unknown): string[] {
  const text = JSON.stringify(answer);
  const given = JSON.stringify(asked);
  return Object.values(v).filter((id) => id && text.includes(id) && !given.includes(id));
}

function expectRefused(attacker: Attacker, own: boolean, status: number | undefined) {
  if (attacker === 'none') return expect(status).toBe(401);
  if (!own) expect([401, 403, 404]).toContain(status);
}

/** A graphql-ws subscription's refusal status, or the number of events it got. */
function subscribeOnce(token: string | undefined, call: { query: string; variables?: Record<string, unknown> }) {
  return new Promise<{ status?: number; events: number; answer: unknown[] }>((resolve) => {
    const client = createClient({
      url: `${service.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: token ? { authorization: `Bearer ${token}` } : {},
      retryAttempts: 0,
    });
    const answer: unknown[] = [];
    let status: number | undefined;
    let events = 0;
    const end = () => {
      void client.dispose();
      resolve({ status, events, answer });
    };
    client.subscribe(call, {
      next: (result) => {
        answer.push(result);
        if (result.data) events += 1;
        status ??= (result.errors?.[0]?.extensions as { statusCode?: number } | undefined)?.statusCode;
      },
      error: (error) => {
        answer.push(error);
        status ??= ((Array.isArray(error) ? error[0] : error) as { extensions?: { statusCode?: number } }).extensions?.statusCode;
        end();
      },
      complete: end,
    });
  });
}

const schemaOperations = () =>
  [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].flatMap((type) => Object.keys(type?.getFields() ?? {}));
const restRowKey = (route: { method: string | string[]; path: string }) => `${route.method} ${route.path}`;

test('every operation of the schema and every REST row has a row in the matrix', () => {
  expect(schemaOperations().filter((name) => !operations[name])).toEqual([]);
  expect(restRoutes.map(restRowKey).filter((key) => !rest[key])).toEqual([]);
  // And the matrix names nothing that no longer exists.
  expect(Object.keys(operations).filter((name) => !schemaOperations().includes(name))).toEqual([]);
  expect(Object.keys(rest).filter((key) => !restRoutes.map(restRowKey).includes(key))).toEqual([]);
});

const subscriptionNames = () => Object.keys(schema.getSubscriptionType()?.getFields() ?? {});

test('GraphQL: no operation reaches the victim for any of the four callers, and nothing changes', async () => {
  const before = await victimState();
  const tried: string[] = [];
  for (const name of schemaOperations()) {
    const row = operations[name]!;
    for (const attacker of ATTACKERS) {
      const token = tokenOf(attacker, row.scope);
      if (token === null) continue; // no scope to take away
      const call = row.call();
      const own = row.own?.includes(attacker) ?? false;
      if (subscriptionNames().includes(name)) {
        const { status, events, answer } = await subscribeOnce(token, call);
        expect({ name, attacker, events, leaked: leakedIds(answer, call) }).toEqual({ name, attacker, events: 0, leaked: [] });
        expectRefused(attacker, own, status);
      } else {
        const res = await request(service.url, 'POST', '/graphql', { token, body: call });
        const status = res.body?.errors?.[0]?.extensions?.statusCode as number | undefined;
        expect({ name, attacker, leaked: leakedIds(res.body, call) }).toEqual({ name, attacker, leaked: [] });
        try {
          expectRefused(attacker, own, status);
        } catch (error) {
          throw new Error(`${name} as ${attacker}: ${JSON.stringify(res.body)}\n${String(error)}`);
        }
      }
      tried.push(`${name}/${attacker}`);
    }
  }
  expect(await victimState()).toEqual(before);
  expect(tried.length).toBeGreaterThanOrEqual(schemaOperations().length * 3);
});

test('REST: no row reaches the victim for any of the four callers, and nothing changes', async () => {
  const before = await victimState();
  for (const route of restRoutes) {
    const key = restRowKey(route);
    const field = ((parse(route.document).definitions[0] as OperationDefinitionNode).selectionSet.selections[0] as FieldNode).name.value;
    const { scope, own: ownFor } = operations[field]!;
    const call = rest[key]!;
    for (const attacker of ATTACKERS) {
      const token = tokenOf(attacker, scope);
      if (token === null) continue;
      const path = call.path();
      const body = call.body?.();
      const res = await request(service.url, String(route.method), path, { token, body });
      const own = ownFor?.includes(attacker) ?? false;
      expect({ key, attacker, leaked: leakedIds(res.body, { path, body }) }).toEqual({ key, attacker, leaked: [] });
      try {
        expectRefused(attacker, own, res.status);
        if (!own) expect(res.body).toMatchObject({ statusCode: res.status, code: expect.any(String), message: expect.any(String) });
      } catch (error) {
        throw new Error(`${key} as ${attacker}: ${res.status} ${JSON.stringify(res.body)}\n${String(error)}`);
      }
    }
  }
  expect(await victimState()).toEqual(before);
});

// The end of day's REST read is a plain handler (it answers JSON or CSV), not a row: tried here
// as the rows are, both ways, with the scope of the operation it answers as (dailyStatements).
test('REST: GET /v1/reports/daily reaches no victim for any of the four callers, as JSON or CSV', async () => {
  for (const accept of ['application/json', 'text/csv'])
    for (const attacker of ATTACKERS) {
      const token = tokenOf(attacker, 'user');
      if (token === null) continue;
      const path = `/v1/reports/daily?org_id=${v.orgId}&location_id=${v.location}&from=2026-01-01&to=2026-01-01`;
      const res = await request(service.url, 'GET', path, { token, headers: { accept } });
      expect({ attacker, leaked: leakedIds(res.body, { path }) }).toEqual({ attacker, leaked: [] });
      expectRefused(attacker, false, res.status);
      expect(res.body).toMatchObject({ statusCode: res.status, code: expect.any(String), message: expect.any(String) });
    }
});

/** Providers are callers too: a registered POS, DSP and event provider of their own, each signing
 * correctly with its own secret, try every webhook that names an order on the victim's. */
test("webhooks: another registered provider reaches none of the victim's orders, stores or items, and nothing changes", async () => {
  const rogues = { pos: 'rogue-pos', dsp: 'rogue-dsp', 'event-providers': 'rogue-events' } as const;
  const secret = 'rogue-secret-0123456789';
  for (const [channel, source] of Object.entries(rogues))
    await saveProvider(service.services, {
      source,
      kind: channel === 'event-providers' ? 'event_provider' : (channel as 'pos' | 'dsp'),
      base_url: 'http://127.0.0.1:9',
      client_id: 'rogue',
      client_secret: 'rogue',
      webhook_secret: secret,
    });
  const order = await service.services.db.order.findUniqueOrThrow({ where: { id: v.order } });
  const location = await service.services.db.location.findUniqueOrThrow({ where: { id: v.location } });
  const attempts: [keyof typeof rogues, string, Record<string, unknown>][] = [
    ['pos', 'order.updated', { order_id: v.order, status: 'completed' }],
    ['pos', 'location.items.availability', { location_id: location.providerId, item_ids: ['item_us_rings'], available: false }],
    ['dsp', 'order.canceled', { dsp_order_id: order.dspOrderId, dsp_store_id: order.dspStoreId }],
    ['dsp', 'store.status', { dsp_store_id: order.dspStoreId, status: 'paused' }],
    ['event-providers', 'order.assign.driver', { order_id: v.order, location_id: location.providerId, driver: { name: 'Mallory' } }],
    [
      'event-providers',
      'order.delivery_status.updated',
      { order_id: v.order, location_id: location.providerId, delivery_status: 'delivered' },
    ],
  ];
  const before = await victimState();
  const driver = order.driver;
  for (const [channel, type, object] of attempts) {
    const body = JSON.stringify({ type, object });
    const res = await request(service.url, 'POST', `/v1/webhooks/${channel}/${rogues[channel]}`, {
      raw: body,
      headers: { 'content-type': 'application/json', 'webhook-id': `${type}-rogue`, 'service-webhook-signature': signBody(body, secret) },
    });
    expect({ type, status: res.status, code: res.body?.code }).toEqual({ type, status: 404, code: 'not_found' });
  }
  expect(await victimState()).toEqual(before);
  expect((await service.services.db.order.findUniqueOrThrow({ where: { id: v.order } })).driver).toBe(driver);
});
