// GraphiQL (docs/reference.md § Partner API), the API reference (7.5) and the front page work offline: in headless Chromium
// (Debian's, driven by puppeteer-core) /graphql renders and runs a query, /docs renders the API and / links
// every door; every request goes to the service; anything else is refused, as on a machine with no network.
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { chromiumPath } from '../support/chromium.js';
import { startTestService, type TestService } from '../support/service.js';

let service: TestService;
let browser: Browser;

beforeAll(async () => {
  service = await startTestService();
  browser = await puppeteer.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-dev-shm-usage'] });
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

/** Refuses every request but the service's own, as a machine with no network would; returns
 * the list of those refused. */
async function offline(page: Page): Promise<string[]> {
  const elsewhere: string[] = [];
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    const url = request.url();
    if (url.startsWith(service.url) || url.startsWith('data:') || url.startsWith('blob:')) return void request.continue();
    elsewhere.push(url);
    void request.abort();
  });
  return elsewhere;
}

test('GraphiQL renders from the service alone and runs a query', async () => {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  const elsewhere = await offline(page);
  await page.goto(`${service.url}/graphql`, { waitUntil: 'load' });
  await page.waitForSelector('.graphiql-container', { timeout: 20_000 });
  expect(await page.title()).toBe('Partner ordering API');

  // GraphiQL's starter query (a comment on tokens, then `{ __typename }`), run with its own
  // button once the editor shows it; clicked again should a busy machine have swallowed a click.
  // Its editors draw spaces as no-break spaces: text is compared without any.
  await page.waitForFunction(() => document.body.innerText.replace(/\s/g, '').includes('Bearer<access_token>'), {
    timeout: 20_000,
    polling: 100,
  });
  const answeredWithin = (ms: number) =>
    page
      .waitForFunction(() => document.body.innerText.replace(/\s/g, '').includes('"__typename":"Query"'), { timeout: ms, polling: 100 })
      .then(
        () => true,
        () => false,
      );
  let answered = false;
  for (let attempt = 0; attempt < 10 && !answered; attempt++) {
    await page.click('.graphiql-execute-button');
    answered = await answeredWithin(2000);
  }
  expect(answered).toBe(true);
  expect(elsewhere).toEqual([]);
  await page.close();
});

test('the API reference at /docs renders the OpenAPI document from the service alone', async () => {
  const page = await browser.newPage();
  const elsewhere = await offline(page);
  await page.goto(`${service.url}/docs`, { waitUntil: 'load' });
  // Swagger UI lists the operations by their summaries once it has read /v1/openapi.json.
  await page.waitForFunction(() => document.body.innerText.includes('Create an organization'), { timeout: 20_000, polling: 100 });
  const text = await page.evaluate(() => document.body.innerText);
  expect(text).toContain('Partner ordering API');
  expect(text).toContain('/v1/onboarding/locations/bind');
  expect(text).toContain('/v1/webhooks/dsp/{source}');
  expect(elsewhere).toEqual([]);
  await page.close();
});

test('/ in a browser names the service and each door works, and the dashboard greets someone who never signed in', async () => {
  const page = await browser.newPage();
  const elsewhere = await offline(page);
  const front = await page.goto(`${service.url}/`, { waitUntil: 'load' });
  expect(front!.status()).toBe(200);
  expect(await page.title()).toBe('Partner ordering integration service');
  const links = await page.$$eval('a', (anchors) => anchors.map((a) => ({ text: a.textContent, href: a.getAttribute('href') })));
  expect(links.map((l) => l.href)).toEqual(expect.arrayContaining(['/graphql', '/docs', '/dashboard', '/health', '/ready']));
  expect(links.find((l) => l.text?.includes('OFREP'))).toBeDefined();
  // The OFREP line names the origin a provider takes as baseUrl.
  expect(await page.evaluate(() => document.body.innerText)).toContain(`give an OFREP provider ${service.url} as its baseUrl`);
  for (const href of ['/graphql', '/docs', '/health', '/ready', '/.well-known/oauth-authorization-server']) {
    const status = await page.evaluate(async (to) => (await fetch(to, { headers: { accept: 'text/html' } })).status, href);
    expect({ href, status }).toEqual({ href, status: 200 });
  }

  await Promise.all([page.waitForNavigation(), page.click('a[href="/dashboard"]')]);
  const greeting = await page.evaluate(() => document.body.innerText);
  expect(greeting).toContain("Your restaurant's dashboard");
  expect(greeting).not.toContain('signed out');
  expect(elsewhere).toEqual([]);
  await page.close();
});
