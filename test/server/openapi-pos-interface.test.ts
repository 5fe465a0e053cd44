// The POS interface as `/v1/openapi.json` describes it (its `webhooks` and the catalog's schema),
// held against what really crosses it: the sandbox POS's catalogs for each location it lists and
// its answer to an order, and what the service sends it (an order, a change of it, a notice, a
// notification), each checked by a JSON Schema validator against the document's own schemas.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { catalogReceived, placeOrder, startOrdersWorld, until, type OrdersWorld } from '../support/orders.js';
import { get } from '../support/service.js';

let world: OrdersWorld;
let ajv: InstanceType<typeof Ajv2020>;
let document: { webhooks: Record<string, Record<string, any>> };

beforeAll(async () => {
  world = await startOrdersWorld({ menus: true });
  document = (await get(world.service.url, '/v1/openapi.json')).body;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema(document as object, 'openapi.json');
});
afterAll(() => world?.close());

const pointer = (...steps: string[]) => steps.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
/** The document's schema at a path of its webhooks, or of its components. */
const schemaAt = (...steps: string[]) => ajv.getSchema(`openapi.json#/${pointer(...steps)}`)!;
const requestOf = (name: string, method = 'post') =>
  schemaAt('webhooks', name, method, 'requestBody', 'content', 'application/json', 'schema');
/** Whether a body is what the schema describes: its errors, none when it is. */
function errorsOf(validate: ReturnType<typeof schemaAt>, body: unknown): string[] {
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

/** A merchant's token at the sandbox POS, as the service gets one: the consent form, then the code. */
async function sandboxToken(clientId: string): Promise<string> {
  const { pos } = world;
  const redirectUri = 'http://127.0.0.1:9/callback';
  const consent = await fetch(`${pos.url}/v1/authorize`, {
    method: 'POST',
    body: new URLSearchParams({ client_id: clientId, redirect_uri: redirectUri, state: 's', decision: 'allow' }),
    redirect: 'manual',
  });
  const code = new URL(consent.headers.get('location')!).searchParams.get('code');
  const secret = (await world.service.services.db.provider.findUniqueOrThrow({ where: { source: 'sandbox-pos' } })).clientSecretEnc;
  const token = await fetch(`${pos.url}/v1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: clientId,
      client_secret: world.service.services.sealer.open(secret!),
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
    }),
  });
  const answer = await token.json();
  expect(errorsOf(schemaAt('components', 'schemas', 'ProviderToken'), answer)).toEqual([]);
  return (answer as { access_token: string }).access_token;
}

test('the sandbox POS’s token answer and the catalog of each location it lists are what the document describes', async () => {
  const { pos } = world;
  const provider = await world.service.services.db.provider.findUniqueOrThrow({ where: { source: 'sandbox-pos' } });
  const token = await sandboxToken(provider.clientId!);
  const bearer = { authorization: `Bearer ${token}` };
  const { locations } = (await (await fetch(`${pos.url}/v1/locations`, { headers: bearer })).json()) as {
    locations: { provider_id: string }[];
  };
  expect(locations.length).toBeGreaterThanOrEqual(3);
  const catalog = schemaAt('webhooks', 'pos catalog', 'get', 'responses', '200', 'content', 'application/json', 'schema');
  for (const { provider_id } of locations) {
    const answer = await (await fetch(`${pos.url}/v1/catalog`, { headers: { ...bearer, 'x-provider-location-id': provider_id } })).json();
    expect({ provider_id, errors: errorsOf(catalog, answer) }).toEqual({ provider_id, errors: [] });
  }
  // The schema is no formality: a price in dollars, a holiday dated otherwise, are refused by it.
  const us = await (
    await fetch(`${pos.url}/v1/catalog`, { headers: { ...bearer, 'x-provider-location-id': locations[1]!.provider_id } })
  ).json();
  expect(errorsOf(catalog, { ...us, item: [{ ...us.item[0], price: 11.99 }] })).toEqual(['/item/0/price must be integer']);
  expect(errorsOf(catalog, { ...us, holidays: [{ date: '24.12.2026', closed: true }] })).toEqual([
    '/holidays/0/date must match pattern "^\\d{4}-\\d{2}-\\d{2}$"',
  ]);
}, 60_000);

test('what the service sends the sandbox POS, and its answer to an order, are what the document describes', async () => {
  const { pos, merchant, service } = world;
  await catalogReceived(service, merchant.locationId);
  const placed = await placeOrder(pos, merchant.storeId, { fulfillment_type: 'pickup' });
  expect(placed.body.status).toBe('in_progress');
  const created = await until(() =>
    pos.received.find((r) => r.path === '/v1/orders' && (r.body as { object: { id: string } }).object.id === placed.body.order_id),
  );
  expect(errorsOf(requestOf('pos order.created'), created.body)).toEqual([]);
  // Its answer, again for the same key (the first answer, as the guide asks).
  const again = await fetch(`${pos.url}/v1/orders`, {
    method: 'POST',
    headers: Object.fromEntries(
      ['authorization', 'idempotency-key', 'x-provider-location-id', 'content-type'].map((name) => [name, String(created.headers[name])]),
    ),
    body: JSON.stringify(created.body),
  });
  const answer = schemaAt('webhooks', 'pos order.created', 'post', 'responses', '2XX', 'content', 'application/json', 'schema');
  expect(errorsOf(answer, await again.json())).toEqual([]);

  // The platform cancels it: this POS takes order changes.
  await fetch(`${pos.url}/v1/_sandbox/orders/cancel`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ dsp_store_id: merchant.storeId, dsp_order_id: placed.dsp_order_id }),
  });
  const updated = await until(() =>
    pos.received.find((r) => r.path === '/v1/orders' && (r.body as { type: string }).type === 'order.updated'),
  );
  expect(errorsOf(requestOf('pos order.updated'), updated.body)).toEqual([]);

  // Its location's connection notice and each publish's notification.
  const connect = pos.received.find((r) => r.path === '/v1/locations/connect')!;
  expect(errorsOf(requestOf('pos locations.connect'), connect.body)).toEqual([]);
  const notifications = pos.received.filter((r) => r.path === '/v1/notifications');
  expect(notifications.length).toBeGreaterThan(0);
  for (const note of notifications) {
    const type = (note.body as { type: string }).type;
    expect({ type, errors: errorsOf(requestOf(`pos ${type}`), note.body) }).toEqual({ type, errors: [] });
  }
}, 60_000);
