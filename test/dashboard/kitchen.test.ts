// The kitchen's pace on the dashboard, in Chromium at 1366×768 and 390×844, as a manager uses it:
// each order in the kitchen says when it is to be ready on its location's clock, in its row and
// opened; "Busy +10 / +20 /
// +30 min" beside Pause tells each platform's store the longer prep time and the next order is
// quoted it, until "End busy"; an order the kitchen refused for items it has none of takes those
// items off sale on every platform in one click; the day at a glance follows the day filter; and
// axe-core finds nothing serious on any of it. The sandbox POS and DSP are real servers.
import type { BrowserContext, Page } from 'puppeteer-core';
import type { SandboxPos } from '../../src/sandbox/pos/server.js';
import { LAPTOP, PHONE, seriousViolations, sharedBrowser, type FileBrowser } from '../support/chromium.js';
import { control } from '../support/sandbox.js';
import { placeOrder, startOrdersWorld, until, type OrderSetup, type OrdersWorld } from '../support/orders.js';
import { post, request, type TestService } from '../support/service.js';

/** The Austin location's prep time in the sandbox POS's listing, and its clock. */
const BASE = 15;
const AUSTIN = 'America/Chicago';

let world: OrdersWorld;
let service: TestService;
let pos: SandboxPos;
let m: OrderSetup;
let browser: FileBrowser;
/** The manager's browser: a context of this file's own in the run's shared browser. */
let manager: BrowserContext;
let laptop: Page;
let phone: Page;

async function signIn(role: string): Promise<string> {
  const sso = await post(
    service.url,
    '/v1/sso/sessions',
    { email: `${role}@kitchen.example`, full_name: `Mo ${role}`, phone_number: '+1 512 555 0100', role, provider_org_id: m.providerOrgId },
    m.token,
  );
  expect(sso.status).toBe(201);
  return `${service.url}/v1/sso/login?token=${sso.body.sso_login_token}`;
}

async function dashboardAt(viewport: typeof LAPTOP | typeof PHONE, link: string, context = manager) {
  const page = await context.newPage();
  await page.setViewport(viewport);
  await page.goto(link, { waitUntil: 'load' });
  await page.waitForFunction(() => document.body.dataset.loaded && document.querySelector('.day[data-orders-today]'), { polling: 100 });
  return page;
}

beforeAll(async () => {
  world = await startOrdersWorld({ env: { OUTBOX_RETRY_BASE_MS: '20', OUTBOX_RETRY_MAX_MS: '60' }, menus: true });
  ({ service, pos, merchant: m } = world);
  browser = await sharedBrowser();
  manager = await browser.createBrowserContext();
  laptop = await dashboardAt(LAPTOP, await signIn('manager'));
  phone = await dashboardAt(PHONE, `${service.url}/dashboard`);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await world?.close();
});

const clickIn = (page: Page, selector: string) => page.evaluate((sel) => (document.querySelector(sel) as HTMLElement).click(), selector);
const textOf = (page: Page, selector: string) =>
  page.waitForSelector(selector).then(() => page.$eval(selector, (e) => (e as HTMLElement).innerText.trim()));
/** Whether the element is on the first screen, the page scrolled to its top. */
const onFirstScreen = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    scrollTo(0, 0);
    const box = document.querySelector(sel)?.getBoundingClientRect();
    return !!box && box.height > 0 && box.top >= 0 && box.bottom <= innerHeight;
  }, selector);
/** An instant as a viewer in American English reads it on Austin's clock. */
const austinClock = (at: number) => new Intl.DateTimeFormat('en-US', { timeStyle: 'short', timeZone: AUSTIN }).format(at);
const orderOf = (id: string) => service.services.db.order.findUniqueOrThrow({ where: { id } });
const prepTimesTold = () =>
  pos.received
    .filter((r) => r.path === '/v1/events' && (r.body as { type: string }).type === 'location.prep_time.update')
    .map((r) => (r.body as { data: { prep_time_minutes: number } }).data.prep_time_minutes);
const BUSY_20 = '[aria-label="Busy +20 min per order for the next hour"]';

/** An order placed at the sandbox DSP, taken, and shown on both pages. */
async function takenOrder(): Promise<string> {
  const placed = await placeOrder(pos, m.storeId, { fulfillment_type: 'pickup' });
  expect(placed.status).toBe(201);
  const id = placed.body.order_id!;
  await until(async () => (await orderOf(id)).status === 'in_progress');
  for (const page of [laptop, phone]) await page.waitForSelector(`tr[data-order-id="${id}"][data-status="in_progress"] .ready`);
  return id;
}

