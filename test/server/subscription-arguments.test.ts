// Subscription arguments work however a client writes them (docs/reference.md § Partner API): inline, as anyone
// types them in GraphiQL, or as variables of any name, over graphql-ws (its own client) and SSE.
// A location filter written inline filters.
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { SandboxPos } from '../../src/sandbox/pos/server.js';
import type { OrderSnapshot } from '../../src/common/pubsub.js';
import { startOrdersWorld, type OrdersWorld, placeOrder, subscribed, unsubscribed, until, type OrderSetup } from '../support/orders.js';
import { polled } from '../support/wait.js';
import type { TestService } from '../support/service.js';

let world: OrdersWorld;
let service: TestService;
let pos: SandboxPos;
let m: OrderSetup;

beforeAll(async () => {
  world = await startOrdersWorld();
  ({ service, pos, merchant: m } = world);
});
afterAll(() => world?.close());

/** Subscribes with the graphql-ws client and collects what it gets; `received` waits for an
 * event about one order (orders of earlier tests may still change). */
async function watch(query: string, variables?: Record<string, unknown>) {
  const client = createClient({
    url: `${service.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${m.token}` },
  });
  const seen: unknown[] = [];
  const before = service.services.pubsub.subscribers('orderUpdated', m.orgId);
  const connected = new Promise<void>((resolve) => client.on('connected', () => resolve()));
  client.subscribe(
    { query, variables },
    { next: (result) => void seen.push(result.errors ?? result.data), error: (error) => void seen.push(error), complete: () => undefined },
  );
  await connected;
  await subscribed(service, 'orderUpdated', m.orgId, before + 1);
  const received = (orderId: string) => polled(() => seen.find((e) => JSON.stringify(e).includes(orderId)), 5000);
  const close = async () => {
    await client.dispose();
    await unsubscribed(service, 'orderUpdated', m.orgId, before);
  };
  return { seen, received, close };
}

test.each([
  ['inline', `subscription { orderUpdated(orgId: "ORG") { id dspOrderId } }`, undefined],
  ['a variable of another name', 'subscription Watch($org: ID!) { orderUpdated(orgId: $org) { id dspOrderId } }', { org: 'ORG' }],
  ['an inline location filter', `subscription { orderUpdated(orgId: "ORG", locationId: "LOC") { id dspOrderId } }`, undefined],
])('graphql-ws: orderUpdated with %s receives the order', async (_how, query, variables) => {
  const fill = (text: string) => text.replace('ORG', m.orgId).replace('LOC', m.locationId);
  const subscription = await watch(fill(query), variables && (JSON.parse(fill(JSON.stringify(variables))) as Record<string, unknown>));
  try {
    const placed = await placeOrder(pos, m.storeId);
    expect(await subscription.received(placed.body.order_id!)).toEqual({
      orderUpdated: { id: placed.body.order_id, dspOrderId: placed.dsp_order_id },
    });
    expect(subscription.seen.filter((e) => !(e as { orderUpdated?: unknown }).orderUpdated)).toEqual([]);
  } finally {
    await subscription.close();
  }
});

test('an inline location filter keeps out other locations', async () => {
  // What the service publishes for the organization, heard in this process.
  const published = service.services.pubsub.subscribe('orderUpdated', m.orgId);
  const heard: OrderSnapshot[] = [];
  const hearing = (async () => {
    for await (const event of published) heard.push(event);
  })();
  const subscription = await watch(`subscription { orderUpdated(orgId: "${m.orgId}", locationId: "loc_elsewhere") { id } }`);
  try {
    const placed = await placeOrder(pos, m.storeId);
    const orderId = placed.body.order_id!;
    // Every change of the order, up to the POS taking it, is published...
    await until(() => heard.some((event) => event.id === orderId && event.posOrderId));
    // ...and then a change of an order at the filtered location. The subscription passes events
    // on in the order they were published: once this one arrives, the order's have been through
    // the filter, and none was let through.
    const marker = { id: 'ord_elsewhere', locationId: 'loc_elsewhere', createdAt: Date.now(), updatedAt: Date.now() };
    service.services.pubsub.publish('orderUpdated', m.orgId, marker);
    expect(await subscription.received(marker.id)).toEqual({ orderUpdated: { id: marker.id } });
    expect(subscription.seen).toEqual([{ orderUpdated: { id: marker.id } }]);
  } finally {
    await subscription.close();
    await published.return?.();
    await hearing;
  }
});

test('SSE: orderUpdated written inline receives the order', async () => {
  const before = service.services.pubsub.subscribers('orderUpdated', m.orgId);
  const res = await fetch(`${service.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${m.token}` },
    body: JSON.stringify({ query: `subscription { orderUpdated(orgId: "${m.orgId}") { id } }` }),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const next = (async () => {
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return text;
      text += decoder.decode(value);
      const data = /data: (\{.*"orderUpdated".*\})/.exec(text);
      if (data) return JSON.parse(data[1]!) as unknown;
    }
  })();
  await subscribed(service, 'orderUpdated', m.orgId, before + 1);
  const placed = await placeOrder(pos, m.storeId);
  expect(await next).toEqual({ data: { orderUpdated: { id: placed.body.order_id } } });
  await reader.cancel();
});
