// The dashboard on a busy night (../support/busy-night.ts: 155 orders in the hour, 34 failed for
// five reasons, pickups and deliveries, a paused store, an item off sale, three closed days), in
// Chromium at 1366×768 (a laptop) and 390×844 (a phone), as its manager meets it: every order
// reachable with the total shown; on the phone the stores and their Pause controls on the first
// screen and nothing wider than the screen; no text under 11 px; the manager's words (names, not
// ids; times on the viewer's clock, never ISO); every control named for what it does; no serious
// or critical axe-core violation on the signed-in, order and signed-out pages at both widths; a
// used sign-in link that says so; the favicon.
import type { BrowserContext, Page } from 'puppeteer-core';
import { LAPTOP, PHONE, seriousViolations, sharedBrowser, type FileBrowser } from '../support/chromium.js';
import { startTestService, type TestService } from '../support/service.js';
import { FAILED, NIGHT, nightLink, playBusyNight, type BusyNight } from '../support/busy-night.js';
import { openCustomer } from '../../src/modules/privacy/customer.js';

let service: TestService;
let night: BusyNight;
let browser: FileBrowser;
let manager: BrowserContext;
let laptop: Page;
let phone: Page;

/** A page of the manager's signed-in browser at a size, the dashboard loaded. */
async function dashboardAt(viewport: typeof LAPTOP | typeof PHONE, link?: string): Promise<Page> {
  const page = await manager.newPage();
  await page.setViewport(viewport);
  await page.goto(link ?? `${service.url}/dashboard`, { waitUntil: 'load' });
  await page.waitForFunction(
    () =>
      document.body.dataset.loaded &&
      document.querySelector('#orders-count[data-total]') &&
      document.querySelector('.day[data-orders-today]'),
    { timeout: 20_000, polling: 100 },
  );
  return page;
}

beforeAll(async () => {
  service = await startTestService({ OUTBOX_RETRY_BASE_MS: '50', OUTBOX_RETRY_MAX_MS: '100', OUTBOX_MAX_ATTEMPTS: '1' });
  night = await playBusyNight(service);
  browser = await sharedBrowser();
  manager = await browser.createBrowserContext();
  // The owner: a manager's page, and the messages that failed and the choice of delivery company besides.
  laptop = await dashboardAt(LAPTOP, await nightLink(service, night, 'owner', 'Olga Owner', 'olga@night.example'));
  phone = await dashboardAt(PHONE);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await night?.close();
  await service?.stop();
});

// Each test starts from the whole list: the filters cleared and no order open.
afterEach(async () => {
  for (const page of [laptop, phone]) {
    await page.evaluate(() => (document.querySelector('dialog[open]') as HTMLDialogElement | null)?.close());
    await filter(page, {});
  }
});

/** Found and clicked in one evaluation (a live redraw between two steps would detach it). */
const clickIn = (page: Page, selector: string) => page.evaluate((sel) => (document.querySelector(sel) as HTMLElement).click(), selector);
const shownCount = (page: Page) => page.$eval('#orders-count', (e) => Number((e as HTMLElement).dataset.shown));

/** Pages through the list with "Show more" until every order is shown; the pages it took. */
async function showAll(page: Page): Promise<number> {
  let pages = 1;
  for (;;) {
    const shown = await shownCount(page);
    if (!(await page.$('#orders-more button'))) return pages;
    await clickIn(page, '#orders-more button');
    await page.waitForFunction(
      (n) => Number((document.querySelector('#orders-count') as HTMLElement).dataset.shown) > n,
      { polling: 100 },
      shown,
    );
    pages++;
  }
}

/** The orders the page lists, each laid out (it has a box: it can be scrolled to and opened). */
const listedOrders = (page: Page) =>
  page.$$eval('tr[data-order-id]', (rows) =>
    rows
      .filter((r) => r.getBoundingClientRect().height > 0 && r.querySelector('button.open-order'))
      .map((r) => r.getAttribute('data-order-id')!),
  );

