// The End of day page in Chromium at 1366×768 and 390×844, as a manager uses it after the busy
// night (test/support/busy-night.ts, played through the sandbox peers over HTTP): every figure of
// the day's table is the statement's (dailyStatements, read here with the partner's token) in the
// currency's own format, the expected payout where a commission is set, each platform's share,
// the previous and next day, the CSV saved by the browser, the printed page, and axe-core finding
// nothing serious. A team member has no such page.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { BrowserContext, Page } from 'puppeteer-core';
import { LAPTOP, PHONE, seriousViolations, sharedBrowser, type FileBrowser } from '../support/chromium.js';
import { until } from '../support/wait.js';
import { graphqlPost, request, startTestService, type TestService } from '../support/service.js';
import { nightLink, playBusyNight, type BusyNight } from '../support/busy-night.js';
import { majorUnits } from '../../src/common/money.js';

const AUSTIN = 'America/Chicago';
const COMMISSION = 15;

let service: TestService;
let night: BusyNight;
let browser: FileBrowser;
/** The manager's browser, its downloads saved to `downloads`. */
let manager: BrowserContext;
let laptop: Page;
let phone: Page;
let downloads: string;
let today: string;
let yesterday: string;

const dateIn = (at: number, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const dollars = (cents: number) => usd.format(majorUnits(cents, 2) as Intl.StringNumericLiteral);

const STATEMENT = /* GraphQL */ `
  query EndOfDayTestStatement($orgId: ID!, $locationId: ID!, $date: String!) {
    dailyStatements(orgId: $orgId, locationId: $locationId, from: $date, to: $date) {
      date
      platforms { ...EndOfDayTestLine }
      totals { ...EndOfDayTestLine }
    }
  }
  fragment EndOfDayTestLine on StatementLine {
    source currency taken awaiting failed failedByReason { reason orders }
    canceledByMerchant canceledByDsp
    amounts { subtotal tax taxWithheldByDsp deliveryFee deliveryFeeTax restaurantTip driverTip discountMerchant discountDsp markup total }
    payout { commissionPercent commission payout }
  }
`;
type Line = {
  source: string | null;
  currency: string | null;
  taken: number;
  awaiting: number;
  failed: number;
  failedByReason: { reason: string | null; orders: number }[];
  canceledByMerchant: number;
  canceledByDsp: number;
  amounts: Record<string, number>;
  payout: { commissionPercent: number; commission: number; payout: number } | null;
};
type Statement = { platforms: Line[]; totals: Line[] };
/** Austin's statement of a day (every currency an order came in). */
async function statementOf(date: string): Promise<Statement> {
  const answer = await graphqlPost(service.url, night.token, STATEMENT, { orgId: night.orgId, locationId: night.locations.austin, date });
  expect(answer.body.errors).toBeUndefined();
  return answer.body.data.dailyStatements[0];
}
/** Its lines in dollars, Austin's currency (the night's orders in euros failed, and are counted apart). */
const inDollars = (statement: Statement): Statement => ({
  platforms: statement.platforms.filter((line) => line.currency === 'usd'),
  totals: statement.totals.filter((line) => line.currency === 'usd'),
});

beforeAll(async () => {
  service = await startTestService({ OUTBOX_RETRY_BASE_MS: '50', OUTBOX_RETRY_MAX_MS: '100', OUTBOX_MAX_ATTEMPTS: '1' });
  night = await playBusyNight(service);
  const set = await request(service.url, 'PUT', `/v1/organizations/${night.orgId}/platforms/sandbox-dash`, {
    body: { commission_percent: COMMISSION },
    token: night.token,
  });
  expect(set.status).toBe(200);
  // The restaurant has been here since yesterday, and one of Austin's taken orders was yesterday's
  // (at noon on Austin's clock): the timestamps moved, as the day's rules are tested.
  today = dateIn(Date.now(), AUSTIN);
  const [{ startsAt }] = (await statementOfStart(today)) as [{ startsAt: number }];
  const yesterdayNoon = new Date(startsAt - 12 * 3600_000);
  yesterday = dateIn(yesterdayNoon.getTime(), AUSTIN);
  await service.services.db.organization.update({ where: { id: night.orgId }, data: { createdAt: yesterdayNoon } });
  const moved = await service.services.db.order.findFirstOrThrow({
    where: { locationId: night.locations.austin, dspSource: 'sandbox-dash', status: 'completed' },
  });
  await service.services.db.order.update({ where: { id: moved.id }, data: { createdAt: yesterdayNoon } });

  downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'end-of-day-'));
  browser = await sharedBrowser();
  manager = await browser.createBrowserContext({ downloadBehavior: { policy: 'allow', downloadPath: downloads } });
  laptop = await endOfDayAt(LAPTOP, await nightLink(service, night, 'manager', 'Mia Manager', 'mia@night.example'));
  phone = await endOfDayAt(PHONE);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await night?.close();
  await service?.stop();
  if (downloads) fs.rmSync(downloads, { recursive: true, force: true });
});

