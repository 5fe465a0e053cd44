// The delivery leg end to end, as a merchant's own orders are delivered: the sandbox event provider
// (a real dispatch company over HTTP) takes order.confirmed, assigns its driver and reports each
// step of the road; every step reaches the POS (with driver_details), the DSP's customer, the
// partner and the order, once and in order; the event provider hears of every move of the
// order's status, cancellations included; each organization's orders reach only the event
// provider it named; every report the rules refuse changes nothing; and a driver is assigned only
// by the order's own event provider, to an open merchant-delivered order.
import crypto from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { SandboxPos } from '../../../src/sandbox/pos/server.js';
import type { CustomerOrder } from '../../../src/sandbox/pos/dsp-channel.js';
import { startSandboxEventProvider, type SandboxEventProvider } from '../../../src/sandbox/event-provider/server.js';
import { saveProvider } from '../../../src/integrations/providers.js';
import { signBody, verifySignature } from '../../../src/common/signatures.js';
import { control, testSecrets } from '../../support/sandbox.js';
import {
  startOrdersWorld,
  type OrdersWorld,
  merchantTakingOrders,
  nameEventProvider,
  placeOrder,
  posStatus,
  until,
  type OrderSetup,
} from '../../support/orders.js';
import { get, post, request, type TestService } from '../../support/service.js';

let world: OrdersWorld;
let service: TestService;
let pos: SandboxPos;
let events: SandboxEventProvider;
let m: OrderSetup;
const secrets = testSecrets();

beforeAll(async () => {
  // The sandbox event provider, driven step by step (`advance`): its timer is tried below.
  world = await startOrdersWorld({
    env: { OUTBOX_RETRY_BASE_MS: '20', OUTBOX_RETRY_MAX_MS: '60', OUTBOX_MAX_ATTEMPTS: '12' },
    secrets,
    events: true,
  });
  ({ service, pos, merchant: m } = world);
  events = world.events!;
});
afterAll(() => world?.close());

const orderRow = (id: string) => service.services.db.order.findUniqueOrThrow({ where: { id } });
const advance = (orderId: string) => control(events, `deliveries/${orderId}/advance`, {});
/** The order as the DSP's customer sees it, once it has `count` events. */
const atDsp = (dspOrderId: string, count: number) =>
  until(async () => {
    const order = (await (await fetch(`${pos.url}/v1/_sandbox/orders/${dspOrderId}`)).json()) as CustomerOrder;
    return order.events?.length >= count ? order : null;
  });
/** What the POS got about an order after order.created: its order.updated objects, in order. */
const posUpdates = (orderId: string) =>
  pos.received
    .filter((r) => r.path === '/v1/orders' && (r.body as { type: string }).type === 'order.updated')
    .map((r) => ({ key: r.headers['idempotency-key'], object: (r.body as { object: Record<string, any> }).object }))
    .filter((u) => u.object.order_id === orderId);
/** What an event provider got about an order: order.confirmed, then its order.updated. */
const dispatched = (provider: SandboxEventProvider, orderId: string) =>
  provider.received.filter((r) => r.path === '/v1/events' && (r.body as { reference_id: string }).reference_id === orderId);
/** A merchant-delivered order placed, confirmed to its event provider, with its driver. */
async function delivering(setup: OrderSetup = m) {
  const placed = await placeOrder(pos, setup.storeId);
  expect(placed.status).toBe(201);
  const orderId = placed.body.order_id!;
  const withDriver = await until(async () => {
    const row = await orderRow(orderId);
    return row.driver ? row : null;
  });
  return { orderId, dspOrderId: placed.dsp_order_id, row: withDriver };
}
/** A signed webhook from an event provider. */
function report(type: string, object: Record<string, unknown>, provider = 'sandbox-events', secret = secrets.webhookSecret) {
  const body = JSON.stringify({ type, object });
  return request(service.url, 'POST', `/v1/webhooks/event-providers/${provider}`, {
    raw: body,
    headers: { 'content-type': 'application/json', 'webhook-id': crypto.randomUUID(), 'service-webhook-signature': signBody(body, secret) },
  });
}

