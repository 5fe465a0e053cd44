// The merchant dashboard (docs/reference.md § Partner API) in a real browser: headless Chromium (Debian's,
// driven by puppeteer-core), signed in through the SSO hop, with every request but the service's
// refused. Orders placed at the sandbox DSP appear and change without a reload; an owner
// redelivers a failed delivery; a team member has no such control and the API refuses them; a
// user of another organization never sees these orders; the session cookie works only from the
// service's own pages and ends at logout; an admin chooses the event provider, and a
// merchant-delivered order shows its delivery step by step, with its driver. The dashboard on a
// busy night, on a laptop and a phone, is ./busy-night.test.ts.
import type { Page } from 'puppeteer-core';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { SignJWT } from 'jose';
import { sandboxOrder, type SandboxPos } from '../../src/sandbox/pos/server.js';
import { sharedBrowser, type FileBrowser } from '../support/chromium.js';
import { control, startPos, testSecrets } from '../support/sandbox.js';
import {
  catalogReceived,
  merchantInThreeCurrencies,
  merchantTakingOrders,
  placeOrder,
  posStatus,
  startEvents,
  until,
  type OrderSetup,
} from '../support/orders.js';
import { saveProvider } from '../../src/integrations/providers.js';
import { usCatalog } from '../../src/sandbox/pos/catalogs.js';
import { post, startTestService, type TestService } from '../support/service.js';

let service: TestService;
let pos: SandboxPos;
let browser: FileBrowser;
let merchant: OrderSetup;
let otherMerchant: OrderSetup;

beforeAll(async () => {
  service = await startTestService({ OUTBOX_RETRY_BASE_MS: '50', OUTBOX_RETRY_MAX_MS: '100', OUTBOX_MAX_ATTEMPTS: '1' });
  pos = await startPos(service);
  merchant = await merchantTakingOrders(service);
  otherMerchant = await merchantTakingOrders(service);
  browser = await sharedBrowser();
});
afterAll(async () => {
  await browser?.close();
  await pos?.close();
  await service?.stop();
});

/** A one-time login link from the partner's SSO call, for a user of the merchant. */
async function loginLink(setup: OrderSetup, role: string, email: string): Promise<string> {
  const names: Record<string, string> = { owner: 'Olivia Owner', admin: 'Ada Admin', team_member: 'Tomás Team' };
  const sso = await post(
    service.url,
    '/v1/sso/sessions',
    { email, full_name: names[role] ?? role, phone_number: '+1 512 555 0100', role, provider_org_id: setup.providerOrgId },
    setup.token,
  );
  expect(sso.status).toBe(201);
  return `${service.url}/v1/sso/login?token=${sso.body.sso_login_token}`;
}

/** A browser of its own (its own cookies), signed in through the hop, the dashboard live. */
async function signIn(setup: OrderSetup, role: string, email: string): Promise<Page> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  await page.setRequestInterception(true);
  page.on('request', (request) => (request.url().startsWith(service.url) ? void request.continue() : void request.abort()));
  await page.goto(await loginLink(setup, role, email), { waitUntil: 'load' });
  expect(new URL(page.url()).pathname).toBe('/dashboard');
  await page.waitForSelector('#live[data-state="live"]', { timeout: 15_000 });
  await page.waitForSelector('body[data-loaded]', { timeout: 15_000 });
  expect(await page.$eval('#problem', (e) => (e as HTMLElement).hidden)).toBe(true);
  // Marks this document: a reload would lose it.
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  return page;
}

const orderRow = (dspOrderId: string, status?: string) =>
  `tr[data-dsp-order-id="${dspOrderId}"]${status ? `[data-status="${status}"]` : ''}`;
// A row is found and read in one evaluation inside the page: between the two steps of $eval, a
// live update can re-render it and leave the handle detached (its computed style then empty).
const rowText = (page: Page, selector: string) => page.evaluate((sel) => (document.querySelector(sel) as HTMLElement).innerText, selector);
const rowDisplay = (page: Page, selector: string) =>
  page.evaluate((sel) => getComputedStyle(document.querySelector(sel)!).display, selector);
/** Clicks what the selector finds, found and clicked in one evaluation (a live redraw between the
 * two steps of page.click would detach the element). */
