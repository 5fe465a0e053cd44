// Partners hear back: every change is an event, listed with a cursor and POSTed to the partner's
// webhook endpoints, signed per Standard Webhooks (proved with the standardwebhooks library, as a
// partner's backend would), retried, logged as attempts, sent again on request; endpoints that
// point where they may not are refused, when made and on every call. Endpoints are real HTTP
// servers on 127.0.0.1; host names resolve through a DNS the test controls, so that nothing is
// ever sent beyond this machine.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Webhook } from 'standardwebhooks';
import type { SandboxPos } from '../../../src/sandbox/pos/server.js';
import { startPos } from '../../support/sandbox.js';
import { merchantTakingOrders, placeOrder, posStatus, until, workerSays, type OrderSetup } from '../../support/orders.js';
import { startReceiver, type Receiver, type Received } from '../../support/receiver.js';
import { get, post, request, startTestService, type TestService } from '../../support/service.js';
import { createOrg } from '../../support/flows.js';

/** The DNS the service sees: host name to addresses; anything else does not resolve. */
const dns = new Map<string, string[]>();
const resolveHost = async (host: string) => {
  const addresses = dns.get(host);
  if (!addresses) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
  return addresses;
};

let service: TestService;
let pos: SandboxPos;
let m: OrderSetup;
let hooks: Receiver;
let secret: string;
let endpointId: string;
const receivers: Receiver[] = [];

type Event = { _id: string; type: string; created_at: number; org_id: string | null; data: Record<string, any> };

async function receiver(...args: Parameters<typeof startReceiver>) {
  const made = await startReceiver(...args);
  receivers.push(made);
  return made;
}
const events = (calls: Received[]) => calls.map((call) => JSON.parse(call.body) as Event);
const createEndpoint = (body: Record<string, unknown>, token = m.token) => post(service.url, '/v1/webhook-endpoints', body, token);
const attempts = async (id: string) =>
  (await get(service.url, `/v1/webhook-endpoints/${id}/attempts`, m.token)).body.attempts as {
    event_id: string;
    at: number;
    status_code: number | null;
    duration_ms: number;
    error: string | null;
  }[];
/** Standard Webhooks' own check, as a partner runs it: throws unless a signature holds. */
const verify = (call: Received, key: string) => new Webhook(key).verify(call.body, call.headers as Record<string, string>);

beforeAll(async () => {
  service = await startTestService(
    { SANDBOX: 'on', OUTBOX_RETRY_BASE_MS: '20', OUTBOX_RETRY_MAX_MS: '60', OUTBOX_MAX_ATTEMPTS: '4', WEBHOOK_TIMEOUT_MS: '1000' },
    { resolveHost },
  );
  pos = await startPos(service);
  hooks = await receiver();
  const partner = await service.partner();
  const made = await post(service.url, '/v1/webhook-endpoints', { url: `${hooks.url}/hooks`, description: 'everything' }, partner.token);
  expect(made.status).toBe(201);
  ({ _id: endpointId, secret } = made.body);
  m = await merchantTakingOrders(service, partner);
});
afterAll(async () => {
  for (const made of receivers) await made.close();
  await pos?.close();
  await service?.stop();
});

test('an endpoint is made with a whsec_ secret shown once, and listed, read and changed without it', async () => {
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
  const read = await get(service.url, `/v1/webhook-endpoints/${endpointId}`, m.token);
  expect(read.status).toBe(200);
  expect(read.body).toEqual({
    _id: endpointId,
    url: `${hooks.url}/hooks`,
    event_types: [],
    org_id: null,
    description: 'everything',
    status: 'enabled',
    disabled_reason: null,
    created_at: expect.any(Number),
  });
  const listed = await get(service.url, '/v1/webhook-endpoints', m.token);
  expect(listed.body.endpoints.map((e: { _id: string }) => e._id)).toEqual([endpointId]);
  const changed = await request(service.url, 'PATCH', `/v1/webhook-endpoints/${endpointId}`, {
    body: { description: 'all events' },
    token: m.token,
  });
  expect(changed.body).toMatchObject({ _id: endpointId, description: 'all events', status: 'enabled' });
  const wrong = await request(service.url, 'PATCH', `/v1/webhook-endpoints/${endpointId}`, { body: { status: 'paused' }, token: m.token });
  expect(wrong.status).toBe(400);
});

