// A restaurant's busy night, played through the sandbox peers over HTTP as the platforms, the POS
// and the delivery company would play it: Sandbox Grill with two locations (Austin, Brooklyn), each
// on two delivery platforms (the sandbox DSP, Sandbox Eats, and a second sandbox DSP, Sandbox Dash),
// and 155 orders in the hour: 121 taken (pickups, the platforms' deliveries and the restaurant's
// own, driven by the sandbox event provider; the older the further along, a few canceled) and 34
// failed for five reasons (the POS refused 6 early on; then, spread through the hour, 10 came to
// Brooklyn's paused Sandbox Eats store, 9 asked for Onion Rings, off sale at Austin, 5 were priced
// below the menu, 4 were in euros). The pause and the item off sale stay, and Austin has three
// closed days ahead. The orders carry their money whole: tips to the restaurant, discounts paid by
// the platform and by the restaurant.
//
// The dashboard's Chromium test (test/dashboard/busy-night.test.ts) and the screenshots of the
// guide (test/dashboard/screenshots.ts, `npm run screenshots`) play the same night.
import { dspClientIdOf, startSandboxPos, sandboxStores, type SandboxPos } from '../../src/sandbox/pos/server.js';
import { saveProvider } from '../../src/integrations/providers.js';
import type { SandboxEventProvider } from '../../src/sandbox/event-provider/server.js';
import { authorizeInBrowser, control, startPos, testSecrets } from './sandbox.js';
import { ingest } from './flows.js';
import { catalogReceived, nameEventProvider, placeOrder, posStatus, startEvents, until } from './orders.js';
import { get, post, request, type TestService } from './service.js';

export const NIGHT = { orders: 155, taken: 121, failed: 34 } as const;
/** The failed orders by reason. */
export const FAILED: Record<string, number> = {
  pos_rejected: 6,
  restaurant_not_accepting_orders: 10,
  item_unavailable: 9,
  price_mismatch: 5,
  invalid_cart: 4,
};

export type BusyNight = {
  token: string;
  orgId: string;
  providerOrgId: string;
  pos: SandboxPos;
  dash: SandboxPos;
  events: SandboxEventProvider;
  locations: { austin: string; brooklyn: string };
  /** When Austin's main menu closes each day, on its clock (HH:MM). */
  austinCloses: string;
  /** Our ids of the DSP connections, by location and platform. */
  stores: Record<'austin' | 'brooklyn', Record<'eats' | 'dash', { id: string; dspStoreId: string }>>;
  close: () => Promise<void>;
};

const CUSTOMERS = [
  'Jamie Rivera',
  'Priya Shah',
  'Marcus Lee',
  'Ana Gómez',
  'Tom Becker',
  'Lena Fischer',
  'Omar Haddad',
  'Chloe Martin',
  'Diego Santos',
  'Grace Kim',
  'Noah Brooks',
  'Sofia Rossi',
  'Ethan Walker',
  'Mia Chen',
  'Liam O’Brien',
  'Zoe Turner',
  'Kenji Watanabe',
  'Ava Patel',
];

type Line = { service_id: string; name: string; quantity: number; price: number; special_instructions: string; modifiers: Line[] };
const line = (service_id: string, name: string, price: number, quantity = 1, modifiers: Line[] = []): Line => ({
  service_id,
  name,
  quantity,
  price,
  special_instructions: '',
  modifiers,
});
const burger = (quantity: number, price = 1199) =>
  line('item_us_classic', 'Classic Burger', price, quantity, [line('mod_us_medium', 'Medium', 0)]);
const fries = (quantity: number) => line('item_us_fries', 'Fries', 450, quantity, [line('mod_us_regular', 'Regular', 0)]);
const soda = () => line('item_us_soda', 'Fountain Soda', 275, 1, [line('mod_us_large', 'Large', 150)]);
const rings = () => line('item_us_rings', 'Onion Rings', 525);
const lineTotal = (l: Line): number => l.quantity * (l.price + l.modifiers.reduce((n, m) => n + lineTotal(m), 0));

type Discount = {
  name: string;
  amount: number;
  scope: 'order' | 'item';
  service_id?: string;
  funded_by: 'dsp' | 'merchant';
  merchant_amount: number;
};