const nightOrderIds = async () =>
  (await service.services.db.order.findMany({ where: { orgId: night.orgId }, select: { id: true } })).map((o) => o.id).sort();

/** Sets the filters (as a person would choose them) and waits for the list they ask for. */
async function filter(page: Page, choices: Partial<Record<'status' | 'location' | 'platform' | 'day', string>>) {
  const wanted = await page.evaluate((chosen) => {
    const form = document.getElementById('filters') as HTMLFormElement;
    form.reset();
    for (const [name, value] of Object.entries(chosen)) (document.getElementById(`filter-${name}`) as HTMLInputElement).value = value!;
    form.dispatchEvent(new Event('change', { bubbles: true }));
    const value = (id: string) => (document.getElementById(id) as HTMLInputElement).value;
    return JSON.stringify({
      status: value('filter-status'),
      locationId: value('filter-location'),
      dspSource: value('filter-platform'),
      day: value('filter-day'),
    });
  }, choices);
  await page.waitForFunction(
    (filters) => (document.getElementById('orders') as HTMLElement).dataset.filter === filters,
    { polling: 100 },
    wanted,
  );
}
const totalOf = (page: Page) =>
  page.$eval('#orders-count', (e) => ({ total: Number((e as HTMLElement).dataset.total), text: e.textContent }));

test('at 1366×768 the total is shown and every one of the 155 orders is reachable, page by page; the first screen holds orders, not a chart', async () => {
  expect(await totalOf(laptop)).toEqual({ total: NIGHT.orders, text: 'Showing 50 of 155 orders' });
  // The first screen: several whole orders, not one row under a chart.
  const firstScreen = await laptop.$$eval(
    'tr[data-order-id]',
    (rows) => rows.filter((r) => r.getBoundingClientRect().bottom <= innerHeight).length,
  );
  expect(firstScreen).toBeGreaterThanOrEqual(6);
  expect(await laptop.$eval('.today', (e) => e.getBoundingClientRect().left > innerWidth / 2)).toBe(true);

  expect(await showAll(laptop)).toBe(4);
  expect(await totalOf(laptop)).toEqual({ total: 155, text: 'All 155 orders' });
  expect((await listedOrders(laptop)).sort()).toEqual(await nightOrderIds());
});

test('filters by status, location, platform and day, each with the total it matches', async () => {
  const count = (where: Record<string, unknown>) => service.services.db.order.count({ where: { orgId: night.orgId, ...where } });
  await filter(laptop, { status: 'failed' });
  expect(await totalOf(laptop)).toEqual({ total: NIGHT.failed, text: 'All 34 orders matching the filters' });
  expect(await laptop.$$eval('tr[data-order-id]', (rows) => rows.every((r) => r.getAttribute('data-status') === 'failed'))).toBe(true);

  await filter(laptop, { location: night.locations.brooklyn });
  const brooklyn = await count({ locationId: night.locations.brooklyn });
  expect(brooklyn).toBeGreaterThan(20);
  expect((await totalOf(laptop)).total).toBe(brooklyn);
  await showAll(laptop);
  expect((await listedOrders(laptop)).length).toBe(brooklyn);

  await filter(laptop, { platform: 'sandbox-dash' });
  const dash = await count({ dspSource: 'sandbox-dash' });
  expect(dash).toBeGreaterThan(20);
  expect(dash).toBeLessThan(NIGHT.orders);
  expect((await totalOf(laptop)).total).toBe(dash);
  expect(await laptop.$eval('#filter-platform', (s) => (s as HTMLSelectElement).selectedOptions[0]!.textContent)).toBe('Sandbox Dash');

  // Days on the browser's calendar: today has them all, yesterday none.
  const [today, yesterday] = await laptop.evaluate(() => {
    const day = (offset: number) => {
      const d = new Date();
      d.setDate(d.getDate() + offset);
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    };
    return [day(0), day(-1)];
  });
  const placed = await service.services.db.order.findFirstOrThrow({ where: { orgId: night.orgId }, orderBy: { createdAt: 'asc' } });
  // (A night played across midnight has its orders on two days: the test then asks for the first one's.)
  const firstDay = await laptop.evaluate((at) => {
    const d = new Date(at);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  }, placed.createdAt.getTime());
  await filter(laptop, { day: firstDay });
  expect((await totalOf(laptop)).total).toBeGreaterThan(0);
  await filter(laptop, { day: firstDay === today ? yesterday! : today! });
  if (firstDay === today) {
    expect(await laptop.$eval('#orders', (e) => (e as HTMLElement).innerText)).toContain('No orders match these filters');
    expect(await laptop.$$('tr[data-order-id]')).toHaveLength(0);
  }
  await filter(laptop, { status: 'out_for_delivery', location: night.locations.austin, platform: 'sandbox-dsp' });
  expect((await totalOf(laptop)).total).toBe(
    await count({ status: 'out_for_delivery', locationId: night.locations.austin, dspSource: 'sandbox-dsp' }),
  );
  await filter(laptop, {});
  expect((await totalOf(laptop)).total).toBe(NIGHT.orders);
});

