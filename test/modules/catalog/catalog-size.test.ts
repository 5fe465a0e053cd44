// A catalog of any size: one larger than CATALOG_MAX_BYTES is refused unread (the POS told, as
// for any invalid catalog) while the service answers everyone else; one just under it is read,
// stored and published whole, its offer judging orders, and read back a page at a time. How long
// the event loop is held meanwhile is a speed goal, measured in `npm run bench` (bench/catalog.ts).
import { sandboxSecrets } from '../../../src/sandbox/register.js';
import { graphqlPost, startTestService, type TestService } from '../../support/service.js';
import { control, posProcess } from '../../support/sandbox.js';
import { merchantTakingOrders, sendDspOrder, until, type OrderSetup } from '../../support/orders.js';

let service: TestService;
let pos: Awaited<ReturnType<typeof posProcess>>;
let m: OrderSetup;
let posLocation: string;

beforeAll(async () => {
  service = await startTestService();
  pos = await posProcess(service);
  m = await merchantTakingOrders(service);
  posLocation = `loc_2_${m.tid}`;
}, 90_000);
afterAll(async () => {
  await pos?.close();
  await service?.stop();
});

/** The location's newest catalog version once it is newer than `after`. */
const versionAfter = (after: number) =>
  until(
    () =>
      service.services.db.catalogVersion.findFirst({
        where: { locationId: m.locationId, version: { gt: after } },
        orderBy: { version: 'desc' },
      }),
    30_000,
  );
const latestVersion = async () =>
  (await service.services.db.catalogVersion.findFirst({ where: { locationId: m.locationId }, orderBy: { version: 'desc' } }))?.version ?? 0;

test('a 165 MB catalog is refused unread, /health answering throughout, and its POS is told', async () => {
  const generated = (await control(pos, 'catalog', { location_id: posLocation, items: 50_000, padding: 3_300 })) as unknown as {
    bytes: number;
  };
  expect(generated.bytes).toBeGreaterThan(165_000_000);
  const before = await latestVersion();

  let probing = true;
  const statuses = new Set<number>();
  const probes = (async () => {
    while (probing) statuses.add((await fetch(`${service.url}/health`)).status);
  })();
  await control(pos, 'catalog-updated', { location_id: posLocation });
  const refused = await versionAfter(before);
  probing = false;
  await probes;

  expect(JSON.parse(refused.problems)).toEqual(['the catalog is larger than 10 MB, the most a catalog may be (CATALOG_MAX_BYTES)']);
  expect([...statuses]).toEqual([200]);
  const failure = await until(async () =>
    (await pos.received()).find(
      (call) => call.path === '/v1/notifications' && (call.body as { type: string }).type === 'menu.publish_failure',
    ),
  );
  expect((failure.body as { data: { error: string } }).data.error).toBe(
    'the catalog is invalid: the catalog is larger than 10 MB, the most a catalog may be (CATALOG_MAX_BYTES)',
  );
}, 120_000);

test('a list past its limit is refused whole, naming the list and the limit', async () => {
  const tax = Array.from({ length: 201 }, (_, i) => ({ provider_id: `tax_${i}`, name: `Tax ${i}`, rate: 1 }));
  await control(pos, 'catalog', { location_id: posLocation, catalog: { currency: 'usd', menu: [], tax } });
  const before = await latestVersion();
  await control(pos, 'catalog-updated', { location_id: posLocation });
  expect(JSON.parse((await versionAfter(before)).problems)).toEqual(['tax holds 201 elements; a catalog holds at most 200']);
});

test('a 9 MB catalog is published whole; its orders are judged by it and it is read a page at a time', async () => {
  const generated = (await control(pos, 'catalog', { location_id: posLocation, items: 30_000, padding: 160 })) as unknown as {
    bytes: number;
  };
  expect(generated.bytes).toBeGreaterThan(9_000_000);
  expect(generated.bytes).toBeLessThan(10 * 1024 * 1024);
  const before = await latestVersion();

  await control(pos, 'catalog-updated', { location_id: posLocation });
  const version = await versionAfter(before);
  const published = await until(
    () => service.services.db.menuPublish.findFirst({ where: { catalogVersionId: version.id, status: 'published' } }),
    60_000,
  );
  // The store's first order is judged by the new catalog: its offer is worked out off the main thread too.
  const secrets = sandboxSecrets(service.database.dataDir);
  const taken = await sendDspOrder(service.url, secrets.webhookSecret, m.storeId, {
    items: [{ service_id: 'item_29999', name: 'Item 29999', quantity: 1, price: 1000 + (29_999 % 900), modifiers: [] }],
    fulfillment_type: 'pickup',
  });

  expect(JSON.parse(version.problems)).toEqual([]);
  expect(JSON.parse(published.menus)).toEqual(['menu_large']);
  // The store got it whole, signed.
  const menus = (await pos.received()).filter((call) => call.path === '/v1/menus').at(-1)!;
  expect((menus.body as { catalog: { item: unknown[] } }).catalog.item).toHaveLength(30_000);
  expect(menus.headers['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
  expect(taken.status).toBe(201);
  expect(await service.services.db.order.findUniqueOrThrow({ where: { id: taken.body.order_id! } })).toMatchObject({
    failureReason: null,
    failureDetails: null,
  });

  const pageOf = async (after?: string) =>
    (
      await graphqlPost(
        service.url,
        m.token,
        'query($o: ID!, $l: ID, $a: String) { organizationLocations(orgId: $o, locationId: $l) { locations { catalog { items(first: 100, after: $a) { providerId } } } } }',
        { o: m.orgId, l: m.locationId, a: after },
      )
    ).body.data.organizationLocations.locations[0].catalog[0].items.map((item: { providerId: string }) => item.providerId);
  const first = await pageOf();
  expect(first).toHaveLength(100);
  expect(first[0]).toBe('item_0');
  expect(await pageOf(first.at(-1))).toEqual(Array.from({ length: 100 }, (_, i) => `item_${100 + i}`));
  const none = await graphqlPost(
    service.url,
    m.token,
    'query($o: ID!) { organizationLocations(orgId: $o) { locations { catalog { items(first: 0) { providerId } } } } }',
    {
      o: m.orgId,
    },
  );
  expect(none.body.errors[0].extensions).toMatchObject({ code: 'invalid_request' });
}, 120_000);