/** The n-th order's discounts, as platforms give them: 10 % off the order paid by the platform on
 * one in five, $2 off each burger paid by the restaurant on one in ten (every cart has burgers). */
function discountsOf(n: number, items: Line[], subtotal: number): Discount[] {
  const burgers = items.filter((l) => l.service_id === 'item_us_classic').reduce((count, l) => count + l.quantity, 0);
  return [
    ...(n % 5 === 2
      ? [{ name: '10% off', amount: Math.round(subtotal / 10), scope: 'order' as const, funded_by: 'dsp' as const, merchant_amount: 0 }]
      : []),
    ...(n % 10 === 7 && burgers
      ? [
          {
            name: 'Burger night',
            amount: 200 * burgers,
            scope: 'item' as const,
            service_id: 'item_us_classic',
            funded_by: 'merchant' as const,
            merchant_amount: 200 * burgers,
          },
        ]
      : []),
  ];
}

/** The n-th order's cart and money (in cents, tax added as in Texas and New York alike here): a
 * tip to the driver on three in four, one to the restaurant on one in three, and its discounts;
 * its sums add up, as the intake checks. */
function cart(n: number, items: Line[] = [burger(1 + (n % 3)), ...(n % 2 ? [fries(1 + (n % 2))] : []), ...(n % 5 === 0 ? [soda()] : [])]) {
  const subtotal = items.reduce((sum, l) => sum + lineTotal(l), 0);
  const tax = Math.round(subtotal * 0.0825);
  const tip = (n % 4) * 100;
  const restaurantTip = n % 3 === 1 ? 150 + (n % 2) * 100 : 0;
  const discounts = discountsOf(n, items, subtotal);
  const off = discounts.reduce((sum, d) => sum + d.amount, 0);
  return {
    items,
    subtotal,
    tax,
    driver_tip: tip,
    restaurant_tip: restaurantTip,
    discounts,
    delivery_fee: 299,
    delivery_fee_tax: 25,
    total: subtotal + tax + tip + restaurantTip + 299 + 25 - off,
  };
}

/** Runs `work` over `items`, `width` at a time. */
async function inBatches<T, R>(items: T[], width: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!, index);
      }
    }),
  );
  return results;
}

/** An onboarding of the organization with a provider, through its consent page. */
async function onboard(service: TestService, token: string, orgId: string, source: string, type: 'pos' | 'dsp') {
  const init = await post(
    service.url,
    '/v1/onboarding/integrations',
    { org_id: orgId, source, type, return_url: 'https://partner.example/back' },
    token,
  );
  const walk = await authorizeInBrowser(init.body.onboarding.entry_url);
  const done = await post(service.url, `/v1/onboarding/integrations/${init.body.onboarding._id}/complete`, { code: walk.code }, token);
  if (done.status !== 200) throw new Error(`complete ${source}: ${done.status} ${JSON.stringify(done.body)}`);
  return done.body as { _id: string; integration_id: string };
}

/** Binds the platform's Austin and Brooklyn stores to the locations, under the names the platform lists them by. */
async function bindStores(service: TestService, token: string, onboardingId: string, tid: string, locations: BusyNight['locations']) {
  const listed = sandboxStores(tid);
  const storeOf = (city: 'austin' | 'brooklyn') => listed.find((s) => s.provider_id.endsWith(`_${city}`))!;
  const res = await post(
    service.url,
    '/v1/onboarding/locations/bind',
    {
      onboarding_id: onboardingId,
      locations: (['austin', 'brooklyn'] as const).map((city) => ({
        pos_location_id: locations[city],
        dsp_provider_id: storeOf(city).provider_id,
        dsp_store_name: storeOf(city).name,
      })),
    },
    token,
  );
  if (res.status !== 201) throw new Error(`bind: ${res.status} ${JSON.stringify(res.body)}`);
  const ids = (res.body.locations as { _id: string }[]).map((l) => l._id);
  return {
    austin: { id: ids[0]!, dspStoreId: storeOf('austin').provider_id },
    brooklyn: { id: ids[1]!, dspStoreId: storeOf('brooklyn').provider_id },
  };
}

