// The conformance kit (`cli certify`), run as a vendor runs it: against the sandbox POS and event
// provider it passes every check; against a POS that gets the interface wrong, or an event provider
// that assigns a second driver on a repeat, names another location, an unknown step, signs with
// another secret or sends nothing, it fails exactly the rules broken, says why in each detail,
// writes JUnit XML (checks not run marked skipped) and exits 1; with --wait-webhook it prints where
// to send webhooks (on a port fixed beforehand with --listen-port), counts them at any path under
// that URL and answers them as the service would, within one deadline; with --source it says
// first what it will send, and never prints a secret.
import net from 'node:net';
import { runMain, spawnMain } from '../support/build.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSandboxPos } from '../../src/sandbox/pos/server.js';
import { startSandboxEventProvider } from '../../src/sandbox/event-provider/server.js';
import { signBody } from '../../src/common/signatures.js';
import { testSecrets } from '../support/sandbox.js';
import { startBrokenPos } from '../support/broken-pos.js';
import { startCarelessEvents, type Mistake } from '../support/careless-events.js';
import { migratedDatabase } from '../support/service.js';

const POS_CHECKS = [
  'authorize.redirects_with_code',
  'authorize.refuses_unknown_client',
  'token.authorization_code',
  'token.code_single_use',
  'token.refresh',
  'bearer.required',
  'locations.shape',
  'catalog.shape',
  'catalog.default_us',
  'catalog.de_rule',
  'orders.accepts_order_created',
  'orders.idempotent',
  'notices.connect',
  'notices.disconnect',
  'notifications.publish_success',
  'notifications.publish_failure',
];

type Report = {
  kind: string;
  base_url: string;
  passed: number;
  failed: number;
  checks: { id: string; ok: boolean; detail: string }[];
  skipped: { id: string; detail: string }[];
};

const EVENT_PROVIDER_CHECKS = [
  'events.signature_required',
  'events.order_confirmed',
  'events.idempotent',
  'events.order_updated',
  'webhook.assign_driver',
  'webhook.delivery_status',
];

/** The kit as a vendor runs it, with no data of ours (an empty DATA_DIR) unless `env` says
 * otherwise; `onLine` sees its output as it comes. */
function kit(
  args: string[],
  onLine: (line: string) => void = () => {},
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'certify-'));
  const child = spawnMain(['certify', ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
    for (const line of chunk.toString().split('\n')) if (line) onLine(line);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
    for (const line of chunk.toString().split('\n')) if (line) onLine(line);
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

test('the sandbox POS passes every POS check; the JSON report and the JUnit file say so', async () => {
  const secrets = testSecrets();
  const pos = await startSandboxPos(secrets);
  const junit = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'junit-')), 'pos.xml');
  try {
    const run = await kit([
      'pos',
      '--base-url',
      pos.url,
      '--client-id',
      secrets.clientId,
      '--client-secret',
      secrets.clientSecret,
      '--json',
      '--junit',
      junit,
    ]);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.checks.map((c) => c.id)).toEqual(POS_CHECKS);
    expect(report).toMatchObject({ kind: 'pos', base_url: pos.url, passed: POS_CHECKS.length, failed: 0 });
    expect(run.code).toBe(0);
    const xml = fs.readFileSync(junit, 'utf8');
    // Every check is in it: the webhook's, not run without --wait-webhook, as skipped.
    expect(xml.match(/<testcase /g)).toHaveLength(POS_CHECKS.length + 1);
    expect(xml).not.toContain('<failure');
    expect(xml).toMatch(/<testcase classname="certify.pos" name="webhook.signature"><skipped message="not run: give --wait-webhook/);
    expect(report.skipped.map((c) => c.id)).toEqual(['webhook.signature']);
  } finally {
    await pos.close();
  }
}, 60_000);

