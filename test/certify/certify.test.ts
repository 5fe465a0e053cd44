// The conformance kit (`cli certify`), run as a vendor runs it: against the sandbox POS and event
// provider it passes every check; a POS written from docs/pos-vendors.md alone (three locations,
// refusing those it did not list and items not on its catalog, answering "later" and refusing with
// a posValidation naming what it ran out of) passes every check, each broken
// variant of it failing the one check it breaks with a detail naming what to fix; against a POS
// that gets the interface wrong, or an event provider that assigns a second driver on a repeat,
// names another location, an unknown step, signs with another secret or sends nothing, it fails
// exactly the rules broken, says why in each detail, writes JUnit XML (checks not run marked
// skipped; --strict fails them) and exits 1; with --wait-webhook it prints where to send webhooks
// (on a port fixed beforehand with --listen-port), counts them at any path under that URL and
// answers them as the service would, within one deadline; with --source it says first what it
// will send, and never prints a secret.
import { runMain } from '../support/build.js';
import fs from 'node:fs';
import { startSandboxPos } from '../../src/sandbox/pos/server.js';
import { startSandboxEventProvider } from '../../src/sandbox/event-provider/server.js';
import { signBody } from '../../src/common/signatures.js';
import { testSecrets } from '../support/sandbox.js';
import { startBrokenPos } from '../support/broken-pos.js';
import { startForeignPos, type ForeignPos, type PosMistake } from '../support/foreign-pos.js';
import { startCarelessEvents, type Mistake } from '../support/careless-events.js';
import { migratedDatabase } from '../support/service.js';
import { failedChecks, junitFile, kit, type Report } from '../support/certify.js';
import { freePort } from '../support/orders.js';

const POS_CHECKS = [
  'authorize.redirects_with_code',
  'authorize.refuses_unknown_client',
  'token.authorization_code',
  'token.code_single_use',
  'token.refresh',
  'bearer.required',
  'locations.shape',
  'catalog.shape',
  'catalog.unknown_location',
  'catalog.de_rule',
  'orders.accepts_order_created',
  'orders.idempotent',
  'orders.async_acceptance',
  'orders.pos_validation_shape',
  'notices.connect',
  'notices.disconnect',
  'notifications.publish_success',
  'notifications.publish_failure',
];

/** The kitchen's checks, run only for a POS that answers later or refuses with a posValidation. */
const KITCHEN_CHECKS = ['orders.async_acceptance', 'orders.pos_validation_shape'];
/** The checks run against a POS that answers at once and refuses nothing. */
const AT_ONCE_CHECKS = POS_CHECKS.filter((id) => !KITCHEN_CHECKS.includes(id));

const EVENT_PROVIDER_CHECKS = [
  'events.signature_required',
  'events.order_confirmed',
  'events.idempotent',
  'events.order_updated',
  'webhook.assign_driver',
  'webhook.delivery_status',
];

test('the sandbox POS passes every POS check; the JSON report and the JUnit file say so', async () => {
  const secrets = testSecrets();
  const pos = await startSandboxPos(secrets);
  const junit = junitFile('pos.xml');
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
    expect(report.checks.map((c) => c.id)).toEqual(AT_ONCE_CHECKS);
    expect(report).toMatchObject({ kind: 'pos', base_url: pos.url, passed: AT_ONCE_CHECKS.length, failed: 0 });
    expect(run.code).toBe(0);
    const xml = fs.readFileSync(junit, 'utf8');
    // Every check is in it: the webhook's, not run without --wait-webhook, and the kitchen's, the
    // sandbox answering at once, as skipped.
    expect(xml.match(/<testcase /g)).toHaveLength(POS_CHECKS.length + 1);
    expect(xml).not.toContain('<failure');
    expect(xml).toMatch(/<testcase classname="certify.pos" name="webhook.signature"><skipped message="not run: give --wait-webhook/);
    expect(report.skipped.map((c) => c.id)).toEqual([...KITCHEN_CHECKS, 'webhook.signature']);
    expect(report.skipped[0]!.detail).toMatch(
      /^your POS answered the test order ord_certify_\w+ at once \(its 2xx has no order\.async_acceptance: true\): a decision later is not checked$/,
    );
    expect(report.skipped[1]!.detail).toMatch(/^your POS refused nothing with a posValidation in this run \(it took the test order\)/);
  } finally {
    await pos.close();
  }
}, 60_000);