const ROAD = ['enroute_to_pickup', 'arrived_at_pickup', 'enroute_to_dropoff', 'arrived_at_dropoff', 'delivered'];

test('a merchant-delivered order from order.confirmed to delivered: the POS, the DSP, the partner and the event provider hear each step once, in order, and the order is completed', async () => {
  const { orderId, dspOrderId, row } = await delivering();
  const location = `loc_2_${m.tid}`;
  expect(row.deliveryStatus).toBe('enroute_to_pickup');
  expect((await posStatus(pos, orderId, 'ready_for_pickup')).status).toBe(200);
  // The rest of the road, a step at a time: each answered with where the order stands.
  const answers = [];
  for (let step = 0; step < 4; step++) answers.push(await advance(orderId));
  expect(answers).toEqual([
    { status: 200, body: { order_id: orderId, status: 'ready_for_pickup', delivery_status: 'arrived_at_pickup' } },
    { status: 200, body: { order_id: orderId, status: 'out_for_delivery', delivery_status: 'enroute_to_dropoff' } },
    { status: 200, body: { order_id: orderId, status: 'out_for_delivery', delivery_status: 'arrived_at_dropoff' } },
    { status: 200, body: { order_id: orderId, status: 'completed', delivery_status: 'delivered' } },
  ]);

  // The order, completed, with its driver and vehicle.
  const read = await post(
    service.url,
    '/graphql',
    {
      query: `query($id: ID!) { order(id: $id) { status deliveryStatus eventProvider
        driver { name source phone { number code } vehicleInfo { make model color licensePlate } } } }`,
      variables: { id: orderId },
    },
    m.token,
  );
  expect(read.body.data.order).toEqual({
    status: 'completed',
    deliveryStatus: 'delivered',
    eventProvider: 'sandbox-events',
    driver: {
      name: 'Dana Driver',
      source: 'sandbox-fleet',
      phone: { number: '5125550199', code: '+1' },
      vehicleInfo: { make: 'Toyota', model: 'Prius', color: 'blue', licensePlate: 'SBX-4821' },
    },
  });

  // The POS: each step of the delivery, with the driver as driver_details, under a key per step.
  const driverDetails = {
    name: 'Dana Driver',
    phone: { number: '5125550199', code: '+1' },
    source: 'sandbox-fleet',
    vehicle_info: { make: 'Toyota', model: 'Prius', color: 'blue', license_plate: 'SBX-4821' },
  };
  const updates = await until(async () => {
    const got = posUpdates(orderId);
    return got.length >= ROAD.length ? got : null;
  });
  expect(updates.map((u) => [u.object.status, u.object.delivery_status])).toEqual([
    ['in_progress', 'enroute_to_pickup'],
    ['ready_for_pickup', 'arrived_at_pickup'],
    ['out_for_delivery', 'enroute_to_dropoff'],
    ['out_for_delivery', 'arrived_at_dropoff'],
    ['completed', 'delivered'],
  ]);
  for (const u of updates) expect(u.object).toMatchObject({ order_id: orderId, location_id: location, driver_details: driverDetails });
  expect(new Set(updates.map((u) => u.key)).size).toBe(ROAD.length);
  expect(updates[2]!.object.estimated_dropoff_time).toEqual(expect.any(Number));

  // The DSP's customer: accepted, then every move, the driver with it, in sequence.
  const seen = await atDsp(dspOrderId, 7);
  expect(seen.status).toBe('completed');
  expect(seen.events.map((e) => [e.sequence, e.type, e.data.status, e.data.delivery_status ?? null])).toEqual([
    [1, 'location.order.accept', 'in_progress', null],
    [2, 'location.order.notify_status_change', 'in_progress', 'enroute_to_pickup'],
    [3, 'location.order.notify_status_change', 'ready_for_pickup', 'enroute_to_pickup'],
    [4, 'location.order.notify_status_change', 'ready_for_pickup', 'arrived_at_pickup'],
    [5, 'location.order.notify_status_change', 'out_for_delivery', 'enroute_to_dropoff'],
    [6, 'location.order.notify_status_change', 'out_for_delivery', 'arrived_at_dropoff'],
    [7, 'location.order.notify_status_change', 'completed', 'delivered'],
  ]);
  expect(seen.events[6]!.data.driver).toEqual(driverDetails);

  // The partner: an order.updated per move (listed, and sent so to its endpoints), in order.
  const listed = await until(async () => {
    const page = await get(service.url, `/v1/events?org_id=${m.orgId}&types=order.updated&limit=100`, m.token);
    const mine = (page.body.events as { data: Record<string, any> }[]).filter((e) => e.data._id === orderId);
    return mine.length >= 6 ? mine : null;
  });
  expect(listed.map((e) => [e.data.status, e.data.delivery_status])).toEqual([
    ['in_progress', 'enroute_to_pickup'],
    ['ready_for_pickup', 'enroute_to_pickup'],
    ['ready_for_pickup', 'arrived_at_pickup'],
    ['out_for_delivery', 'enroute_to_dropoff'],
    ['out_for_delivery', 'arrived_at_dropoff'],
    ['completed', 'delivered'],
  ]);
  expect(listed[5]!.data.driver).toEqual(driverDetails);

  // The event provider: order.confirmed, then each move of the order's status, signed, in order.
  const told = await until(async () => {
    const got = dispatched(events, orderId);
    return got.length >= 4 ? got : null;
  });
  expect(told.map((r) => [(r.body as any).type, (r.body as any).order.status])).toEqual([
    ['order.confirmed', 'in_progress'],
    ['order.updated', 'ready_for_pickup'],
    ['order.updated', 'out_for_delivery'],
    ['order.updated', 'completed'],
  ]);
  for (const call of told) {
    expect(verifySignature(Buffer.from(call.raw!), call.headers['x-service-signature'] as string, secrets.webhookSecret)).toBe(true);
    expect(call.body).toMatchObject({ location_id: location, reference_id: orderId });
  }
  expect(told[3]!.body).toEqual({
    location_id: location,
    reference_id: orderId,
    type: 'order.updated',
    order: { id: orderId, status: 'completed', delivery_status: 'delivered' },
  });
  // Each under a key of its own, which stays the same when it is sent again.
  expect(told.map((r) => r.headers['idempotency-key'])).toEqual([
    `order.confirmed:${orderId}`,
    `dispatch:${orderId}:3`,
    `dispatch:${orderId}:5`,
    `dispatch:${orderId}:7`,
  ]);
  // The last step ended the delivery: the sandbox has nothing more to report.
  expect(await advance(orderId)).toMatchObject({ error: 'over' });

  // What each peer got is what the OpenAPI document's webhooks say it gets.
  const { webhooks } = (await (await fetch(`${service.url}/v1/openapi.json`)).json()) as { webhooks: Record<string, { post: any }> };
  const ajv = new Ajv2020({ strict: false });
  for (const call of told) {
    const schema = webhooks[`event-provider ${(call.body as { type: string }).type}`]!.post.requestBody.content['application/json'].schema;
    expect({ valid: ajv.validate(schema, call.body), errors: ajv.errors ?? null }).toEqual({ valid: true, errors: null });
  }
});