async function clickIn(page: Page, selector: string) {
  await page.waitForSelector(selector, { timeout: 10_000 });
  await page.evaluate((sel) => (document.querySelector(sel) as HTMLElement).click(), selector);
}
const stillSameDocument = (page: Page) => page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);
const text = (page: Page) => page.evaluate(() => document.body.innerText);
/** A GraphQL call from inside the page, as its own script would make it (cookie, own origin). */
const fromPage = (page: Page, query: string, variables: Record<string, unknown> = {}) =>
  page.evaluate(
    async (q, v) => {
      const res = await fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: q, variables: v }),
      });
      return { status: res.status, body: (await res.json()) as { data?: any; errors?: { extensions?: { code?: string } }[] } };
    },
    query,
    variables,
  );

let firstOrder: { dspOrderId: string; orderId: string };

test('an owner sees orders arrive and change without a reload, and redelivers a failed one', async () => {
  const owner = await signIn(merchant, 'owner', 'owner@dashboard.example');
  expect(await owner.$eval('#org-name', (e) => e.textContent)).toBe(`Merchant ${merchant.providerOrgId}`);
  expect(await text(owner)).toContain('No orders yet');
  // The location, its DSP store and the POS and DSP onboardings.
  expect(await owner.$eval(`[data-location-id="${merchant.locationId}"]`, (e) => e.textContent)).toContain('Sandbox Eats');
  expect(await owner.$$eval('[data-onboarding-id]', (items) => items.length)).toBe(2);

  const placed = await placeOrder(pos, merchant.storeId, { fulfillment_type: 'pickup' });
  firstOrder = { dspOrderId: placed.dsp_order_id, orderId: placed.body.order_id! };
  await owner.waitForSelector(orderRow(placed.dsp_order_id, 'in_progress'), { timeout: 10_000 });
  const row = await rowText(owner, orderRow(placed.dsp_order_id));
  expect(row).toMatch(/Pickup/);
  // The sandbox's order: $40.78, as the service holds it, 4078 cents.
  expect(row).toMatch(/\$40\.78/);

  await pos.waitFor('/v1/orders', 1);
  expect((await posStatus(pos, firstOrder.orderId, 'completed')).status).toBe(200);
  await owner.waitForSelector(orderRow(placed.dsp_order_id, 'completed'), { timeout: 10_000 });
  // An earlier change heard late (another instance published it after this one's, through
  // Redis) does not take the order back; the next order, heard after it, shows it was read.
  const completed = await service.services.db.order.findUniqueOrThrow({ where: { id: firstOrder.orderId } });
  service.services.pubsub.publish('orderUpdated', merchant.orgId, {
    ...completed,
    status: 'in_progress',
    createdAt: completed.createdAt.getTime(),
    updatedAt: completed.updatedAt.getTime() - 1000,
  });
  const next = await placeOrder(pos, merchant.storeId, { fulfillment_type: 'pickup' });
  await owner.waitForSelector(orderRow(next.dsp_order_id), { timeout: 10_000 });
  expect(await owner.$(orderRow(placed.dsp_order_id, 'completed'))).not.toBeNull();

  // The POS says its catalog changed: the menu publish to the store shows as it settles.
  await fetch(`${pos.url}/v1/_sandbox/catalog-updated`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ location_id: `loc_2_${merchant.tid}` }),
  });
  await owner.waitForSelector(`[data-location-id="${merchant.locationId}"] [data-publish-status="published"]`, { timeout: 10_000 });

  // The POS refuses the next order: its delivery is dead, shown with the POS's answer.
  await fetch(`${pos.url}/v1/_sandbox/fail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path: '/v1/orders', count: 1, status: 400 }),
  });
  const refused = await placeOrder(pos, merchant.storeId, { fulfillment_type: 'pickup' });
  await owner.waitForSelector(orderRow(refused.dsp_order_id, 'failed'), { timeout: 10_000 });
  // The total counts each order as it comes, without a reload.
  const placedSoFar = await service.services.db.order.count({ where: { orgId: merchant.orgId } });
  await owner.waitForSelector(`#orders-count[data-total="${placedSoFar}"]`, { timeout: 10_000 });
  expect(await rowText(owner, '#orders-count')).toBe(`All ${placedSoFar} orders`);
  // It says why: the POS refused it, and with what answer.
  const why = await owner.waitForSelector(`${orderRow(refused.dsp_order_id, 'failed')} [data-failure-reason="pos_rejected"]`, {
    timeout: 10_000,
  });
  expect(await why!.evaluate((e) => (e.parentElement as HTMLElement).innerText)).toMatch(
    /Failed\s+Sandbox POS refused the order: “the sandbox was told to fail \/v1\/orders”\./,
  );
  await owner.waitForSelector('[data-delivery-id] button.redeliver', { timeout: 10_000 });
  expect(await owner.$eval('#deliveries', (e) => (e as HTMLElement).innerText)).toMatch(/400/);
  const received = (await pos.waitFor('/v1/orders', 1)).length;
  // Found and clicked in one step in the page: a live redraw between the two would detach it.
  await clickIn(owner, '[data-delivery-id] button.redeliver');
  await until(async () => pos.received.filter((r) => r.path === '/v1/orders').length > received);
  await owner.waitForFunction(() => document.querySelector('#deliveries')?.textContent?.includes('Nothing failed'), {
    timeout: 10_000,
    polling: 100,
  });
  // The POS has it now: the order is open again.
  await owner.waitForSelector(orderRow(refused.dsp_order_id, 'in_progress'), { timeout: 10_000 });
  expect(await stillSameDocument(owner)).toBe(true);

  // Today's chart has every order (read again as orders come in).
  const taken = await service.services.db.order.count({ where: { orgId: merchant.orgId } });
  await owner.waitForSelector(`[data-orders-today="${taken}"]`, { timeout: 10_000 });

  // On a phone: one column, each order a card, nothing wider than the screen.
  await owner.setViewport({ width: 390, height: 844 });
  expect(await owner.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  expect(await rowDisplay(owner, orderRow(placed.dsp_order_id))).toBe('flex');
});

