// A delivery platform written from docs/dsp-channels.md alone (../../support/foreign-dsp.ts: its own
// HTTP server, its own consent form, its own checks of our signatures), run against the service
// as a new platform runs it: registered, its merchant onboarded through its consent form, three
// stores bound, its menus taken, its orders sent. Then the cases its first run found: a
// cancellation sent again, an order of nothing, an order it delivers itself moving at the POS,
// an event it fails and gets again, an outage across which a snooze made before newer menus
// reaches it first and every held message arrives in order, a token refreshed before the first
// call after its expiry less a minute, and what the operator's log says while it does not answer.
import pino from 'pino';
import { startService } from '../../../src/app/service.js';
import { saveProvider } from '../../../src/integrations/providers.js';
import { callForOnboarding } from '../../../src/integrations/provider-client.js';
import type { SandboxPos } from '../../../src/sandbox/pos/server.js';
import { startForeignDsp, type ForeignDsp, type TakenEvent } from '../../support/foreign-dsp.js';
import { authorizeInBrowser, control, startPos, testSecrets } from '../../support/sandbox.js';
import { completeOnboarding, createOrg, ingest } from '../../support/flows.js';
import { catalogReceived, posStatus, until, workerSays } from '../../support/orders.js';
import { clockMovedBy } from '../../support/clock.js';
import { asTestService, get, migratedDatabase, post, request, testConfig, type TestService } from '../../support/service.js';

const SOURCE = 'taqueria-eats';
/** The operator's log, as JSON lines. */
const logged: { level: number; msg: string; url?: string; failures?: number }[] = [];
let service: TestService;
let pos: SandboxPos;
let platform: ForeignDsp;
let token: string;
let orgId: string;
let dspOnboardingId: string;
/** Each of the platform's stores: its id, the location bound to it (ours and the POS's), our id of the store. */
const stores: Record<'atx' | 'ber' | 'bkn', { id: string; locationId: string; posLocationId: string; connectionId: string }> = {} as never;

beforeAll(async () => {
  const database = await migratedDatabase();
  // The outbox's default delays, fifty times shorter (20 ms for 1 s): six refused calls of one
  // message are the half minute a platform is down at the defaults.
  const config = testConfig(database, { OUTBOX_RETRY_BASE_MS: '20', OUTBOX_RETRY_MAX_MS: '6000', OUTBOX_MAX_ATTEMPTS: '100' });
  const log = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line)) });
  service = asTestService(await startService(config, log), database);
  pos = await startPos(service, testSecrets());
  const tag = Math.random().toString(36).slice(2, 8);
  platform = await startForeignDsp({
    stores: [
      { provider_id: `shop-${tag}-atx`, name: 'Taqueria Norte Austin (Delivery)' },
      { provider_id: `shop-${tag}-ber`, name: 'Taqueria Norte Berlin (Delivery)' },
      { provider_id: `shop-${tag}-bkn`, name: 'Taqueria Norte Brooklyn (Delivery)' },
    ],
    redirectUris: [`${service.services.publicUrl}/v1/onboarding/callback`],
  });
  // The operator registers it as the guide's Registration says.
  await saveProvider(service.services, {
    source: SOURCE,
    kind: 'dsp',
    name: 'Taqueria Eats',
    base_url: platform.url,
    client_id: platform.clientId,
    client_secret: platform.clientSecret,
    webhook_secret: platform.webhookSecret,
  });
  ({ token } = await service.partner());
  ({ orgId } = await createOrg(service.url, token));
  const posOnboarding = await completeOnboarding(service.url, token, orgId, 'pos');
  const tid = posOnboarding.integration_id;
  const posLocations = { atx: `loc_2_${tid}`, ber: `loc_${tid}_de`, bkn: `loc_3_${tid}` };
  const locations = await ingest(service.url, token, posOnboarding._id, Object.values(posLocations));
  // The merchant consents on the platform's own form.
  const init = await post(
    service.url,
    '/v1/onboarding/integrations',
    { org_id: orgId, source: SOURCE, type: 'dsp', return_url: 'https://partner.example/back' },
    token,
  );
  const walk = await authorizeInBrowser(init.body.onboarding.entry_url);
  dspOnboardingId = init.body.onboarding._id;
  expect((await post(service.url, `/v1/onboarding/integrations/${dspOnboardingId}/complete`, { code: walk.code }, token)).status).toBe(200);
  const listed = await get(service.url, `/v1/onboarding/locations?onboarding_id=${dspOnboardingId}`, token);
  expect(listed.body.locations.map((s: { provider_id: string }) => s.provider_id)).toEqual(platform.storeIds);
  for (const [index, short] of (['atx', 'ber', 'bkn'] as const).entries()) {
    const bound = await post(
      service.url,
      '/v1/onboarding/locations/bind',
      {
        onboarding_id: dspOnboardingId,
        locations: [{ pos_location_id: locations[index], dsp_provider_id: platform.storeIds[index], dsp_store_name: short }],
      },
      token,
    );
    stores[short] = {
      id: platform.storeIds[index]!,
      locationId: locations[index]!,
      posLocationId: posLocations[short],
      connectionId: bound.body.locations[0]._id,
    };
    await control(pos, 'catalog-updated', { location_id: posLocations[short] });
    await catalogReceived(service, locations[index]!);
  }
}, 60_000);
afterAll(async () => {
  await platform?.close();
  await pos?.close();
  await service?.stop();
});