test('at 390×844 the stores come first, their Pause controls on the first screen; all 155 reachable; nothing wider than the screen; the chart below the orders', async () => {
  const firstScreen = await phone.evaluate(() => {
    scrollTo(0, 0);
    const inView = (e: Element | null) => !!e && e.getBoundingClientRect().top >= 0 && e.getBoundingClientRect().bottom <= innerHeight;
    return {
      pause: inView(document.querySelector('[aria-label="Pause orders for 15 minutes"]')),
      pausedStore: inView(document.querySelector('[data-paused-store]')),
      offSale: inView(document.querySelector('.off-sale')),
    };
  });
  expect(firstScreen).toEqual({ pause: true, pausedStore: true, offSale: true });
  const order = await phone.evaluate(() => {
    const box = (selector: string) => document.querySelector(selector)!.getBoundingClientRect();
    return { now: box('.now').top, orders: box('.orders').top, ordersEnd: box('.orders').bottom, chart: box('.today').top };
  });
  expect(order.now).toBeLessThan(order.orders);
  expect(order.chart).toBeGreaterThanOrEqual(order.ordersEnd);

  expect(await totalOf(phone)).toEqual({ total: NIGHT.orders, text: 'Showing 50 of 155 orders' });
  expect(await showAll(phone)).toBe(4);
  expect((await listedOrders(phone)).sort()).toEqual(await nightOrderIds());
  // Every order a card (no table on a phone), and the page as wide as the screen with all of them.
  expect(await phone.$eval('tr[data-order-id]', (r) => getComputedStyle(r).display)).toBe('flex');
  expect(await phone.evaluate(() => ({ page: document.documentElement.scrollWidth, screen: innerWidth }))).toEqual({
    page: 390,
    screen: 390,
  });
});

/** The visible text under 11 px: each text node's element, its computed size (an SVG's scaled as drawn). */
const smallText = (page: Page) =>
  page.evaluate(() => {
    const small: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let checked = 0;
    while (walker.nextNode()) {
      const node = walker.currentNode;
      const element = node.parentElement;
      if (!node.textContent?.trim() || !element) continue;
      const box = element.getBoundingClientRect();
      if (!element.checkVisibility({ opacityProperty: true, visibilityProperty: true }) || box.width === 0 || box.height === 0) continue;
      const scale = element instanceof SVGGraphicsElement ? (element.getScreenCTM()?.a ?? 1) : 1;
      const size = Number.parseFloat(getComputedStyle(element).fontSize) * scale;
      checked++;
      if (size < 11) small.push(`${size.toFixed(1)}px: ${node.textContent.trim().slice(0, 40)}`);
    }
    return { checked, small };
  });