test('a team member sees the orders but no redeliver control, and the API refuses them anything but reading', async () => {
  const member = await signIn(merchant, 'team_member', 'member@dashboard.example');
  await member.waitForSelector(orderRow(firstOrder.dspOrderId, 'completed'), { timeout: 10_000 });
  expect(await member.$eval('#deliveries-section', (e) => (e as HTMLElement).hidden)).toBe(true);
  expect(await member.$$('button.redeliver')).toHaveLength(0);

  const [delivery] = (
    await post(service.url, '/graphql', { query: '{ deliveries(status: "delivered", first: 1) { id } }' }, merchant.token)
  ).body.data.deliveries;
  const redeliver = await fromPage(member, 'mutation($id: ID!) { redeliver(id: $id) { id } }', { id: delivery.id });
  expect(redeliver.body.errors?.[0]?.extensions?.code).toBe('insufficient_role');
  const write = await fromPage(
    member,
    'mutation($o: ID!) { createPartnerToken(input: { orgId: $o, tokenName: "mine", scopes: [user] }) { accessToken } }',
    { o: merchant.orgId },
  );
  expect(write.status).toBe(403);
  expect(write.body.errors?.[0]?.extensions?.code).toBe('forbidden');
  expect(write.body.data ?? null).toBeNull();
});

