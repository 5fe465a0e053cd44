// The README's "whole flow with curl", run as a newcomer would: the script as the README prints
// it (only its first line, the URLs and credentials, filled in from what `npm start` printed),
// against the service started as `npm start` starts it, with its sandbox peers. Each run must
// end with the order completed at the POS, show that run's order alone, and give a sign-in link
// that opens the merchant's dashboard in a browser, the order on it; docs/event-providers.md's
// "Try it" goes on from there to a merchant-delivered order delivered. And what the README
// promises around it: `/` links the sandbox peers and says where the demo credentials are kept,
// and a restarted service prints them again.
import fs from 'node:fs';
import path from 'node:path';
import { OFREPProvider } from '@openfeature/ofrep-provider';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { sharedBrowser, type FileBrowser } from './support/chromium.js';
import { freePort, spawnService, until } from './support/orders.js';
import { freshDatabase, post, startTestService, type TestDatabase } from './support/service.js';
import { startForeignDsp } from './support/foreign-dsp.js';
import { createOrg } from './support/flows.js';
import { saveProvider } from '../src/integrations/providers.js';

// The walkthrough is curl's: without it here, there is nothing to run (.ci/run installs it).
const hasCurl = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v curl']).length > 0;
  } catch {
    return false;
  }
})();

let database: TestDatabase;
let env: Record<string, string>;
/** The README's walkthrough, its first line filled in from the banner. */
let filled: string;
let service: ReturnType<typeof spawnService> | undefined;
let browser: FileBrowser | undefined;
afterAll(async () => {
  await browser?.close();
  await service?.kill('SIGTERM');
  await database?.drop();
});

/** A document's script: between the ```sh fence after a heading and the next fence. */
function scriptOf(file: string, heading: string): string {
  const text = fs.readFileSync(file, 'utf8');
  const from = text.indexOf('```sh', text.indexOf(heading)) + '```sh'.length;
  return text.slice(from, text.indexOf('```', from));
}
/** The README's walkthrough. */
const walkthrough = () => scriptOf('README.md', '## The whole flow with curl');

/** A shell function the walkthrough defines (`name() { … }`), as printed. */
function definition(name: string): string {
  const lines = walkthrough().split('\n');
  const start = lines.findIndex((line) => line.startsWith(`${name}() {`));
  const end = lines.findIndex((line, i) => i >= start && /(^|; )\}$/.test(line));
  return lines.slice(start, end + 1).join('\n');
}

/** What a run printed, by the headings (`== …`) the script prints before each answer. */
function sections(stdout: string): Map<string, string> {
  const parts = stdout.split(/^== (.*)$/m);
  const found = new Map<string, string>();
  for (let i = 1; i < parts.length; i += 2) found.set(parts[i]!, parts[i + 1]!.trim());
  return found;
}
/** The answer under the heading that begins with `start`. */
function under(printed: Map<string, string>, start: string): string {
  const heading = [...printed.keys()].find((h) => h.startsWith(start));
  if (!heading) throw new Error(`no heading "${start}…" among ${[...printed.keys()].join(' | ')}`);
  return printed.get(heading)!;
}

const banner = () => until(async () => /client_secret:\s+\S+/.test(service!.logs()) && service!.logs(), 30_000);

/** What a run of the walkthrough printed (`stdout`), its first or a later one against the same
 * service: the run's order completed, at the POS that run's order alone, and the sign-in link
 * opening a dashboard with the run's merchant's orders alone (`orders` of them: the walkthrough's
 * and any a guide's script went on to place). */
async function expectRunShown(stdout: string, orders: number) {
  const base = /^BASE=(\S+) /.exec(filled)![1]!;
  const answers = sections(stdout);
  // Each location and store on a line of its own, which the script picks by name.
  expect(under(answers, "The POS's locations").split('\n')).toEqual([
    expect.stringMatching(/^loc_\S+_de {2}Sandbox Grill Berlin Mitte$/),
    expect.stringMatching(/^loc_2_\S+ {2}Sandbox Grill Austin$/),
    expect.stringMatching(/^loc_3_\S+ {2}Sandbox Grill Brooklyn$/),
    expect.stringMatching(/^loc_\S+_jp {2}Sandbox Grill Shibuya$/),
  ]);
  expect(JSON.parse(under(answers, "The store's menus chosen"))).toMatchObject({ menu_provider_ids: ['menu_us_all_day'] });
  const order = JSON.parse(under(answers, 'The order, as partners read it'));
  expect(order).toEqual({
    dspOrderId: expect.stringMatching(/^dsp_/),
    status: 'completed',
    posOrderId: expect.stringMatching(/^pos_/),
    total: { amount: 4078, currency: 'usd' },
  });
  // This run's order alone, readable: on a later run too, though the sandbox POS has received
  // the earlier runs' orders as well.
  expect(JSON.parse(under(answers, 'What the POS received'))).toEqual([
    {
      type: 'order.created',
      id: expect.stringMatching(/^ord_/),
      dsp_order_id: order.dspOrderId,
      location_id: expect.stringMatching(/^loc_2_/),
      items: ['2 x Classic Burger', '1 x Fries'],
      total: 4078,
      currency: 'usd',
    },
  ]);

  // The sign-in link, opened in a browser of its own: the owner's dashboard, this run's
  // order on it, completed (each run's merchant sees its own orders alone).
  const link = under(answers, "The owner's sign-in link");
  expect(link).toMatch(new RegExp(`^${base}/v1/sso/login\\?token=\\S+$`));
  const context = await browser!.createBrowserContext();
  const page = await context.newPage();
  await page.goto(link, { waitUntil: 'load' });
  expect(new URL(page.url()).pathname).toBe('/dashboard');
  await page.waitForSelector(`tr[data-dsp-order-id="${order.dspOrderId}"][data-status="completed"]`, { timeout: 20_000 });
  expect(await page.$$eval('tr[data-dsp-order-id]', (rows) => rows.length)).toBe(orders);
  expect(await page.$eval(`tr[data-dsp-order-id="${order.dspOrderId}"]`, (row) => (row as HTMLElement).innerText)).toMatch(/\$40\.78/);
  await context.close();
}

