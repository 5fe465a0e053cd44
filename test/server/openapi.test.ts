// The OpenAPI document (docs/reference.md § Partner API): valid OpenAPI 3.1 by a maintained validator, made from
// the routes so that it covers every one of them, and true to what they answer (every REST answer
// of the suite is checked against it by test/support/openapi-conformance.ts).
import { Validator } from '@seriousme/openapi-schema-validator';
import { ORDER_AMOUNTS } from '../../src/modules/orders/wire.js';
import { restRoutes } from '../../src/app/routes.js';
import { get, request, startTestService, type TestService } from '../support/service.js';

let service: TestService;
let document: { openapi: string; paths: Record<string, Record<string, any>> };

beforeAll(async () => {
  service = await startTestService();
  document = (await get(service.app, '/v1/openapi.json')).body;
});
afterAll(() => service?.stop());

/** Pages and GraphQL, which this document does not describe: GraphQL has its own schema. */
const NOT_REST = [
  '/',
  '/graphql',
  '/docs',
  '/docs/:file',
  '/v1/openapi.json',
  '/dashboard',
  '/dashboard/assets/:file',
  '/dashboard/logout',
  '/favicon.ico',
];

test('the document is valid OpenAPI 3.1', async () => {
  expect(document.openapi).toBe('3.1.0');
  const result = await new Validator().validate(document as never);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
});

test('every route of the service is in it, with its answers and refusals', () => {
  const undocumented = service.app.routeTable
    .filter((route) => !route.doc && !NOT_REST.includes(route.url))
    .map((r) => `${r.method} ${r.url}`);
  expect(undocumented).toEqual([]);
  for (const route of restRoutes) {
    const operation = document.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
    expect({ route: `${route.method} ${route.path}`, documented: Boolean(operation) }).toEqual({
      route: `${route.method} ${route.path}`,
      documented: true,
    });
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining([String(route.status), '400', '401', '404']));
  }
  // The token call and the three webhook paths of docs/reference.md § Webhooks in.
  expect(Object.keys(document.paths['/v1/oauth/token'] ?? {})).toEqual(['post']);
  for (const channel of ['pos', 'dsp', 'event-providers']) expect(document.paths[`/v1/webhooks/${channel}/{source}`]?.post).toBeDefined();
});