test('a manager pauses and resumes the stores and takes an item off sale; a pause made through the API shows without a reload; today is drawn; an order opens to its detail', async () => {
  // The store received its menus: the item list has the catalog's items.
  await fetch(`${pos.url}/v1/_sandbox/catalog-updated`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ location_id: `loc_2_${merchant.tid}` }),
  });
  await until(() => service.services.db.menuPublish.findFirst({ where: { status: 'published', locationId: merchant.locationId } }));
  const manager = await signIn(merchant, 'manager', 'manager@dashboard.example');
  const card = `[data-location-id="${merchant.locationId}"]`;
  const storeState = () => service.services.db.store.findFirstOrThrow({ where: { locationId: merchant.locationId } });

  // Pause for an hour: the card says until when, the store is paused, and its DSP is told.
  await clickIn(manager, `${card} button.pause-60`);
  await manager.waitForSelector(`${card} [data-paused-store]`, { timeout: 10_000 });
  expect((await storeState()).pausedUntil).not.toBeNull();
  expect(await rowText(manager, `${card} [data-paused-store]`)).toMatch(/until/);
  await clickIn(manager, `${card} button.resume`);
  await manager.waitForFunction((sel) => !document.querySelector(`${sel} [data-paused-store]`), { timeout: 10_000 }, card);
  expect((await storeState()).pausedAt).toBeNull();

  // Onion rings off sale, found by searching the list. The list's toggle events are held: a live
  // redraw may come between the click that opens it and its toggle event, and the list stays open.
  await manager.evaluate(() => window.addEventListener('toggle', (event) => event.stopImmediatePropagation(), { capture: true }));
  await clickIn(manager, `${card} .item-switcher summary`);
  // Focused and typed as a person would: a redraw between finding the box and focusing it would
  // send a script's keystrokes nowhere, and one while typing keeps the box's focus.
  await manager.evaluate((sel) => (document.querySelector(`${sel} .item-search`) as HTMLElement).focus(), card);
  await manager.keyboard.type('onion');
  const rings = `${card} li[data-item-id="item_us_rings"]`;
  const searched = (sel: string) => document.querySelectorAll(`${sel} ul.items li:not([hidden])`).length === 1;
  await manager.waitForFunction(searched, { timeout: 10_000 }, card);
  await clickIn(manager, `${rings} button.switch-off`);
  await manager.waitForSelector(`${rings}[data-available="false"]`, { timeout: 10_000 });
  // Drawn again: the list is still open and searched.
  expect(await manager.$eval(`${card} details.item-switcher`, (e) => (e as HTMLDetailsElement).open)).toBe(true);
  expect(await manager.evaluate(searched, card)).toBe(true);
  expect(await rowText(manager, `${card} .off-sale`)).toMatch(/Onion Rings \(until resumed\)/);
  const refused = await placeOrder(pos, merchant.storeId, {
    fulfillment_type: 'pickup',
    items: [{ service_id: 'item_us_rings', name: 'Onion Rings', quantity: 1, price: 525, modifiers: [] }],
  });
  expect(refused.body.failure_reason).toBe('item_unavailable');
  await clickIn(manager, `${rings} button.switch-on`);
  await manager.waitForSelector(`${rings}[data-available="true"]`, { timeout: 10_000 });

  // A pause made through the API (the partner's systems) appears without a reload.
  const paused = await post(service.url, `/v1/onboarding/org/${merchant.orgId}/locations/${merchant.locationId}/pause`, {}, merchant.token);
  expect(paused.status).toBe(200);
  await manager.waitForSelector(`${card} [data-paused-store]`, { timeout: 10_000 });
  expect(await rowText(manager, `${card} [data-paused-store]`)).toMatch(/until resumed/);
  await post(service.url, `/v1/onboarding/org/${merchant.orgId}/locations/${merchant.locationId}/resume`, {}, merchant.token);
  await manager.waitForFunction((sel) => !document.querySelector(`${sel} [data-paused-store]`), { timeout: 10_000 }, card);

  // Today, drawn: a bar for each hour with orders, taken and failed, and the failed ones by reason.
  await manager.waitForFunction(() => document.querySelectorAll('.chart [data-taken]').length > 0, { timeout: 10_000 });
  await manager.waitForSelector('ul.failures li[data-reason="item_unavailable"]', { timeout: 10_000 });
  const drawn = await manager.$$eval('.chart [data-taken], .chart [data-failed]', (bars) =>
    bars.reduce((n, b) => n + Number(b.getAttribute('data-taken') ?? b.getAttribute('data-failed')), 0),
  );
  expect(drawn).toBe(await service.services.db.order.count({ where: { orgId: merchant.orgId } }));

  // An order opens to its detail: items with their modifiers, the customer, its timeline; a
  // pickup shows no delivery status.
  await clickIn(manager, `[data-open-order="${firstOrder.orderId}"]`);
  await manager.waitForSelector(`dialog[open] [data-order-detail="${firstOrder.orderId}"]`, { timeout: 10_000 });
  const detail = await rowText(manager, 'dialog[open]');
  expect(detail).toMatch(/2 × Classic Burger \$11\.99/);
  expect(detail).toMatch(/1 × Swiss/);
  expect(detail).toMatch(/Jamie Rivera · \+15125550123/);
  expect(await manager.$$eval('dialog[open] [data-timeline]', (rows) => rows.map((r) => r.getAttribute('data-timeline')))).toEqual([
    'order.created',
    'order.accepted',
    'order.updated',
  ]);
  expect(await manager.$('dialog[open] [data-delivery-status]')).toBeNull();
  await clickIn(manager, 'dialog[open] button.close');
  expect(await stillSameDocument(manager)).toBe(true);
});