const send = (type: string, object: Record<string, unknown>, id?: string) => platform.send(service.url, SOURCE, type, object, id);
/** The events the platform took about one of its orders, in the order it took them. */
const eventsOf = (dspOrderId: string) => platform.events.filter((e) => e.data.dsp_order_id === dspOrderId);
const heard = (dspOrderId: string, count: number) => until(() => eventsOf(dspOrderId).length >= count && eventsOf(dspOrderId));
const message = (idempotencyKey: string) => service.services.db.outboxMessage.findUnique({ where: { idempotencyKey } });

test('its menus and orders: each store took its menus, signed; its orders are taken, refused and moved as the guide says', async () => {
  expect(platform.menus.get(stores.ber.id)).toMatchObject({
    store_id: stores.ber.id,
    timezone: 'Europe/Berlin',
    catalog: { currency: 'eur' },
  });
  const orders = [platform.orderFor(stores.atx.id), platform.orderFor(stores.ber.id)];
  for (const order of orders) expect(await send('order.created', order)).toMatchObject({ status: 201, body: { status: 'in_progress' } });
  const [atx, ber] = await Promise.all(orders.map((o) => heard(o.dsp_order_id, 1)));
  expect(atx![0]!).toMatchObject({ type: 'location.order.accept', store_id: stores.atx.id, data: { sequence: 1, currency: 'usd' } });
  expect(ber![0]!).toMatchObject({ type: 'location.order.accept', store_id: stores.ber.id, data: { sequence: 1, currency: 'eur' } });
  // An order it delivers itself: its moves carry its status alone, completed included.
  const orderId = String(atx![0]!.data.order_id);
  for (const status of ['ready_for_pickup', 'completed']) expect((await posStatus(pos, orderId, status)).status).toBe(200);
  expect((await heard(orders[0]!.dsp_order_id, 3)).slice(1).map((e) => e.data)).toEqual(
    ['ready_for_pickup', 'completed'].map((status, i) => ({
      order_id: orderId,
      dsp_order_id: orders[0]!.dsp_order_id,
      sequence: i + 2,
      status,
    })),
  );
  // An order of nothing: refused at intake, and the platform told why.
  const nothing = platform.orderFor(stores.bkn.id, { items: [], subtotal: 0, tax: 0, total: 499 });
  expect(await send('order.created', nothing)).toMatchObject({ status: 201, body: { status: 'failed', failure_reason: 'invalid_cart' } });
  expect((await heard(nothing.dsp_order_id, 1))[0]!.data).toMatchObject({
    sequence: 1,
    failure_reason: 'invalid_cart',
    failure_details: 'an order with no items',
  });
});

test('a cancellation sent again under its webhook id after a lost answer: 200 both times, one effect, not echoed back', async () => {
  const order = platform.orderFor(stores.atx.id);
  const placed = await send('order.created', order);
  await heard(order.dsp_order_id, 1);
  const cancel = { dsp_order_id: order.dsp_order_id, dsp_store_id: stores.atx.id };
  const first = await send('order.canceled', cancel, 'evt_cancel_once');
  const again = await send('order.canceled', cancel, 'evt_cancel_once');
  expect([first, again]).toEqual([
    { status: 200, body: { order_id: placed.body.order_id, status: 'dsp_canceled' } },
    { status: 200, body: { order_id: placed.body.order_id, status: 'dsp_canceled', duplicate: true } },
  ]);
  // The restaurant's POS hears of it once; the platform, its own cancellation, never.
  expect(await service.services.db.outboxMessage.count({ where: { idempotencyKey: `order.canceled:${placed.body.order_id}` } })).toBe(1);
  expect(await service.services.db.event.count({ where: { subjectId: String(placed.body.order_id), type: 'order.updated' } })).toBe(1);
  expect(eventsOf(order.dsp_order_id).map((e) => e.type)).toEqual(['location.order.accept']);
  // Without its store: 400 naming the field.
  expect(await send('order.canceled', { dsp_order_id: order.dsp_order_id })).toMatchObject({
    status: 400,
    body: { message: 'object.dsp_store_id is required' },
  });
});