test('schemas speak wire names and come from the GraphQL types', () => {
  const createOrg = document.paths['/v1/onboarding/org']!.post;
  const body = createOrg.requestBody.content['application/json'].schema;
  expect(body.required).toEqual(expect.arrayContaining(['name', 'provider_id', 'user']));
  expect(body.additionalProperties).toBe(false);
  expect(Object.keys(createOrg.responses['201'].content['application/json'].schema.properties).sort()).toEqual(['org_id', 'user_id']);
  // A field filled from the path is not asked for in the body.
  const complete = document.paths['/v1/onboarding/integrations/{id}/complete']!.post;
  expect(Object.keys(complete.requestBody.content['application/json'].schema.properties)).not.toContain('id');
  expect(complete.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
  // Webhook event types are the ones the intake has handlers for.
  const dsp = document.paths['/v1/webhooks/dsp/{source}']!.post.requestBody.content['application/json'].schema.oneOf as {
    properties: { type: { const: string }; object: any };
  }[];
  expect(dsp.map((shape) => shape.properties.type.const).sort()).toEqual(['order.canceled', 'order.created', 'store.status']);
});

test('the order’s amounts are the ones the contract names, the store’s tip and the tax the platform remits among them', () =>
  expect([...ORDER_AMOUNTS].sort()).toEqual([
    'cash_amount_due',
    'delivery_fee',
    'delivery_fee_tax',
    'driver_tip',
    'restaurant_tip',
    'subtotal',
    'tax',
    'tax_withheld_by_dsp',
    'total',
  ]));

test('amounts are integers wherever the document meets them, the unit said once in each place', () => {
  const webhooks = (document as unknown as { webhooks: Record<string, any> }).webhooks;
  const body = (operation: any) => operation.post.requestBody.content['application/json'].schema;
  const dsp = document.paths['/v1/webhooks/dsp/{source}']!.post.requestBody.content['application/json'].schema.oneOf as any[];
  const order = dsp.find((shape) => shape.properties.type.const === 'order.created').properties.object;
  const accept = body(webhooks['location.order.accept']).properties.data;
  const event = body(webhooks['order.created']).properties.data;
  const places: [string, any][] = [
    [order.description, order],
    [webhooks['location.order.accept'].post.description, accept],
    [webhooks['order.created'].post.description, event],
  ];
  for (const [said, schema] of places) {
    expect(said).toContain("whole numbers of the currency's smallest unit");
    for (const field of ORDER_AMOUNTS)
      expect(schema.properties[field]).toMatchObject({ type: 'integer', minimum: 0, maximum: 100_000_000_000 });
    // Discounts, with who funds them and the merchant's part.
    expect(schema.properties.discounts).toMatchObject({ type: 'array', maxItems: 50 });
    expect(schema.properties.discounts.items.properties).toMatchObject({
      amount: { type: 'integer', minimum: 0 },
      scope: { enum: ['order', 'item'] },
      funded_by: { enum: ['dsp', 'merchant', 'shared'] },
      merchant_amount: { type: 'integer', minimum: 0 },
    });
    expect(schema.properties.currency).toMatchObject({ type: 'string', pattern: '^[a-z]{3}$' });
  }
  expect(order.properties.items.items.properties.price).toMatchObject({ type: 'integer', minimum: 0 });
  expect(order.properties.items.items.properties.modifiers.items.properties.price).toMatchObject({ type: 'integer' });
});

test('the events a DSP receives are in its webhooks, one per event type', async () => {
  const { DSP_EVENT_TYPES } = await import('../../src/modules/orders/peers.js');
  const webhooks = (document as unknown as { webhooks: Record<string, { post: any }> }).webhooks;
  for (const type of DSP_EVENT_TYPES) {
    const schema = webhooks[type]!.post.requestBody.content['application/json'].schema;
    expect(schema.properties.type.const).toBe(type);
    expect(schema.properties.data.required).toEqual(expect.arrayContaining(['order_id', 'dsp_order_id', 'sequence']));
  }
});

/** A schema of the document's components. */
const schema = (name: string) => (document as unknown as { components: { schemas: Record<string, any> } }).components.schemas[name];

test('what a POS sends of its hours and what a DSP receives of them are described', () => {
  const pos = document.paths['/v1/webhooks/pos/{source}']!.post.requestBody.content['application/json'].schema;
  const status = pos.oneOf.find((s: any) => s.properties.type.const === 'location.status.updated');
  expect(status.properties.object).toMatchObject({
    required: ['location_id', 'status'],
    properties: { status: { enum: ['active', 'inactive', 'busy'] }, paused_until: { type: ['integer', 'null'] } },
  });
  const menus = (document as unknown as { webhooks: Record<string, { post: any }> }).webhooks.menus!.post;
  const body = menus.requestBody.content['application/json'].schema;
  expect(body.required).toEqual(expect.arrayContaining(['store_id', 'timezone', 'catalog']));
  // The catalog a DSP receives is the POS's catalog, one schema for both.
  expect(body.properties.catalog.$ref).toBe('#/components/schemas/Catalog');
  const catalog = schema('Catalog');
  expect(catalog.properties.menu.items.$ref).toBe('#/components/schemas/CatalogMenu');
  expect(schema('CatalogMenu').properties.schedule.$ref).toBe('#/components/schemas/Schedule');
  expect(Object.keys(schema('Schedule').properties)).toEqual([
    'monday',
    'tuesday',
    'wednesday',
    'thursday',
    'friday',
    'saturday',
    'sunday',
  ]);
  expect(schema('CatalogHoliday').properties.hours.$ref).toBe('#/components/schemas/Ranges');
  expect(schema('Ranges').type).toBe('array');
  // Its prices are money as every wire carries it.
  for (const element of ['CatalogItem', 'CatalogModifier'])
    expect(schema(element).properties.price).toMatchObject({ type: 'integer', minimum: 0, maximum: 100_000_000_000 });
  const locations = document.paths['/v1/onboarding/org/{id}/locations']!.get.responses['200'].content['application/json'].schema;
  expect(Object.keys(locations.properties.locations.items.properties)).toEqual(
    expect.arrayContaining(['open_now', 'opens_at', 'closes_at', 'menus']),
  );
});

test('the POS interface is in the webhooks: the catalog by its schema, the order, the notices, the notifications, the token answer', () => {
  const webhooks = (document as unknown as { webhooks: Record<string, Record<string, any>> }).webhooks;
  const catalog = webhooks['pos catalog']!.get;
  expect(catalog.parameters).toEqual([expect.objectContaining({ name: 'X-Provider-Location-Id', in: 'header', required: true })]);
  expect(catalog.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Catalog' });
  expect(catalog.responses['404']).toBeDefined();
  expect(catalog.security).toEqual([{ merchantToken: [] }]);
  const order = webhooks['pos order.created']!.post;
  const sent = order.requestBody.content['application/json'].schema;
  expect(sent.properties.type.const).toBe('order.created');
  expect(sent.properties.object.required).toEqual(expect.arrayContaining(['id', 'location_id', 'status', 'delivery_status']));
  expect(order.parameters.map((p: { name: string }) => p.name)).toEqual(['X-Provider-Location-Id', 'Idempotency-Key']);
  expect(order.responses['2XX'].content['application/json'].schema.properties.order.anyOf).toEqual([
    { required: ['pos_order_id'] },
    { required: ['id'] },
  ]);
  expect(webhooks['pos order.updated']!.post.description).toContain('order.updated:<id>:<n>, n the order’s count of changes');
  for (const name of ['pos locations.connect', 'pos locations.disconnect', 'pos menu.publish_success', 'pos menu.publish_failure'])
    expect(webhooks[name]!.post.requestBody).toBeDefined();
  // The GETs carry no Idempotency-Key; every POST does.
  expect(catalog.parameters.map((p: { name: string }) => p.name)).not.toContain('Idempotency-Key');
  const token = webhooks['provider token']!.post;
  expect(token.security).toEqual([]);
  expect(token.responses['2XX'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ProviderToken' });
  expect(schema('ProviderToken').required).toEqual(['access_token']);
  expect(schema('CatalogTax').properties.inclusive.type).toBe('boolean');
});

test('what an event provider receives, and each webhook it sends with its object, are in the document', async () => {
  const webhooks = (document as unknown as { webhooks: Record<string, { post: any }> }).webhooks;
  for (const type of ['order.confirmed', 'order.updated']) {
    const schema = webhooks[`event-provider ${type}`]!.post.requestBody.content['application/json'].schema;
    expect(schema.properties.type.const).toBe(type);
    expect(schema.required).toEqual(['location_id', 'reference_id', 'type', 'order']);
  }
  const sent = document.paths['/v1/webhooks/event-providers/{source}']!.post.requestBody.content['application/json'].schema;
  const byType = Object.fromEntries(sent.oneOf.map((s: any) => [s.properties.type.const, s.properties.object]));
  expect(Object.keys(byType).sort()).toEqual(['order.assign.driver', 'order.delivery_status.updated']);
  expect(byType['order.assign.driver'].required).toEqual(['location_id', 'order_id', 'driver']);
  expect(Object.keys(byType['order.assign.driver'].properties.driver.properties)).toEqual(['name', 'phone', 'source', 'vehicle_info']);
  expect(byType['order.delivery_status.updated'].properties.delivery_status.enum).toContain('enroute_to_dropoff');
});

test('an answer the document does not describe is caught', async () => {
  // The conformance check itself: a 200 where only 201 is documented fails the call.
  const { assertDocumentedAnswer } = await import('../support/openapi-conformance.js');
  await expect(assertDocumentedAnswer(service.url, 'POST', '/v1/onboarding/org', 200, 'application/json', {})).rejects.toThrow(
    /does not list/,
  );
  await expect(assertDocumentedAnswer(service.url, 'POST', '/v1/onboarding/org', 201, 'application/json', { org_id: 1 })).rejects.toThrow(
    /refuses/,
  );
  await expect(request(service.url, 'POST', '/v1/onboarding/org', { body: {} })).resolves.toMatchObject({ status: 401 });
});