test("a team member sees a customer's first name and initial, and no number; the store controls are not theirs", async () => {
  const member = await signIn(merchant, 'team_member', 'member2@dashboard.example');
  expect(await member.$$(`[data-controls-location]`)).toHaveLength(0);
  await member.waitForSelector(`[data-open-order="${firstOrder.orderId}"]`, { timeout: 10_000 });
  await clickIn(member, `[data-open-order="${firstOrder.orderId}"]`);
  await member.waitForSelector(`dialog[open] [data-order-detail="${firstOrder.orderId}"]`, { timeout: 10_000 });
  const customer = await rowText(member, 'dialog[open] [data-customer]');
  expect(customer).toBe('Jamie R. · code 4821');
  const pause = await fromPage(member, 'mutation($i: PauseStoresInput!) { pauseStores(input: $i) { locations { id } } }', {
    i: { orgId: merchant.orgId, locationId: merchant.locationId },
  });
  expect(pause.body.errors?.[0]?.extensions?.code).toBe('insufficient_role');
  const order = await fromPage(member, 'query($id: ID!) { order(id: $id) { order } }', { id: firstOrder.orderId });
  expect(JSON.stringify(order.body.data.order.order)).not.toContain('5125550123');
});

test("money in its currency's own format: 2500 is $25.00 in Austin, 25,00 € in Berlin, ￥2,500 in Shibuya", async () => {
  const world = await merchantInThreeCurrencies(service, pos);
  const shown = { usd: '$25.00', eur: '25,00 €', jpy: '￥2,500' };
  const placed = await Promise.all(
    (['usd', 'eur', 'jpy'] as const).map(async (currency) => {
      // The sandbox's order made to come to 2500 by a discount its platform funds: its sums add up.
      const whole = sandboxOrder(world[currency].storeId, { fulfillment_type: 'pickup' });
      const off = { name: 'Promo', amount: (whole.total as number) - 2500, scope: 'order', funded_by: 'dsp' };
      const order = await placeOrder(pos, world[currency].storeId, { ...whole, discounts: [off], total: 2500 });
      expect(order.body.status).toBe('in_progress');
      return [currency, order] as const;
    }),
  );
  const owner = await signIn({ ...merchant, ...world }, 'owner', 'owner@three-currencies.example');
  for (const [currency, order] of placed) {
    const total = `${orderRow(order.dsp_order_id)} td[data-label="Total"]`;
    await owner.waitForSelector(total, { timeout: 10_000 });
    // Intl writes a no-break space between 25,00 and €.
    expect((await rowText(owner, total)).replace(/\u00a0/g, ' ')).toBe(shown[currency]);
  }

  // The restaurant cancels the Austin order, out of stock: its page says so in words, and shows
  // its money whole, the platform's discount and who pays it included.
  const [, austin] = placed[0]!;
  const orderId = austin.body.order_id!;
  await until(
    async () =>
      (await control(pos, 'order-status', { order_id: orderId, status: 'merchant_canceled', cancel_reason: 'out_of_stock' })).status ===
      200,
  );
  await clickIn(owner, `[data-open-order="${orderId}"]`);
  await owner.waitForSelector(`dialog[open] [data-order-detail="${orderId}"] [data-cancellation]`, { timeout: 10_000 });
  expect(await rowText(owner, 'dialog[open] [data-cancellation]')).toBe('Canceled by the restaurant: out of stock.');
  const money = await owner.$$eval('dialog[open] [data-amount]', (rows) =>
    rows.map((r) => (r as HTMLElement).innerText.replace(/\s+/g, ' ')),
  );
  expect(money).toEqual([
    'Subtotal $30.98',
    'Tax $2.56',
    'Delivery fee $2.99',
    'Delivery fee tax $0.25',
    'Tip to the driver $4.00',
    'Promo (paid by Sandbox Eats) −$15.78',
    'Total $25.00',
  ]);
});

