// A POS written from our reference by a vendor who never saw the sandbox (../support/foreign-pos.ts):
// form-only tokens, items linked by category_id, `{order: {id}}` answers, no order updates, a
// merchant who revokes the app. Each point of the POS interface that a vendor met, end to end.
import type { SandboxPos } from '../../src/sandbox/pos/server.js';
import { saveProvider } from '../../src/integrations/providers.js';
import { startPos, testSecrets } from '../support/sandbox.js';
import { categoryLinkedCatalog, startForeignPos, type ForeignPos } from '../support/foreign-pos.js';
import { bind, completeOnboarding, createOrg, dspStores, ingest } from '../support/flows.js';
import { merchantTakingOrders, placeOrder, until } from '../support/orders.js';
import { get, post, request, startTestService, type TestService } from '../support/service.js';

let service: TestService;
let sandbox: SandboxPos;
let foreign: ForeignPos;
const SOURCE = 'taqueria-pos';
const m = {} as { token: string; orgId: string; onboardingId: string; locationId: string; storeId: string };

beforeAll(async () => {
  service = await startTestService({ OUTBOX_RETRY_BASE_MS: '20', OUTBOX_RETRY_MAX_MS: '50', OUTBOX_MAX_ATTEMPTS: '3' });
  sandbox = await startPos(service, testSecrets());
  foreign = await startForeignPos();
  await saveProvider(service.services, {
    source: SOURCE,
    kind: 'pos',
    base_url: foreign.url,
    client_id: foreign.clientId,
    client_secret: foreign.clientSecret,
    webhook_secret: foreign.webhookSecret,
    notification_scope: ['menu.publish_success', 'menu.publish_failure'],
  });
  const partner = await service.partner();
  m.token = partner.token;
  m.orgId = (await createOrg(service.url, m.token)).orgId;
  const init = await post(
    service.url,
    '/v1/onboarding/integrations',
    { org_id: m.orgId, source: SOURCE, type: 'pos', return_url: 'https://partner.example/back' },
    m.token,
  );
  m.onboardingId = (await completeWalk(init.body.onboarding)).onboardingId;
  m.locationId = (await ingest(service.url, m.token, m.onboardingId, [foreign.locationId]))[0]!;
  const dsp = await completeOnboarding(service.url, m.token, m.orgId, 'dsp');
  m.storeId = (await dspStores(service.url, m.token, dsp._id)).austin!;
  await bind(service.url, m.token, dsp._id, m.locationId!, m.storeId);
});
afterAll(async () => {
  await foreign?.close();
  await sandbox?.close();
  await service?.stop();
});

/** The merchant's browser through the entry_url, then complete. */
async function completeWalk(onboarding: { _id: string; entry_url: string }) {
  const { authorizeInBrowser } = await import('../../src/sandbox/browser.js');
  const walk = await authorizeInBrowser(onboarding.entry_url);
  const done = await post(service.url, `/v1/onboarding/integrations/${onboarding._id}/complete`, { code: walk.code }, m.token);
  expect(done.status).toBe(200);
  return { onboardingId: done.body._id as string };
}

const received = (path: string) => foreign.received.filter((r) => r.path === path);
/** A DSP order of this POS's tacos (the intake checks a cart against the menus the store received). */
const tacos = (more: Record<string, unknown> = {}) =>
  placeOrder(sandbox, m.storeId, {
    fulfillment_type: 'pickup',
    items: [
      {
        service_id: 'i-pastor',
        name: 'Al pastor',
        quantity: 2,
        price: 350,
        modifiers: [{ service_id: 's-verde', name: 'Verde', quantity: 1, price: 0, modifiers: [] }],
      },
      { service_id: 'i-horchata', name: 'Horchata', quantity: 1, price: 275, modifiers: [] },
    ],
    ...more,
  });
const db = () => service.services.db;
/** The POS's notifications of publishes, newest last. */
const failures = () => received('/v1/notifications').filter((r) => (r.body as { type: string }).type === 'menu.publish_failure');