test('a POS that breaks the rules fails exactly those checks, each saying what was sent, what came back and the rule', async () => {
  const broken = await startBrokenPos();
  const junit = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'junit-')), 'broken.xml');
  try {
    const run = await kit(['pos', '--base-url', broken.url, '--client-id', 'c', '--client-secret', 's', '--json', '--junit', junit]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as Report;
    const failed = Object.fromEntries(report.checks.filter((c) => !c.ok).map((c) => [c.id, c.detail]));
    expect(Object.keys(failed).sort()).toEqual(
      [
        'authorize.redirects_with_code',
        'authorize.refuses_unknown_client',
        'token.code_single_use',
        'bearer.required',
        'locations.shape',
        'catalog.shape',
        'catalog.de_rule',
        'orders.idempotent',
        'notices.connect',
        'notices.disconnect',
        'notifications.publish_success',
        'notifications.publish_failure',
        'token.authorization_code',
      ].sort(),
    );
    expect(failed['token.authorization_code']).toContain('missing or mistyped: id (string)');
    expect(failed['catalog.shape']).toContain('tax_rate (number, got undefined)');
    expect(failed['catalog.shape']).toContain('menu[0 (m-main)]: schedule names "funday", which is not a weekday');
    expect(failed['catalog.shape']).toContain('menu[0 (m-main)]: schedule.monday[0] "11:00" is not a range');
    // A price in dollars: what to send instead is said.
    expect(failed['catalog.shape']).toContain(
      "item item_taco: price must be a whole number of the currency's smallest unit, from 0 to 100000000000, not 3.5; send 350 for 3.5 usd",
    );
    expect(failed['bearer.required']).toMatch(/locations → 200.*Rule: .*401/);
    expect(failed['notices.connect']).toMatch(/POST .*\/v1\/locations\/connect \{location_id\} → 404/);
    expect(fs.readFileSync(junit, 'utf8').match(/<failure /g)).toHaveLength(Object.keys(failed).length);
  } finally {
    await broken.close();
  }
}, 60_000);

test('the sandbox event provider passes every event-provider check, its webhooks counted at the paths it posts to under the printed URL', async () => {
  const secret = testSecrets().webhookSecret;
  // Started with no service: its webhooks go where the kit's line says, once it is told.
  const events = await startSandboxEventProvider({ secret, stepMs: 50 });
  const junit = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'junit-')), 'events.xml');
  try {
    let printed: string | undefined;
    const run = await kit(
      ['event-provider', '--base-url', events.url, '--webhook-secret', secret, '--wait-webhook', '30', '--junit', junit],
      (line) => {
        // The kit prints where to send the webhooks, never the secret: the provider signs with its own.
        const asked = /Point your webhooks at (\S+) /.exec(line);
        if (!asked) return;
        printed = asked[1]!;
        events.pointAt({ url: printed, provider: 'sandbox-events' });
      },
    );
    expect(printed).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(run.stdout).not.toContain(secret);
    const lines = run.stdout.split('\n').filter((l) => /^(PASS|FAIL|SKIP) /.test(l));
    expect(lines.map((l) => l.split(/\s+/).slice(0, 2).join(' '))).toEqual(EVENT_PROVIDER_CHECKS.map((id) => `PASS ${id}`));
    // The sandbox posted where a service would have it: under the printed URL, not at a path of the kit's own.
    expect(lines.find((l) => l.includes('webhook.assign_driver'))).toContain('POST /v1/webhooks/event-providers/sandbox-events');
    expect(run.stdout).toMatch(/events\.idempotent .*1 order\.assign\.driver for order ord_certify_/);
    expect(run.code).toBe(0);
    const xml = fs.readFileSync(junit, 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(EVENT_PROVIDER_CHECKS.length);
    expect(xml).not.toMatch(/<failure|<skipped/);
  } finally {
    await events.close();
  }
}, 60_000);

test('an event provider that assigns a second driver on a repeated order.confirmed fails events.idempotent; its 200 {object} answers pass', async () => {
  const secret = testSecrets().webhookSecret;
  const careless = await startCarelessEvents(secret);
  try {
    const run = await kit(
      ['event-provider', '--base-url', careless.url, '--webhook-secret', secret, '--wait-webhook', '30', '--json'],
      (line) => {
        const asked = /Point your webhooks at (\S+) /.exec(line);
        if (asked) careless.pointAt(asked[1]!);
      },
    );
    const report = JSON.parse(run.stdout) as Report;
    expect(report.checks.map((c) => c.id)).toEqual(EVENT_PROVIDER_CHECKS);
    expect(report.checks.filter((c) => !c.ok).map((c) => c.id)).toEqual(['events.idempotent']);
    expect(report.checks.find((c) => c.id === 'events.idempotent')!.detail).toMatch(
      /→ 200 then 200; 2 order\.assign\.driver for order ord_certify_\w+ arrived\. Rule: a repeat is answered 2xx and assigns no second driver/,
    );
    expect(report.checks.find((c) => c.id === 'events.order_confirmed')!.detail).toContain('(SPEC: 201 with a JSON string)');
    expect(run.code).toBe(1);
  } finally {
    await careless.close();
  }
}, 60_000);