async function statementOfStart(date: string) {
  const answer = await graphqlPost(
    service.url,
    night.token,
    'query ($o: ID!, $l: ID!, $d: String!) { dailyStatements(orgId: $o, locationId: $l, from: $d, to: $d) { startsAt } }',
    { o: night.orgId, l: night.locations.austin, d: date },
  );
  return answer.body.data.dailyStatements;
}

/** A page of the manager's browser at a size, on the dashboard, then on End of day by its link. */
async function endOfDayAt(viewport: typeof LAPTOP | typeof PHONE, link?: string): Promise<Page> {
  const page = await manager.newPage();
  await page.setViewport(viewport);
  await page.goto(link ?? `${service.url}/dashboard`, { waitUntil: 'load' });
  await page.waitForFunction(() => document.body.dataset.loaded, { timeout: 20_000, polling: 100 });
  await page.evaluate(() => (document.querySelector('#page-end-of-day') as HTMLElement).click());
  await page.waitForSelector('#eod-title');
  return page;
}

/** Chooses Austin and waits for its day to be drawn. */
async function showAustin(page: Page, date: string): Promise<void> {
  await page.evaluate(
    (id, day) => {
      location.hash = `#end-of-day/${id}/${day}`;
    },
    night.locations.austin,
    date,
  );
  await page.waitForFunction(
    (id, day) => {
      const title = document.querySelector('#eod-title') as HTMLElement | null;
      return title?.dataset.locationId === id && title.dataset.date === day;
    },
    { polling: 100 },
    night.locations.austin,
    date,
  );
}

/** The table as shown: each row's cells by column (a platform's source, or "total"). */
const tableOf = (page: Page) =>
  page.$$eval('table.eod-table[data-currency="usd"] tbody tr[data-row]', (rows) =>
    Object.fromEntries(
      rows.map((row) => [
        (row as HTMLElement).dataset.row!,
        Object.fromEntries([...row.querySelectorAll('td')].map((td) => [(td as HTMLElement).dataset.source!, td.innerText.trim()])),
      ]),
    ),
  );

/** The table the statement makes: every count as a number, every amount in dollars. */
function expectedTable(statement: { platforms: Line[]; totals: Line[] }) {
  const columns = [...statement.platforms.map((line) => [line.source!, line] as const), ['total', statement.totals[0]!] as const];
  const row = (cell: (line: Line) => string) => Object.fromEntries(columns.map(([key, line]) => [key, cell(line)]));
  const table: Record<string, Record<string, string>> = {
    taken: row((l) => String(l.taken)),
    failed: row((l) => String(l.failed)),
    canceledByMerchant: row((l) => String(l.canceledByMerchant)),
    canceledByDsp: row((l) => String(l.canceledByDsp)),
    commission: row((l) => (l.payout ? `${dollars(l.payout.commission)} (${l.payout.commissionPercent}%)` : '—')),
    payout: row((l) => (l.payout ? dollars(l.payout.payout) : '—')),
  };
  if (columns.some(([, l]) => l.awaiting)) table.awaiting = row((l) => String(l.awaiting));
  for (const figure of Object.keys(statement.totals[0]!.amounts)) table[figure] = row((l) => dollars(l.amounts[figure]!));
  for (const reason of new Set(columns.flatMap(([, l]) => l.failedByReason.map((r) => r.reason))))
    table[`failed:${reason ?? ''}`] = row((l) => String(l.failedByReason.find((r) => r.reason === reason)?.orders ?? 0));
  return table;
}