/** A catalog change at the foreign POS: its catalog.updated, sent as docs/reference.md has it (the same
 * bytes every time, no id), once earlier ones are out of the repeat window. */
async function catalogChanged(): Promise<void> {
  await db().webhookEvent.updateMany({ where: { source: SOURCE }, data: { createdAt: new Date(Date.now() - 60_000) } });
  const sent = await foreign.catalogUpdated(service.url, SOURCE);
  expect(sent.status).toBe(202);
  const id = (sent.body as { id: string }).id;
  await until(async () => (await db().webhookEvent.findUniqueOrThrow({ where: { id } })).status === 'applied');
}

test('a token endpoint that takes forms only (415 to JSON) is asked again with a form, and the registration remembers', async () => {
  const tokenCalls = received('/v1/token');
  expect(tokenCalls[0]!.headers['content-type']).toMatch(/^application\/json/);
  expect(tokenCalls[1]!.headers['content-type']).toMatch(/^application\/x-www-form-urlencoded/);
  expect((await db().provider.findUniqueOrThrow({ where: { source: SOURCE } })).tokenFormat).toBe('form');
});

test('the same catalog.updated bytes twice, more than 10 s apart, fetch the catalog twice', async () => {
  const fetches = () => received('/v1/catalog').length;
  const before = fetches();
  await catalogChanged();
  await catalogChanged();
  expect(fetches()).toBe(before + 2);
});

test('items linked to their categories by category_id publish whole, and the partner sees the catalog', async () => {
  await catalogChanged();
  const published = await until(async () =>
    sandbox.received.find((r) => r.path === '/v1/menus' && (r.body as { store_id: string }).store_id === m.storeId),
  );
  const { catalog } = published.body as { catalog: { category: { provider_id: string; item_ids: string[] }[]; item: unknown[] } };
  expect(catalog.item).toHaveLength(4);
  expect(Object.fromEntries(catalog.category.map((c) => [c.provider_id, c.item_ids.sort()]))).toEqual({
    'c-tacos': ['i-asada', 'i-pastor'],
    'c-drinks': ['i-horchata', 'i-jarritos'],
  });
  const view = await get(service.url, `/v1/onboarding/org/${m.orgId}/locations/${m.locationId}/catalog`, m.token);
  expect(view.status).toBe(200);
  expect(view.body.categories).toEqual([
    { provider_id: 'c-tacos', name: 'Tacos', item_ids: ['i-pastor', 'i-asada'] },
    { provider_id: 'c-drinks', name: 'Drinks', item_ids: ['i-horchata', 'i-jarritos'] },
  ]);
});

