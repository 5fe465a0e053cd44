// A generated client's first call and a GraphQL client's first subscription, configured only
// from what the guides and the service itself say: Apollo Client with graphql-ws (the token in
// connectionParams, as docs/api-guide.md, "How each client authenticates", shows), and openapi-fetch
// pointed at the OpenAPI document's own `servers` URL.
import { createRequire } from 'node:module';
import { createClient as createWsClient } from 'graphql-ws';
import createFetchClient from 'openapi-fetch';
import WebSocket from 'ws';
import { startOrdersWorld, type OrdersWorld, placeOrder, subscribed, until, type OrderSetup } from './support/orders.js';
import { get, type TestService } from './support/service.js';
import type { SandboxPos } from '../src/sandbox/pos/server.js';

// Apollo Client 3 is CommonJS to Node (its ESM build is for bundlers): loaded as Node loads it.
const load = createRequire(import.meta.url);
const { ApolloClient, HttpLink, InMemoryCache, gql, split } = load('@apollo/client/core') as typeof import('@apollo/client/core');
const { GraphQLWsLink } = load('@apollo/client/link/subscriptions') as typeof import('@apollo/client/link/subscriptions');
const { getMainDefinition } = load('@apollo/client/utilities') as typeof import('@apollo/client/utilities');

let world: OrdersWorld;
let service: TestService;
let pos: SandboxPos;
let m: OrderSetup;

beforeAll(async () => {
  world = await startOrdersWorld();
  ({ service, pos, merchant: m } = world);
});
afterAll(() => world?.close());

test('Apollo Client queries over HTTP and subscribes over graphql-ws with the token in connectionParams', async () => {
  const ws = createWsClient({
    url: `${service.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${m.token}` },
  });
  const http = new HttpLink({ uri: `${service.url}/graphql`, headers: { authorization: `Bearer ${m.token}` } });
  const link = split(
    ({ query }) => {
      const definition = getMainDefinition(query);
      return definition.kind === 'OperationDefinition' && definition.operation === 'subscription';
    },
    new GraphQLWsLink(ws),
    http,
  );
  const client = new ApolloClient({ link, cache: new InMemoryCache() });
  try {
    const read = await client.query({
      query: gql`query Locations($orgId: ID!) { organizationLocations(orgId: $orgId) { locations { id status } } }`,
      variables: { orgId: m.orgId },
    });
    expect(read.data.organizationLocations.locations).toEqual([expect.objectContaining({ id: m.locationId })]);

    const seen: string[] = [];
    let refused: unknown;
    const subscription = client
      .subscribe({
        query: gql`subscription Orders($orgId: ID!) { orderUpdated(orgId: $orgId) { id status } }`,
        variables: { orgId: m.orgId },
      })
      .subscribe({ next: (result) => seen.push(result.data.orderUpdated.id), error: (error) => (refused = error) });
    await subscribed(service, 'orderUpdated', m.orgId);
    const placed = await placeOrder(pos, m.storeId, { fulfillment_type: 'pickup' });
    await until(async () => {
      if (refused) throw refused;
      return seen.includes(placed.body.order_id!);
    });
    subscription.unsubscribe();
  } finally {
    client.stop();
    await ws.dispose();
  }
});

test("openapi-fetch, given the document's servers URL, creates an organization and reads the 409 of a taken provider_id", async () => {
  const document = (await get(service.url, '/v1/openapi.json')).body as { servers: { url: string }[] };
  const api = createFetchClient<any>({ baseUrl: document.servers[0]!.url, headers: { authorization: `Bearer ${m.token}` } });
  const body = { name: 'Fetch Grill', provider_id: `fetch-${Date.now()}`, user: { email: 'owner@fetch.example' } };
  const made = await api.POST('/v1/onboarding/org', { body });
  expect(made.response.status).toBe(201);
  expect(made.data).toMatchObject({ org_id: expect.any(String), user_id: expect.any(String) });
  const again = await api.POST('/v1/onboarding/org', { body });
  expect(again.response.status).toBe(409);
  expect(again.error).toMatchObject({ statusCode: 409, code: expect.any(String), message: expect.stringContaining('provider_id') });
});