test("an order's events reach the endpoint in order, each verified by the standardwebhooks library; the events list pages to the same events", async () => {
  const placed = await placeOrder(pos, m.storeId, { fulfillment_type: 'pickup' });
  const orderId = placed.body.order_id!;
  await until(async () => (await posStatus(pos, orderId, 'ready_for_pickup')).status === 200);
  expect((await posStatus(pos, orderId, 'completed')).status).toBe(200);
  const orderEvents = () => events(hooks.received).filter((e) => e.type.startsWith('order.') && e.data._id === orderId);
  await until(async () => orderEvents().length >= 3);
  expect(orderEvents().map((e) => [e.type, e.data.status])).toEqual([
    ['order.created', 'in_progress'],
    ['order.updated', 'ready_for_pickup'],
    ['order.updated', 'completed'],
  ]);
  expect(orderEvents()[0]).toMatchObject({
    org_id: m.orgId,
    data: {
      org_id: m.orgId,
      location_id: m.locationId,
      dsp_order_id: placed.dsp_order_id,
      source: 'sandbox-dsp',
      fulfillment_type: 'pickup',
    },
  });

  for (const call of hooks.received) {
    expect(verify(call, secret)).toEqual(JSON.parse(call.body));
    expect(call.headers['webhook-id']).toBe(JSON.parse(call.body)._id);
    expect(call.headers['content-type']).toBe('application/json');
  }
  // Each is what the OpenAPI document's webhooks say a partner's endpoint receives.
  const { webhooks } = (await (await fetch(`${service.url}/v1/openapi.json`)).json()) as { webhooks: Record<string, { post: any }> };
  const ajv = new Ajv2020({ strict: false });
  for (const event of events(hooks.received)) {
    const valid = ajv.validate(webhooks[event.type]!.post.requestBody.content['application/json'].schema, event);
    expect({ type: event.type, errors: valid ? null : ajv.errors }).toEqual({ type: event.type, errors: null });
  }
  // A signature made with another secret is refused by the same check.
  expect(() => verify(hooks.received[0]!, `whsec_${Buffer.alloc(32, 7).toString('base64')}`)).toThrow();
  // The onboarding from its start, the location, the store, then the order.
  const types = events(hooks.received).map((e) => e.type);
  expect(types).toEqual(expect.arrayContaining(['onboarding.updated', 'location.ingested', 'dsp_connection.bound', 'order.created']));
  const pending = events(hooks.received).find((e) => e.type === 'onboarding.updated' && e.data.status === 'pending');
  expect(pending?.data).toMatchObject({
    org_id: m.orgId,
    type: 'pos',
    source: 'sandbox-pos',
    entry_url: expect.stringContaining('/start'),
  });

  // The list, page by page, oldest first: the events delivered, in the order they happened.
  const delivered = new Set(hooks.received.map((call) => call.headers['webhook-id'] as string));
  const listed: Event[] = await until(async () => {
    const all: Event[] = [];
    let after = '';
    for (;;) {
      const page = await get(service.url, `/v1/events?limit=3${after ? `&after=${after}` : ''}`, m.token);
      expect(page.status).toBe(200);
      expect(page.body.events.length).toBeLessThanOrEqual(3);
      all.push(...page.body.events);
      if (!page.body.events.length) {
        // An empty page gives the cursor back: the next poll goes on from there.
        expect(page.body.next_cursor).toBe(after || null);
        break;
      }
      after = page.body.next_cursor;
    }
    return [...delivered].every((id) => all.some((e) => e._id === id)) && all;
  });
  expect(listed.map((e) => e.created_at)).toEqual([...listed.map((e) => e.created_at)].sort((a, b) => a - b));
  expect(new Set(listed.map((e) => e._id))).toEqual(new Set([...delivered, ...listed.map((e) => e._id)]));
  for (const call of hooks.received) expect(listed.find((e) => e._id === call.headers['webhook-id'])).toEqual(JSON.parse(call.body));

  const only = await get(service.url, '/v1/events?types=order.created,order.updated&limit=100', m.token);
  expect(new Set(only.body.events.map((e: Event) => e.type))).toEqual(new Set(['order.created', 'order.updated']));
  expect((await get(service.url, '/v1/events?types=order.exploded', m.token)).status).toBe(400);
  expect((await get(service.url, '/v1/events?limit=101', m.token)).status).toBe(400);
  expect((await get(service.url, '/v1/events?after=bm90LWEtY3Vyc29y', m.token)).status).toBe(400);
});