describe('each catalog rule is refused with the element named, and no view of it answers 5xx', () => {
  const broken: [string, (catalog: ReturnType<typeof categoryLinkedCatalog>) => unknown, string][] = [
    ['an element without provider_id', (c) => c.item.push({ name: 'Mystery', price: 1 } as never), 'item[4] has no provider_id'],
    [
      'an item naming a missing category',
      (c) => Object.assign(c.item[3]!, { category_id: 'c-gone' }),
      'item i-jarritos (Jarritos) names missing category c-gone',
    ],
    [
      'min_selections above max_selections',
      (c) => Object.assign(c.modifier_group[0]!, { min_selections: 3, max_selections: 1 }),
      'modifier group g-salsa (Salsa): min_selections 3 is above max_selections 1',
    ],
    ['a menu naming a missing category', (c) => c.menu[0]!.category_ids.push('c-gone'), 'menu m-main (Main) names missing category c-gone'],
    ['no menu at all', (c) => c.menu.splice(0), 'the catalog has no menu'],
    [
      'a negative price',
      (c) => Object.assign(c.item[0]!, { price: -350 }),
      "item i-pastor (Al pastor): price must be a whole number of the currency's smallest unit, from 0 to 100000000000, not -350",
    ],
    [
      'a price in dollars, not cents',
      (c) => Object.assign(c.modifier[1]!, { price: 0.25 }),
      "modifier s-roja (Roja): price must be a whole number of the currency's smallest unit, from 0 to 100000000000, not 0.25; send 25 for 0.25 usd",
    ],
    [
      '10,000 items with prices that are not numbers and dangling references',
      (c) => {
        for (let i = 0; i < 10_000; i++) c.item.push({ provider_id: `bulk-${i}`, price: 'free', modifier_group_ids: [`g-${i}`] } as never);
      },
      `item bulk-0: price must be a whole number of the currency's smallest unit, from 0 to 100000000000, not "free"`,
    ],
    [
      'modifier groups nested in a loop',
      (c) => Object.assign(c.modifier[0]!, { modifier_group_ids: ['g-salsa'] }),
      'modifier group g-salsa is nested inside itself (g-salsa → g-salsa)',
    ],
  ];
  test.each(broken)('%s', async (_name, breakIt, named) => {
    const catalog = categoryLinkedCatalog();
    breakIt(catalog);
    foreign.setCatalog(catalog);
    const seen = failures().length;
    await catalogChanged();
    const note = await until(async () => failures()[seen]);
    const { error } = (note.body as { data: { error: string } }).data;
    const first = `the catalog is invalid: ${named}`;
    expect(error.slice(0, first.length)).toBe(first);
    const view = await get(service.url, `/v1/onboarding/org/${m.orgId}/locations/${m.locationId}/catalog`, m.token);
    expect(view.status).toBe(200);
    expect(view.body.problems[0]).toBe(named);
    const all = await request(service.url, 'POST', '/graphql', {
      token: m.token,
      body: {
        query: `query($o: ID!, $l: ID) { organizationLocations(orgId: $o, locationId: $l) { locations { catalog {
          version problems defaultLanguage currency taxRate menus { providerId name categoryIds } categories { providerId itemIds }
          items { providerId name description price { amount currency } modifierGroupIds taxIds } modifierGroups { providerId minSelections maxSelections modifierIds }
          modifiers { providerId price { amount currency } modifierGroupIds } taxes { providerId rate } } } } }`,
        variables: { o: m.orgId, l: m.locationId },
      },
    });
    expect(all.body.errors).toBeUndefined();
  });
  afterAll(() => foreign.setCatalog(categoryLinkedCatalog()));
});

test('an order names its POS location in the body and in X-Provider-Location-Id; {order: {id}} is the POS order id', async () => {
  const placed = await tacos();
  expect(placed.status).toBe(201);
  const order = await until(async () => {
    const row = await db().order.findUniqueOrThrow({ where: { id: placed.body.order_id! } });
    return row.posOrderId ? row : null;
  });
  const [call] = received('/v1/orders').filter((r) => (r.body as { object: { id: string } }).object.id === order.id);
  expect((call!.body as { object: { location_id: string } }).object.location_id).toBe(foreign.locationId);
  expect(call!.headers['x-provider-location-id']).toBe(foreign.locationId);
  expect(order.posOrderId).toMatch(/^fp-order-/);
});

test('a 2xx answer that names no order id is a failed delivery: retried, then dead, saying why', async () => {
  foreign.answerOrdersWith(() => ({ received: true }));
  try {
    const placed = await tacos();
    const dead = await until(() =>
      db().outboxMessage.findFirst({ where: { idempotencyKey: `order.created:${placed.body.order_id}`, status: 'dead' } }),
    );
    expect(dead.attempts).toBe(3);
    expect(dead.lastError).toBe('200 the POS took the order but its answer names no order id (order.pos_order_id or order.id)');
  } finally {
    foreign.answerOrdersWith((object) => ({ order: { id: `fp-order-${String(object.id).slice(-6)}` } }));
  }
});

