// GraphiQL works offline (CONTRACT.md 7.4): in headless Chromium (Debian's, driven by
// puppeteer-core) the page at /graphql renders and runs a query, and every request it makes goes
// to the service; anything else is refused, as on a machine with no network.
import puppeteer, { type Browser } from 'puppeteer-core';
import { chromiumPath } from './support/chromium.js';
import { startTestService, type TestService } from './support/service.js';

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

test('GraphiQL renders from the service alone and runs a query', async () => {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  const elsewhere: string[] = [];
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    const url = request.url();
    if (url.startsWith(service.url) || url.startsWith('data:') || url.startsWith('blob:')) return void request.continue();
    elsewhere.push(url);
    void request.abort();
  });
  await page.goto(`${service.url}/graphql`, { waitUntil: 'load' });
  await page.waitForSelector('.graphiql-container', { timeout: 20_000 });
  expect(await page.title()).toBe('Partner ordering API');

  // GraphiQL's starter query (a comment on tokens, then `{ __typename }`), run with its own
  // button once the editor shows it; clicked again should a busy machine have swallowed a click.
  // Its editors draw spaces as no-break spaces: text is compared without any.
  const text = () => page.evaluate(() => document.body.innerText.replace(/\s/g, ''));
  await page.waitForFunction(() => document.body.innerText.replace(/\s/g, '').includes('Bearer<access_token>'), { timeout: 20_000, polling: 100 });
  let answered = false;
  for (let attempt = 0; attempt < 10 && !answered; attempt++) {
    await page.click('.graphiql-execute-button');
    for (let i = 0; i < 20 && !answered; i++) {
      answered = (await text()).includes('"__typename":"Query"');
      if (!answered) await new Promise((r) => setTimeout(r, 100));
    }
  }
  expect(answered).toBe(true);
  expect(elsewhere).toEqual([]);
  await page.close();
});
