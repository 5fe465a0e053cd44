// The OpenAPI document as generators and linters meet it: Redocly's recommended rules find no
// error, openapi-typescript types no required field as nullable and types the POS interface's
// catalog without an `unknown`, `servers` names the service's URL, every operation declares its
// security, and a write lists its 409.
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import { get, startTestService, type TestService } from '../support/service.js';

let service: TestService;
let document: Record<string, any>;

beforeAll(async () => {
  service = await startTestService();
  document = (await get(service.url, '/v1/openapi.json')).body;
});
afterAll(() => service?.stop());

const operationsOf = (doc: Record<string, any>) =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([at, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ at, method, operation })),
  );

test("Redocly's recommended rules find no error", async () => {
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
  const errors = problems
    .filter((p) => p.severity === 'error')
    .map((p) => `${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(', ')}`);
  expect(errors).toEqual([]);
});

test('webhooks has every event a DSP receives, its orders’ and its stores’, each with the schema of its data', () => {
  const data = (type: string) => document.webhooks[type]?.post?.requestBody?.content?.['application/json']?.schema?.properties?.data;
  const events: [string, string[]][] = [
    // pos_order_id too, unless the POS moved the order before its answer was read.
    ['location.order.accept', ['order_id', 'dsp_order_id', 'sequence', 'status']],
    ['location.order.fail', ['order_id', 'dsp_order_id', 'sequence', 'failure_reason', 'failure_details']],
    ['location.order.notify_status_change', ['order_id', 'dsp_order_id', 'sequence', 'status']],
    ['location.order.cancel', ['order_id', 'dsp_order_id', 'sequence', 'status', 'canceled_by']],
    ['location.pause', ['sequence']],
    ['location.resume', ['sequence']],
    ['location.items.snooze', ['sequence', 'item_ids']],
    ['location.items.unsnooze', ['sequence', 'item_ids']],
    ['location.prep_time.update', ['sequence', 'prep_time_minutes']],
  ];
  for (const [type, required] of events)
    expect({ type, required: data(type)?.required, sequence: data(type)?.properties?.sequence?.type }).toEqual({
      type,
      required,
      sequence: 'integer',
    });
  // What a store's events may carry besides, typed.
  expect(Object.keys(data('location.pause').properties)).toEqual(['sequence', 'until_ms']);
  expect(data('location.prep_time.update').properties.until_ms.type).toBe('integer');
  expect(data('location.order.notify_status_change').properties.delivery_status.enum).toContain('enroute_to_pickup');
});

test('servers names the service, every operation declares its security, and every write lists 409', () => {
  expect(document.servers).toEqual([{ url: service.url }]);
  for (const { at, method, operation } of operationsOf(document)) {
    expect({ at, method, security: Array.isArray(operation.security) }).toEqual({ at, method, security: true });
  }
  const create = document.paths['/v1/onboarding/org'].post;
  expect(create.responses['409']).toBeDefined();
  expect(document.paths['/health'].get.security).toEqual([]);
});

/** Every `required` property in the document whose schema also admits null. */
function requiredButNullable(node: unknown, at = '#', found: string[] = []): string[] {
  if (Array.isArray(node)) {
    for (const [i, child] of node.entries()) requiredButNullable(child, `${at}/${i}`, found);
  } else if (node && typeof node === 'object') {
    const schema = node as { required?: unknown; properties?: Record<string, { type?: unknown; enum?: unknown[] }> };
    if (Array.isArray(schema.required) && schema.properties) {
      for (const name of schema.required) {
        const property = schema.properties[name as string];
        const admitsNull = (Array.isArray(property?.type) && property.type.includes('null')) || property?.enum?.includes(null);
        if (admitsNull) found.push(`${at}/properties/${name}`);
      }
    }
    for (const [key, child] of Object.entries(node)) requiredButNullable(child, `${at}/${key}`, found);
  }
  return found;
}

test('no required field is typed nullable, in the document or in what openapi-typescript makes of it', async () => {
  expect(requiredButNullable(document)).toEqual([]);
  const typescript = astToString(await openapiTS(document as never));
  // openapi-typescript writes a required field `name: T`, an optional one `name?: T`.
  const requiredNullable = typescript.split('\n').filter((line) => /^\s*"?[\w$-]+"?: [^;]*\bnull\b[^;]*;$/.test(line));
  expect(requiredNullable).toEqual([]);
  // The organization a partner creates: its required fields come out as plain strings.
  expect(typescript).toMatch(/name: string;/);
  expect(typescript).toMatch(/provider_id: string;/);
});

/** The TypeScript of one of the document's schemas, as openapi-typescript writes it under `components.schemas`. */
function schemaType(typescript: string, name: string): string {
  const lines = typescript.split('\n');
  const start = lines.findIndex((line) => line === `        ${name}: {` || line.startsWith(`        ${name}: `));
  if (start < 0) throw new Error(`no schema ${name} in the generated types`);
  const end = lines.findIndex((line, i) => i > start && /^ {8}\S/.test(line));
  return lines.slice(start, end).join('\n');
}

test('openapi-typescript types the POS interface: the catalog and each of its elements with no unknown', async () => {
  const typescript = astToString(await openapiTS(document as never));
  const catalogSchemas = Object.keys(document.components.schemas).filter((name) => /^(Catalog|Schedule$|Ranges$)/.test(name));
  expect(catalogSchemas).toEqual(
    expect.arrayContaining([
      'Catalog',
      'CatalogMenu',
      'CatalogItem',
      'CatalogModifierGroup',
      'CatalogModifier',
      'CatalogTax',
      'CatalogHoliday',
    ]),
  );
  for (const name of catalogSchemas)
    expect({ name, type: schemaType(typescript, name) }).toEqual({ name, type: expect.not.stringContaining('unknown') });
  expect(schemaType(typescript, 'CatalogItem')).toMatch(/price: number;/);
  expect(schemaType(typescript, 'Catalog')).toMatch(/menu: components\["schemas"\]\["CatalogMenu"\]\[\];/);
  // The calls on a POS are typed too: its catalog answer is the Catalog.
  expect(typescript).toMatch(/"pos catalog": \{/);
});