(hasCurl ? test : test.skip)(
  "the README's curl walkthrough takes a newcomer from npm start to an order completed at the POS and seen on the dashboard",
  async () => {
    database = await freshDatabase();
    const port = await freePort();
    env = { PORT: String(port), DATA_DIR: database.dataDir, DATABASE_URL: database.url, SANDBOX: 'on', LOG_LEVEL: 'warn' };
    service = spawnService(env);
    const printed = await banner();
    const pos = /Sandbox POS and DSP:\s+(http:\/\/\S+)/.exec(printed)![1]!;
    const clientId = /client_id:\s+(\S+)/.exec(printed)![1]!;
    const clientSecret = /client_secret:\s+(\S+)/.exec(printed)![1]!;
    // The sandbox POS sits beside the service, at PORT + 100 unless that port was taken.
    expect(pos).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    browser = await sharedBrowser();

    const [first, ...rest] = walkthrough().trim().split('\n');
    expect(first).toMatch(/^BASE=\S+ POS=\S+ CLIENT_ID=\S+ CLIENT_SECRET=\S+$/);
    const base = `http://127.0.0.1:${port}`;
    filled = [`BASE=${base} POS=${pos} CLIENT_ID=${clientId} CLIENT_SECRET=${clientSecret}`, ...rest].join('\n');
    // Once here; docs/event-providers.md's Try it below runs it again against the same service.
    const { stdout, stderr } = await promisify(execFile)('bash', ['--norc', '-euo', 'pipefail', '-c', filled], { timeout: 90_000 });
    expect(stderr).toBe('');
    await expectRunShown(stdout, 1);
  },
  240_000,
);

(hasCurl ? test : test.skip)(
  "the README's scripted consent answers any provider's consent form: a platform's own markup, its own fields, its allowing button not its first",
  async () => {
    const own = await startTestService();
    const platform = await startForeignDsp({ redirectUris: [`${own.services.publicUrl}/v1/onboarding/callback`] });
    try {
      await saveProvider(own.services, {
        source: 'taqueria-eats',
        kind: 'dsp',
        base_url: platform.url,
        client_id: platform.clientId,
        client_secret: platform.clientSecret,
        webhook_secret: platform.webhookSecret,
      });
      const { token } = await own.partner();
      const { orgId } = await createOrg(own.url, token);
      const init = await post(
        own.url,
        '/v1/onboarding/integrations',
        { org_id: orgId, source: 'taqueria-eats', type: 'dsp', return_url: 'https://partner.example/done' },
        token,
      );
      const script = [definition('form'), definition('consent'), `consent '${init.body.onboarding.entry_url}'`].join('\n');
      const { stdout, stderr } = await promisify(execFile)('bash', ['--norc', '-euo', 'pipefail', '-c', script], { timeout: 30_000 });
      expect(stderr).toBe('');
      const done = await post(own.url, `/v1/onboarding/integrations/${init.body.onboarding._id}/complete`, { code: stdout.trim() }, token);
      expect(done.status).toBe(200);
      // The platform's form as a person sends it: its token back, its box checked, its allowing button.
      const sent = platform.received.find((r) => r.path === '/v1/consent')!.body;
      expect(sent).toMatchObject({ request: expect.any(String), csrf: expect.any(String), scope_menus: 'on', answer: 'approve' });
    } finally {
      await platform.close();
      await own.stop();
    }
  },
  60_000,
);

