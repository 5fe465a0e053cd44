// `cli certify dsp`, run as a delivery platform runs it: the sandbox DSP and a platform written from
// docs/dsp-channels.md alone (../support/foreign-dsp.ts) pass every check, the platform's own
// order included (sent to the kit's printed URL, read and answered as the service would); one
// that answers 500 to location.order.accept fails that one check, and one whose order's total
// leaves out the tip fails the order's check, naming the sums. JUnit as for the others.
import fs from 'node:fs';
import { dspClientIdOf, startSandboxPos } from '../../src/sandbox/pos/server.js';
import { testSecrets } from '../support/sandbox.js';
import { startForeignDsp, type ForeignDsp } from '../support/foreign-dsp.js';
import { failedChecks, junitFile, kit, type Report } from '../support/certify.js';
import { freePort } from '../support/orders.js';

const DSP_CHECKS = [
  'authorize.redirects_with_code',
  'authorize.refuses_unknown_client',
  'token.authorization_code',
  'token.code_single_use',
  'token.refresh',
  'locations.shape',
  'menus.publish',
  'events.order.accept',
  'events.order.notify_status_change',
  'events.order.cancel',
  'events.order.fail',
  'events.pause',
  'events.resume',
  'events.items.snooze',
  'events.items.unsnooze',
  'webhook.order_created',
];

/**
 * The kit against a platform, with `flags`; once it says where, the platform's order is sent:
 * `order(base URL, the stores the kit said it listed)`.
 */
async function dspRun(flags: string[], order?: (url: string, stores: string[]) => void) {
  let stores: string[] = [];
  const lines: string[] = [];
  const run = await kit(['dsp', ...flags, '--json'], (line) => {
    lines.push(line);
    const listed = /^It listed \d+ store\(s\): (.+); the kit tests with /.exec(line);
    if (listed) stores = listed[1]!.split(', ');
    const asked = /^Send a signed order\.created for one of your stores to (http:\/\/[^/]+)\//.exec(line);
    if (asked) order?.(asked[1]!, stores);
  });
  const report = JSON.parse(run.stdout) as Report;
  return { run, report, failed: failedChecks(report), lines };
}

test('the sandbox DSP passes every DSP check, its own order included; the JSON report and the JUnit file say so', async () => {
  const secrets = testSecrets();
  // Its webhooks go where it was told at its start: the kit's port, fixed beforehand.
  const port = await freePort();
  const dsp = await startSandboxPos({ ...secrets, service: { url: `http://127.0.0.1:${port}`, source: 'unused' } });
  const junit = junitFile('dsp.xml');
  try {
    const { run, report, failed } = await dspRun(
      [
        '--base-url',
        dsp.url,
        '--client-id',
        dspClientIdOf(secrets.clientId),
        '--client-secret',
        secrets.clientSecret,
        '--webhook-secret',
        secrets.webhookSecret,
        '--wait-webhook',
        '30',
        '--listen-port',
        String(port),
        '--junit',
        junit,
        '--strict',
      ],
      // Its Austin store's order: dollars, the tax on top.
      (_url, stores) =>
        void fetch(`${dsp.url}/v1/_sandbox/orders`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ dsp_store_id: stores.find((s) => s.endsWith('_austin')), order: { fulfillment_type: 'pickup' } }),
        }),
    );
    expect(failed).toEqual({});
    expect(report.checks.map((c) => c.id)).toEqual(DSP_CHECKS);
    expect(report).toMatchObject({ kind: 'dsp', base_url: dsp.url, failed: 0, skipped: [] });
    expect(report.checks.at(-1)!.detail).toMatch(
      /^POST \/v1\/webhooks\/dsp\/sandbox-dsp, signed with Service-Webhook-Signature, which matches: .* → the kit answered as the service would: 201 \{"order_id":"ord_certify_\w+","status":"in_progress"\}/,
    );
    expect(run.code).toBe(0);
    const xml = fs.readFileSync(junit, 'utf8');
    expect(xml.match(/<testcase classname="certify.dsp" /g)).toHaveLength(DSP_CHECKS.length);
    expect(xml).not.toMatch(/<failure|<skipped/);
  } finally {
    await dsp.close();
  }
}, 90_000);