test('an event it answers 500 is sent again, the order’s next waiting behind it, in sequence', async () => {
  platform.answerEvents('location.order.accept', 500, 2);
  const order = platform.orderFor(stores.bkn.id);
  const placed = await send('order.created', order);
  const orderId = String(placed.body.order_id);
  await until(async () => ((await message(`dsp-event:${orderId}:1`))?.attempts ?? 0) >= 1);
  expect((await posStatus(pos, orderId, 'ready_for_pickup')).status).toBe(200);
  expect((await heard(order.dsp_order_id, 2)).map((e) => [e.type, e.data.sequence])).toEqual([
    ['location.order.accept', 1],
    ['location.order.notify_status_change', 2],
  ]);
  expect((await message(`dsp-event:${orderId}:1`))!.attempts).toBe(3);
});

test('down for half a minute: a snooze made before newer menus reaches it first, every held message arrives in order, and the log says where no one answers', async () => {
  const eventsUrl = `${platform.url}/v1/events`;
  const since = logged.length;
  const atx = stores.atx;
  const order = platform.orderFor(atx.id);
  const before = await service.services.db.store.findUniqueOrThrow({ where: { id: atx.connectionId } });
  let publishId = '';
  platform.down();
  try {
    // An order (its accept held), then an item off sale, then a new catalog: its menus wait behind the snooze.
    const placed = await send('order.created', order);
    const orderId = String(placed.body.order_id);
    const at = (what: string) => `/v1/onboarding/org/${orgId}/locations/${atx.locationId}/${what}`;
    expect(
      (await request(service.url, 'PUT', at('availability'), { token, body: { item_ids: ['item_us_rings'], available: false } })).status,
    ).toBe(200);
    await control(pos, 'holidays', {
      location_id: atx.posLocationId,
      holidays: [{ date: '2031-12-25', name: 'Christmas Day', closed: true }],
    });
    const snoozeKey = `dsp-store-event:${atx.connectionId}:${before.eventSequence + 1}`;
    const pending = await until(() =>
      service.services.db.menuPublish.findFirst({ where: { storeId: atx.connectionId, status: 'pending' } }),
    );
    const publish = await service.services.db.outboxMessage.findFirstOrThrow({ where: { kind: 'menu.publish', subjectId: pending.id } });
    publishId = publish.id;
    expect((await posStatus(pos, orderId, 'ready_for_pickup')).status).toBe(200);
    // Six refused calls of the snooze, and of the order's accept: half a minute at the default
    // delays. The menus were not tried.
    const acceptKey = `dsp-event:${orderId}:1`;
    const refused = new Map<string, number>();
    while (!((refused.get(snoozeKey) ?? 0) >= 6 && (refused.get(acceptKey) ?? 0) >= 6)) {
      const retried = await workerSays(service.worker, 'retry', (m) => m.idempotencyKey === snoozeKey || m.idempotencyKey === acceptKey);
      refused.set(retried.idempotencyKey, retried.attempts);
    }
    expect((await service.services.db.outboxMessage.findUniqueOrThrow({ where: { id: publishId } })).attempts).toBe(0);
  } finally {
    platform.up();
  }
  const menus = await until(
    () =>
      platform.taken.findIndex(
        (t) => t.path === '/v1/menus' && t.body.store_id === atx.id && JSON.stringify(t.body).includes('2031-12-25'),
      ) + 1,
  );
  const snooze = platform.taken.findIndex(
    (t) => t.path === '/v1/events' && t.body.type === 'location.items.snooze' && t.body.store_id === atx.id,
  );
  expect(snooze).toBeGreaterThanOrEqual(0);
  expect(snooze).toBeLessThan(menus - 1);
  // Behind the snooze under the store's one key: the store's messages counted, events and menus alike.
  expect(await service.services.db.outboxMessage.findUnique({ where: { id: publishId } })).toMatchObject({
    orderingKey: `store:${atx.connectionId}`,
    orderingPosition: before.messageSequence + 2,
  });
  // The order's events in sequence; the store's events without a gap.
  expect((await heard(order.dsp_order_id, 2)).map((e) => e.data.sequence)).toEqual([1, 2]);
  const storeTold = platform.events.filter((e: TakenEvent) => e.store_id === atx.id && !('order_id' in e.data));
  expect(storeTold.map((e) => e.data.sequence)).toEqual(storeTold.map((_e, i) => i + 1));
  // The operator heard of it at the first refused call and at every tenth after, with where;
  // then that it answers again, after as many calls as the outbox made in vain.
  const about = logged.slice(since).filter((line) => line.url === eventsUrl);
  const again = await until(() => logged.slice(since).find((line) => line.url === eventsUrl && line.level === 30));
  const warned = about.filter((line) => line.level === 40);
  expect(warned.map((line) => line.failures)).toEqual(warned.map((_line, i) => 1 + 10 * i));
  expect(warned[0]!.msg).toBe(`${SOURCE} does not answer at ${eventsUrl} (1 call in a row): the outbox keeps its messages and tries again`);
  expect(warned).toHaveLength(Math.ceil(again.failures! / 10));
  expect(again.msg).toBe(`${SOURCE} answers again at ${eventsUrl}`);
  expect(warned.slice(0, 2).map((line) => line.failures)).toEqual([1, 11]);
});