test('without --wait-webhook the webhook checks are reported skipped, in the JSON and the JUnit file', async () => {
  const secret = testSecrets().webhookSecret;
  const events = await startSandboxEventProvider({ secret });
  const junit = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'junit-')), 'events.xml');
  try {
    const run = await kit(['event-provider', '--base-url', events.url, '--webhook-secret', secret, '--json', '--junit', junit]);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.checks.map((c) => [c.id, c.ok])).toEqual(
      ['events.signature_required', 'events.order_confirmed', 'events.order_updated'].map((id) => [id, true]),
    );
    // Drivers are not watched: whether the repeat brings a second one is not known, and not passed.
    expect(report.skipped.map((c) => c.id)).toEqual(['events.idempotent', 'webhook.assign_driver', 'webhook.delivery_status']);
    expect(report.skipped[0]!.detail).toMatch(
      /→ 201 then 201; drivers not watched, so a second one cannot be ruled out: not run: give --wait-webhook/,
    );
    expect(run.code).toBe(0);
    const xml = fs.readFileSync(junit, 'utf8');
    expect(xml).toContain('tests="6" failures="0" skipped="3"');
    expect(xml.match(/<skipped message=/g)).toHaveLength(3);
  } finally {
    await events.close();
  }
}, 60_000);

test('--source says first that it sends the registered provider a test order, and prints no secret', async () => {
  const database = await migratedDatabase();
  const secret = `whs-${testSecrets().webhookSecret}`;
  const events = await startSandboxEventProvider({ secret });
  const env = { DATA_DIR: database.dataDir, DATABASE_URL: database.url };
  try {
    await runMain(
      ['providers', 'add', '--source', 'fleet', '--kind', 'event_provider', '--base-url', events.url, '--webhook-secret', secret],
      {
        env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
      },
    );
    const output: string[] = [];
    const run = await kit(['event-provider', '--source', 'fleet'], (line) => output.push(line), env);
    expect(output[0]).toBe(
      `certify --source fleet: the kit calls ${events.url} as the service would, with a test order (its ids begin ord_certify_, its location is loc_certify); a live event provider may act on it.`,
    );
    expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
    expect(run.code).toBe(0);
    expect(events.received.some((r) => (r.body as { reference_id?: string }).reference_id?.startsWith('ord_certify_'))).toBe(true);
  } finally {
    await events.close();
    await database.drop();
  }
}, 90_000);

test('a webhook signed with another secret fails webhook.signature', async () => {
  const secrets = testSecrets();
  const pos = await startSandboxPos(secrets);
  try {
    const run = await kit(
      [
        'pos',
        '--base-url',
        pos.url,
        '--client-id',
        secrets.clientId,
        '--client-secret',
        secrets.clientSecret,
        '--webhook-secret',
        secrets.webhookSecret,
        '--wait-webhook',
        '30',
        '--json',
      ],
      (line) => {
        const asked = /Send a signed location\.catalog\.updated to (\S+?),/.exec(line);
        if (!asked) return;
        const body = JSON.stringify({ type: 'location.catalog.updated', object: { location_id: 'loc_1' } });
        void fetch(asked[1]!, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'service-webhook-signature': signBody(body, 'another secret') },
          body,
        });
      },
    );
    const report = JSON.parse(run.stdout) as Report;
    // Said as a mismatch, with what was expected, and no secret.
    const detail = report.checks.find((c) => c.id === 'webhook.signature')!.detail;
    expect(detail).toContain(
      'its Service-Webhook-Signature does not match the body: expected HMAC-SHA256 of the exact 68 bytes of the body with the webhook secret the kit was given (not printed)',
    );
    expect(detail).toContain(
      '{"type":"location.catalog.updated","object":{"location_id":"loc_1"}}. Rule: a location.catalog.updated webhook',
    );
    expect(detail).not.toContain(secrets.webhookSecret);
    expect(run.code).toBe(1);
  } finally {
    await pos.close();
  }
}, 60_000);