test('a POS that breaks the rules fails exactly those checks, each saying what was sent, what came back and the rule', async () => {
  const broken = await startBrokenPos();
  const junit = junitFile('broken.xml');
  try {
    const run = await kit(['pos', '--base-url', broken.url, '--client-id', 'c', '--client-secret', 's', '--json', '--junit', junit]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as Report;
    const failed = failedChecks(report);
    expect(Object.keys(failed).sort()).toEqual(
      [
        'authorize.redirects_with_code',
        'authorize.refuses_unknown_client',
        'token.code_single_use',
        'bearer.required',
        'locations.shape',
        'catalog.shape',
        'catalog.unknown_location',
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
    expect(failed['bearer.required']).toMatch(/locations → 200 \{"locations":\[.*Rule: .*401/);
    // The location keyed `id` is left out, as the service leaves it out; the kit tests with the other.
    expect(failed['locations.shape']).toContain('{"id":"loc_popup","name":"Pop-up"}');
    expect(failed['notices.connect']).toMatch(/POST .*\/v1\/locations\/connect \{location_id: loc_1\} → 404 \{"message":"not here"\}/);
    expect(failed['catalog.unknown_location']).toMatch(
      /^GET .*\/v1\/catalog with X-Provider-Location-Id certify-unlisted-\w+ \(a location your POS did not list\) → 200 \{"default_language":"en-US".*Rule: a location you did not list in GET \/v1\/locations is answered 4xx \(404\), never with a catalog$/,
    );
    // Its catalog is not German: the German rule is not run, and said so; nor the kitchen's, its
    // order answered at once.
    expect(report.skipped.map((c) => c.id)).toEqual(['catalog.de_rule', ...KITCHEN_CHECKS, 'webhook.signature']);
    expect(fs.readFileSync(junit, 'utf8').match(/<failure /g)).toHaveLength(Object.keys(failed).length);
  } finally {
    await broken.close();
  }
}, 60_000);

/** The kit against a POS written from docs/pos-vendors.md alone, with its webhook secret, waiting
 * for its webhook: sent (the Standard Webhooks way) for its Tokyo location once the kit prints
 * where; an order it answered later is decided once the kit prints where to send the decision, as
 * a person at the POS would (unless `decides` is false). `setup` readies the POS, `more` gives more arguments. */
async function foreignRun(
  mistake?: PosMistake,
  {
    setup = () => {},
    more = () => [],
    wait = '30',
    decides = true,
  }: { setup?: (foreign: ForeignPos) => void; more?: (foreign: ForeignPos) => string[]; wait?: string; decides?: boolean } = {},
) {
  const foreign = await startForeignPos(mistake);
  setup(foreign);
  try {
    const lines: string[] = [];
    const decisions: Promise<unknown>[] = [];
    const run = await kit(
      [
        'pos',
        '--base-url',
        foreign.url,
        '--client-id',
        foreign.clientId,
        '--client-secret',
        foreign.clientSecret,
        '--webhook-secret',
        foreign.webhookSecret,
        '--wait-webhook',
        wait,
        '--json',
        ...more(foreign),
      ],
      (line) => {
        lines.push(line);
        const asked = /^Send a signed location\.catalog\.updated to (http:\/\/[^/]+)\//.exec(line);
        if (asked) void foreign.catalogUpdated(asked[1]!, 'certify', { locationId: foreign.locationIds[2], scheme: 'standard' });
        const later = /^Your POS answered the test order (ord_certify_\w+) with async_acceptance: true: send .* to (http:\/\/[^/]+)\//.exec(
          line,
        );
        if (later && decides) decisions.push(foreign.decide(later[2]!, 'certify', later[1]!));
      },
    );
    await Promise.all(decisions);
    const report = JSON.parse(run.stdout) as Report;
    const orders = foreign.received.filter((r) => r.path === '/v1/orders' && r.headers['idempotency-key'] !== 'certify-no-bearer');
    return { run, report, failed: failedChecks(report), lines, orders, foreign };
  } finally {
    await foreign.close();
  }
}

test('a POS written from docs/pos-vendors.md alone, refusing locations it did not list and items not on its catalog, deciding later and refusing with a posValidation, passes every check, --strict; --location chooses the test order’s location', async () => {
  const { run, report, lines, orders, foreign } = await foreignRun(undefined, {
    setup: (pos) => {
      pos.answerLater();
      pos.runOut(['i-shoyu']);
    },
    more: (pos) => ['--strict', '--location', pos.locationIds[2]!],
  });
  expect(report.checks.filter((c) => !c.ok)).toEqual([]);
  expect(report.checks.map((c) => c.id)).toEqual([...POS_CHECKS, 'webhook.signature']);
  expect(report.skipped).toEqual([]);
  expect(run.code).toBe(0);
  const [austin, berlin, tokyo] = foreign.locationIds;
  // The output names what it lists and the location the order goes to.
  expect(lines).toContain(`It listed 3 location(s): ${austin}, ${berlin}, ${tokyo}; the kit tests with ${tokyo} (--location).`);
  expect(lines.find((l) => l.startsWith('The test order'))).toMatch(
    new RegExp(`^The test order ord_certify_\\w+ goes to location ${tokyo}: i-shoyu at 980 jpy\\.$`),
  );
  // The order it got: of its Tokyo catalog, at its price, twice under one key.
  expect(orders).toHaveLength(2);
  const sent = orders[0]!.body as { type: string; object: Record<string, any> };
  expect(sent.object).toMatchObject({ location_id: tokyo, currency: 'jpy', subtotal: 980, total: 980 });
  expect(sent.object.id).toMatch(/^ord_certify_/);
  expect(sent.object.items).toEqual([
    { service_id: 'i-shoyu', name: '醤油ラーメン', quantity: 1, price: 980, special_instructions: '', modifiers: [] },
  ]);
  expect(orders[0]!.headers['x-provider-location-id']).toBe(tokyo);
  // Notices and notifications with the service's bodies (docs/pos-vendors.md, "Notifications").
  const posted = (path: string) => foreign.received.filter((r) => r.path === path).map((r) => r.body as Record<string, any>);
  expect(posted('/v1/locations/connect')).toEqual([{ location_id: tokyo }]);
  const [success, failure] = posted('/v1/notifications');
  const data = {
    publish_id: expect.stringMatching(/^pub_certify_/),
    location_id: tokyo,
    org_location_id: expect.any(String),
    dsp_location_id: expect.any(String),
    dsp_store_id: expect.any(String),
    dsp_source: expect.any(String),
    menu_provider_ids: ['m-menu'],
    catalog_version: 1,
  };
  expect(success).toEqual({ type: 'menu.publish_success', data, created_at: expect.any(Number) });
  expect(failure).toEqual({
    type: 'menu.publish_failure',
    data: { ...data, error: expect.stringMatching(/^the catalog is invalid: item certify_item/), problems: [expect.any(String)] },
    created_at: expect.any(Number),
  });
  // Its German catalog is Berlin's: the German rule ran there.
  expect(report.checks.find((c) => c.id === 'catalog.de_rule')!.detail).toContain(
    `X-Provider-Location-Id ${berlin} → 200, default_language "de-DE"`,
  );
  // Its decision later, signed, was answered as the service answers it; its posValidation is in shape.
  const check = (id: string) => report.checks.find((c) => c.id === id)!.detail;
  expect(check('orders.async_acceptance')).toMatch(
    /^POST \/v1\/webhooks\/pos\/certify, signed with Service-Webhook-Signature, which matches: \{"type":"order\.rejected".* → the kit answered as the service would: 200 \{"order_id":"ord_certify_\w+","status":"failed","failure_reason":"item_unavailable"\}\. Rule: /,
  );
  expect(check('orders.pos_validation_shape')).toMatch(
    /^your order\.rejected for ord_certify_\w+: posValidation \{"stockValidation":\[\{"type":"item","provider_id":"i-shoyu","quantity":0\}\]\} → in Stream's shape\. Rule: /,
  );
  // The webhook, signed the Standard Webhooks way for Tokyo, was answered as the service answers it.
  expect(report.checks.find((c) => c.id === 'webhook.signature')!.detail).toMatch(
    /signed with the Standard Webhooks headers, which match: .* → the kit answered as the service would: 202 \{"received":true,"id":"whk_certify_\w+"\}/,
  );
}, 90_000);

test.each<[PosMistake, string, RegExp]>([
  [
    'unknown-location-answered',
    'catalog.unknown_location',
    /X-Provider-Location-Id certify-unlisted-\w+ \(a location your POS did not list\) → 200 \{"default_language":"en-US".*Rule: a location you did not list in GET \/v1\/locations is answered 4xx \(404\), never with a catalog$/,
  ],
  [
    'token-without-expire-time',
    'token.authorization_code',
    /→ missing or mistyped: expire_time \(number\)\. Rule: the code buys access_token, refresh_token, expire_time \(a number: epoch ms, epoch seconds or a lifetime in seconds; without it the service cannot tell when to refresh\) and id$/,
  ],
  [
    'webhooks-signed-with-another-secret',
    'webhook.signature',
    /^POST \/v1\/webhooks\/pos\/certify, signed with the Standard Webhooks headers, which do not match: expected webhook-id, webhook-timestamp \(seconds\) and webhook-signature "v1,<base64 HMAC-SHA256 of id\.timestamp\.body>" with the webhook secret the kit was given \(not printed\).* → the kit answered as the service would: 401 invalid_signature: /,
  ],
])(
  'the POS from the docs with one mistake (%s) fails the one check it breaks, %s, saying what to fix',
  async (mistake, check, detail) => {
    const { run, report, failed } = await foreignRun(mistake);
    expect(Object.keys(failed)).toEqual([check]);
    expect(failed[check]).toMatch(detail);
    expect(report.checks).toHaveLength(AT_ONCE_CHECKS.length + 1);
    expect(run.code).toBe(1);
  },
  90_000,
);

test.each<[PosMistake, string, RegExp]>([
  [
    'decision-names-its-own-order-id',
    'orders.async_acceptance',
    /^POST \/v1\/webhooks\/pos\/certify, signed with Service-Webhook-Signature, which matches: \{"type":"order\.accepted","object":\{"order_id":"fp-order-\w+","prep_time_minutes":20\}\} → the kit answered as the service would: 404 not_found: order fp-order-\w+ not found\. Rule: .*order_id being the id of the order\.created's object \(ord_certify_\w+\)/,
  ],
  [
    'pos-validation-in-snake-case',
    'orders.pos_validation_shape',
    /^your order\.rejected for ord_certify_\w+: posValidation \{"stock_validation":\[\{"type":"item","provider_id":"i-pastor","quantity":0\}\]\} → posValidation names nothing the service reads \(it has stock_validation, which the service does not read\): give stockValidation, orderTotalsValidation or orderValidation\. Rule: posValidation is \{stockValidation: /,
  ],
])(
  'the POS from the docs deciding later with one mistake (%s) fails the one check it breaks, %s, saying what to fix',
  async (mistake, check, detail) => {
    const { run, report, failed } = await foreignRun(mistake, {
      setup: (pos) => {
        pos.answerLater();
        if (mistake === 'pos-validation-in-snake-case') pos.runOut(['i-pastor']);
      },
    });
    expect(Object.keys(failed)).toEqual([check]);
    expect(failed[check]).toMatch(detail);
    expect(failed[check]).not.toContain('undefined');
    expect(report.checks).toHaveLength(POS_CHECKS.length + 1 - (check === 'orders.async_acceptance' ? 1 : 0));
    expect(run.code).toBe(1);
  },
  90_000,
);

test('a POS that answers later and never decides fails orders.async_acceptance once --wait-webhook has passed, saying what was due', async () => {
  const { run, failed, report } = await foreignRun(undefined, { setup: (pos) => pos.answerLater(), wait: '2', decides: false });
  // Nobody decides: the line that says where is not answered.
  expect(failed['orders.async_acceptance']).toMatch(
    /^no order\.accepted or order\.rejected for order ord_certify_\w+ came within 2 s of your async_acceptance answer\. Rule: a POS that answers async_acceptance: true sends, signed as every webhook, order\.accepted/,
  );
  expect(report.skipped.map((c) => c.id)).toEqual(['orders.pos_validation_shape']);
  expect(run.code).toBe(1);
}, 60_000);

test('the sandbox event provider passes every event-provider check, its webhooks counted at the paths it posts to under the printed URL', async () => {
  const secret = testSecrets().webhookSecret;
  // Started with no service: its webhooks go where the kit's line says, once it is told.
  const events = await startSandboxEventProvider({ secret, stepMs: 50 });
  const junit = junitFile('events.xml');
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

test('without --wait-webhook the webhook checks are reported skipped, in the JSON, the JUnit file and the summary; --strict fails on them', async () => {
  const secret = testSecrets().webhookSecret;
  const events = await startSandboxEventProvider({ secret });
  const junit = junitFile('events.xml');
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
    // With --strict a check not run fails the run: the summary counts them.
    const strict = await kit(['event-provider', '--base-url', events.url, '--webhook-secret', secret, '--strict']);
    expect(strict.stdout).toMatch(/\n3 passed, 0 failed, 3 skipped \(event-provider at /);
    expect(strict.code).toBe(1);
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

test('a webhook signed with another secret is answered 401, as the service answers it, and fails webhook.signature', async () => {
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
    // What the kit answered it, as the service would: 401.
    expect(detail).toContain(
      '{"type":"location.catalog.updated","object":{"location_id":"loc_1"}} → the kit answered as the service would: 401 invalid_signature: the Service-Webhook-Signature header is missing or does not match the body. Rule: a location.catalog.updated webhook',
    );
    expect(detail).not.toContain(secrets.webhookSecret);
    expect(run.code).toBe(1);
  } finally {
    await pos.close();
  }
}, 60_000);

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
  const dsp = await kit(['dsp', '--base-url', 'http://127.0.0.1:9', '--client-id', 'c', '--client-secret', 's']);
  expect(dsp.stderr).toContain('certify dsp --base-url needs --webhook-secret W');
  const waiting = await kit(['pos', '--base-url', 'http://127.0.0.1:9', '--client-id', 'c', '--client-secret', 's', '--wait-webhook', '5']);
  expect(waiting.stderr).toContain('--wait-webhook needs --webhook-secret W');
  const help = await kit(['--help']);
  expect(help.stdout).toContain('certify event-provider (--source S | --base-url URL --webhook-secret W [--path events=/path])');
  expect(help.stdout).toContain('certify dsp (--source S | --base-url URL --client-id ID --client-secret SECRET --webhook-secret W');
}, 60_000);
