// The onboarding walk over GraphQL, with the live onboardingUpdated subscription over
// graphql-ws and server-sent events.
import { GraphQLClient } from 'graphql-request';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { print } from 'graphql';
import { graphql } from '../../generated/gql.js';
import type { SandboxPos } from '../../../src/sandbox/pos/server.js';
import { authorizeInBrowser, startPos } from '../../support/sandbox.js';
import { startTestService, type TestService } from '../../support/service.js';
import { subscribed } from '../../support/orders.js';

let service: TestService;
let pos: SandboxPos;
beforeAll(async () => {
  service = await startTestService();
  pos = await startPos(service);
});
afterAll(async () => {
  await pos?.close();
  await service?.stop();
});

const CreateOrg = graphql(`mutation GqlCreateOrg($input: CreateOrganizationInput!) { createOrganization(input: $input) { orgId userId } }`);
const Init = graphql(`
  mutation GqlInit($input: InitializeOnboardingInput!) {
    initializeOnboarding(input: $input) { onboarding { id status entryUrl type source partnerOrgId } }
  }
`);
const Complete = graphql(
  `mutation GqlComplete($input: CompleteOnboardingInput!) { completeOnboarding(input: $input) { id status integrationId } }`,
);
const Updated = graphql(`subscription GqlOnboardingUpdated($id: ID!) { onboardingUpdated(id: $id) { id status integrationId } }`);
const Locations = graphql(`
  query GqlOnboardingLocations($id: ID!) {
    onboardingLocations(onboardingId: $id) { locations { providerId name isEligibleToOnboard address { locality country } } }
  }
`);
const Ingest = graphql(
  `mutation GqlIngest($input: IngestLocationsInput!) { ingestLocations(input: $input) { locations { id providerId } } }`,
);
const Bind = graphql(
  `mutation GqlBind($input: BindDspLocationsInput!) { bindDspLocations(input: $input) { locations { id dspProviderId dspStoreName status } } }`,
);
const OrgLocations = graphql(`
  query GqlOrgLocations($orgId: ID!) {
    organizationLocations(orgId: $orgId) {
      locations { id name source status providerId integrationStatus prepTimeMinutes busy { extraPrepMinutes untilMs } openNow opensAt closesAt menus { providerId } address { locality country } dsps { id name source status dspStoreId changeTime menuProviderIds integrationStatus } }
    }
  }
`);
const Assign = graphql(`mutation GqlAssign($input: AssignMenusInput!) { assignMenus(input: $input) { dspLocationId menuProviderIds } }`);
const Delete = graphql(`mutation GqlDelete($input: DeleteLocationInput!) { deleteLocation(input: $input) { id deleted } }`);
const Sso = graphql(
  `mutation GqlSso($partnerId: ID, $input: GenerateSsoSessionInput!) { generateSsoSession(partnerId: $partnerId, input: $input) { ssoLoginToken } }`,
);

