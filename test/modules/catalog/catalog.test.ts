// Signed POS webhooks, catalog sync and menu publishing, end to end against the sandbox POS
// (which also plays the DSP).
import crypto from 'node:crypto';
import { GraphQLClient } from 'graphql-request';
import { graphql } from '../../generated/gql.js';
import type { SandboxPos } from '../../../src/sandbox/pos/server.js';
import { signBody } from '../../../src/common/signatures.js';
import { startPos, testSecrets } from '../../support/sandbox.js';
import { bind, completeOnboarding, createOrg, dspStores, ingest } from '../../support/flows.js';
import { request, startTestService, type TestService } from '../../support/service.js';
import { until } from '../../support/orders.js';

let service: TestService;
let pos: SandboxPos;
const secrets = testSecrets();
let setup: {
  token: string;
  orgId: string;
  tid: string;
  de: string;
  us: string;
  assigned: string;
  unassigned: string;
  usStore: string;
  stores: Record<string, string>;
};

const sandbox = async (path: string, body: unknown) => {
  const res = await fetch(`${pos.url}/v1/_sandbox/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { status: number; body: any };
};
const menusSentTo = (store: string) =>
  pos.received
    .filter((r) => r.path === '/v1/menus' && (r.body as { store_id: string }).store_id === store)
    .map((r) => r.body as { menu_provider_ids: string[]; catalog: { menu: { provider_id: string }[]; item: unknown[] } });
/** The first notification of a type that arrives (earlier tests' late ones are of no concern). */
async function notification(type: string) {
  const found = await until(() =>
    pos.received.find((r) => r.path === '/v1/notifications' && (r.body as { type: string }).type === type),
  ).catch(() => {
    throw new Error(`no ${type} notification arrived`);
  });
  return found.body as { type: string; data: Record<string, any>; created_at: number };
}

beforeAll(async () => {
  service = await startTestService({ OUTBOX_RETRY_BASE_MS: '50', OUTBOX_RETRY_MAX_MS: '200', OUTBOX_MAX_ATTEMPTS: '3' });
  pos = await startPos(service, secrets);
  const partner = await service.partner();
  const t = partner.token;
  const { orgId } = await createOrg(service.url, t);
  const posOnboarding = await completeOnboarding(service.url, t, orgId, 'pos');
  const tid = posOnboarding.integration_id;
  const [de, us] = await ingest(service.url, t, posOnboarding._id, [`loc_${tid}_de`, `loc_2_${tid}`]);
  const dsp = await completeOnboarding(service.url, t, orgId, 'dsp');
  const stores = await dspStores(service.url, t, dsp._id);
  const assigned = await bind(service.url, t, dsp._id, de!, stores.berlin!);
  const unassigned = await bind(service.url, t, dsp._id, de!, stores.berlin_late!);
  const usStore = await bind(service.url, t, dsp._id, us!, stores.austin!);
  const put = await request(service.url, 'PUT', '/v1/onboarding/menus', {
    token: t,
    body: { org_id: orgId, dsp_location_id: assigned, menu_provider_ids: ['menu_de_hauptkarte'] },
  });
  expect(put.status).toBe(200);
  setup = { token: t, orgId, tid, de: de!, us: us!, assigned, unassigned, usStore, stores };
});
afterAll(async () => {
  await pos?.close();
  await service?.stop();
});
beforeEach(async () => {
  await fetch(`${pos.url}/v1/_sandbox/reset`, { method: 'POST' });
});

test('the POS signs location.catalog.updated: DE catalog fetched, exactly the assigned menus or all menus published, success notified', async () => {
  const answer = await sandbox('catalog-updated', { location_id: `loc_${setup.tid}_de` });
  expect(answer.status).toBe(202);
  await pos.waitFor('/v1/menus', 2);
  const fetched = pos.received.filter((r) => r.path === '/v1/catalog');
  expect(fetched.map((r) => r.headers['x-provider-location-id'])).toEqual([`loc_${setup.tid}_de`]);

  const [toAssigned] = menusSentTo(setup.stores.berlin!);
  expect(toAssigned!.menu_provider_ids).toEqual(['menu_de_hauptkarte']);
  expect(toAssigned!.catalog.menu.map((m) => m.provider_id)).toEqual(['menu_de_hauptkarte']);
  const [toAll] = menusSentTo(setup.stores.berlin_late!);
  expect(toAll!.menu_provider_ids.sort()).toEqual(['menu_de_fruehstueck', 'menu_de_hauptkarte', 'menu_de_mittagstisch']);
  expect(toAll!.catalog).toMatchObject({ currency: 'eur', default_language: 'de-DE' });
  expect(menusSentTo(setup.stores.austin!)).toEqual([]);

  const notes = await pos.waitFor('/v1/notifications', 2);
  const bodies = notes.map((n) => n.body as { type: string; data: Record<string, any>; created_at: number });
  expect(bodies.map((b) => b.type)).toEqual(['menu.publish_success', 'menu.publish_success']);
  expect(bodies.find((b) => b.data.dsp_location_id === setup.assigned)).toMatchObject({
    data: {
      location_id: `loc_${setup.tid}_de`,
      org_location_id: setup.de,
      dsp_store_id: setup.stores.berlin,
      menu_provider_ids: ['menu_de_hauptkarte'],
    },
    created_at: expect.any(Number),
  });
  expect(Math.abs(bodies[0]!.created_at - Date.now())).toBeLessThan(60_000);
});

test("a location's catalog over REST names the menus that menu assignment takes, and is 404 before the first fetch", async () => {
  // The DE location's catalog was fetched by the test before; the US one not yet.
  const de = await request(service.url, 'GET', `/v1/onboarding/org/${setup.orgId}/locations/${setup.de}/catalog`, { token: setup.token });
  expect(de.status).toBe(200);
  expect(de.body).toMatchObject({ version: expect.any(Number), fetched_at: expect.any(Number), currency: 'eur', problems: [] });
  expect(de.body.menus.map((m: { provider_id: string }) => m.provider_id).sort()).toEqual([
    'menu_de_fruehstueck',
    'menu_de_hauptkarte',
    'menu_de_mittagstisch',
  ]);
  const us = await request(service.url, 'GET', `/v1/onboarding/org/${setup.orgId}/locations/${setup.us}/catalog`, { token: setup.token });
  expect(us).toMatchObject({ status: 404, body: { code: 'not_found', message: expect.stringContaining('not been fetched yet') } });
});

test('another location gets the US catalog', async () => {
  expect((await sandbox('catalog-updated', { location_id: `loc_2_${setup.tid}` })).status).toBe(202);
  await pos.waitFor('/v1/notifications', 1);
  expect(menusSentTo(setup.stores.austin!)[0]!.menu_provider_ids.sort()).toEqual([
    'menu_us_all_day',
    'menu_us_breakfast',
    'menu_us_late_night',
  ]);
  expect(pos.received.filter((r) => r.path === '/v1/catalog').map((r) => r.headers['x-provider-location-id'])).toEqual([
    `loc_2_${setup.tid}`,
  ]);
});

/** The sandbox's catalog for a location with one price changed (not the schnitzel's): a new
 * catalog, so a new version to publish (an unchanged one is published once, docs/reference.md § Webhooks in). */
async function withChangedCatalog(locationId: string, base: { item: { provider_id: string; price: number }[] }, run: () => Promise<void>) {
  const changed = structuredClone(base);
  const item = changed.item.find((i) => i.provider_id !== 'item_de_schnitzel')!;
  item.price += 100;
  await sandbox('catalog', { location_id: locationId, catalog: changed });
  try {
    await run();
  } finally {
    await sandbox('catalog', { location_id: locationId, catalog: null });
  }
}

test('a DSP that refuses the menus produces menu.publish_failure with the error', async () => {
  const { usCatalog } = await import('../../../src/sandbox/pos/catalogs.js');
  await withChangedCatalog(`loc_2_${setup.tid}`, usCatalog() as never, async () => {
    await sandbox('fail', { path: '/v1/menus', count: 1, status: 422 });
    expect((await sandbox('catalog-updated', { location_id: `loc_2_${setup.tid}` })).status).toBe(202);
    const note = await notification('menu.publish_failure');
    expect(note).toMatchObject({
      type: 'menu.publish_failure',
      data: { dsp_location_id: setup.usStore, error: expect.stringContaining('422') },
    });
    const latest = await service.services.db.menuPublish.findFirst({
      where: { storeId: setup.usStore },
      orderBy: { createdAt: 'desc' },
    });
    expect(latest).toMatchObject({ status: 'failed', error: expect.stringContaining('422') });
  });
});

test('a catalog priced otherwise than in whole numbers of the smallest unit is not published; the POS is told each element and rule, the partner sees them', async () => {
  const broken = (await import('../../../src/sandbox/pos/catalogs.js')).usCatalog();
  const WHOLE = "price must be a whole number of the currency's smallest unit, from 0 to 100000000000";
  // Dollars (3.5 is $3.50 in cents: 350), a negative price, one beyond 10^11, a price as text.
  (broken.item[0] as { price: unknown }).price = 3.5;
  (broken.item[1] as { price: unknown }).price = -1;
  (broken.item[2] as { price: unknown }).price = 1e12;
  (broken.modifier[3] as { price: unknown }).price = '4.00';
  broken.item[4]!.modifier_group_ids = ['mg_missing'];
  await sandbox('catalog', { location_id: `loc_2_${setup.tid}`, catalog: broken });
  try {
    expect((await sandbox('catalog-updated', { location_id: `loc_2_${setup.tid}` })).status).toBe(202);
    const note = await notification('menu.publish_failure');
    expect(note).toMatchObject({ type: 'menu.publish_failure', data: { dsp_location_id: setup.usStore } });
    // The first problem names the element and the rule, and what to send instead; all of them come with it.
    expect(note.data.error).toBe(
      `the catalog is invalid: item item_us_classic (Classic Burger): ${WHOLE}, not 3.5; send 350 for 3.5 usd (and 4 more problems)`,
    );
    const problems = [
      `item item_us_classic (Classic Burger): ${WHOLE}, not 3.5; send 350 for 3.5 usd`,
      `item item_us_bacon (Bacon Cheeseburger): ${WHOLE}, not -1`,
      `item item_us_veggie (Garden Veggie Burger): ${WHOLE}, not 1000000000000`,
      'item item_us_rings (Onion Rings) refers to missing modifier group mg_missing',
      `modifier mod_us_cheese (Extra cheese): ${WHOLE}, not "4.00"; send a JSON number, not text`,
    ];
    expect(note.data.problems).toEqual(problems);
    expect(menusSentTo(setup.stores.austin!)).toEqual([]);
    // The partner sees the same problems: the location's catalog, and the event.
    const view = await request(service.url, 'GET', `/v1/onboarding/org/${setup.orgId}/locations/${setup.us}/catalog`, {
      token: setup.token,
    });
    expect(view.body.problems).toEqual(problems);
    // Events are listed a second after they happen.
    const failed = await until(async () => {
      const events = await request(service.url, 'GET', `/v1/events?types=menu.publish.failed&org_id=${setup.orgId}&limit=100`, {
        token: setup.token,
      });
      return (events.body.events as { data: { problems?: string[] } }[]).find((e) => e.data.problems?.length === problems.length);
    });
    expect(failed.data.problems).toEqual(problems);
  } finally {
    await sandbox('catalog', { location_id: `loc_2_${setup.tid}`, catalog: null });
  }
});

describe('webhook signatures and repeats', () => {
  const body = () => JSON.stringify({ type: 'location.catalog.updated', object: { location_id: `loc_2_${setup.tid}` } });
  const send = (raw: string, signature?: string, headers: Record<string, string> = {}) =>
    request(service.url, 'POST', '/v1/webhooks/pos/sandbox-pos', {
      raw,
      headers: { 'content-type': 'application/json', ...(signature ? { 'service-webhook-signature': signature } : {}), ...headers },
    });
  const stored = () => service.services.db.webhookEvent.count();

  test('forged, missing and replayed-with-altered-body signatures get 401 and store nothing', async () => {
    const before = await stored();
    const forged = await send(body(), signBody(body(), 'not-the-secret'));
    const missing = await send(body());
    const altered = await send(body().replace('loc_2_', 'loc_3_'), signBody(body(), secrets.webhookSecret));
    for (const res of [forged, missing, altered]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ statusCode: 401, error: 'Unauthorized', code: 'invalid_signature', message: expect.any(String) });
    }
    expect(await stored()).toBe(before);
  });

  test('unknown source 404, malformed JSON and unknown types 400, oversized 413; nothing stored', async () => {
    const before = await stored();
    const unknown = await request(service.url, 'POST', '/v1/webhooks/pos/nobody', {
      raw: body(),
      headers: { 'content-type': 'application/json', 'service-webhook-signature': signBody(body(), secrets.webhookSecret) },
    });
    expect(unknown.status).toBe(404);
    const malformed = '{"type": "location.catalog.updated", ';
    expect((await send(malformed, signBody(malformed, secrets.webhookSecret))).body).toMatchObject({
      statusCode: 400,
      code: 'invalid_request',
    });
    const strange = JSON.stringify({ type: 'menu.exploded', object: {} });
    expect((await send(strange, signBody(strange, secrets.webhookSecret))).body).toMatchObject({
      statusCode: 400,
      code: 'unsupported_event',
    });
    const huge = JSON.stringify({ type: 'location.catalog.updated', object: { location_id: 'x', pad: 'x'.repeat(2 * 1024 * 1024) } });
    expect((await send(huge, signBody(huge, secrets.webhookSecret))).status).toBe(413);
    expect(await stored()).toBe(before);
  });

  test('the same bytes within 10 s are one event; after 10 s they are the next change and the catalog is fetched again', async () => {
    const db = service.services.db;
    // Earlier tests sent these very bytes: move them out of the window.
    await db.webhookEvent.updateMany({ data: { createdAt: new Date(Date.now() - 60_000) } });
    const raw = body();
    const signature = crypto.createHmac('sha256', secrets.webhookSecret).update(raw).digest('base64');
    const fetches = () => pos.received.filter((r) => r.path === '/v1/catalog').length;
    const applied = (id: string) => until(async () => (await db.webhookEvent.findUniqueOrThrow({ where: { id } })).status === 'applied');
    const before = fetches();
    const versionsBefore = await db.catalogVersion.count({ where: { locationId: setup.us } });

    const first = await send(raw, signature);
    const second = await send(raw, signature);
    expect(first.status).toBe(202);
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ received: true, duplicate: true, id: first.body.id });
    await applied(first.body.id);
    expect(fetches()).toBe(before + 1);

    // Eleven seconds on (its timestamp moved back): the same bytes are the POS's next change.
    await db.webhookEvent.update({ where: { id: first.body.id }, data: { createdAt: new Date(Date.now() - 11_000) } });
    const third = await send(raw, signature);
    expect(third.status).toBe(202);
    expect(third.body.id).not.toBe(first.body.id);
    await applied(third.body.id);
    expect(fetches()).toBe(before + 2);
    // The catalog did not change: no second version, nothing published again.
    expect(await db.catalogVersion.count({ where: { locationId: setup.us } })).toBe(versionsBefore + 1);
  });

  test('a repeat is one carrying the id of one taken before, however much later', async () => {
    const db = service.services.db;
    const raw = body();
    const signature = signBody(raw, secrets.webhookSecret);
    const first = await send(raw, signature, { 'idempotency-key': 'catalog-change-7' });
    expect(first.status).toBe(202);
    await db.webhookEvent.update({ where: { id: first.body.id }, data: { createdAt: new Date(Date.now() - 3600_000) } });
    const again = await send(raw, signature, { 'idempotency-key': 'catalog-change-7' });
    expect(again.body).toEqual({ received: true, duplicate: true, id: first.body.id });
  });
});

test('GraphQL shows the current catalog with its version and the publish history per DSP connection', async () => {
  const { deCatalog } = await import('../../../src/sandbox/pos/catalogs.js');
  await withChangedCatalog(`loc_${setup.tid}_de`, deCatalog() as never, async () => {
    await sandbox('catalog-updated', { location_id: `loc_${setup.tid}_de` });
    await pos.waitFor('/v1/notifications', 2);
  });
  const Query = graphql(`
    query CatalogAndPublishes($orgId: ID!, $locationId: ID) {
      organizationLocations(orgId: $orgId, locationId: $locationId) {
        locations {
          id
          catalog { version fetchedAt currency problems menus { providerId name categoryIds } items { providerId name price { amount currency } } modifierGroups { providerId modifierIds } taxes { providerId rate } }
          dsps { id dspStoreId menuProviderIds publishes(last: 5) { status menuProviderIds catalogVersion error } }
        }
      }
    }
  `);
  const client = new GraphQLClient(`${service.url}/graphql`, { headers: { authorization: `Bearer ${setup.token}` } });
  const data = await client.request(Query, { orgId: setup.orgId, locationId: setup.de });
  const location = data.organizationLocations.locations[0]!;
  const catalog = location.catalog[0]!;
  expect(catalog).toMatchObject({ currency: 'eur', problems: [] });
  expect(catalog.version).toBeGreaterThanOrEqual(2);
  expect(catalog.menus.map((m) => m.providerId)).toEqual(['menu_de_hauptkarte', 'menu_de_mittagstisch', 'menu_de_fruehstueck']);
  expect(catalog.items.find((i) => i.providerId === 'item_de_schnitzel')).toEqual({
    providerId: 'item_de_schnitzel',
    name: 'Wiener Schnitzel',
    price: { amount: 1890, currency: 'eur' },
  });
  expect(catalog.taxes).toEqual([
    { providerId: 'tax_de_mwst_19', rate: 19 },
    { providerId: 'tax_de_mwst_7', rate: 7 },
  ]);
  const assigned = location.dsps.find((d) => d.id === setup.assigned)!;
  expect(assigned.menuProviderIds).toEqual(['menu_de_hauptkarte']);
  expect(assigned.publishes[0]).toEqual({
    status: 'published',
    menuProviderIds: ['menu_de_hauptkarte'],
    catalogVersion: catalog.version,
    error: null,
  });
  expect(assigned.publishes.length).toBeGreaterThanOrEqual(2);
  expect(location.dsps.find((d) => d.id === setup.unassigned)!.menuProviderIds).toBeNull();
});