test('a cancellation after confirmation reaches the event provider as order.updated, by the merchant and by the DSP, and ends the delivery', async () => {
  const byMerchant = await delivering();
  const byDsp = await delivering();
  expect((await posStatus(pos, byMerchant.orderId, 'merchant_canceled')).status).toBe(200);
  const canceled = await control(pos, 'orders/cancel', { dsp_store_id: m.storeId, dsp_order_id: byDsp.dspOrderId, cancel_reason: 'delay' });
  expect(canceled.status).toBe(200);
  for (const [{ orderId }, status, cancellation] of [
    [byMerchant, 'merchant_canceled', { canceled_by: 'merchant', cancel_reason: null }],
    [byDsp, 'dsp_canceled', { canceled_by: 'dsp', cancel_reason: 'delay' }],
  ] as const) {
    const told = await until(async () => {
      const got = dispatched(events, orderId);
      return got.length >= 2 ? got : null;
    });
    expect(told.map((r) => (r.body as any).type)).toEqual(['order.confirmed', 'order.updated']);
    expect((told[1]!.body as any).order).toEqual({ id: orderId, status, delivery_status: 'enroute_to_pickup', ...cancellation });
    // The driver is called off: the sandbox reports nothing more, and the service would take nothing.
    expect(await advance(orderId)).toMatchObject({ error: 'over' });
    const late = await report('order.delivery_status.updated', {
      location_id: `loc_2_${m.tid}`,
      order_id: orderId,
      delivery_status: 'arrived_at_pickup',
    });
    expect(late.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      code: 'feature_disabled',
      message: `order is ${status}, which is final: it is not modifiable`,
    });
  }
  // The POS hears of the DSP's cancellation as before (its own it made itself): through its own
  // queue, not the event provider's, so it is waited for.
  const toPos = await until(async () => {
    const last = posUpdates(byDsp.orderId).at(-1);
    return last?.object.status === 'dsp_canceled' ? last : undefined;
  });
  expect(toPos.object).toMatchObject({ status: 'dsp_canceled', driver_details: { name: 'Dana Driver' } });
});