test('a DSP cancellation reaches a POS only when it takes order updates', async () => {
  const cancel = (storeId: string, dspOrderId: string) =>
    fetch(`${sandbox.url}/v1/_sandbox/orders/cancel`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ dsp_store_id: storeId, dsp_order_id: dspOrderId }),
    }).then((r) => r.json() as Promise<{ status: number }>);

  // This POS did not register for order updates: the order is canceled, and it is not called.
  const placed = await tacos();
  await until(async () => (await db().order.findUniqueOrThrow({ where: { id: placed.body.order_id! } })).posOrderId);
  expect((await cancel(m.storeId, placed.dsp_order_id)).status).toBe(200);
  expect((await db().order.findUniqueOrThrow({ where: { id: placed.body.order_id! } })).status).toBe('dsp_canceled');
  expect(await db().outboxMessage.count({ where: { idempotencyKey: `order.canceled:${placed.body.order_id}` } })).toBe(0);

  // The sandbox POS did (`--order-updates`): it gets order.updated, naming the location.
  const other = await merchantTakingOrders(service);
  const second = await placeOrder(sandbox, other.storeId, { fulfillment_type: 'pickup' });
  await sandbox.waitFor('/v1/orders', 1);
  expect((await cancel(other.storeId, second.dsp_order_id)).status).toBe(200);
  const updated = await until(async () =>
    sandbox.received.find((r) => r.path === '/v1/orders' && (r.body as { type: string }).type === 'order.updated'),
  );
  expect((updated.body as { object: Record<string, unknown> }).object).toMatchObject({
    id: second.body.order_id,
    status: 'dsp_canceled',
    location_id: `loc_2_${other.tid}`,
  });
});

test('a merchant who revokes the app: the onboarding needs reauthorization, its orders wait, and a new onboarding sends them', async () => {
  foreign.revoke();
  const placed = await tacos();
  const key = `order.created:${placed.body.order_id}`;
  const waiting = await until(() => db().outboxMessage.findFirst({ where: { idempotencyKey: key, status: 'waiting' } }));
  expect(waiting.lastError).toMatch(/must complete a new onboarding/);
  expect((await get(service.url, `/v1/onboarding/integrations/${m.onboardingId}`, m.token)).body.status).toBe('reauthorization_required');
  const locations = await get(service.url, `/v1/onboarding/org/${m.orgId}/locations?location_id=${m.locationId}`, m.token);
  expect(locations.body.locations[0].integration_status).toBe('reauthorization_required');
  // It waits: more time passing (its retry times moved back) does not kill it.
  await db().outboxMessage.update({ where: { id: waiting.id }, data: { nextAttemptAt: new Date(Date.now() - 3600_000) } });
  expect((await db().outboxMessage.findUniqueOrThrow({ where: { id: waiting.id } })).status).toBe('waiting');

  const init = await post(
    service.url,
    '/v1/onboarding/integrations',
    { org_id: m.orgId, source: SOURCE, type: 'pos', return_url: 'https://partner.example/back' },
    m.token,
  );
  const { onboardingId } = await completeWalk(init.body.onboarding);
  const sent = await until(async () => {
    const row = await db().outboxMessage.findUniqueOrThrow({ where: { id: waiting.id } });
    return row.status === 'delivered' && row;
  });
  expect(sent.onboardingId).toBe(onboardingId);
  expect((await db().order.findUniqueOrThrow({ where: { id: placed.body.order_id! } })).posOrderId).toMatch(/^fp-order-/);
  expect((await get(service.url, `/v1/onboarding/integrations/${m.onboardingId}`, m.token)).body.status).toBe('replaced');
  const after = await get(service.url, `/v1/onboarding/org/${m.orgId}/locations?location_id=${m.locationId}`, m.token);
  expect(after.body.locations[0].integration_status).toBe('active');
  m.onboardingId = onboardingId;
});

test('a registration whose base_url ends in /v1, or that asks for a notification type that does not exist, is refused', async () => {
  const add = (extra: Record<string, unknown>) =>
    saveProvider(service.services, { source: 'guessing-pos', kind: 'pos', base_url: 'https://pos.example', ...extra } as never);
  await expect(add({ base_url: 'https://pos.example/v1' })).rejects.toThrow('base_url must not end in /v1');
  await expect(add({ notification_scope: ['menu.publish_failed'] })).rejects.toThrow(
    'notification_scope takes menu.publish_success and menu.publish_failure; not menu.publish_failed',
  );
  expect(await db().provider.count({ where: { source: 'guessing-pos' } })).toBe(0);
});