test("an organization's token lists its organization's events only; GraphQL lists the same", async () => {
  const other = await post(
    service.url,
    '/v1/onboarding/org',
    { name: 'Other', provider_id: 'other-org', user: { email: 'o@example.com' } },
    m.token,
  );
  expect(other.status).toBe(201);
  const otherOrg = other.body.org_id as string;
  await post(
    service.url,
    '/v1/onboarding/integrations',
    { org_id: otherOrg, source: 'sandbox-pos', type: 'pos', return_url: 'https://partner.example.com/back' },
    m.token,
  );
  const orgToken = (await post(service.url, '/v1/oauth/partner-tokens', { org_id: m.orgId, token_name: 'org', scopes: ['user'] }, m.token))
    .body.access_token as string;
  const mine = await until(async () => {
    const page = await get(service.url, '/v1/events?limit=100', m.token);
    return page.body.events.some((e: Event) => e.org_id === otherOrg) && (page.body.events as Event[]);
  });
  const theirs = (await get(service.url, '/v1/events?limit=100', orgToken)).body.events as Event[];
  expect(theirs.length).toBeGreaterThan(0);
  expect(theirs.every((e) => e.org_id === m.orgId)).toBe(true);
  expect(theirs.map((e) => e._id)).toEqual(
    mine
      .filter((e: Event) => e.org_id === m.orgId)
      .slice(0, theirs.length)
      .map((e: Event) => e._id),
  );
  expect((await get(service.url, `/v1/events?org_id=${otherOrg}`, orgToken)).status).toBe(404);
  // Endpoints are the partner's: an organization's token cannot manage them.
  expect((await get(service.url, '/v1/webhook-endpoints', orgToken)).status).toBe(403);

  const graphql = await post(
    service.url,
    '/graphql',
    { query: '{ events(limit: 2, types: ["order.created"]) { events { id type orgId data } nextCursor } }' },
    m.token,
  );
  expect(graphql.body.errors).toBeUndefined();
  const listed = (await get(service.url, '/v1/events?limit=2&types=order.created', m.token)).body;
  expect(graphql.body.data.events.events.map((e: { id: string }) => e.id)).toEqual(listed.events.map((e: Event) => e._id));
  expect(graphql.body.data.events.events[0].data).toEqual(listed.events[0].data);
});

test('webhook endpoints need what reading events needs: a token narrowed to billing, or an organization token, reaches none', async () => {
  const partner = await service.partner();
  const narrowed = async (scopes: string[]) =>
    (
      await post(service.url, '/v1/oauth/token', {
        grant_type: 'client_credentials',
        client_id: partner.clientId,
        client_secret: partner.clientSecret,
        scopes,
      })
    ).body.access_token as string;
  const billing = await narrowed(['billing']);
  const own = await post(service.url, '/v1/webhook-endpoints', { url: `${hooks.url}/own` }, partner.token);
  expect(own.status).toBe(201);
  const { orgId } = await createOrg(service.url, partner.token);
  const orgToken = (
    await post(service.url, '/v1/oauth/partner-tokens', { org_id: orgId, token_name: 'o', scopes: ['user'] }, partner.token)
  ).body.access_token as string;
  const before = await service.services.db.webhookEndpoint.findUniqueOrThrow({ where: { id: own.body._id } });
  const messages = await service.services.db.outboxMessage.count({ where: { endpointId: own.body._id } });
  for (const [caller, code, message] of [
    [billing, 'insufficient_scope', /user scope/],
    [orgToken, 'insufficient_scope', /organization token/],
  ] as const) {
    expect((await get(service.url, '/v1/events', caller)).status).toBe(caller === billing ? 403 : 200);
    const answers = [
      await post(service.url, '/v1/webhook-endpoints', { url: `${hooks.url}/stolen` }, caller),
      await get(service.url, '/v1/webhook-endpoints', caller),
      await get(service.url, `/v1/webhook-endpoints/${own.body._id}`, caller),
      await request(service.url, 'PATCH', `/v1/webhook-endpoints/${own.body._id}`, { token: caller, body: { url: `${hooks.url}/stolen` } }),
      await post(service.url, `/v1/webhook-endpoints/${own.body._id}/resend`, { since: 0 }, caller),
      await post(service.url, `/v1/webhook-endpoints/${own.body._id}/rotate-secret`, {}, caller),
      await request(service.url, 'DELETE', `/v1/webhook-endpoints/${own.body._id}`, { token: caller }),
    ];
    for (const answer of answers) expect(answer).toMatchObject({ status: 403, body: { code, message: expect.stringMatching(message) } });
  }
  // Nothing of the partner's endpoint changed, and nothing was queued for it.
  expect(await service.services.db.webhookEndpoint.findUniqueOrThrow({ where: { id: own.body._id } })).toEqual(before);
  expect(await service.services.db.outboxMessage.count({ where: { endpointId: own.body._id } })).toBe(messages);
  expect(await service.services.db.webhookEndpoint.count({ where: { url: { contains: 'stolen' } } })).toBe(0);
  // The same partner login with the user scope manages it as ever.
  expect((await get(service.url, `/v1/webhook-endpoints/${own.body._id}`, await narrowed(['user']))).status).toBe(200);
});