test("today at Austin: every figure of the table is the statement's, in dollars, with the commission and the expected payout, and each platform's share", async () => {
  const whole = await statementOf(today);
  // The night's euro orders failed: counted in a table of their own.
  expect(whole.totals.map((line) => [line.currency, line.taken])).toEqual(expect.arrayContaining([['eur', 0]]));
  const statement = inDollars(whole);
  // The night: both platforms took orders, some failed, some were canceled; the commission is Sandbox Dash's.
  expect(statement.platforms.map((l) => l.source).sort()).toEqual(['sandbox-dash', 'sandbox-dsp']);
  expect(statement.totals[0]!.taken).toBeGreaterThan(0);
  expect(statement.totals[0]!.failed).toBeGreaterThan(0);
  expect(statement.platforms.find((l) => l.source === 'sandbox-dash')!.payout!.commissionPercent).toBe(COMMISSION);
  expect(statement.platforms.find((l) => l.source === 'sandbox-dsp')!.payout).toBeNull();
  const expected = expectedTable(statement);
  for (const page of [laptop, phone]) {
    await showAustin(page, today);
    const shown = await tableOf(page);
    // The reasons' rows beyond the failures' (the cancellations') are checked by their totals above.
    const compared = Object.fromEntries(Object.keys(expected).map((row) => [row, shown[row]]));
    expect(compared).toEqual(expected);
    expect(await page.$eval('#eod-title', (e) => (e as HTMLElement).innerText)).toMatch(/^Today, /);
    expect(await page.$$eval('thead th', (ths) => ths.map((th) => (th as HTMLElement).innerText.trim()))).toEqual(
      expect.arrayContaining(['Sandbox Eats', 'Sandbox Dash', 'Total']),
    );
    // Each platform's share of what customers paid, in words and as bars that add up.
    const shares = await page.$$eval('.eod-shares .share', (all) =>
      all.map((s) => ({ source: (s as HTMLElement).dataset.source!, percent: Number((s as HTMLElement).dataset.percent) })),
    );
    const total = statement.totals[0]!.amounts.total!;
    for (const share of shares)
      expect(share.percent).toBe(Math.round((100 * statement.platforms.find((l) => l.source === share.source)!.amounts.total!) / total));
    expect(shares.reduce((n, s) => n + s.percent, 0)).toBeGreaterThanOrEqual(99);
    expect(await page.$eval('.eod-shares [role="img"]', (e) => e.getAttribute('aria-label'))).toMatch(
      /Sandbox Eats \d+% \(\$[\d,]+\.\d\d, \d+ orders?\)/,
    );
    // Nothing wider than the screen; on the phone too the table fits its column.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(page.viewport()!.width);
    expect(await page.$eval('.eod-table-wrap', (w) => w.scrollWidth <= w.clientWidth)).toBe(true);
    // A table still on the phone: each row's label and figures on one line.
    const tops = await page.$$eval('table.eod-table[data-currency="usd"] tr[data-row="taken"] > *', (cells) =>
      cells.map((cell) => Math.round(cell.getBoundingClientRect().top)),
    );
    expect(tops).toHaveLength(4);
    expect(new Set(tops).size).toBe(1);
  }
});

test('the previous and next day: yesterday has the order moved there, today has no next day, yesterday (the first) no previous', async () => {
  const page = laptop;
  await showAustin(page, today);
  expect(await page.$eval('button[aria-label^="Next day"]', (b) => (b as HTMLButtonElement).disabled)).toBe(true);
  await page.evaluate(() => (document.querySelector('button[aria-label^="Previous day"]') as HTMLElement).click());
  await page.waitForFunction(
    (day) => (document.querySelector('#eod-title') as HTMLElement)?.dataset.date === day,
    { polling: 100 },
    yesterday,
  );
  expect(await page.evaluate(() => location.hash)).toMatch(new RegExp(`/${yesterday}$`));
  const before = inDollars(await statementOf(yesterday));
  expect(before.totals[0]!.taken).toBe(1);
  expect(await tableOf(page)).toMatchObject({ taken: { 'sandbox-dash': '1', total: '1' }, total: expectedTable(before).total });
  expect(await page.$eval('#eod-title', (e) => (e as HTMLElement).innerText)).not.toMatch(/^Today/);
  expect(await page.$eval('button[aria-label^="Previous day"]', (b) => (b as HTMLButtonElement).disabled)).toBe(true);
  await page.evaluate(() => (document.querySelector('button[aria-label^="Next day"]') as HTMLElement).click());
  await page.waitForFunction((day) => (document.querySelector('#eod-title') as HTMLElement)?.dataset.date === day, { polling: 100 }, today);
  expect((await tableOf(page)).taken).toEqual(expectedTable(inDollars(await statementOf(today))).taken);
});