/** A port nobody listens on now. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

test('--listen-port: a provider told the kit’s URL before the kit runs; its webhooks are answered as the service answers them, and what the service refuses fails', async () => {
  const secret = testSecrets().webhookSecret;
  const run = async (mistake: Mistake) => {
    const careless = await startCarelessEvents(secret, mistake);
    const port = await freePort();
    // Its service URL is known before the kit starts, as a provider reading it once at its start has it.
    careless.pointAt(`http://127.0.0.1:${port}`);
    try {
      const kitRun = await kit([
        'event-provider',
        '--base-url',
        careless.url,
        '--webhook-secret',
        secret,
        '--wait-webhook',
        '20',
        '--listen-port',
        String(port),
        '--json',
      ]);
      const report = JSON.parse(kitRun.stdout) as Report;
      const failed = Object.fromEntries(report.checks.filter((c) => !c.ok).map((c) => [c.id, c.detail]));
      const answer = (type: string) => careless.answers.find((a) => a.type === type);
      return { code: kitRun.code, failed, answer, stderr: kitRun.stderr };
    } finally {
      await careless.close();
    }
  };
  const [elsewhere, unknown, forged] = await Promise.all([run('wrong-location'), run('unknown-status'), run('wrong-secret')]);

  // Another location: the service's 404, with its error body; the driver, right, is taken.
  expect(Object.keys(elsewhere.failed)).toEqual(['webhook.delivery_status']);
  expect(elsewhere.answer('order.delivery_status.updated')).toEqual({
    type: 'order.delivery_status.updated',
    status: 404,
    body: {
      statusCode: 404,
      error: 'Not Found',
      code: 'not_found',
      message: expect.stringMatching(/^no order ord_certify_\w+ of location loc_other was confirmed to certify$/),
    },
  });
  expect(elsewhere.answer('order.assign.driver')).toMatchObject({
    status: 200,
    body: { order_id: expect.stringMatching(/^ord_certify_/), status: expect.any(String), delivery_status: expect.any(String) },
  });
  expect(elsewhere.failed['webhook.delivery_status']).toMatch(
    /refused: POST \/webhooks\/order\.delivery_status\.updated, .*→ the kit answered as the service would: 404 not_found: no order/,
  );
  expect(elsewhere.code).toBe(1);

  // A status that is none: the service's 400.
  expect(Object.keys(unknown.failed)).toEqual(['webhook.delivery_status']);
  expect(unknown.answer('order.delivery_status.updated')).toMatchObject({
    status: 400,
    body: { code: 'invalid_request', message: expect.stringContaining('object.delivery_status must be one of pending,') },
  });

  // Signed with another secret: 401, and the detail says it did not match, and what was expected.
  expect(Object.keys(forged.failed).sort()).toEqual(['webhook.assign_driver', 'webhook.delivery_status']);
  expect(forged.answer('order.assign.driver')).toMatchObject({ status: 401, body: { code: 'invalid_signature' } });
  expect(forged.failed['webhook.assign_driver']).toContain(
    'its Service-Webhook-Signature does not match the body: expected HMAC-SHA256 of the exact',
  );
  expect(forged.failed['webhook.assign_driver']).toContain('→ the kit answered as the service would: 401 invalid_signature');
  expect(JSON.stringify(forged)).not.toContain(secret);
}, 90_000);

test('a provider that sends no webhook: one deadline for all of them, and events.idempotent fails, no driver having come', async () => {
  const secret = testSecrets().webhookSecret;
  const silent = await startCarelessEvents(secret, 'no-webhooks');
  try {
    let asked = 0;
    const run = await kit(['event-provider', '--base-url', silent.url, '--webhook-secret', secret, '--wait-webhook', '3'], (line) => {
      if (line.startsWith('Point your webhooks at')) asked = Date.now();
    });
    const ended = Date.now();
    expect(run.stdout).toMatch(
      /FAIL {2}events\.idempotent {2}.*→ 200 then 200; 0 order\.assign\.driver for order ord_certify_\w+ arrived, so whether the repeat brings a second driver is unknown \(waited 3 s\)/,
    );
    expect(run.stdout).toMatch(
      /FAIL {2}webhook\.assign_driver {2}no order\.assign\.driver for order ord_certify_\w+ arrived \(waited 3 s\)/,
    );
    expect(run.code).toBe(1);
    // 3 s for both webhooks, not 3 s for each (6 s).
    expect(ended - asked).toBeLessThan(5000);
  } finally {
    await silent.close();
  }
}, 60_000);

test('certify’s usage says what each kind needs', async () => {
  const run = await kit(['event-provider', '--base-url', 'http://127.0.0.1:9']);
  expect(run.stderr).toContain('certify event-provider --base-url needs --webhook-secret W');
  expect(run.code).not.toBe(0);
  const help = await kit(['--help']);
  expect(help.stdout).toContain('certify event-provider (--source S | --base-url URL --webhook-secret W [--path events=/path])');
}, 60_000);