test('a rotated secret: both secrets sign for a day, and the library takes the call with either', async () => {
  const rotated = await post(service.url, `/v1/webhook-endpoints/${endpointId}/rotate-secret`, {}, m.token);
  expect(rotated.status).toBe(200);
  const fresh = rotated.body.secret as string;
  expect(fresh).not.toBe(secret);
  const before = hooks.received.length;
  expect((await post(service.url, `/v1/onboarding/org/${m.orgId}/locations/${m.locationId}/pause`, {}, m.token)).status).toBe(200);
  const call = await until(async () => hooks.received.slice(before).find((c) => JSON.parse(c.body).type === 'location.paused'));
  expect(String(call.headers['webhook-signature']).split(' ')).toHaveLength(2);
  expect(verify(call, fresh)).toMatchObject({ type: 'location.paused', data: { location_id: m.locationId } });
  expect(verify(call, secret)).toMatchObject({ type: 'location.paused' });
  expect(JSON.parse(call.body).data.locations[0]).toMatchObject({ dsp_provider_id: m.storeId, paused_until: -1 });
  // A day later the old one no longer signs.
  const kept = await service.services.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
  const lapsed = (JSON.parse(kept.retiredSecrets) as { sealed: string }[]).map((old) => ({ ...old, until: Date.now() - 1000 }));
  await service.services.db.webhookEndpoint.update({ where: { id: endpointId }, data: { retiredSecrets: JSON.stringify(lapsed) } });
  const after = hooks.received.length;
  await post(service.url, `/v1/onboarding/org/${m.orgId}/locations/${m.locationId}/resume`, {}, m.token);
  const next = await until(async () => hooks.received.slice(after).find((c) => JSON.parse(c.body).type === 'location.resumed'));
  expect(verify(next, fresh)).toMatchObject({ type: 'location.resumed' });
  expect(() => verify(next, secret)).toThrow();
  secret = fresh;
});

test('two rotations at once, and a third an hour later: every secret answered signs for its day, none is dropped early', async () => {
  const calls = await receiver(200);
  const made = await createEndpoint({ url: calls.url, event_types: ['location.paused'] });
  const id = made.body._id as string;
  const rotate = () => post(service.url, `/v1/webhook-endpoints/${id}/rotate-secret`, {}, m.token);
  const [a, b] = await Promise.all([rotate(), rotate()]);
  expect([a.status, b.status]).toEqual([200, 200]);
  // An hour later (moved, not waited for) a third rotation keeps the first secrets signing.
  const row = await service.services.db.webhookEndpoint.findUniqueOrThrow({ where: { id } });
  const earlier = (JSON.parse(row.retiredSecrets) as { sealed: string; until: number }[]).map((old) => ({
    ...old,
    until: old.until - 3_600_000,
  }));
  await service.services.db.webhookEndpoint.update({ where: { id }, data: { retiredSecrets: JSON.stringify(earlier) } });
  const c = await rotate();
  expect(c.status).toBe(200);
  await post(service.url, `/v1/onboarding/org/${m.orgId}/locations/${m.locationId}/pause`, { until_ms: Date.now() + 60_000 }, m.token);
  const call = await until(async () => calls.received[0]);
  expect(String(call.headers['webhook-signature']).split(' ')).toHaveLength(4);
  for (const key of [made.body.secret, a.body.secret, b.body.secret, c.body.secret])
    expect(verify(call, key)).toMatchObject({ type: 'location.paused' });
  await post(service.url, `/v1/onboarding/org/${m.orgId}/locations/${m.locationId}/resume`, {}, m.token);
});