describe('reports the rules refuse: the answer of the rules, and nothing changes', () => {
  let orderId: string;
  const location = () => `loc_2_${m.tid}`;
  let before: Awaited<ReturnType<typeof orderRow>>;
  let messages: number;
  const unchanged = async () => {
    expect(await orderRow(orderId)).toEqual(before);
    expect(await service.services.db.outboxMessage.count({ where: { subjectId: orderId } })).toBe(messages);
  };

  beforeAll(async () => {
    await saveProvider(service.services, {
      source: 'rogue-fleet',
      kind: 'event_provider',
      base_url: 'http://127.0.0.1:9',
      webhook_secret: 'rogue-secret-0123456789',
    });
    // Two event providers now: the merchant names its own.
    await nameEventProvider(service, m, 'sandbox-events');
    ({ orderId } = await delivering());
    expect((await advance(orderId)).status).toBe(200);
    await until(async () => !(await service.services.db.outboxMessage.count({ where: { subjectId: orderId, status: 'pending' } })));
    before = await orderRow(orderId);
    messages = await service.services.db.outboxMessage.count({ where: { subjectId: orderId } });
    expect(before.deliveryStatus).toBe('arrived_at_pickup');
  });
  afterAll(() => nameEventProvider(service, m, null));

  test("another event provider's report of this order: 404", async () => {
    for (const type of ['order.delivery_status.updated', 'order.assign.driver']) {
      const res = await report(
        type,
        { location_id: location(), order_id: orderId, delivery_status: 'delivered', driver: { name: 'Mallory' } },
        'rogue-fleet',
        'rogue-secret-0123456789',
      );
      expect({ type, status: res.status, code: res.body.code }).toEqual({ type, status: 404, code: 'not_found' });
    }
    await unchanged();
  });

  test('a location that is not the one order.confirmed named, with the real order id: 404', async () => {
    for (const type of ['order.delivery_status.updated', 'order.assign.driver']) {
      const res = await report(type, {
        location_id: 'loc_nope',
        order_id: orderId,
        delivery_status: 'delivered',
        driver: { name: 'Mallory' },
      });
      expect({ type, status: res.status, code: res.body.code }).toEqual({ type, status: 404, code: 'not_found' });
      const missing = await report(type, { order_id: orderId, delivery_status: 'delivered', driver: { name: 'Mallory' } });
      expect({ type, status: missing.status, message: missing.body.message }).toEqual({
        type,
        status: 400,
        message: 'object.location_id is required',
      });
    }
    await unchanged();
  });

  test('an unknown status, a driver without a name, a time that is not epoch ms: 400 naming the field', async () => {
    const address = { location_id: location(), order_id: orderId };
    const cases: [string, Record<string, unknown>, string][] = [
      ['order.delivery_status.updated', { ...address, delivery_status: 'teleported' }, 'object.delivery_status must be one of'],
      ['order.delivery_status.updated', { ...address }, 'object.delivery_status is required'],
      [
        'order.delivery_status.updated',
        { ...address, delivery_status: 'enroute_to_dropoff', estimated_dropoff_time: 'soon' },
        'object.estimated_dropoff_time',
      ],
      ['order.assign.driver', { ...address, driver: { phone: { number: '1' } } }, 'object.driver.name is required'],
      [
        'order.assign.driver',
        { ...address, driver: { name: 'Sam', vehicle_info: 'a car' } },
        'object.driver.vehicle_info must be an object',
      ],
      ['order.assign.driver', { ...address, driver: 'Sam' }, 'object.driver must be an object'],
    ];
    for (const [type, object, message] of cases) {
      const res = await report(type, object);
      expect({ status: res.status, code: res.body.code, message: res.body.message }).toEqual({
        status: 400,
        code: 'invalid_request',
        message: expect.stringContaining(message),
      });
    }
    await unchanged();
  });

  test('a step back: 409 invalid_transition; the step it has: 200 and nothing changes', async () => {
    const back = await report('order.delivery_status.updated', {
      location_id: location(),
      order_id: orderId,
      delivery_status: 'enroute_to_pickup',
    });
    expect(back.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      code: 'invalid_transition',
      message: 'the delivery cannot go back from arrived_at_pickup to enroute_to_pickup',
    });
    const same = await report('order.delivery_status.updated', {
      location_id: location(),
      order_id: orderId,
      delivery_status: 'arrived_at_pickup',
    });
    expect({ status: same.status, body: same.body }).toEqual({
      status: 200,
      body: { order_id: orderId, status: 'in_progress', delivery_status: 'arrived_at_pickup' },
    });
    const sameDriver = await report('order.assign.driver', {
      location_id: location(),
      order_id: orderId,
      driver: (await import('../../../src/sandbox/event-provider/server.js')).SANDBOX_DRIVER,
    });
    expect(sameDriver.status).toBe(200);
    await unchanged();
  });

  test('an ETA in seconds: 400 naming the field and the unit; the step it has, with a new ETA and a new driver: 200, and nothing changes', async () => {
    const address = { location_id: location(), order_id: orderId };
    const seconds = await report('order.delivery_status.updated', {
      ...address,
      delivery_status: 'enroute_to_dropoff',
      estimated_dropoff_time: 1795719325,
    });
    expect({ status: seconds.status, body: seconds.body }).toEqual({
      status: 400,
      body: {
        statusCode: 400,
        error: 'Bad Request',
        code: 'invalid_request',
        message:
          'object.estimated_dropoff_time is in epoch milliseconds; 1795719325 looks like seconds (1795719325 seconds is 1795719325000 milliseconds)',
      },
    });
    // The step it has is a repeat (a retry may be older than what was taken since): an ETA moves
    // with a step forward, a driver with a step forward or with order.assign.driver.
    const again = await report('order.delivery_status.updated', {
      ...address,
      delivery_status: 'arrived_at_pickup',
      estimated_dropoff_time: Date.now() + 20 * 60_000,
      driver: { name: 'Other Olga' },
    });
    expect({ status: again.status, body: again.body }).toEqual({
      status: 200,
      body: { order_id: orderId, status: 'in_progress', delivery_status: 'arrived_at_pickup' },
    });
    await unchanged();
  });

  test('a final order: the step it has again is 200 and changes nothing; another step or another driver, 409 feature_disabled', async () => {
    expect((await posStatus(pos, orderId, 'completed')).status).toBe(200);
    await until(async () => !(await service.services.db.outboxMessage.count({ where: { subjectId: orderId, status: 'pending' } })));
    before = await orderRow(orderId);
    messages = await service.services.db.outboxMessage.count({ where: { subjectId: orderId } });
    // Completed by its POS: the merchant's own delivery is over.
    expect(before.deliveryStatus).toBe('delivered');
    const address = { location_id: location(), order_id: orderId };
    // The provider's own `delivered`, and its driver, sent anew after the POS completed the order
    // (not the very bytes of its first assignment, whose replay is answered as it was): as taken.
    for (const [type, more] of [
      ['order.delivery_status.updated', { delivery_status: 'delivered' }],
      ['order.assign.driver', { driver: (await import('../../../src/sandbox/event-provider/server.js')).SANDBOX_DRIVER }],
    ] as const) {
      const res = await report(type, { ...more, ...address });
      expect({ type, status: res.status, body: res.body }).toEqual({
        type,
        status: 200,
        body: { order_id: orderId, status: 'completed', delivery_status: 'delivered' },
      });
    }
    for (const [type, more] of [
      ['order.delivery_status.updated', { delivery_status: 'arrived_at_dropoff' }],
      ['order.assign.driver', { driver: { name: 'Late Larry' } }],
    ] as const) {
      const res = await report(type, { ...address, ...more });
      expect(res.body).toEqual({
        statusCode: 409,
        error: 'Conflict',
        code: 'feature_disabled',
        message: 'order is completed, which is final: it is not modifiable',
      });
    }
    await unchanged();
  });
});