test("another organization's user never sees these orders", async () => {
  const stranger = await signIn(otherMerchant, 'owner', 'owner@other.example');
  const theirs = await placeOrder(pos, otherMerchant.storeId, { fulfillment_type: 'pickup' });
  const ours = await placeOrder(pos, merchant.storeId, { fulfillment_type: 'pickup' });
  // One more of theirs, placed after ours: the page hears orders in the order they change, so
  // had ours reached this page, it would show by the time this one does.
  const later = await placeOrder(pos, otherMerchant.storeId, { fulfillment_type: 'pickup' });
  await stranger.waitForSelector(orderRow(theirs.dsp_order_id), { timeout: 10_000 });
  await stranger.waitForSelector(orderRow(later.dsp_order_id), { timeout: 10_000 });
  for (const id of [firstOrder.dspOrderId, ours.dsp_order_id]) expect(await stranger.$(orderRow(id))).toBeNull();
  const asked = await fromPage(stranger, 'query($o: ID!) { orders(orgId: $o) { orders { id } } }', { o: merchant.orgId });
  expect(asked.body.errors?.[0]?.extensions?.code).toBe('not_found');
});

test('the session cookie is HttpOnly and SameSite=Lax, works only from our own pages, expires and ends at logout', async () => {
  const login = await fetch(await loginLink(merchant, 'admin', 'admin@dashboard.example'), { redirect: 'manual' });
  const setCookie = login.headers.get('set-cookie')!;
  expect(setCookie).toMatch(/HttpOnly/);
  expect(setCookie).toMatch(/SameSite=Lax/);
  expect(setCookie).not.toMatch(/Secure/); // served over http here; over https it is Secure
  const cookie = setCookie.split(';')[0]!;
  const me = (origin?: string) =>
    fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', ...(origin ? { origin } : {}) },
      body: JSON.stringify({ query: '{ me { user { email } } }' }),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));

  expect((await me(service.url)).body.data.me.user.email).toBe('admin@dashboard.example');
  // Another site's page (or a client with no Origin) that makes the browser send the cookie.
  for (const origin of ['https://evil.example', undefined]) {
    const refused = await me(origin);
    expect(refused.body.errors[0].extensions.code).toBe('cross_origin');
    expect(refused.body.data?.me ?? null).toBeNull();
  }
  // The same over graphql-ws: the upgrade request's Origin is checked too.
  const viaSocket = (origin: string) =>
    new Promise<unknown>((resolve) => {
      const client = createClient({
        url: `${service.url.replace('http', 'ws')}/graphql`,
        retryAttempts: 0,
        webSocketImpl: class extends WebSocket {
          constructor(url: string, protocols?: string | string[]) {
            super(url, protocols, { headers: { cookie, origin } });
          }
        },
      });
      client.subscribe(
        { query: 'subscription($o: ID!) { orderUpdated(orgId: $o) { id } }', variables: { o: merchant.orgId } },
        {
          next: (value) => {
            void client.dispose();
            resolve(value);
          },
          error: (error) => {
            void client.dispose();
            resolve(error);
          },
          complete: () => resolve('complete'),
        },
      );
    });
  expect(JSON.stringify(await viaSocket('https://evil.example'))).toContain('cross_origin');

  // An expired session, signed with our own key, is over.
  const expired = await new SignJWT({ uid: 'usr_any', at: Date.now() - 10_000 })
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience('merchant-dashboard')
    .setExpirationTime(Math.floor(Date.now() / 1000) - 1)
    .sign(service.services.tokenKey);
  expect((await fetch(`${service.url}/dashboard`, { headers: { cookie: `merchant_session=${expired}` } })).status).toBe(401);

  // Logout from the page ends the session: the old cookie is refused afterwards.
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setCookie({ name: 'merchant_session', value: cookie.split('=')[1]!, url: service.url, httpOnly: true, sameSite: 'Lax' });
  await page.goto(`${service.url}/dashboard`, { waitUntil: 'load' });
  await page.waitForSelector('#live[data-state="live"]', { timeout: 15_000 });
  await Promise.all([page.waitForNavigation(), page.click('form[action="/dashboard/logout"] button')]);
  expect(await text(page)).toContain('You are signed out');
  expect((await me(service.url)).body.errors[0].extensions.code).toBe('session_expired');
});