test('a 5xx is tried again with the same webhook-id until taken; the attempts say how each went; resend sends one event, or all since a time', async () => {
  let calls = 0;
  const flaky = await receiver((_call, response) => {
    calls++;
    response.writeHead(calls <= 2 ? 500 : 200).end(calls <= 2 ? 'database down' : 'ok');
  });
  const made = await createEndpoint({ url: flaky.url, event_types: ['location.paused'] });
  expect(made.body.event_types).toEqual(['location.paused']);
  const start = Date.now();
  await post(service.url, `/v1/onboarding/org/${m.orgId}/locations/${m.locationId}/pause`, { until_ms: Date.now() + 3_600_000 }, m.token);
  await until(async () => flaky.received.length >= 3);
  const ids = new Set(flaky.received.map((call) => call.headers['webhook-id']));
  expect(ids.size).toBe(1);
  const eventId = [...ids][0] as string;
  const logged = await until(async () => {
    const list = await attempts(made.body._id);
    return list.length >= 3 && list;
  });
  expect(logged.map((a) => [a.event_id, a.status_code])).toEqual([
    [eventId, 200],
    [eventId, 500],
    [eventId, 500],
  ]);
  expect(logged[1]!.error).toBe('500 database down');
  expect(logged[0]!.error).toBeNull();
  expect(logged.every((a) => a.duration_ms >= 0 && a.at > 0)).toBe(true);

  const resent = await post(service.url, `/v1/webhook-endpoints/${made.body._id}/resend`, { event_id: eventId }, m.token);
  expect(resent).toMatchObject({ status: 202, body: { queued: 1 } });
  await until(async () => flaky.received.length >= 4);
  expect(flaky.received[3]!.headers['webhook-id']).toBe(eventId);
  expect(flaky.received[3]!.body).toBe(flaky.received[0]!.body);
  // Everything since a time the endpoint takes: its one paused event.
  const since = await post(service.url, `/v1/webhook-endpoints/${made.body._id}/resend`, { since: start }, m.token);
  expect(since).toMatchObject({ status: 202, body: { queued: 1 } });
  await until(async () => flaky.received.length >= 5);
  expect((await post(service.url, `/v1/webhook-endpoints/${made.body._id}/resend`, { event_id: 'evt_nope' }, m.token)).status).toBe(404);
  expect((await post(service.url, `/v1/webhook-endpoints/${made.body._id}/resend`, {}, m.token)).status).toBe(400);
  await post(service.url, `/v1/onboarding/org/${m.orgId}/locations/${m.locationId}/resume`, {}, m.token);
});

test('a resend goes out a slice at a time, each event once, oldest first; a partner has three under way at most, the fourth is 429', async () => {
  const partner = await service.partner();
  const { orgId } = await createOrg(service.url, partner.token);
  // 250 events of the partner's, a second apart, written as the service writes them.
  const base = Date.now() - 3_600_000;
  const rows = Array.from({ length: 250 }, (_, i) => ({
    id: `evt_resend${String(i).padStart(4, '0')}`,
    partnerId: partner.partnerId,
    orgId,
    type: 'location.paused',
    data: JSON.stringify({ n: i }),
    createdAt: new Date(base + i * 1000),
  }));
  await service.services.db.event.createMany({ data: rows });
  const calls = await receiver(200);
  const made = await post(service.url, '/v1/webhook-endpoints', { url: calls.url, event_types: ['location.paused'] }, partner.token);
  const id = made.body._id as string;
  // Three at once are taken; the fourth waits for one of them to end.
  const answers = await Promise.all(
    Array.from({ length: 4 }, () => post(service.url, `/v1/webhook-endpoints/${id}/resend`, { since: base }, partner.token)),
  );
  const statuses = answers.map((a) => a.status).sort();
  expect(statuses).toEqual([202, 202, 202, 429]);
  const refused = answers.find((a) => a.status === 429)!;
  expect(refused.body).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/at most 3 resends/) });
  expect(refused.headers.get('retry-after')).toBe('60');
  for (const taken of answers.filter((a) => a.status === 202)) expect(taken.body).toEqual({ queued: 250 });
  // However far along, the outbox holds at most a slice and the next step of each resend.
  const queued = async () =>
    (
      await service.services.db.outboxMessage.groupBy({ by: ['orderingKey'], where: { endpointId: id, status: 'pending' }, _count: true })
    ).map((g) => g._count);
  let most = 0;
  await until(async () => {
    most = Math.max(most, ...(await queued()), 0);
    return calls.received.length >= 750;
  }, 60_000);
  expect(most).toBeLessThanOrEqual(101);
  // Each resend sent every event once.
  const ids = calls.received.map((call) => (JSON.parse(call.body) as { _id: string })._id);
  for (const row of rows) expect(ids.filter((x) => x === row.id)).toHaveLength(3);
  // The last calls' releases follow their answers (gathered for up to 10 ms): awaited, then none is left.
  await until(
    async () =>
      (await service.services.db.outboxMessage.count({ where: { endpointId: id, status: { in: ['pending', 'waiting'] } } })) === 0,
  );
  // With none under way, another is taken; it sends oldest first.
  expect((await post(service.url, `/v1/webhook-endpoints/${id}/resend`, { since: base + 200_000 }, partner.token)).body).toEqual({
    queued: 50,
  });
  await until(async () => calls.received.length >= 800);
  const last = calls.received.slice(750).map((call) => (JSON.parse(call.body) as { _id: string })._id);
  expect(last).toEqual(rows.slice(200).map((row) => row.id));
});

