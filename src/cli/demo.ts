// `npm run demo`: the whole onboarding against the sandbox POS, over the public API, printing
// each step. It runs its own service and sandbox in a temporary data folder, so it needs
// nothing running and leaves nothing behind.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../config.js';
import { startService } from '../app/service.js';
import { createLogger } from '../app/log.js';
import { createPartner } from '../modules/auth/service.js';
import { startSandboxPeers } from '../sandbox/register.js';
import { authorizeInBrowser } from '../sandbox/browser.js';
import { majorUnits, minorUnitDigits } from '../common/money.js';

type Step = (title: string, detail?: unknown) => void;

async function call(base: string, method: string, url: string, token: string | undefined, body?: unknown) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  const parsed = text ? (JSON.parse(text) as Record<string, any>) : {};
  if (response.status >= 400) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
  return parsed;
}

export async function runDemo(
  step: Step = (title, detail) =>
    process.stdout.write(`\n▶ ${title}\n${detail === undefined ? '' : `${JSON.stringify(detail, null, 2)}\n`}`),
): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ordering-demo-'));
  const config = loadConfig({ ...process.env, PORT: '0', DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', SANDBOX: 'on' });
  const service = await startService(config, createLogger(config));
  const peers = await startSandboxPeers(service.services);
  const base = service.url;
  try {
    step(`service at ${base}, sandbox POS at ${peers.pos.url}`);
    const partner = await createPartner(service.services.db, { name: 'Demo Partner' });
    step('1. a partner (npm run cli -- partners create) gets a token: POST /v1/oauth/token', { client_id: partner.clientId });
    const token = await call(base, 'POST', '/v1/oauth/token', undefined, {
      grant_type: 'client_credentials',
      client_id: partner.clientId,
      client_secret: partner.clientSecret,
    });
    const t = token.access_token as string;
    step('   token', { token_type: token.token_type, expires_in: token.expires_in, scopes: token.scopes });

    const org = await call(base, 'POST', '/v1/onboarding/org', t, {
      name: 'Sandbox Grill',
      provider_id: 'grill-42',
      user: { email: 'owner@sandbox-grill.example', first_name: 'Olga' },
    });
    step('2. create the merchant: POST /v1/onboarding/org', org);

    const init = await call(base, 'POST', '/v1/onboarding/integrations', t, {
      org_id: org.org_id,
      source: 'sandbox-pos',
      type: 'pos',
      return_url: 'https://partner.example/onboarding/done',
    });
    step('3. initialize a POS onboarding: POST /v1/onboarding/integrations', init.onboarding);

    const walk = await authorizeInBrowser(init.onboarding.entry_url);
    step('4. the merchant follows entry_url: our start hop → the POS consent form → our callback → return_url', {
      authorize: walk.authorizeUrl.toString().replace(/state=[^&]+/, 'state=…'),
      returned_to: walk.returned.toString(),
    });

    const done = await call(base, 'POST', `/v1/onboarding/integrations/${init.onboarding._id}/complete`, t, { code: walk.code });
    step('5. complete with the code: POST /v1/onboarding/integrations/{id}/complete', {
      status: done.status,
      integration_id: done.integration_id,
    });

    const listed = await call(base, 'GET', `/v1/onboarding/locations?onboarding_id=${done._id}`, t);
    step(
      '6. the POS locations: GET /v1/onboarding/locations',
      listed.locations.map((l: any) => ({ provider_id: l.provider_id, name: l.name, eligible: l.is_eligible_to_onboard })),
    );

    const tid = done.integration_id as string;
    const ingested = await call(base, 'POST', '/v1/onboarding/locations/ingest', t, {
      onboarding_id: done._id,
      locations: [{ provider_id: `loc_${tid}_de` }, { provider_id: `loc_2_${tid}` }],
    });
    step('7. ingest two: POST /v1/onboarding/locations/ingest', ingested.locations);
    const notices = await peers.pos.waitFor('/v1/locations/connect', 2);
    step(
      '   the POS received the connection notices',
      notices.map((n) => n.body),
    );

    const dspInit = await call(base, 'POST', '/v1/onboarding/integrations', t, {
      org_id: org.org_id,
      source: 'sandbox-dsp',
      type: 'dsp',
      return_url: 'https://partner.example/onboarding/done',
    });
    const dspWalk = await authorizeInBrowser(dspInit.onboarding.entry_url);
    const dsp = await call(base, 'POST', `/v1/onboarding/integrations/${dspInit.onboarding._id}/complete`, t, { code: dspWalk.code });
    step('8. a DSP onboarding, the same way', { _id: dsp._id, type: dsp.type, status: dsp.status });

    const stores = await call(base, 'GET', `/v1/onboarding/locations?onboarding_id=${dsp._id}`, t);
    step(
      "9. the merchant's DSP stores: GET /v1/onboarding/locations?onboarding_id= (the DSP onboarding)",
      stores.locations.map((s: any) => ({ provider_id: s.provider_id, name: s.name })),
    );
    const store = stores.locations[0];
    const bound = await call(base, 'POST', '/v1/onboarding/locations/bind', t, {
      onboarding_id: dsp._id,
      locations: [{ pos_location_id: ingested.locations[0]._id, dsp_provider_id: store.provider_id, dsp_store_name: store.name }],
    });
    step('   bind one to the Berlin location: POST /v1/onboarding/locations/bind', bound.locations);

    const orgLocations = await call(base, 'GET', `/v1/onboarding/org/${org.org_id}/locations`, t);
    step(
      '10. the organization locations: GET /v1/onboarding/org/{id}/locations',
      orgLocations.locations.map((l: any) => ({ _id: l._id, name: l.name, status: l.status, dsps: l.dsps })),
    );

    const assigned = await call(base, 'PUT', '/v1/onboarding/menus', t, {
      org_id: org.org_id,
      dsp_location_id: bound.locations[0]._id,
      menu_provider_ids: ['menu_de_hauptkarte'],
    });
    step('11. assign menus: PUT /v1/onboarding/menus', assigned);

    const signed = await fetch(`${peers.pos.url}/v1/_sandbox/catalog-updated`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ location_id: `loc_${tid}_de` }),
    });
    step('    the POS signs location.catalog.updated and sends it to POST /v1/webhooks/pos/sandbox-pos', await signed.json());
    const [published] = await peers.pos.waitFor('/v1/menus', 1);
    const [notified] = await peers.pos.waitFor('/v1/notifications', 1);
    step('    the DSP store received exactly its assigned menus, and the POS was told', {
      dsp_received: (published!.body as { menu_provider_ids: string[] }).menu_provider_ids,
      pos_notified: (notified!.body as { type: string }).type,
    });
    const cleared = await call(base, 'PUT', '/v1/onboarding/menus', t, {
      org_id: org.org_id,
      dsp_location_id: bound.locations[0]._id,
      menu_provider_ids: [],
    });
    step('    and clear them (all menus again)', cleared);

    await call(base, 'DELETE', `/v1/onboarding/org/${org.org_id}/locations/${ingested.locations[1]._id}`, t);
    const disconnect = await peers.pos.waitFor('/v1/locations/disconnect', 1);
    step(
      '12. delete a location: DELETE /v1/onboarding/org/{id}/locations/{location_id}; the POS got',
      disconnect.map((n) => n.body),
    );

    const sso = await call(base, 'POST', `/v1/sso/sessions?partner_id=${partner.partnerId}`, t, {
      email: 'manager@sandbox-grill.example',
      full_name: 'Max Manager',
      phone_number: '+49 30 5550100',
      role: 'manager',
      provider_org_id: 'grill-42',
    });
    const login = await fetch(`${base}/v1/sso/login?token=${sso.sso_login_token}`, { redirect: 'manual' });
    const again = await fetch(`${base}/v1/sso/login?token=${sso.sso_login_token}`, { redirect: 'manual' });
    step('13. SSO: POST /v1/sso/sessions, then GET /v1/sso/login?token=… (once)', { first_use: login.status, second_use: again.status });

    const placed = (await (
      await fetch(`${peers.pos.url}/v1/_sandbox/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ dsp_store_id: store.provider_id, order: {} }),
      })
    ).json()) as { dsp_order_id: string; status: number; body: { order_id: string } };
    step('14. the sandbox DSP places an order: POST /v1/webhooks/dsp/sandbox-dsp (signed)', {
      dsp_order_id: placed.dsp_order_id,
      answer: placed.status,
      order_id: placed.body.order_id,
    });
    const [atPos] = await peers.pos.waitFor('/v1/orders', 1);
    const sent = (atPos!.body as any).object;
    step('    the POS received order.created (once, with an Idempotency-Key), its amounts in cents as the DSP sent them', {
      idempotency_key: atPos!.headers['idempotency-key'],
      items: sent.items.length,
      currency: sent.currency,
      total: sent.total,
      total_in_euros: majorUnits(sent.total, minorUnitDigits(sent.currency)),
    });
    const [atEvents] = await peers.events.waitFor('/v1/events', 1);
    step('    the event provider received order.confirmed, signed with X-Service-Signature', {
      type: (atEvents!.body as { type: string }).type,
      signature: atEvents!.headers['x-service-signature'],
    });
    const query = `query { order(id: "${placed.body.order_id}") { status deliveryStatus posOrderId driver { name vehicleInfo { make model color } } } }`;
    let journey: any;
    for (let i = 0; i < 100; i++) {
      journey = ((await call(base, 'POST', '/graphql', t, { query })) as { data: { order: any } }).data.order;
      if (journey.driver) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    step('    a driver is assigned (order.assign.driver webhook): GraphQL order(id)', journey);
    await fetch(`${peers.pos.url}/v1/_sandbox/order-status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ order_id: placed.body.order_id, status: 'ready_for_pickup' }),
    });
    // The rest of the road, a step at a time (the sandbox also steps on its own timer).
    const road: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      const advanced = await fetch(`${peers.events.url}/v1/_sandbox/deliveries/${placed.body.order_id}/advance`, { method: 'POST' });
      road.push(((await advanced.json()) as { body?: unknown }).body ?? 'over');
    }
    step('15. the POS makes it ready; the event provider reports the road (order.delivery_status.updated) to delivered', road);
    const late = await fetch(`${peers.pos.url}/v1/_sandbox/order-status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ order_id: placed.body.order_id, status: 'ready_for_pickup' }),
    });
    step('16. the order is completed; a later change is refused', (await late.json()) as unknown);
    step('done');
  } finally {
    await peers.close();
    await service.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