test('two organizations with two event providers: each one’s orders reach only its own, on the sandbox’s timer; one that names none while two are registered keeps its orders at the POS, and its timeline says why', async () => {
  // A second dispatch company, playing the whole road on its own timer.
  const fleet = await startSandboxEventProvider({
    secret: 'fleet-b-secret-0123456789',
    service: { url: service.url, provider: 'fleet-b' },
    driverDelayMs: 10,
    stepMs: 20,
  });
  try {
    await saveProvider(service.services, {
      source: 'fleet-b',
      kind: 'event_provider',
      base_url: fleet.url,
      webhook_secret: 'fleet-b-secret-0123456789',
    });
    const a = await merchantTakingOrders(service);
    const b = await merchantTakingOrders(service);
    const none = await merchantTakingOrders(service);
    expect(await nameEventProvider(service, a, 'sandbox-events')).toEqual({ org_id: a.orgId, event_provider: 'sandbox-events' });
    await nameEventProvider(service, b, 'fleet-b');
    const ofA = await delivering(a);
    const placedB = await placeOrder(pos, b.storeId);
    const ofB = placedB.body.order_id!;
    // fleet-b drives its order to the door by itself.
    const delivered = await until(async () => {
      const row = await orderRow(ofB);
      return row.status === 'completed' ? row : null;
    });
    expect(delivered.deliveryStatus).toBe('delivered');
    const toFleet = await until(async () => {
      const got = dispatched(fleet, ofB);
      return got.length >= 3 ? got : null;
    });
    expect(toFleet.map((r) => [(r.body as any).type, (r.body as any).order.status])).toEqual([
      ['order.confirmed', 'in_progress'],
      ['order.updated', 'out_for_delivery'],
      ['order.updated', 'completed'],
    ]);
    expect(dispatched(fleet, ofA.orderId)).toEqual([]);
    expect(dispatched(events, ofB)).toEqual([]);
    expect(dispatched(events, ofA.orderId).map((r) => (r.body as any).type)).toEqual(['order.confirmed']);

    // Named none, with two registered: the POS has it, no event provider does, and it says so.
    const placed = await placeOrder(pos, none.storeId);
    const orderId = placed.body.order_id!;
    await until(async () => (await orderRow(orderId)).posOrderId);
    expect((await orderRow(orderId)).eventProvider).toBeNull();
    const read = await post(
      service.url,
      '/graphql',
      {
        query: `query($id: ID!, $org: ID!) { order(id: $id) { timeline { what note } } organization(id: $org) { eventProvider eventProviderInUse eventProviderChoices } }`,
        variables: { id: orderId, org: none.orgId },
      },
      none.token,
    );
    expect(read.body.data.order.timeline.find((t: { what: string }) => t.what === 'order.accepted').note).toBe(
      'Sent to no event provider (the organization names no event provider and 3 are registered): the restaurant delivers it.',
    );
    expect(read.body.data.organization).toEqual({
      eventProvider: null,
      eventProviderInUse: null,
      eventProviderChoices: ['fleet-b', 'rogue-fleet', 'sandbox-events'],
    });
    expect(dispatched(events, orderId)).toEqual([]);
    expect(dispatched(fleet, orderId)).toEqual([]);
  } finally {
    await fleet.close();
  }
});