test('an endpoint deleted while a call to it is under way: the message ends with it, no attempt is kept, nothing is tried again', async () => {
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => {
    answer = resolve;
  });
  const held = await receiver((_call, response) => void answered.then(() => response.writeHead(200).end('ok')));
  const made = await createEndpoint({ url: held.url, event_types: ['location.resumed'] });
  const id = made.body._id as string;
  await post(service.url, `/v1/onboarding/org/${m.orgId}/locations/${m.locationId}/resume`, {}, m.token);
  await until(async () => held.received.length >= 1);
  expect((await request(service.url, 'DELETE', `/v1/webhook-endpoints/${id}`, { token: m.token })).status).toBe(204);
  const died = workerSays(service.worker, 'dead', (dead) => dead.endpointId === id);
  answer();
  const message = await service.services.db.outboxMessage.findUniqueOrThrow({ where: { id: (await died).id } });
  // Ended by the call's own record, not by a failed write taken up again after its lease.
  expect(message).toMatchObject({ attempts: 1, lastError: 'the endpoint was deleted' });
  expect(await service.services.db.webhookAttempt.count({ where: { endpointId: id } })).toBe(0);
});

test('a delivery that dies tells the other endpoints (delivery.dead); an endpoint failing for five days is disabled, and enabled again it gets what waited', async () => {
  const down = await receiver(503);
  const watcher = await receiver();
  const failing = (await createEndpoint({ url: down.url, event_types: ['location.paused', 'delivery.dead'] })).body;
  await createEndpoint({ url: watcher.url, event_types: ['delivery.dead'] });
  await post(service.url, `/v1/onboarding/org/${m.orgId}/locations/${m.locationId}/pause`, {}, m.token);
  const dead = await until(async () => events(watcher.received).find((e) => e.type === 'delivery.dead'));
  expect(dead.data).toMatchObject({
    endpoint_id: failing._id,
    event_id: down.received[0]!.headers['webhook-id'],
    kind: 'location.paused',
    attempts: 4,
    last_status: 503,
  });
  expect(down.received).toHaveLength(4);
  // The endpoint whose delivery died is not told of it.
  expect(events(down.received).every((e) => e.type === 'location.paused')).toBe(true);

  // Five days of failures (moved back, not waited for): its next failed attempt disables it.
  await service.services.db.webhookEndpoint.update({
    where: { id: failing._id },
    data: { failingSince: new Date(Date.now() - 5 * 86_400_000 - 1000) },
  });
  await post(service.url, `/v1/onboarding/org/${m.orgId}/locations/${m.locationId}/resume`, {}, m.token);
  await post(service.url, `/v1/onboarding/org/${m.orgId}/locations/${m.locationId}/pause`, {}, m.token);
  const disabled = await until(async () => {
    const read = await get(service.url, `/v1/webhook-endpoints/${failing._id}`, m.token);
    return read.body.status === 'disabled' && read.body;
  });
  expect(disabled.disabled_reason).toMatch(/five days/);
  const waiting = await until(async () =>
    service.services.db.outboxMessage.findFirst({ where: { endpointId: failing._id, status: 'waiting' } }),
  );
  const calls = down.received.length;
  // Nothing goes to a disabled endpoint, and new events do not queue for it.
  await post(service.url, `/v1/onboarding/org/${m.orgId}/locations/${m.locationId}/resume`, {}, m.token);
  expect(await service.services.db.outboxMessage.count({ where: { endpointId: failing._id, status: 'pending' } })).toBe(0);
  expect(down.received).toHaveLength(calls);

  down.answer(200);
  const enabled = await request(service.url, 'PATCH', `/v1/webhook-endpoints/${failing._id}`, {
    body: { status: 'enabled' },
    token: m.token,
  });
  expect(enabled.body).toMatchObject({ status: 'enabled', disabled_reason: null });
  await until(async () =>
    down.received.some((call) => call.headers['webhook-id'] === waiting.subjectId && down.received.indexOf(call) >= calls),
  );
  await until(async () => (await attempts(failing._id))[0]?.status_code === 200);
});

