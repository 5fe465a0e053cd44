// The conformance kit (`cli certify`), run as a vendor runs it: against the sandbox POS and event
// provider it passes every check; against a POS that gets the interface wrong it fails exactly
// the rules broken, says why in each detail, writes JUnit XML and exits 1; with --wait-webhook it
// prints where to send a webhook and checks the signature of what arrives.
import { spawnMain } from './support/build.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSandboxPos } from '../src/sandbox/pos/server.js';
import { startSandboxEventProvider } from '../src/sandbox/event-provider/server.js';
import { signBody } from '../src/common/signatures.js';
import { testSecrets } from './support/sandbox.js';
import { startBrokenPos } from './support/broken-pos.js';

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

type Report = { kind: string; base_url: string; passed: number; failed: number; checks: { id: string; ok: boolean; detail: string }[] };

/** The kit as a vendor runs it, with no data of ours (an empty DATA_DIR); `onLine` sees its output as it comes. */
function kit(args: string[], onLine: (line: string) => void = () => {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'certify-'));
  const child = spawnMain(['certify', ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
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
    expect(xml.match(/<testcase /g)).toHaveLength(POS_CHECKS.length);
    expect(xml).not.toContain('<failure');
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

test('the sandbox event provider passes every event-provider check, and --wait-webhook checks the signed driver assignment', async () => {
  const secret = testSecrets().webhookSecret;
  const events = await startSandboxEventProvider({ secret });
  try {
    let sent: Promise<Response> | undefined;
    const run = await kit(['event-provider', '--base-url', events.url, '--webhook-secret', secret, '--wait-webhook', '30'], (line) => {
      // The kit prints where to send the webhook, never the secret: the provider signs with its own.
      const asked = /Send a signed order\.assign\.driver to (\S+?),/.exec(line);
      if (!asked) return;
      const body = JSON.stringify({
        type: 'order.assign.driver',
        object: { location_id: 'loc_1', order_id: 'ord_1', driver: { name: 'Sam' } },
      });
      sent = fetch(asked[1]!, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'service-webhook-signature': signBody(body, secret) },
        body,
      });
    });
    expect(sent).toBeDefined();
    expect((await sent!).status).toBe(204);
    expect(run.stdout).not.toContain(secret);
    const lines = run.stdout.split('\n').filter((l) => /^(PASS|FAIL) /.test(l));
    expect(lines.map((l) => l.split(/\s+/)[1])).toEqual([
      'events.signature_required',
      'events.order_confirmed',
      'events.idempotent',
      'webhook.assign_driver',
    ]);
    expect(lines.filter((l) => l.startsWith('FAIL'))).toEqual([]);
    expect(run.code).toBe(0);
  } finally {
    await events.close();
  }
}, 60_000);

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
    expect(report.checks.find((c) => c.id === 'webhook.signature')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('Service-Webhook-Signature present'),
    });
    expect(run.code).toBe(1);
  } finally {
    await pos.close();
  }
}, 60_000);
