// `npm run screenshots`: the guide's pictures of the dashboard (docs/dashboard.md), taken from a
// busy night played through the sandbox (../support/busy-night.ts), so that they show what the
// dashboard shows today: a laptop (1366×768: docs/dashboard.png), an order opened there
// (docs/dashboard-order.png) and a phone (390×844: docs/dashboard-phone.png), as a manager in
// Austin sees them (the browser on Chicago's clock, in American English).
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { chromiumPath } from '../support/chromium.js';
import { startTestService } from '../support/service.js';
import { NIGHT, nightLink, playBusyNight } from '../support/busy-night.js';

const docs = path.resolve(import.meta.dirname, '../../docs');
const service = await startTestService({ OUTBOX_RETRY_BASE_MS: '50', OUTBOX_RETRY_MAX_MS: '100', OUTBOX_MAX_ATTEMPTS: '1' });
const night = await playBusyNight(service);
const browser = await puppeteer.launch({
  executablePath: chromiumPath(),
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--lang=en-US'],
});
try {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.emulateTimezone('America/Chicago');
  await page.setViewport({ width: 1366, height: 768 });
  await page.goto(await nightLink(service, night, 'manager', 'Maria Manager', 'maria@sandbox-grill.example'), { waitUntil: 'load' });
  await page.waitForSelector('body[data-loaded] .day[data-orders-today]');
  const out = (name: string) => path.join(docs, name) as `${string}.png`;
  await page.screenshot({ path: out('dashboard.png') });
  // An order of the restaurant's own delivery, on its way: its driver, car and timeline.
  const onItsWay = await service.services.db.order.findFirstOrThrow({
    where: { orgId: night.orgId, fulfillmentType: 'merchant_managed_delivery', status: 'out_for_delivery' },
    orderBy: { createdAt: 'desc' },
  });
  await page.evaluate((id) => (document.querySelector(`[data-open-order="${id}"]`) as HTMLElement).click(), onItsWay.id);
  await page.waitForSelector(`dialog[open] [data-order-detail="${onItsWay.id}"]`);
  await page.screenshot({ path: out('dashboard-order.png') });
  await page.keyboard.press('Escape');

  const phone = await context.newPage();
  await phone.emulateTimezone('America/Chicago');
  await phone.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
  await phone.goto(`${service.url}/dashboard`, { waitUntil: 'load' });
  await phone.waitForSelector('body[data-loaded] .day[data-orders-today]');
  await phone.screenshot({ path: out('dashboard-phone.png') });
  process.stdout.write(
    `docs/dashboard.png, docs/dashboard-order.png and docs/dashboard-phone.png: Sandbox Grill's busy night, ${NIGHT.orders} orders\n`,
  );
} finally {
  await browser.close();
  await night.close();
  await service.stop();
}