test("an order in the kitchen is 'Ready about' its ready time on its location's clock, and the busy buttons stand beside Pause, both on the first screen at either width", async () => {
  const id = await takenOrder();
  const order = await orderOf(id);
  expect(order.prepTimeMinutes).toBe(BASE);
  const ready = order.estimatedReadyAt!.getTime();
  for (const page of [laptop, phone]) {
    expect(await textOf(page, `tr[data-order-id="${id}"] .ready`)).toBe(`Ready about ${austinClock(ready)}`);
    expect(await onFirstScreen(page, BUSY_20)).toBe(true);
    expect(await onFirstScreen(page, '[aria-label="Pause orders for 15 minutes"]')).toBe(true);
  }
  // On a laptop the order's ready time is on the first screen too; on a phone the order comes
  // right after the stores, its customer by first name.
  expect(await onFirstScreen(laptop, `tr[data-order-id="${id}"] .ready`)).toBe(true);
  expect(await textOf(phone, `tr[data-order-id="${id}"] button.open-order`)).toMatch(/^#\S+ · [A-Z][a-z]+$/);
  // The order opened says it as its row does.
  await clickIn(laptop, `[data-open-order="${id}"]`);
  expect(await textOf(laptop, `dialog[open] [data-order-detail="${id}"] .ready`)).toBe(`Ready about ${austinClock(ready)}`);
  await clickIn(laptop, 'dialog[open] button.close');
  await laptop.waitForFunction(() => !document.querySelector('dialog[open]'), { polling: 100 });
  // The buttons are one group named for the location, each saying what it does.
  expect(await laptop.$eval(`[data-busy-controls-location="${m.locationId}"]`, (g) => g.getAttribute('aria-label'))).toMatch(
    /^Busy at .+: more minutes per order for the next hour$/,
  );
});

test('Busy +20: each store is told its prep time plus 20, the card says until when, the next order is quoted it; End busy tells the base again', async () => {
  const toldBefore = prepTimesTold().length;
  const clicked = Date.now();
  await clickIn(phone, BUSY_20);
  await until(() => prepTimesTold().length > toldBefore);
  expect(prepTimesTold().at(-1)).toBe(BASE + 20);
  const location = await service.services.db.location.findUniqueOrThrow({ where: { id: m.locationId } });
  expect(location.busyExtraMinutes).toBe(20);
  // For the next hour.
  expect(location.busyUntil!.getTime()).toBeGreaterThanOrEqual(clicked + 3600_000);
  expect(location.busyUntil!.getTime()).toBeLessThanOrEqual(Date.now() + 3600_000);
  const until20 = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' }).format(location.busyUntil!);
  for (const page of [laptop, phone])
    await page.waitForFunction(
      (id, said) => (document.querySelector(`[data-busy-location="${id}"]`) as HTMLElement | null)?.innerText.trim() === said,
      { polling: 100 },
      m.locationId,
      `Busy 20 min more per order (${BASE + 20} min) until ${until20}`,
    );

  const id = await takenOrder();
  const order = await orderOf(id);
  expect(order.prepTimeMinutes).toBe(BASE + 20);
  expect(await textOf(laptop, `tr[data-order-id="${id}"] .ready`)).toBe(`Ready about ${austinClock(order.estimatedReadyAt!.getTime())}`);

  const toldBusy = prepTimesTold().length;
  await clickIn(laptop, '[aria-label="End busy: back to the usual prep time"]');
  await until(() => prepTimesTold().length > toldBusy);
  expect(prepTimesTold().at(-1)).toBe(BASE);
  for (const page of [laptop, phone])
    await page.waitForFunction((id) => !document.querySelector(`[data-busy-location="${id}"]`), { polling: 100 }, m.locationId);
  expect((await service.services.db.location.findUniqueOrThrow({ where: { id: m.locationId } })).busyExtraMinutes).toBeNull();
});

test('an order the kitchen refused for Fries says so, and one click takes Fries off sale on every platform', async () => {
  await control(pos, 'stock', { item_ids: ['item_us_fries'], available: false });
  try {
    const placed = await placeOrder(pos, m.storeId, { fulfillment_type: 'pickup' });
    const id = placed.body.order_id!;
    await until(async () => (await orderOf(id)).failureReason === 'item_unavailable');
    const row = `tr[data-order-id="${id}"][data-status="failed"]`;
    expect(await textOf(laptop, `${row} .failure`)).toBe('Sandbox POS is out of Fries.');
    const button = `${row} button.take-off-sale`;
    expect(await laptop.$eval(button, (b) => [b.textContent, b.getAttribute('aria-label')])).toEqual([
      'Take Fries off sale',
      expect.stringMatching(/^Take Fries off sale at .+$/),
    ]);

    await clickIn(laptop, button);
    // Off sale at the location, each platform's store told to snooze it.
    await until(() => service.services.db.itemAvailability.findFirst({ where: { locationId: m.locationId, itemId: 'item_us_fries' } }));
    await until(() =>
      pos.received.some(
        (r) =>
          r.path === '/v1/events' &&
          (r.body as { type: string }).type === 'location.items.snooze' &&
          JSON.stringify(r.body).includes('item_us_fries'),
      ),
    );
    for (const page of [laptop, phone]) expect(await textOf(page, `${row} .taken-off-sale`)).toBe('Off sale now: Fries');
    expect(await textOf(laptop, `[data-location-id="${m.locationId}"] .off-sale`)).toBe('Off sale: Fries (until resumed)');
  } finally {
    await control(pos, 'stock', { item_ids: ['item_us_fries'], available: true });
    const back = await request(service.url, 'PUT', `/v1/onboarding/org/${m.orgId}/locations/${m.locationId}/availability`, {
      token: m.token,
      body: { item_ids: ['item_us_fries'], available: true },
    });
    expect(back.status).toBe(200);
  }
});

test('the day at a glance follows the day filter', async () => {
  const yesterday = await laptop.evaluate(() => {
    const d = new Date();
    d.setDate(d.getDate() - 1);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  });
  // Read again as the orders came in.
  const today = await service.services.db.order.count({ where: { orgId: m.orgId } });
  await laptop.waitForFunction((n) => document.querySelector(`.day[data-orders-today="${n}"]`), { polling: 100 }, today);
  const setDay = (day: string) =>
    laptop.evaluate((value) => {
      const input = document.getElementById('filter-day') as HTMLInputElement;
      input.value = value;
      input.form!.dispatchEvent(new Event('change', { bubbles: true }));
    }, day);
  await setDay(yesterday);
  await laptop.waitForFunction(() => document.getElementById('today-title')!.textContent !== 'Today at a glance', { polling: 100 });
  expect(await textOf(laptop, '#today-title')).toMatch(/^[A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2} at a glance$/);
  expect(await laptop.$eval('.day', (e) => (e as HTMLElement).dataset.ordersToday)).toBe('0');
  await setDay('');
  await laptop.waitForFunction(() => document.getElementById('today-title')!.textContent === 'Today at a glance', { polling: 100 });
  expect(await laptop.$eval('.day', (e) => Number((e as HTMLElement).dataset.ordersToday))).toBe(today);
});

test('a team member has no busy buttons and cannot make the location busy; axe-core finds nothing serious on the busy, ready and refused parts', async () => {
  const context = await browser.createBrowserContext();
  try {
    const member = await dashboardAt(LAPTOP, await signIn('team_member'), context);
    expect(await member.$(BUSY_20)).toBeNull();
    const refused = await member.evaluate(
      async (input) => {
        const res = await fetch('/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            query: 'mutation($input: SetLocationBusyInput!) { setLocationBusy(input: $input) { extraPrepMinutes } }',
            variables: { input },
          }),
        });
        return (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
      },
      { orgId: m.orgId, locationId: m.locationId, extraPrepMinutes: 20 },
    );
    expect(refused.errors?.[0]?.extensions?.code).toBe('insufficient_role');
  } finally {
    await context.close();
  }
  expect((await service.services.db.location.findUniqueOrThrow({ where: { id: m.locationId } })).busyExtraMinutes).toBeNull();

  // Busy shown, an order with its ready time, and a refused one with its button.
  await control(pos, 'stock', { item_ids: ['item_us_rings'], available: false });
  const refused = (
    await placeOrder(pos, m.storeId, { fulfillment_type: 'pickup', items: [{ service_id: 'item_us_rings', quantity: 1, price: 525 }] })
  ).body.order_id!;
  // The POS refuses it when the order reaches it (the outbox sends it after the DSP's answer):
  // its stock comes back only then.
  await until(
    async () => (await service.services.db.order.findUniqueOrThrow({ where: { id: refused } })).failureReason === 'item_unavailable',
  );
  await control(pos, 'stock', { item_ids: ['item_us_rings'], available: true });
  await laptop.waitForSelector(`tr[data-order-id="${refused}"] button.take-off-sale`);
  await clickIn(laptop, '[aria-label="Busy +10 min per order for the next hour"]');
  await laptop.waitForSelector(`[data-busy-location="${m.locationId}"]`);
  await phone.waitForSelector(`[data-busy-location="${m.locationId}"]`);
  await takenOrder();
  const found: Record<string, string[]> = {};
  for (const [name, page] of [
    ['1366', laptop],
    ['390', phone],
  ] as const) {
    found[name] = await seriousViolations(page);
  }
  expect(found).toEqual({ '1366': [], '390': [] });
  for (const part of ['.ready', 'button.take-off-sale', '[data-busy-location]']) expect(await laptop.$$(part)).not.toHaveLength(0);
});