test('the same walk over GraphQL; subscribers over graphql-ws and SSE see the onboarding become active', async () => {
  const partner = await service.partner();
  const client = new GraphQLClient(`${service.url}/graphql`, { headers: { authorization: `Bearer ${partner.token}` } });
  const { createOrganization: org } = await client.request(CreateOrg, {
    input: { name: 'GQL Grill', providerId: 'gql-1', user: { email: 'o@gql.example' } },
  });
  const { initializeOnboarding } = await client.request(Init, {
    input: { orgId: org.orgId, source: 'sandbox-pos', type: 'pos', returnUrl: 'https://partner.example/back' },
  });
  const onboarding = initializeOnboarding.onboarding;
  expect(onboarding).toMatchObject({ status: 'pending', type: 'pos', source: 'sandbox-pos', partnerOrgId: 'gql-1' });

  // Subscribe before completing, over both transports.
  const ws = createClient({
    url: `${service.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${partner.token}` },
  });
  const viaWs: unknown[] = [];
  const wsDone = new Promise<void>((resolve, reject) => {
    const unsubscribe = ws.subscribe(
      { query: print(Updated), variables: { id: onboarding.id } },
      {
        next: (value) => {
          viaWs.push(value.data);
          unsubscribe();
          resolve();
        },
        error: reject,
        complete: () => resolve(),
      },
    );
  });
  const sse = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${partner.token}` },
    body: JSON.stringify({ query: print(Updated), variables: { id: onboarding.id } }),
  });
  expect(sse.headers.get('content-type')).toContain('text/event-stream');
  const reader = sse.body!.getReader();
  const sseEvent = (async () => {
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return text;
      text += new TextDecoder().decode(value);
      const match = /event: next\ndata: (.*)\n/.exec(text);
      if (match) {
        await reader.cancel();
        return JSON.parse(match[1]!).data;
      }
    }
  })();
  await subscribed(service, 'onboardingUpdated', onboarding.id, 2);

  const walk = await authorizeInBrowser(onboarding.entryUrl);
  const { completeOnboarding } = await client.request(Complete, { input: { id: onboarding.id, code: walk.code! } });
  expect(completeOnboarding.status).toBe('active');
  await wsDone;
  await ws.dispose();
  expect(viaWs).toEqual([{ onboardingUpdated: { id: onboarding.id, status: 'active', integrationId: completeOnboarding.integrationId } }]);
  expect(await sseEvent).toEqual({
    onboardingUpdated: { id: onboarding.id, status: 'active', integrationId: completeOnboarding.integrationId },
  });

  const tid = completeOnboarding.integrationId!;
  const { onboardingLocations } = await client.request(Locations, { id: onboarding.id });
  expect(onboardingLocations.locations.find((l) => l.providerId === `loc_${tid}_de`)).toMatchObject({
    isEligibleToOnboard: true,
    address: { locality: 'Berlin', country: 'DE' },
  });
  const { ingestLocations } = await client.request(Ingest, {
    input: { onboardingId: onboarding.id, locations: [{ providerId: `loc_${tid}_de` }, { providerId: `loc_2_${tid}` }] },
  });
  expect(ingestLocations.locations).toHaveLength(2);
  await pos.waitFor('/v1/locations/connect', 2);

  const dsp = (
    await client.request(Init, {
      input: { orgId: org.orgId, source: 'sandbox-dsp', type: 'dsp', returnUrl: 'https://partner.example/back' },
    })
  ).initializeOnboarding.onboarding;
  const dspWalk = await authorizeInBrowser(dsp.entryUrl);
  const dspTid = (await client.request(Complete, { input: { id: dsp.id, code: dspWalk.code! } })).completeOnboarding.integrationId!;
  const { onboardingLocations: dspStores } = await client.request(Locations, { id: dsp.id });
  const austinStore = `store_${dspTid}_austin`;
  expect(dspStores.locations.find((l) => l.providerId === austinStore)).toMatchObject({
    name: 'Sandbox Grill Austin (Delivery)',
    isEligibleToOnboard: true,
  });
  const { bindDspLocations } = await client.request(Bind, {
    input: {
      onboardingId: dsp.id,
      locations: [{ posLocationId: ingestLocations.locations[1]!.id, dspProviderId: austinStore, dspStoreName: 'Austin Delivery' }],
    },
  });
  expect(bindDspLocations.locations[0]).toMatchObject({ dspProviderId: austinStore, status: 'APPROVED' });

  const { organizationLocations } = await client.request(OrgLocations, { orgId: org.orgId });
  const austin = organizationLocations.locations.find((l) => l.id === ingestLocations.locations[1]!.id)!;
  expect(austin).toMatchObject({
    name: 'Sandbox Grill Austin',
    source: 'sandbox-pos',
    status: 'active',
    providerId: `loc_2_${tid}`,
    integrationStatus: 'active',
    // The POS's listing quotes 15 minutes for it; not busy.
    prepTimeMinutes: 15,
    busy: null,
    // No catalog fetched yet: nothing about time refuses its orders.
    openNow: true,
    opensAt: null,
    closesAt: null,
    menus: [],
    address: { locality: 'Austin', country: 'US' },
  });
  expect(austin.dsps).toEqual([
    {
      id: bindDspLocations.locations[0]!.id,
      name: 'Austin Delivery',
      source: 'sandbox-dsp',
      status: 'APPROVED',
      dspStoreId: austinStore,
      changeTime: expect.any(Number),
      menuProviderIds: null,
      integrationStatus: 'active',
    },
  ]);

  const connection = bindDspLocations.locations[0]!.id;
  expect(
    (await client.request(Assign, { input: { orgId: org.orgId, dspLocationId: connection, menuProviderIds: ['menu_us_breakfast'] } }))
      .assignMenus.menuProviderIds,
  ).toEqual(['menu_us_breakfast']);
  const assigned = (await client.request(OrgLocations, { orgId: org.orgId })).organizationLocations.locations.find(
    (l) => l.id === austin.id,
  )!;
  expect(assigned.dsps.map((d) => d.menuProviderIds)).toEqual([['menu_us_breakfast']]);
  expect(
    (await client.request(Assign, { input: { orgId: org.orgId, dspLocationId: connection, menuProviderIds: [] } })).assignMenus
      .menuProviderIds,
  ).toEqual([]);

  expect(
    (await client.request(Delete, { input: { orgId: org.orgId, locationId: ingestLocations.locations[0]!.id } })).deleteLocation,
  ).toEqual({ id: ingestLocations.locations[0]!.id, deleted: true });
  await pos.waitFor('/v1/locations/disconnect', 1);

  const { generateSsoSession } = await client.request(Sso, {
    partnerId: partner.partnerId,
    input: { email: 'chef@gql.example', fullName: 'Chef', phoneNumber: '+1 512 555 0100', role: 'team_member', providerOrgId: 'gql-1' },
  });
  const first = await fetch(`${service.url}/v1/sso/login?token=${generateSsoSession.ssoLoginToken}`, { redirect: 'manual' });
  const second = await fetch(`${service.url}/v1/sso/login?token=${generateSsoSession.ssoLoginToken}`, { redirect: 'manual' });
  expect([first.status, second.status]).toEqual([302, 401]);
});