/** A date `days` from today, as a catalog's holiday names it. */
const daysAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

export async function playBusyNight(service: TestService): Promise<BusyNight> {
  const secrets = testSecrets();
  const pos = await startPos(service, secrets);
  // A second delivery platform: the sandbox DSP again, registered under another source and name.
  const dash = await startSandboxPos({ ...secrets, service: { url: service.url, source: 'sandbox-pos' }, dspSource: 'sandbox-dash' });
  await saveProvider(service.services, {
    source: 'sandbox-dash',
    kind: 'dsp',
    name: 'Sandbox Dash',
    base_url: dash.url,
    client_id: dspClientIdOf(secrets.clientId),
    client_secret: secrets.clientSecret,
    webhook_secret: secrets.webhookSecret,
  });
  const events = await startEvents(service, secrets);

  const { token } = await service.partner();
  const providerOrgId = `grill-${Math.random().toString(36).slice(2, 8)}`;
  const org = await post(
    service.url,
    '/v1/onboarding/org',
    { name: 'Sandbox Grill', provider_id: providerOrgId, user: { email: `owner@${providerOrgId}.example`, first_name: 'Olga' } },
    token,
  );
  if (org.status !== 201) throw new Error(`org: ${org.status} ${JSON.stringify(org.body)}`);
  const orgId = org.body.org_id as string;
  await nameEventProvider(service, { orgId, token }, 'sandbox-events');
  const posOnboarding = await onboard(service, token, orgId, 'sandbox-pos', 'pos');
  const tid = posOnboarding.integration_id;
  const [austin, brooklyn] = await ingest(service.url, token, posOnboarding._id, [`loc_2_${tid}`, `loc_3_${tid}`]);
  const locations = { austin: austin!, brooklyn: brooklyn! };
  const eatsOnboarding = await onboard(service, token, orgId, 'sandbox-dsp', 'dsp');
  const dashOnboarding = await onboard(service, token, orgId, 'sandbox-dash', 'dsp');
  const eats = await bindStores(service, token, eatsOnboarding._id, eatsOnboarding.integration_id, locations);
  const dashStores = await bindStores(service, token, dashOnboarding._id, dashOnboarding.integration_id, locations);
  const stores = {
    austin: { eats: eats.austin, dash: dashStores.austin },
    brooklyn: { eats: eats.brooklyn, dash: dashStores.brooklyn },
  };

  // The menus reach every store. Austin's main menu keeps hours, open since two hours ago and
  // for four hours more every day (on its clock, by the hour: so that the night's orders are taken
  // whenever it is played), and its catalog closes three days ahead.
  const chicago = (at: number) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: 'America/Chicago', hour: '2-digit', hourCycle: 'h23' }).format(at);
  const austinCloses = `${chicago(Date.now() + 4 * 3600_000)}:00`;
  const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
  await control(pos, 'schedule', {
    location_id: `loc_2_${tid}`,
    menu_id: 'menu_us_all_day',
    schedule: Object.fromEntries(days.map((day) => [day, [`${chicago(Date.now() - 2 * 3600_000)}:00-${austinCloses}`]])),
  });
  // Its late-night menu (Friday and Saturday from 22:00) and its breakfast (07:00 to 11:00 every
  // day) would meet the main menu's hours when the night is played near them, and keep the store
  // open past them: each an hour far from them instead, and from each other.
  for (const [menu, from] of [
    ['menu_us_late_night', 8],
    ['menu_us_breakfast', 11],
  ] as const)
    await control(pos, 'schedule', {
      location_id: `loc_2_${tid}`,
      menu_id: menu,
      schedule: Object.fromEntries(
        days.map((day) => [day, [`${chicago(Date.now() + from * 3600_000)}:00-${chicago(Date.now() + (from + 1) * 3600_000)}:00`]]),
      ),
    });
  await control(pos, 'holidays', {
    location_id: `loc_2_${tid}`,
    holidays: [
      { date: daysAhead(3), name: 'Staff training', closed: true },
      { date: daysAhead(12), name: 'Deep clean', closed: true },
      { date: daysAhead(29), name: 'Family day', closed: true },
    ],
  });
  await control(pos, 'catalog-updated', { location_id: `loc_3_${tid}` });
  await catalogReceived(service, locations.austin);
  await catalogReceived(service, locations.brooklyn);

  let n = 0;
  const customer = (i: number) => {
    const name = CUSTOMERS[i % CUSTOMERS.length]!;
    return { name, phone: `+1512555${String(1000 + i).slice(-4)}`, masked_phone_code: String(4000 + i), provider_loyalty_id: `loy_${i}` };
  };
  /** Places the next order at a store of a platform; its number, customer and cart are the night's. */
  const place = async (city: 'austin' | 'brooklyn', platform: 'eats' | 'dash', fields: Record<string, unknown> = {}) => {
    const i = n++;
    const who = customer(i);
    const placed = await placeOrder(platform === 'eats' ? pos : dash, stores[city][platform].dspStoreId, {
      dsp_order_number: `#${4101 + i}`,
      customer: who,
      customers: [who],
      ...cart(i),
      ...fields,
    });
    if (placed.status !== 201) throw new Error(`order: ${placed.status} ${JSON.stringify(placed.body)}`);
    return { orderId: placed.body.order_id!, dspOrderId: placed.dsp_order_id, status: placed.body.status, platform, city };
  };
  const failedIs = (orderId: string, reason: string) =>
    until(() => service.services.db.order.findFirst({ where: { id: orderId, status: 'failed', failureReason: reason } }));

  // Early on, the POS refuses six orders, one after the other (its refusals are for order.created only).
  await control(pos, 'fail', { path: '/v1/orders', count: FAILED.pos_rejected, status: 400 });
  for (let i = 0; i < FAILED.pos_rejected!; i++) {
    const refused = await place(i % 2 ? 'brooklyn' : 'austin', i % 3 ? 'eats' : 'dash', { fulfillment_type: 'pickup' });
    await failedIs(refused.orderId, 'pos_rejected');
  }

  // Then, all evening, Brooklyn's Sandbox Eats store is paused and Onion Rings are off sale at Austin.
  const pauseEnds = Date.now() + 45 * 60_000;
  const paused = await post(
    service.url,
    `/v1/onboarding/org/${orgId}/locations/${locations.brooklyn}/pause`,
    { until_ms: pauseEnds, dsp_location_ids: [stores.brooklyn.eats.id] },
    token,
  );
  if (paused.status !== 200) throw new Error(`pause: ${paused.status} ${JSON.stringify(paused.body)}`);
  const offSale = await request(service.url, 'PUT', `/v1/onboarding/org/${orgId}/locations/${locations.austin}/availability`, {
    body: { item_ids: ['item_us_rings'], available: false },
    token,
  });
  if (offSale.status !== 200) throw new Error(`off sale: ${offSale.status} ${JSON.stringify(offSale.body)}`);

  // The orders taken (pickups at Austin, the platform's deliveries at Brooklyn through Sandbox
  // Dash, the restaurant's own deliveries from Austin), and among them those that fail: at the
  // paused store, with Onion Rings, priced below the menu, in euros.
  const FULFILLMENT = ['pickup', 'delivery', 'merchant_managed_delivery'] as const;
  const takenOrder = (i: number) => () =>
    FULFILLMENT[i % 3] === 'delivery'
      ? place('brooklyn', 'dash', { fulfillment_type: 'delivery' })
      : place('austin', i % 4 === 3 ? 'dash' : 'eats', { fulfillment_type: FULFILLMENT[i % 3] });
  const failing = [
    ...Array.from(
      { length: FAILED.restaurant_not_accepting_orders! },
      () => () => place('brooklyn', 'eats', { fulfillment_type: 'delivery' }),
    ),
    ...Array.from(
      { length: FAILED.item_unavailable! },
      (_, i) => () => place('austin', i % 2 ? 'dash' : 'eats', { fulfillment_type: 'pickup', ...cart(i, [burger(1), rings()]) }),
    ),
    ...Array.from(
      { length: FAILED.price_mismatch! },
      (_, i) => () => place('austin', 'eats', { fulfillment_type: 'merchant_managed_delivery', ...cart(i, [burger(2, 999)]) }),
    ),
    ...Array.from({ length: FAILED.invalid_cart! }, () => () => place('austin', 'dash', { fulfillment_type: 'pickup', currency: 'eur' })),
  ];
  // The failures spread through the hour: one every five or so.
  const placings: { taken: number | null; placing: () => ReturnType<typeof place> }[] = [];
  for (let i = 0, f = 0; i < NIGHT.taken; i++) {
    placings.push({ taken: i, placing: takenOrder(i) });
    if (f < failing.length && i % 4 === 2) placings.push({ taken: null, placing: failing[f++]! });
  }
  if (placings.length !== NIGHT.taken + failing.length) throw new Error('the night places every failure');
  const placed = await inBatches(placings, 6, ({ placing }) => placing());
  const taken = placed.filter((_, k) => placings[k]!.taken !== null);
  const refused = placed.filter((_, k) => placings[k]!.taken === null);
  if (refused.some((o) => o.status !== 'failed')) throw new Error(`an order meant to fail was taken: ${JSON.stringify(refused)}`);

  // The kitchen and the roads move the orders taken on: the older an order, the further along;
  // a few are canceled.
  await until(async () => (await service.services.db.order.count({ where: { orgId, posOrderId: { not: null } } })) >= NIGHT.taken, 30_000);
  const ownDeliveries = taken.filter((_, i) => FULFILLMENT[i % 3] === 'merchant_managed_delivery');
  await until(
    async () =>
      (await service.services.db.order.count({ where: { id: { in: ownDeliveries.map((o) => o.orderId) }, driver: { not: null } } })) ===
      ownDeliveries.length,
    30_000,
  );
  await inBatches(taken, 6, async (order, i) => {
    const kind = FULFILLMENT[i % 3];
    // 0: done; 1: on its way or ready; 2: nearly; 3: in the kitchen.
    const age = i / NIGHT.taken < 0.5 ? 0 : i / NIGHT.taken < 0.65 ? 1 : i / NIGHT.taken < 0.8 ? 2 : 3;
    if (i % 17 === 5) {
      if (kind !== 'delivery') return posStatus(pos, order.orderId, 'merchant_canceled');
      return control(dash, 'orders/cancel', { dsp_store_id: stores.brooklyn.dash.dspStoreId, dsp_order_id: order.dspOrderId });
    }
    if (kind === 'merchant_managed_delivery') {
      // The driver on the way to the restaurant (assigned), then each step of the road.
      const steps = [4, 3, i % 2 ? 2 : 1, 0][age]!;
      for (let k = 0; k < steps; k++) await control(events, `deliveries/${order.orderId}/advance`, {});
      return;
    }
    const to = (
      kind === 'pickup'
        ? ['completed', 'ready_for_pickup', 'ready_for_pickup', 'in_progress']
        : ['completed', 'out_for_delivery', 'ready_for_pickup', 'in_progress']
    )[age]!;
    if (to !== 'in_progress') await posStatus(pos, order.orderId, to);
  });
  const counted = await service.services.db.order.count({ where: { orgId } });
  if (counted !== NIGHT.orders) throw new Error(`the night has ${counted} orders, not ${NIGHT.orders}`);

  return {
    token,
    orgId,
    providerOrgId,
    pos,
    dash,
    events,
    locations,
    austinCloses,
    stores,
    close: async () => {
      await Promise.all([pos.close(), dash.close(), events.close()]);
    },
  };
}

/** A one-time sign-in link for a user of the night's restaurant. */
export async function nightLink(service: TestService, night: BusyNight, role: string, fullName: string, email: string): Promise<string> {
  const sso = await post(
    service.url,
    '/v1/sso/sessions',
    { email, full_name: fullName, phone_number: '+1 512 555 0100', role, provider_org_id: night.providerOrgId },
    night.token,
  );
  if (sso.status !== 201) throw new Error(`sso: ${sso.status} ${JSON.stringify(sso.body)}`);
  return `${service.url}/v1/sso/login?token=${sso.body.sso_login_token}`;
}

export { get };