test("Download CSV saves the day's CSV: a row per order of the day, then each platform and the total, as the statement has them", async () => {
  await showAustin(laptop, today);
  await laptop.evaluate(() => (document.querySelector('button.download') as HTMLElement).click());
  const file = await until(() => fs.readdirSync(downloads).find((name) => name.endsWith('.csv')));
  // Named for the location and the day.
  expect(file).toBe(`end-of-day-Sandbox-Grill-Austin-${today}.csv`);
  const rows = parse(fs.readFileSync(path.join(downloads, file!), 'utf8'), { columns: true }) as Record<string, string>[];
  const whole = await statementOf(today);
  const orders = rows.filter((r) => r.record === 'order');
  expect(orders).toHaveLength(
    whole.totals.reduce((n, t) => n + t.taken + t.awaiting + t.failed + t.canceledByMerchant + t.canceledByDsp, 0),
  );
  const statement = inDollars(whole);
  const total = statement.totals[0]!;
  const totalRow = rows.find((r) => r.record === 'total' && r.currency === 'usd')!;
  expect({
    taken: Number(totalRow.taken),
    failed: Number(totalRow.failed),
    subtotal: Number(totalRow.subtotal),
    total: Number(totalRow.total),
  }).toEqual({
    taken: total.taken,
    failed: total.failed,
    subtotal: total.amounts.subtotal,
    total: total.amounts.total,
  });
  const dash = rows.find((r) => r.record === 'platform' && r.source === 'sandbox-dash' && r.currency === 'usd')!;
  expect(Number(dash.expected_payout)).toBe(statement.platforms.find((l) => l.source === 'sandbox-dash')!.payout!.payout);
});

test('printed, the page is the day on one page: no navigation and no controls, the table and the shares kept', async () => {
  await showAustin(laptop, today);
  await laptop.emulateMediaType('print');
  try {
    const shown = await laptop.evaluate(() => {
      const visible = (selector: string) => {
        const element = document.querySelector(selector);
        return !!element && element.getBoundingClientRect().height > 0 && getComputedStyle(element).display !== 'none';
      };
      return {
        pages: visible('#pages'),
        controls: visible('.eod-controls'),
        signOut: visible('.bar .actions'),
        title: visible('#eod-title'),
        table: visible('table.eod-table'),
        shares: visible('.eod-shares'),
      };
    });
    expect(shown).toEqual({ pages: false, controls: false, signOut: false, title: true, table: true, shares: true });
    // Printed on Letter paper: one page (each page of Chromium's PDF is an object "/Type /Page").
    const pdf = Buffer.from(await laptop.pdf({ format: 'letter' })).toString('latin1');
    expect(pdf.match(/\/Type\s*\/Page\b(?!s)/g)).toHaveLength(1);
  } finally {
    await laptop.emulateMediaType();
  }
});

test('a team member has no End of day: no link, and its address shows the orders', async () => {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    await page.setViewport(LAPTOP);
    await page.goto(await nightLink(service, night, 'team_member', 'Tia Team', 'tia@night.example'), { waitUntil: 'load' });
    await page.waitForFunction(() => document.body.dataset.loaded, { timeout: 20_000, polling: 100 });
    expect(await page.$eval('#pages', (n) => (n as HTMLElement).hidden)).toBe(true);
    await page.evaluate(() => {
      location.hash = '#end-of-day';
    });
    await page.waitForFunction(() => location.hash === '#end-of-day', { polling: 100 });
    expect(
      await page.evaluate(() => [
        (document.querySelector('#end-of-day') as HTMLElement).hidden,
        (document.querySelector('#overview') as HTMLElement).hidden,
      ]),
    ).toEqual([true, false]);
    expect(await page.$('#eod-title')).toBeNull();
  } finally {
    await context.close();
  }
});

test('axe-core finds nothing serious or critical on the End of day at either width', async () => {
  const found: Record<string, string[]> = {};
  for (const [name, page] of [
    ['1366', laptop],
    ['390', phone],
  ] as const) {
    await showAustin(page, today);
    found[name] = await seriousViolations(page);
  }
  expect(found).toEqual({ '1366': [], '390': [] });
});