test('no text under 11 px at either width, on the dashboard and in an order', async () => {
  for (const page of [laptop, phone]) {
    await showAll(page);
    const dashboard = await smallText(page);
    expect(dashboard.checked).toBeGreaterThan(1000);
    expect(dashboard.small).toEqual([]);
    const own = await service.services.db.order.findFirstOrThrow({
      where: { orgId: night.orgId, status: 'out_for_delivery', fulfillmentType: 'merchant_managed_delivery' },
    });
    await openOrder(page, own.id);
    expect((await smallText(page)).small).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth === innerWidth)).toBe(true);
    await closeOrder(page);
  }
});

async function openOrder(page: Page, id: string): Promise<string> {
  // An older order is on a later page.
  if (!(await page.$(`[data-open-order="${id}"]`))) await showAll(page);
  await clickIn(page, `[data-open-order="${id}"]`);
  await page.waitForSelector(`dialog[open] [data-order-detail="${id}"]`);
  return page.$eval('dialog[open]', (e) => (e as HTMLElement).innerText);
}
async function closeOrder(page: Page) {
  await clickIn(page, 'dialog[open] button.close');
  await page.waitForFunction(() => !document.querySelector('dialog[open]'), { polling: 100 });
}

/** Every id of the night a page could show instead of a name. */
async function nightIds(): Promise<string[]> {
  const { db } = service.services;
  const [orders, locations, stores] = await Promise.all([
    db.order.findMany({ where: { orgId: night.orgId }, select: { id: true, dspOrderId: true, posOrderId: true, dspStoreId: true } }),
    db.location.findMany({ where: { orgId: night.orgId }, select: { id: true, providerId: true } }),
    db.store.findMany({ where: { locationId: { in: Object.values(night.locations) } }, select: { id: true, dspStoreId: true } }),
  ]);
  return [
    night.orgId,
    ...orders.flatMap((o) => [o.id, o.dspOrderId, o.posOrderId ?? '', o.dspStoreId]),
    ...locations.flatMap((l) => [l.id, l.providerId]),
    ...stores.flatMap((s) => [s.id, s.dspStoreId]),
    'sandbox-pos',
    'sandbox-dsp',
    'sandbox-dash',
    'sandbox-events',
  ].filter(Boolean);
}

/** What a page must not say: an id, a value as the API spells it (snake_case, APPROVED), an ISO date or time. */
function machineWords(text: string, ids: string[]): string[] {
  const found = ids.filter((id) => text.includes(id));
  for (const pattern of [/\b\d{4}-\d{2}-\d{2}\b/g, /\bT?\d{2}:\d{2}:\d{2}/g, /\b[a-z]+_[a-z0-9_]+\b/g, /\b(APPROVED|PENDING|REJECTED)\b/g])
    found.push(...(text.match(pattern) ?? []));
  return found;
}