test('each location says whether its hours have it open, on its own clock; the POS pausing it shows at once', async () => {
  const owner = await signIn(merchant, 'owner', 'owner-hours@dashboard.example');
  const card = `[data-location-id="${merchant.locationId}"]`;
  const rowAttribute = (page: Page, selector: string, name: string) =>
    page.evaluate((sel, attribute) => document.querySelector(sel)?.getAttribute(attribute), selector, name);
  const CHICAGO = 'America/Chicago';
  const dateIn = (at: number) => new Intl.DateTimeFormat('en-CA', { timeZone: CHICAGO }).format(at);
  const clockIn = (at: number) =>
    new Intl.DateTimeFormat('en-US', { timeZone: CHICAGO, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  const weekdayIn = (at: number) => new Intl.DateTimeFormat('en-US', { timeZone: CHICAGO, weekday: 'short' }).format(at);
  /** How the card writes an instant on Austin's clock, in the viewer's convention (the browser's
   * en-US: "3:00 PM"): the time alone today there, else with its weekday. */
  const viewerClock = (at: number) => new Intl.DateTimeFormat('en-US', { timeZone: CHICAGO, timeStyle: 'short' }).format(at);
  const shown = (at: number) => (dateIn(at) === dateIn(Date.now()) ? viewerClock(at) : `${weekdayIn(at)} ${viewerClock(at)}`);
  const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
  const everyDay = (range: string) => Object.fromEntries(days.map((d) => [d, [range]]));
  /** The POS serves the catalog with the all-day menu's hours these (breakfast and late night never open, no holidays). */
  const hoursAre = async (schedule: Record<string, string[]>) => {
    const catalog = usCatalog();
    const menu = catalog.menu.map((m) => ({ ...m, schedule: m.provider_id === 'menu_us_all_day' ? schedule : {} }));
    await control(pos, 'catalog', { location_id: `loc_2_${merchant.tid}`, catalog: { ...catalog, menu, holidays: [] } });
    await control(pos, 'catalog-updated', { location_id: `loc_2_${merchant.tid}` });
    await catalogReceived(service, merchant.locationId);
  };
  const minute = 60_000;
  const now = Math.floor(Date.now() / minute) * minute;
  /** Waits until the card says this (the change reaches the page by itself). */
  const says = (text: string) =>
    owner
      // Node's ICU and the browser's may put different spaces before AM/PM.
      .waitForFunction(
        (sel, want) => document.querySelector(`${sel} .opening`)?.textContent?.replace(/\s/g, ' ') === want.replace(/\s/g, ' '),
        { timeout: 10_000 },
        card,
        text,
      )
      .catch(async () => {
        throw new Error(`the card says ${JSON.stringify(await rowText(owner, `${card} .opening`))}, not ${JSON.stringify(text)}`);
      });
  try {
    // Open since an hour ago, closing two hours from now, every day.
    await hoursAre(everyDay(`${clockIn(now - 60 * minute)}-${clockIn(now + 120 * minute)}`));
    await says(`Open · closes ${shown(now + 120 * minute)}`);
    expect(await rowAttribute(owner, `${card} .opening`, 'data-open')).toBe('true');
    // Opening two hours from now.
    await hoursAre(everyDay(`${clockIn(now + 120 * minute)}-${clockIn(now + 180 * minute)}`));
    await says(`Closed · opens ${shown(now + 120 * minute)}`);
    expect(await rowAttribute(owner, `${card} .opening`, 'data-open')).toBe('false');
    // Open on one day only, the day after tomorrow: its weekday is named.
    const later = now + 2 * 86_400_000;
    await hoursAre({ [days[(new Date(`${dateIn(later)}T12:00:00Z`).getUTCDay() + 6) % 7]!]: ['11:00-15:00'] });
    await says(`Closed · opens ${weekdayIn(later)} 11:00\u202fAM`);
  } finally {
    await control(pos, 'catalog', { location_id: `loc_2_${merchant.tid}`, catalog: null });
    await control(pos, 'catalog-updated', { location_id: `loc_2_${merchant.tid}` });
    await catalogReceived(service, merchant.locationId);
  }

  // The POS pauses the location itself: the card shows it without a reload, and reopened, no more.
  expect((await control(pos, 'location-status', { location_id: `loc_2_${merchant.tid}`, status: 'inactive' })).status).toBe(202);
  await owner.waitForSelector(`${card} [data-paused-store]`, { timeout: 10_000 });
  expect(await rowText(owner, `${card} [data-paused-store]`)).toMatch(/until resumed/);
  expect((await control(pos, 'location-status', { location_id: `loc_2_${merchant.tid}`, status: 'active' })).status).toBe(202);
  await owner.waitForFunction((sel) => !document.querySelector(`${sel} [data-paused-store]`), { timeout: 10_000 }, card);
  expect(await stillSameDocument(owner)).toBe(true);
});

test("an admin chooses who delivers the merchant's own orders; such an order shows each step of its delivery live, its driver and vehicle, and not delivered once canceled; a team member cannot choose", async () => {
  // Two dispatch companies registered, and the merchant has named neither: no one delivers.
  const events = await startEvents(service, testSecrets());
  await saveProvider(service.services, {
    source: 'fleet-b',
    kind: 'event_provider',
    base_url: 'http://127.0.0.1:9',
    webhook_secret: 'x'.repeat(24),
  });
  try {
    const admin = await signIn(merchant, 'admin', 'admin2@dashboard.example');
    await admin.waitForSelector('[data-event-provider-in-use=""]', { timeout: 10_000 });
    expect(await rowText(admin, '#dispatch')).toMatch(/your restaurant delivers its own orders/);
    expect(await admin.$$eval('#event-provider option', (options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual([
      '',
      'fleet-b',
      'sandbox-events',
    ]);
    await admin.select('#event-provider', 'sandbox-events');
    await admin.waitForSelector('[data-event-provider-in-use="sandbox-events"]', { timeout: 10_000 });
    expect((await service.services.db.organization.findUniqueOrThrow({ where: { id: merchant.orgId } })).eventProvider).toBe(
      'sandbox-events',
    );

    // A merchant-delivered order, its driver on the way: the row follows the road without a reload.
    const placed = await placeOrder(pos, merchant.storeId);
    const orderId = placed.body.order_id!;
    const row = orderRow(placed.dsp_order_id);
    await admin.waitForSelector(`${row} [data-delivery="enroute_to_pickup"]`, { timeout: 10_000 });
    expect(await rowText(admin, row)).toMatch(/Driver on the way to you\s+Dana Driver · blue Toyota Prius/);
    expect((await control(events, `deliveries/${orderId}/advance`, {})).status).toBe(200);
    await admin.waitForSelector(`${row} [data-delivery="arrived_at_pickup"]`, { timeout: 10_000 });
    await clickIn(admin, `[data-open-order="${orderId}"]`);
    await admin.waitForSelector(`dialog[open] [data-order-detail="${orderId}"] [data-driver]`, { timeout: 10_000 });
    // When the driver is expected, in the browser's own clock.
    expect(await rowText(admin, 'dialog[open] [data-delivery-status]')).toMatch(
      /^Delivery: Driver at the restaurant · expected \d{1,2}:\d{2}\s?[AP]M · Dana Driver \+1 5125550199 · blue Toyota Prius \(SBX-4821\) · by Sandbox Dispatch$/,
    );
    await clickIn(admin, 'dialog[open] button.close');
    // Canceled on the way: not delivered, and no driver named.
    expect((await posStatus(pos, orderId, 'merchant_canceled')).status).toBe(200);
    await admin.waitForSelector(orderRow(placed.dsp_order_id, 'merchant_canceled'), { timeout: 10_000 });
    expect(await rowText(admin, row)).toMatch(/Canceled by the restaurant[\s\S]*Not delivered/);
    expect(await rowText(admin, row)).not.toMatch(/Dana Driver/);
    expect(await stillSameDocument(admin)).toBe(true);

    const member = await signIn(merchant, 'team_member', 'member3@dashboard.example');
    await member.waitForSelector('[data-event-provider-in-use="sandbox-events"]', { timeout: 10_000 });
    expect(await member.$('#event-provider')).toBeNull();
    const choose = await fromPage(member, 'mutation($i: SetEventProviderInput!) { setEventProvider(input: $i) { eventProvider } }', {
      i: { orgId: merchant.orgId, source: 'fleet-b' },
    });
    expect(choose.body.errors?.[0]?.extensions?.code).toBe('insufficient_role');
    expect((await service.services.db.organization.findUniqueOrThrow({ where: { id: merchant.orgId } })).eventProvider).toBe(
      'sandbox-events',
    );
  } finally {
    await events.close();
  }
});