test('naming an event provider: only a registered one, of its own organization, with the onboarding scope', async () => {
  const put = (orgId: string, body: unknown, token = m.token) =>
    request(service.url, 'PUT', `/v1/onboarding/org/${orgId}/event-provider`, { body, token });
  expect((await put(m.orgId, { source: 'sandbox-pos' })).body).toEqual({
    statusCode: 400,
    error: 'Bad Request',
    code: 'invalid_request',
    message: 'source sandbox-pos is not a registered event provider',
  });
  expect((await put(m.orgId, { source: 'nobody' })).status).toBe(400);
  expect((await put(m.orgId, {})).body.message).toBe('source is required: an event provider, or null for the deployment’s');
  const other = await service.partner();
  expect((await put(m.orgId, { source: 'sandbox-events' }, other.token)).status).toBe(404);
  expect((await service.services.db.organization.findUniqueOrThrow({ where: { id: m.orgId } })).eventProvider).toBeNull();
  expect((await put(m.orgId, { source: null })).body).toEqual({ org_id: m.orgId, event_provider: null });
});

describe('order.assign.driver comes only from the order’s own event provider, for an open merchant-delivered order', () => {
  const ROGUE_SECRET = crypto.randomBytes(16).toString('hex');
  beforeAll(async () => {
    // A second, registered event provider: real, signing with its own secret, never sent these orders.
    await saveProvider(service.services, {
      source: 'rogue-events',
      kind: 'event_provider',
      base_url: 'http://127.0.0.1:9',
      webhook_secret: ROGUE_SECRET,
    });
    // More than one event provider is registered: the merchant names the one that delivers its orders.
    await nameEventProvider(service, m, 'sandbox-events');
  });
  afterAll(() => nameEventProvider(service, m, null));

  const assign = (source: string, secret: string, orderId: string, driverName: string) => {
    const body = JSON.stringify({
      type: 'order.assign.driver',
      object: {
        location_id: `loc_2_${m.tid}`,
        order_id: orderId,
        driver: { name: driverName, phone: { number: '1', code: '+1' }, source: 'x' },
      },
    });
    return request(service.url, 'POST', `/v1/webhooks/event-providers/${source}`, {
      raw: body,
      headers: {
        'content-type': 'application/json',
        'webhook-id': crypto.randomUUID(),
        'service-webhook-signature': signBody(body, secret),
      },
    });
  };

  test('another registered provider, signing with its own secret, cannot touch an order it was never sent: 404, nothing changes', async () => {
    const placed = await placeOrder(pos, m.storeId);
    const orderId = placed.body.order_id!;
    const confirmed = await until(async () => {
      const row = await orderRow(orderId);
      return row.driver ? row : null;
    });
    const rogue = await assign('rogue-events', ROGUE_SECRET, orderId, 'Mallory');
    expect(rogue.status).toBe(404);
    expect(rogue.body).toMatchObject({ statusCode: 404, code: 'not_found' });
    const after = await orderRow(orderId);
    expect(after.driver).toBe(confirmed.driver);
    expect(after.deliveryStatus).toBe(confirmed.deliveryStatus);
    expect(JSON.parse(after.driver!).name).toBe('Dana Driver');
  });

  test('a pickup order, never sent to any event provider, takes no driver: 404', async () => {
    const placed = await placeOrder(pos, m.storeId, { fulfillment_type: 'pickup' });
    const orderId = placed.body.order_id!;
    await until(async () => (await orderRow(orderId)).posOrderId);
    expect((await posStatus(pos, orderId, 'completed')).status).toBe(200);
    const res = await assign('sandbox-events', secrets.webhookSecret, orderId, 'Dana Driver');
    expect(res.status).toBe(404);
    const after = await orderRow(orderId);
    expect({ driver: after.driver, deliveryStatus: after.deliveryStatus }).toEqual({ driver: null, deliveryStatus: 'pending' });
  });

  test("a finished order of the provider's own is 409 feature_disabled and keeps its driver", async () => {
    const placed = await placeOrder(pos, m.storeId);
    const orderId = placed.body.order_id!;
    const withDriver = await until(async () => {
      const row = await orderRow(orderId);
      return row.driver ? row : null;
    });
    expect((await posStatus(pos, orderId, 'completed')).status).toBe(200);
    const res = await assign('sandbox-events', secrets.webhookSecret, orderId, 'Late Larry');
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      code: 'feature_disabled',
      message: 'order is completed, which is final: it is not modifiable',
    });
    expect((await orderRow(orderId)).driver).toBe(withDriver.driver);
  });
});