(hasCurl ? test : test.skip)(
  "docs/event-providers.md's Try it, after the README's walkthrough run again, takes a merchant-delivered order to the customer's door; the second run ends as the first",
  async () => {
    // In the walkthrough's shell (its variables and helpers), through the sandbox event
    // provider that npm start printed. The walkthrough's second run against the one service: a
    // newcomer runs it again, and it ends as the first did, with this run's merchant's orders
    // alone (its own and the merchant-delivered one).
    const events = /Sandbox event provider:\s+(http:\/\/\S+)/.exec(service!.logs())![1]!;
    const [eventsLine, ...delivery] = scriptOf('docs/event-providers.md', '### Try it').trim().split('\n');
    expect(eventsLine).toMatch(/^EVENTS=\S+ /);
    const { stdout, stderr } = await promisify(execFile)(
      'bash',
      ['--norc', '-euo', 'pipefail', '-c', [filled, `EVENTS=${events}`, ...delivery].join('\n')],
      { timeout: 90_000 },
    );
    expect(stderr).toBe('');
    await expectRunShown(stdout, 2);
    expect(JSON.parse(under(sections(stdout), 'The merchant-delivered order'))).toEqual({
      status: 'completed',
      deliveryStatus: 'delivered',
      driver: { name: 'Dana Driver', vehicleInfo: { make: 'Toyota', model: 'Prius' } },
    });
  },
  120_000,
);

(hasCurl ? test : test.skip)("/ links the sandbox peers and says where the demo partner's credentials are kept", async () => {
  const base = /OAuth issuer:\s+(\S+)/.exec(service!.logs())![1]!;
  const pos = /Sandbox POS and DSP:\s+(http:\/\/\S+)/.exec(service!.logs())![1]!;
  const events = /Sandbox event provider:\s+(http:\/\/\S+)/.exec(service!.logs())![1]!;
  const page = await (await fetch(`${base}/`)).text();
  expect(page).toContain(`<a href="${pos}">Sandbox POS and DSP</a>`);
  expect(page).toContain(`<a href="${events}">Sandbox event provider</a>`);
  expect(page).toContain(`kept in <code>${path.resolve(database.dataDir, 'demo-partner.json')}</code>`);
  // Each peer's address says what it is and lists its controls.
  const peer = (await (await fetch(pos)).json()) as { peer: string; controls: string[] };
  expect(peer.peer).toContain('sandbox POS');
  expect(peer.controls).toEqual(expect.arrayContaining(['POST /v1/_sandbox/orders', 'POST /v1/_sandbox/order-status']));
  expect(((await (await fetch(events)).json()) as { controls: string[] }).controls).toEqual(
    expect.arrayContaining(['GET /v1/_sandbox/received', 'POST /v1/_sandbox/deliveries/:id/advance']),
  );
});

(hasCurl ? test : test.skip)(
  "an OFREP provider given exactly the banner's OFREP address evaluates a flag defined as the README says",
  async () => {
    const printed = service!.logs();
    const baseUrl = /OFREP baseUrl:\s+(\S+)/.exec(printed)![1]!;
    const clientId = /client_id:\s+(\S+)/.exec(printed)![1]!;
    const clientSecret = /client_secret:\s+(\S+)/.exec(printed)![1]!;
    const { partner_id: partnerId } = JSON.parse(fs.readFileSync(path.join(database.dataDir, 'demo-partner.json'), 'utf8'));
    // The command docs/api-guide.md gives, against the service's data.
    await promisify(execFile)(
      'npm',
      [
        'run',
        '-s',
        'cli',
        '--',
        'flags',
        'define',
        '--partner',
        partnerId,
        '--flag',
        'new-checkout',
        '--variations',
        '[true,false]',
        '--on',
        '0',
        '--off',
        '1',
        '--fallthrough',
        '0',
      ],
      { env: { ...process.env, DATA_DIR: database.dataDir, DATABASE_URL: database.url, LOG_LEVEL: 'silent' } },
    );
    const { access_token: token } = (await (
      await fetch(`${baseUrl}/v1/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
      })
    ).json()) as { access_token: string };
    const provider = new OFREPProvider({ baseUrl, headers: [['Authorization', `Bearer ${token}`]] });
    const answer = await provider.resolveBooleanEvaluation('new-checkout', false, { targetingKey: 'org-7' });
    expect(answer).toMatchObject({ value: true, reason: 'DEFAULT' });
    expect(answer.errorCode).toBeUndefined();
  },
  60_000,
);

(hasCurl ? test : test.skip)(
  "a restarted service prints the demo partner's credentials again, and where they are kept",
  async () => {
    const before = service!.logs();
    const credentials = (text: string) => ({
      file: /Demo partner \(kept in (\S+)\):/.exec(text)?.[1],
      clientId: /client_id:\s+(\S+)/.exec(text)?.[1],
      clientSecret: /client_secret:\s+(\S+)/.exec(text)?.[1],
    });
    await service!.kill('SIGTERM');
    service = spawnService(env);
    const after = credentials(await banner());
    expect(after).toEqual(credentials(before));
    expect(after.file).toBe(path.resolve(database.dataDir, 'demo-partner.json'));
    // The credentials printed still buy a token.
    const token = await fetch(`${/OAuth issuer:\s+(\S+)/.exec(service.logs())![1]}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_id: after.clientId, client_secret: after.clientSecret }),
    });
    expect(token.status).toBe(201);
  },
  60_000,
);