test("in a manager's words: no id and no ISO time anywhere; failures in sentences; true deliveries; taken against failed; money as each location writes it", async () => {
  const ids = await nightIds();
  const { db } = service.services;
  await showAll(laptop);
  const page = await laptop.evaluate(() => document.body.innerText);
  expect(machineWords(page, ids)).toEqual([]);
  // Each order by its number and its customer's first name; each day once, each order at its time.
  const some = await db.order.findFirstOrThrow({ where: { orgId: night.orgId, status: 'completed' } });
  const number = (JSON.parse(some.body) as { dsp_order_number: string }).dsp_order_number;
  // Its customer is stored sealed: opened with the order's key, as the service reads it.
  const key = (await db.customerKey.findUniqueOrThrow({ where: { orderId: some.id } })).sealedKey;
  const sent = openCustomer(service.services.sealer, JSON.parse(some.body), key) as { customer: { name: string } };
  const first = sent.customer.name.split(' ')[0];
  expect(await laptop.$eval(`[data-open-order="${some.id}"]`, (b) => b.textContent)).toBe(`${number} · ${first}`);
  expect(await laptop.$$eval('tr.day-row', (rows) => rows.length)).toBe(
    await laptop.evaluate(
      (times: number[]) => new Set(times.map((t) => new Date(t).toDateString())).size,
      (await db.order.findMany({ where: { orgId: night.orgId }, select: { createdAt: true } })).map((o) => o.createdAt.getTime()),
    ),
  );
  expect(await laptop.$$eval('td.time', (cells) => cells.every((c) => /^\d{1,2}:\d{2}\s?[AP]M$/.test(c.textContent!.trim())))).toBe(true);

  // The day, as a manager counts it.
  expect(await laptop.$eval('.day .totals', (e) => e.textContent)).toBe('121 orders taken · 34 failed');
  expect(
    await laptop.$$eval('ul.failures li', (rows) =>
      Object.fromEntries(rows.map((r) => [r.getAttribute('data-reason'), Number(r.getAttribute('data-orders'))])),
    ),
  ).toEqual(FAILED);

  // Why each failed, in a sentence.
  const failure = async (reason: string) => {
    const order = await db.order.findFirstOrThrow({ where: { orgId: night.orgId, failureReason: reason } });
    return laptop.$eval(`tr[data-order-id="${order.id}"] .failure`, (e) => e.textContent);
  };
  const store = await db.store.findUniqueOrThrow({ where: { id: night.stores.brooklyn.eats.id } });
  const pausedUntil = await laptop.evaluate(
    (at) => new Intl.DateTimeFormat('en-US', { timeStyle: 'short' }).format(at),
    store.pausedUntil!.getTime(),
  );
  // The pause's end as the service says it, on the location's clock (its zone named as a city).
  const { timezone } = await db.location.findUniqueOrThrow({ where: { id: store.locationId! } });
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: timezone,
      weekday: 'short',
      month: 'short',
      day: 'numeric',
    })
      .formatToParts(store.pausedUntil!)
      .map((p) => [p.type, p.value]),
  );
  // The service writes it 24-hour; the dashboard in the viewer's convention, as every time it shows.
  const pausedThere = new Intl.DateTimeFormat('en-US', { timeStyle: 'short', timeZone: timezone }).format(store.pausedUntil!);
  const city = timezone.split('/').at(-1)!.replace(/_/g, ' ');
  expect(await failure('restaurant_not_accepting_orders')).toBe(
    `Orders were paused until ${parts.weekday}, ${parts.month} ${parts.day}, ${pausedThere} (${city} time).`,
  );
  expect(await failure('item_unavailable')).toBe('Onion Rings was off sale.');
  expect(await failure('price_mismatch')).toBe("Classic Burger was priced $9.99, below your menu's $11.99.");
  expect(await failure('invalid_cart')).toBe("The order was in euros; this location's prices are in US dollars.");
  expect(await failure('pos_rejected')).toBe('Sandbox POS refused the order: “the sandbox was told to fail /v1/orders”.');

  // Deliveries as they are: the restaurant's own on the road with its driver and car, a canceled
  // one not delivered, a platform's courier, none for a pickup.
  const row = async (where: Record<string, unknown>) => {
    const order = await db.order.findFirstOrThrow({ where: { orgId: night.orgId, ...where } });
    return laptop.$eval(`tr[data-order-id="${order.id}"]`, (r) => ({
      status: r.querySelector('td.status')!.textContent,
      delivery: r.querySelector('td.delivery')?.textContent ?? null,
      type: r.querySelector('td.type')!.textContent,
    }));
  };
  expect(
    await row({ fulfillmentType: 'merchant_managed_delivery', status: 'out_for_delivery', deliveryStatus: 'enroute_to_dropoff' }),
  ).toEqual({
    status: 'Out for delivery',
    delivery: 'On the way to the customerDana Driver · blue Toyota Prius',
    type: 'Your delivery',
  });
  expect(await row({ fulfillmentType: 'merchant_managed_delivery', status: 'merchant_canceled' })).toEqual({
    status: 'Canceled by the restaurant',
    delivery: 'Not delivered',
    type: 'Your delivery',
  });
  expect(await row({ fulfillmentType: 'delivery', status: 'ready_for_pickup', dspSource: 'sandbox-dash' })).toEqual({
    status: 'Ready for pickup',
    delivery: "Sandbox Dash's courier",
    type: 'Delivery',
  });
  expect(await row({ fulfillmentType: 'delivery', status: 'dsp_canceled' })).toMatchObject({
    status: 'Canceled by the platform',
    delivery: 'Not delivered',
  });
  expect(await row({ fulfillmentType: 'pickup', status: 'completed' })).toEqual({ status: 'Completed', delivery: '—', type: 'Pickup' });
  // Money as the order's location writes its currency.
  const usd = await db.order.findFirstOrThrow({ where: { orgId: night.orgId, status: 'completed' } });
  const total = (JSON.parse(usd.body) as { total: number }).total;
  expect(await laptop.$eval(`tr[data-order-id="${usd.id}"] td.total`, (e) => e.textContent)).toBe(
    `$${(total / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`,
  );

  // The stores: the pause on its platform until its time on the viewer's clock, the item off sale
  // by name, the closed days as dates.
  expect(await laptop.$eval(`[data-paused-store="${store.id}"]`, (e) => e.textContent)).toBe(`Paused until ${pausedUntil} on Sandbox Eats`);
  expect(await laptop.$eval(`[data-location-id="${night.locations.austin}"] .off-sale`, (e) => e.textContent)).toBe(
    'Off sale: Onion Rings (until resumed)',
  );
  // Its hours, on its own clock in the viewer's convention ("closes 6:00 PM"): Austin's main menu
  // closes at its hour (the next day's, past midnight).
  const closes = Number(night.austinCloses.slice(0, 2));
  expect(await laptop.$eval(`[data-location-id="${night.locations.austin}"] .opening`, (e) => e.textContent)).toMatch(
    new RegExp(`^Open · closes (?:[A-Z][a-z]{2} )?${closes % 12 || 12}:00\\s${closes < 12 ? 'AM' : 'PM'}$`),
  );
  expect(await laptop.$eval(`[data-location-id="${night.locations.brooklyn}"] .opening`, (e) => e.textContent)).toBe('Open');
  expect(await laptop.$eval(`[data-location-id="${night.locations.austin}"] .closed-days`, (e) => e.textContent)).toMatch(
    /^Closed [A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2} \(Staff training\), [A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2} \(Deep clean\), [A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2} \(Family day\)$/,
  );

  // Orders opened: the same words, and a timeline that tells the food's road apart from its messages.
  const opened: string[] = [];
  for (const where of [
    { fulfillmentType: 'merchant_managed_delivery', status: 'completed' },
    { fulfillmentType: 'merchant_managed_delivery', status: 'merchant_canceled' },
    ...Object.keys(FAILED).map((failureReason) => ({ failureReason })),
  ]) {
    const order = await db.order.findFirstOrThrow({ where: { orgId: night.orgId, ...where } });
    opened.push(await openOrder(laptop, order.id));
    await closeOrder(laptop);
  }
  expect(opened.flatMap((text) => machineWords(text, ids))).toEqual([]);

  // An order's money whole: the tip to the restaurant, and each discount with who pays it.
  const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
  const moneyRows = () =>
    laptop.$$eval('dialog[open] [data-amount]', (rows) =>
      rows.map((r) => [r.getAttribute('data-amount'), (r as HTMLElement).innerText.replace(/\s+/g, ' ').trim()]),
    );
  const withDiscount = async (name: string) => {
    const candidates = await db.order.findMany({ where: { orgId: night.orgId, status: 'completed', body: { contains: name } } });
    const order = candidates.find((o) => (JSON.parse(o.body) as { restaurant_tip: number }).restaurant_tip > 0) ?? candidates[0]!;
    return { order, body: JSON.parse(order.body) as { restaurant_tip: number; discounts: { name: string; amount: number }[] } };
  };
  const merchant = await withDiscount('Burger night');
  await openOrder(laptop, merchant.order.id);
  const rows = await moneyRows();
  expect(rows).toContainEqual(['restaurant_tip', `Tip to the restaurant ${dollars(merchant.body.restaurant_tip)}`]);
  expect(rows).toContainEqual([
    'discount',
    `Burger night (paid by the restaurant) −${dollars(merchant.body.discounts.find((d) => d.name === 'Burger night')!.amount)}`,
  ]);
  await closeOrder(laptop);
  const platform = await withDiscount('10% off');
  await openOrder(laptop, platform.order.id);
  expect(await moneyRows()).toContainEqual([
    'discount',
    `10% off (paid by ${platform.order.dspSource === 'sandbox-dash' ? 'Sandbox Dash' : 'Sandbox Eats'}) −${dollars(platform.body.discounts.find((d) => d.name === '10% off')!.amount)}`,
  ]);
  await closeOrder(laptop);
  expect(opened[0]).toMatch(
    /Delivery: Delivered · Dana Driver \+1 5125550199 · blue Toyota Prius \(SBX-4821\) · by Sandbox Dispatch[\s\S]*Placed on Sandbox (Eats|Dash)\n.*Taken by Sandbox POS\n.*Driver on the way to you \(Dana Driver\)\n.*Driver at the restaurant\n.*Out for delivery · On the way to the customer\n.*At the customer's door\n.*Completed · Delivered/,
  );
  expect(opened[1]).toMatch(/Delivery: Not delivered · by Sandbox Dispatch\s/);
  expect(opened[1]).not.toMatch(/Dana Driver ·|Toyota/);
});