test('its token is refreshed before the first call after its expiry less a minute, not before (the clock moved)', async () => {
  const { tokenExpiresAt } = await service.services.db.onboarding.findUniqueOrThrow({ where: { id: dspOnboardingId } });
  const refreshes = () =>
    platform.received.filter((r) => r.path === '/v1/token' && (r.body as { grant_type: string }).grant_type === 'refresh_token');
  const listStores = () => callForOnboarding(service.services, SOURCE, dspOnboardingId, 'locations');
  const count = refreshes().length;
  let restore = clockMovedBy(tokenExpiresAt!.getTime() - 61_000 - Date.now());
  try {
    expect((await listStores()).status).toBe(200);
    expect(refreshes()).toHaveLength(count);
  } finally {
    restore();
  }
  restore = clockMovedBy(tokenExpiresAt!.getTime() - 59_000 - Date.now());
  try {
    expect((await listStores()).status).toBe(200);
    expect(refreshes()).toHaveLength(count + 1);
    // The call after the refresh carries the new token.
    const stored = await service.services.db.onboarding.findUniqueOrThrow({ where: { id: dspOnboardingId } });
    const last = platform.received.filter((r) => r.path === '/v1/locations').at(-1)!;
    expect(last.headers.authorization).toBe(`Bearer ${service.services.sealer.open(stored.accessTokenEnc!)}`);
    expect(stored.tokenExpiresAt!.getTime()).toBeGreaterThan(tokenExpiresAt!.getTime());
  } finally {
    restore();
  }
});

test('calls that find its token expiring at the same moment share one refresh, and all carry the new token', async () => {
  const { tokenExpiresAt } = await service.services.db.onboarding.findUniqueOrThrow({ where: { id: dspOnboardingId } });
  const refreshes = () =>
    platform.received.filter((r) => r.path === '/v1/token' && (r.body as { grant_type: string }).grant_type === 'refresh_token');
  const count = refreshes().length;
  const calls = platform.received.filter((r) => r.path === '/v1/locations').length;
  const restore = clockMovedBy(tokenExpiresAt!.getTime() - 59_000 - Date.now());
  try {
    const answers = await Promise.all([1, 2, 3].map(() => callForOnboarding(service.services, SOURCE, dspOnboardingId, 'locations')));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    // One refresh: the platform rotates its refresh tokens, so a second with the same one would be refused.
    expect(refreshes()).toHaveLength(count + 1);
    const stored = await service.services.db.onboarding.findUniqueOrThrow({ where: { id: dspOnboardingId } });
    const made = platform.received.filter((r) => r.path === '/v1/locations').slice(calls);
    expect(made.map((r) => r.headers.authorization)).toEqual(
      Array(3).fill(`Bearer ${service.services.sealer.open(stored.accessTokenEnc!)}`),
    );
    expect(stored.status).not.toBe('revoked');
  } finally {
    restore();
  }
});