test('a message to a provider that dies is a delivery.dead event too', async () => {
  await fetch(`${pos.url}/v1/_sandbox/fail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path: '/v1/orders', count: 1, status: 400 }),
  });
  const placed = await placeOrder(pos, m.storeId, { fulfillment_type: 'pickup' });
  const dead = await until(async () =>
    events(hooks.received).find(
      (e) => e.type === 'delivery.dead' && e.data.kind === 'order.created' && e.data.destination === 'sandbox-pos',
    ),
  );
  expect(dead).toMatchObject({ org_id: m.orgId, data: { last_status: 400, attempts: 1 } });
  // And the order's own story: refused by the POS.
  const failed = await until(async () =>
    events(hooks.received).find((e) => e.type === 'order.failed' && e.data._id === placed.body.order_id),
  );
  expect(failed.data).toMatchObject({ status: 'failed', failure_reason: 'pos_rejected' });
});

test('slow, huge, redirecting and silent endpoints are bounded: each call ends, is logged and tried again', async () => {
  const elsewhere = await receiver();
  let calls = 0;
  const odd = await receiver((_call, response) => {
    calls++;
    if (calls === 1) return; // never answers
    if (calls === 2) return void response.writeHead(302, { location: `${elsewhere.url}/stolen` }).end();
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(Buffer.alloc(10 * 1024 * 1024, 'x'));
  });
  const made = (await createEndpoint({ url: odd.url, event_types: ['location.paused'] })).body;
  await post(service.url, `/v1/onboarding/org/${m.orgId}/locations/${m.locationId}/pause`, {}, m.token);
  const logged = await until(async () => {
    const list = await attempts(made._id);
    return list.length >= 3 && list;
  });
  expect(logged.map((a) => a.status_code)).toEqual([200, 302, null]);
  expect(logged[2]!.error).toMatch(/timeout/i);
  expect(logged[2]!.duration_ms).toBeGreaterThanOrEqual(1000);
  expect(logged[1]!.error).toMatch(/^302/);
  // The redirect was not followed.
  expect(elsewhere.received).toHaveLength(0);
  await post(service.url, `/v1/onboarding/org/${m.orgId}/locations/${m.locationId}/resume`, {}, m.token);
});

test('endpoints at private, loopback, link-local or metadata addresses are refused when made, and when a name resolves to one at call time', async () => {
  dns.set('metadata.test', ['169.254.169.254']);
  dns.set('intranet.test', ['203.0.113.9', '10.1.2.3']);
  const refused = [
    'http://10.0.0.1/hooks',
    'https://10.0.0.1/hooks',
    'https://192.168.1.20/hooks',
    'https://169.254.169.254/latest/meta-data',
    'https://[::ffff:a9fe:a9fe]/',
    'https://[fd00:ec2::254]/',
    'https://[fe80::1]/',
    'https://100.100.100.200/',
    'https://0.0.0.0/',
    'https://metadata.test/',
    'https://intranet.test/',
    'https://nowhere.test/',
    'ftp://files.example.com/',
    'https://user:secret@hooks.test/',
    'not a url',
  ];
  for (const url of refused) {
    const answer = await createEndpoint({ url });
    expect({ url, status: answer.status, code: answer.body.code }).toEqual({ url, status: 400, code: 'invalid_url' });
  }
  const changed = await request(service.url, 'PATCH', `/v1/webhook-endpoints/${endpointId}`, {
    body: { url: 'https://10.9.9.9/' },
    token: m.token,
  });
  expect(changed).toMatchObject({ status: 400, body: { code: 'invalid_url' } });

  // A name that resolved to this machine when made, and to a private address when called: the
  // call's own lookup refuses it before any connection.
  const target = await receiver();
  dns.set('rebind.test', ['127.0.0.1']);
  const made = await createEndpoint({ url: `https://rebind.test:${new URL(target.url).port}/hooks`, event_types: ['location.paused'] });
  expect(made.status).toBe(201);
  dns.set('rebind.test', ['10.0.0.7']);
  await post(service.url, `/v1/onboarding/org/${m.orgId}/locations/${m.locationId}/pause`, {}, m.token);
  const logged = await until(async () => (await attempts(made.body._id))[0]);
  expect(logged).toMatchObject({ status_code: null, error: expect.stringContaining('10.0.0.7 is in a private range') });
  expect(target.received).toHaveLength(0);
  expect((await request(service.url, 'DELETE', `/v1/webhook-endpoints/${made.body._id}`, { token: m.token })).status).toBe(204);
  expect((await get(service.url, `/v1/webhook-endpoints/${made.body._id}`, m.token)).status).toBe(404);
  await post(service.url, `/v1/onboarding/org/${m.orgId}/locations/${m.locationId}/resume`, {}, m.token);
});

test('outside the sandbox, loopback is refused too, and WEBHOOK_ALLOW_PRIVATE lets a partner on our network in', async () => {
  const strict = await startTestService({}, { resolveHost });
  const open = await startTestService({ WEBHOOK_ALLOW_PRIVATE: 'true' }, { resolveHost });
  try {
    const partner = await strict.partner();
    for (const url of ['http://127.0.0.1:9/hooks', 'https://127.0.0.1/hooks', 'https://[::1]/hooks', 'https://localhost/hooks']) {
      dns.set('localhost', ['127.0.0.1']);
      const answer = await post(strict.url, '/v1/webhook-endpoints', { url }, partner.token);
      expect({ url, status: answer.status }).toEqual({ url, status: 400 });
    }
    // Made, then deleted at once: this partner has no events, so nothing is ever sent to it.
    const allowed = await open.partner();
    const made = await post(open.url, '/v1/webhook-endpoints', { url: 'https://10.1.2.3/hooks' }, allowed.token);
    expect(made.status).toBe(201);
    expect((await request(open.url, 'DELETE', `/v1/webhook-endpoints/${made.body._id}`, { token: allowed.token })).status).toBe(204);
  } finally {
    await strict.stop();
    await open.stop();
  }
});

test("a partner with a thousand hanging endpoints does not hold up another partner's delivery", async () => {
  const crowded = await startTestService({ SANDBOX: 'on', WEBHOOK_TIMEOUT_MS: '60000' }, { resolveHost });
  const hanging = await startReceiver(() => undefined);
  const quick = await startReceiver();
  const crowdedPos = await startPos(crowded);
  try {
    const [heavy, light] = [await crowded.partner(), await crowded.partner()];
    for (let i = 0; i < 1000; i += 50)
      await Promise.all(
        Array.from({ length: 50 }, () =>
          post(crowded.url, '/v1/webhook-endpoints', { url: hanging.url, event_types: ['onboarding.updated'] }, heavy.token),
        ),
      );
    await post(crowded.url, '/v1/webhook-endpoints', { url: quick.url }, light.token);
    const onboard = async (token: string) => {
      const org = await post(
        crowded.url,
        '/v1/onboarding/org',
        { name: 'Busy', provider_id: `busy-${Math.random()}`, user: { email: 'b@example.com' } },
        token,
      );
      await post(
        crowded.url,
        '/v1/onboarding/integrations',
        { org_id: org.body.org_id, source: 'sandbox-pos', type: 'pos', return_url: 'https://partner.example.com/back' },
        token,
      );
    };
    await onboard(heavy.token);
    await until(async () => hanging.open() >= crowded.services.config.webhooks.concurrencyPerPartner);
    await onboard(light.token);
    await until(async () => quick.received.length >= 1, 30_000);
    // The heavy partner holds at most its share of calls (its cap, a claim more at most).
    expect(hanging.open()).toBeLessThanOrEqual(2 * crowded.services.config.webhooks.concurrencyPerPartner);
    expect(JSON.parse(quick.received[0]!.body).type).toBe('onboarding.updated');
  } finally {
    await hanging.close();
    await quick.close();
    await crowdedPos.close();
    await crowded.stop();
  }
}, 60_000);