test('every control says what it does', async () => {
  await showAll(laptop);
  // The item list of a location opened, so that its switches are in the page's accessibility tree.
  await clickIn(laptop, `[data-location-id="${night.locations.austin}"] .item-switcher summary`);
  await laptop.waitForSelector(`[data-location-id="${night.locations.austin}"] details[open] li[data-item-id="item_us_fries"] button`);
  const tree = await laptop.accessibility.snapshot({ interestingOnly: true });
  const controls: { role: string; name: string }[] = [];
  const walk = (node: NonNullable<typeof tree>) => {
    if (['button', 'combobox', 'textbox', 'searchbox', 'DisclosureTriangle', 'link', 'Date', 'DateTime'].includes(node.role))
      controls.push({ role: node.role, name: node.name ?? '' });
    for (const child of node.children ?? []) walk(child);
  };
  walk(tree!);
  expect(controls.length).toBeGreaterThan(70);
  expect(controls.filter((c) => !c.name.trim())).toEqual([]);
  const names = controls.map((c) => c.name);
  for (const name of [
    'Pause orders for 15 minutes',
    'Pause orders for 1 hour',
    'Pause orders until resumed',
    'Resume orders now',
    'Take off sale: Fries',
    'Back on sale: Onion Rings',
    'Sign out',
    'Send again: New order to Sandbox POS',
    'Delivery company',
    'Status',
    'Location',
    'Platform',
    'Day',
    'Clear filters',
  ])
    expect(names).toContain(name);
  expect(names.filter((name) => /^Open order #\d+ · \S+$/.test(name)).length).toBe(NIGHT.orders);
  // None named by its label alone, where the label needs its neighbours to say what it does.
  expect(
    names.filter((name) =>
      ['15 minutes', '15 min', '1 hour', 'Until resumed', 'Resume', 'Take off sale', 'Back on sale', 'Send again', 'Redeliver'].includes(
        name,
      ),
    ),
  ).toEqual([]);
  // Each location's pause buttons are a group named for the location.
  expect(
    await laptop.$$eval('[role="group"][data-controls-location]', (groups) => groups.map((g) => g.getAttribute('aria-label'))),
  ).toEqual(['Pause orders at Sandbox Grill Austin', 'Pause orders at Sandbox Grill Brooklyn']);
  await clickIn(laptop, `[data-location-id="${night.locations.austin}"] .item-switcher summary`);
});

test('axe-core finds no serious or critical violation on the signed-in, order and signed-out pages at either width', async () => {
  const failedOrder = await service.services.db.order.findFirstOrThrow({
    where: { orgId: night.orgId, failureReason: 'item_unavailable' },
  });
  const usedLink = await nightLink(service, night, 'team_member', 'Tomás Team', 'tomas@night.example');
  const stranger = await browser.createBrowserContext();
  try {
    const signedOut = await stranger.newPage();
    await signedOut.goto(usedLink, { waitUntil: 'load' });
    await signedOut.waitForSelector('body[data-loaded]');
    const found: Record<string, string[]> = {};
    for (const [width, page, viewport] of [
      ['1366', laptop, LAPTOP],
      ['390', phone, PHONE],
    ] as const) {
      found[`${width} dashboard`] = await seriousViolations(page);
      await openOrder(page, failedOrder.id);
      found[`${width} order`] = await seriousViolations(page);
      await closeOrder(page);
      await signedOut.setViewport(viewport);
      for (const [name, url] of [
        ['signed out', `${service.url}/dashboard?signed-out`],
        ['greeting', `${service.url}/dashboard`],
        ['used sign-in link', usedLink],
      ]) {
        await signedOut.deleteCookie(...(await signedOut.cookies()));
        await signedOut.goto(url!, { waitUntil: 'load' });
        found[`${width} ${name}`] = await seriousViolations(signedOut);
      }
    }
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((key) => [key, []])));
    expect(Object.keys(found)).toHaveLength(10);
  } finally {
    await stranger.close();
  }
});