describe('a platform written from docs/dsp-channels.md alone', () => {
  let platform: ForeignDsp;
  beforeEach(async () => {
    platform = await startForeignDsp();
  });
  afterEach(() => platform.close());
  const flags = (more: string[] = []) => [
    '--base-url',
    platform.url,
    '--client-id',
    platform.clientId,
    '--client-secret',
    platform.clientSecret,
    '--webhook-secret',
    platform.webhookSecret,
    ...more,
  ];
  /** Its order, from the menus its store took, sent signed the Standard Webhooks way. */
  const itsOrder =
    (more: Record<string, unknown> = {}) =>
    (url: string, stores: string[]) =>
      void platform.send(url, 'your-dsp', 'order.created', platform.orderFor(stores[0]!, more));

  test('passes every check: its menus and events taken once each, its order read as the service reads it', async () => {
    const { run, report, failed, lines } = await dspRun(flags(['--wait-webhook', '30', '--strict']), itsOrder());
    expect(failed).toEqual({});
    expect(report.checks.map((c) => c.id)).toEqual(DSP_CHECKS);
    expect(run.code).toBe(0);
    const [atx, ber] = platform.storeIds;
    expect(lines).toContain(`It listed 2 store(s): ${atx}, ${ber}; the kit tests with ${atx} (the first; --location chooses another).`);
    // The kit's menus reached its store, signed; each event once, though each came twice.
    expect(platform.menus.get(atx!)).toMatchObject({
      store_id: atx,
      timezone: 'America/Chicago',
      menu_provider_ids: ['menu_certify_all_day', 'menu_certify_lunch'],
    });
    expect(platform.events.map((e) => e.type)).toEqual([
      'location.order.accept',
      'location.order.notify_status_change',
      'location.order.cancel',
      'location.order.fail',
      'location.pause',
      'location.resume',
      'location.items.snooze',
      'location.items.unsnooze',
    ]);
    expect(platform.received.filter((r) => r.path === '/v1/events')).toHaveLength(16);
    expect(platform.events[0]!).toMatchObject({ store_id: atx, data: { sequence: 1, pos_order_id: 'pos_certify', currency: 'usd' } });
    expect(platform.events[0]!.key).toMatch(/^dsp-event:ord_certify_\w+:1$/);
    expect(report.checks.at(-1)!.detail).toMatch(
      /signed with the Standard Webhooks headers, which match: \{"type":"order\.created".* → the kit answered as the service would: 201 \{"order_id":"ord_certify_\w+","status":"in_progress"\}/,
    );
  }, 90_000);

  test('one that answers 500 to location.order.accept fails that one check, saying what came back', async () => {
    platform.answerEvents('location.order.accept', 500);
    const { run, report, failed } = await dspRun(flags());
    expect(Object.keys(failed)).toEqual(['events.order.accept']);
    expect(failed['events.order.accept']).toMatch(
      /^POST .*\/v1\/events \{type: location\.order\.accept, store_id: shop-\w+-atx, data: \{order_id ord_certify_\w+, dsp_order_id dsp_ord_certify_\w+, sequence 1, …\}\}, signed, with the merchant's token → 500 \{"error":"told_to","message":"this platform answers location\.order\.accept 500 now"\}; the same again under Idempotency-Key dsp-event:ord_certify_\w+:1 → 500 .*Rule: every event is answered 2xx/,
    );
    // Without --wait-webhook its order is not asked for: skipped, not failed.
    expect(report.skipped.map((c) => c.id)).toEqual(['webhook.order_created']);
    expect(run.code).toBe(1);
  }, 90_000);

  test('one whose order’s total leaves out the tip fails the order’s check, naming the sums', async () => {
    const { run, failed } = await dspRun(flags(['--wait-webhook', '30']), (url, stores) =>
      itsOrder({ total: (platform.orderFor(stores[0]!).total as number) - 300 })(url, stores),
    );
    expect(Object.keys(failed)).toEqual(['webhook.order_created']);
    expect(failed['webhook.order_created']).toMatch(
      /→ the kit answered as the service would: 201 \{"order_id":"ord_certify_\w+","status":"failed","failure_reason":"invalid_cart","failure_details":"total is \d+, but subtotal \+ tax \+ tax_withheld_by_dsp \+ delivery_fee \+ delivery_fee_tax \+ restaurant_tip \+ driver_tip − discounts come to \d+"\}/,
    );
    expect(run.code).toBe(1);
  }, 90_000);
});