test('a used sign-in link answers a page that says so and how to get a new one; a client asking for JSON gets the error; the favicon is served', async () => {
  const link = await nightLink(service, night, 'manager', 'Maria Manager', 'maria2@night.example');
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    await page.goto(link, { waitUntil: 'load' });
    await page.waitForSelector('body[data-loaded]');
    const again = await page.goto(link, { waitUntil: 'load' });
    expect(again!.status()).toBe(401);
    expect(again!.headers()['content-type']).toMatch(/^text\/html/);
    const said = await page.evaluate(() => document.body.innerText);
    expect(said).toMatch(/This sign-in link no longer works/);
    expect(said).toMatch(/works once, within five minutes/);
    expect(said).toMatch(/open the dashboard again from your ordering partner’s app or website: it makes a new link for you/);
    expect(said).not.toMatch(/invalid_sso_token|statusCode/);
    const expired = await page.goto(`${service.url}/v1/sso/login?token=not-a-token`, { waitUntil: 'load' });
    expect(expired!.status()).toBe(401);
    expect(await page.evaluate(() => document.querySelector('h1')!.textContent)).toBe('This sign-in link no longer works');
  } finally {
    await context.close();
  }
  const json = await fetch(link, { headers: { accept: 'application/json' }, redirect: 'manual' });
  expect(json.status).toBe(401);
  expect(await json.json()).toMatchObject({ statusCode: 401, code: 'invalid_sso_token' });

  const icon = await fetch(`${service.url}/favicon.ico`);
  expect(icon.status).toBe(200);
  expect(icon.headers.get('content-type')).toBe('image/x-icon');
  // An ICO: reserved 0, type 1, and at least one image.
  const bytes = new Uint8Array(await icon.arrayBuffer());
  expect([bytes[0], bytes[1], bytes[2], bytes[3]]).toEqual([0, 0, 1, 0]);
  expect(bytes[4]).toBeGreaterThan(0);
  expect(await laptop.$eval('link[rel="icon"]', (l) => (l as HTMLLinkElement).href)).toBe(`${service.url}/favicon.ico`);
});
