// Customers' data (docs/operations.md, "Customers' data"), through the real service and the sandbox
// POS, DSP and event provider: an order's customer is stored sealed under a key of the order's
// own, and reaches the POS and the event provider in clear, and the dashboard as the caller may
// see it; an erasure finds a customer's orders by keyed digests of their phone and loyalty id,
// and, as RETENTION_DAYS does, deletes the key and redacts every stored copy, so that whatever is
// read or sent after it says "redacted". The database's files never hold the customer in clear:
// SQLite's file and log, PostgreSQL's files of the database and its log (the server's data
// directory, when this process may read it), after a checkpoint, before the erasure and after.
import crypto from 'node:crypto';
import path from 'node:path';
import type { SandboxPos } from '../../../src/sandbox/pos/server.js';
import type { SandboxEventProvider } from '../../../src/sandbox/event-provider/server.js';
import { providerOf, sqliteFile } from '../../../src/db/url.js';
import { backupDatabase } from '../../../src/db/backup.js';
import { keyCarried, openCustomer } from '../../../src/modules/privacy/customer.js';
import { control } from '../../support/sandbox.js';
import {
  merchantTakingOrders,
  placeOrder,
  posStatus,
  startOrdersWorld,
  until,
  type OrderSetup,
  type OrdersWorld,
} from '../../support/orders.js';
import { graphqlPost, post, rowsAsText, type TestService } from '../../support/service.js';
import { checkpoint, databaseFiles, occurrences, postgresDataDirectory } from '../../support/database-files.js';

// On PostgreSQL the files are the server's: read where it says they are, if this process may.
const server = process.env.DATABASE_URL;
const postgres = server && providerOf(server) === 'postgresql' ? await postgresDataDirectory(server) : null;
const dataDirectory = postgres && 'dir' in postgres ? postgres.dir : undefined;
const filesUnreadable = postgres && 'unreadable' in postgres ? postgres.unreadable : null;

let world: OrdersWorld;
let service: TestService;
let pos: SandboxPos;
let events: SandboxEventProvider;
let m: OrderSetup;

beforeAll(async () => {
  world = await startOrdersWorld({ env: { RETENTION_DAYS: '90' }, events: true });
  ({ service, pos, merchant: m } = world);
  events = world.events!;
});
afterAll(() => world?.close());

/** A customer no other test names: a name, a phone (and its digits), a loyalty id, an email. */
function someone() {
  const tag = crypto.randomBytes(4).toString('hex');
  const digits = `1555${crypto.randomInt(1_000_000, 10_000_000)}`;
  return { tag, name: `Ottoline Quade ${tag}`, phone: `+${digits}`, digits, loyalty: `loy_${tag}`, email: `ottoline.${tag}@example.com` };
}
type Someone = ReturnType<typeof someone>;
/** What of them must never be in the database in clear. */
const tracesOf = (who: Someone) => [who.name, who.digits, who.loyalty, who.email];

/** An order of theirs, delivered by the merchant (so its event provider gets it), with a short
 * cart: a body PostgreSQL stores as it is, not compressed, so that a customer stored in clear
 * would be found in its files. */
const orderFor = (who: Someone, more: Record<string, unknown> = {}) => ({
  customer: { name: who.name, phone: who.phone, provider_loyalty_id: who.loyalty, email: who.email, masked_phone_code: '77' },
  customers: [{ name: who.name, phone: who.phone }],
  delivery_address: {
    address_line_1: `${who.tag} Analytical Way`,
    city: 'Austin',
    coordinates: { latitude: 30.2671, longitude: -97.7431 },
  },
  special_instructions: `ring ${who.name} at the blue door`,
  items: [
    {
      service_id: 'item_us_fries',
      name: 'Fries',
      quantity: 1,
      price: 450,
      special_instructions: `extra salt for ${who.name}`,
      modifiers: [],
    },
  ],
  subtotal: 450,
  tax: 0,
  driver_tip: 0,
  delivery_fee: 0,
  delivery_fee_tax: 0,
  total: 450,
  fulfillment_type: 'merchant_managed_delivery',
  ...more,
});

const Shown = `query($id: ID!) { order(id: $id) { customer { name phone loyaltyId } items { specialInstructions } order } }`;
/** The order as the partner's dashboard reads it (GraphQL). */
async function shown(orderId: string, token = m.token) {
  const res = await graphqlPost(service.url, token, Shown, { id: orderId });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.order as {
    customer: { name: string; phone: string; loyaltyId: string } | null;
    items: { specialInstructions: string }[];
    order: Record<string, unknown>;
  };
}

/** Every stored copy of an order that could hold its customer (the order, its messages, its
 * records, its key), as stored. */
async function stored(orderId: string): Promise<string> {
  const { db } = service.services;
  return rowsAsText([
    await db.order.findUniqueOrThrow({ where: { id: orderId } }),
    await db.outboxMessage.findMany({ where: { subjectId: orderId } }),
    await db.event.findMany({ where: { subjectId: orderId } }),
    await db.customerKey.findUnique({ where: { orderId } }),
  ]);
}

/** What the service can still read of those copies: each opened with any key it still holds
 * (the order's, or one a message carries). */
async function readable(orderId: string): Promise<string> {
  const { db, sealer } = service.services;
  const order = await db.order.findUniqueOrThrow({ where: { id: orderId } });
  const key = (await db.customerKey.findUnique({ where: { orderId } }))?.sealedKey ?? null;
  const messages = await db.outboxMessage.findMany({ where: { subjectId: orderId } });
  const open = (body: string, carried: string | null) => openCustomer(sealer, JSON.parse(body), carried ?? key);
  return JSON.stringify([
    open(order.body, null),
    messages.map((message) => open(message.body, keyCarried(message.headers))),
    await db.event.findMany({ where: { subjectId: orderId } }),
  ]);
}

/** The calls the POS got about an order, of a type. */
const atPos = (orderId: string, type: string) =>
  pos.received
    .filter((r) => r.path === '/v1/orders' && (r.body as { type?: string }).type === type)
    .map((r) => (r.body as { object: Record<string, any> }).object)
    .filter((object) => object.id === orderId);
/** Waits until a message about the order is taken by its peer (its idempotency key). */
const delivered = (key: string) =>
  until(() => service.services.db.outboxMessage.findFirst({ where: { idempotencyKey: key, status: 'delivered' } }));

test('the POS, the event provider and the dashboard get the customer in clear, stored sealed; erased while open, the message that ends the order and every read after it say "redacted"', async () => {
  const who = someone();
  const placed = await placeOrder(pos, m.storeId, orderFor(who));
  expect(placed.status).toBe(201);
  const orderId = placed.body.order_id!;
  // The POS and the event provider took the order, the customer in clear, signed as sent.
  await delivered(`order.created:${orderId}`);
  const [created] = atPos(orderId, 'order.created');
  expect(created).toMatchObject({
    customer: { name: who.name, phone: who.phone, provider_loyalty_id: who.loyalty, email: who.email },
    delivery_address: { address_line_1: `${who.tag} Analytical Way`, coordinates: { latitude: 30.2671 } },
    special_instructions: `ring ${who.name} at the blue door`,
    items: [{ special_instructions: `extra salt for ${who.name}` }],
    location_id: `loc_2_${m.tid}`,
  });
  expect(created).not.toHaveProperty('sealed_customer');
  await delivered(`order.confirmed:${orderId}`);
  const confirmed = events.received.find((r) => (r.body as { reference_id?: string }).reference_id === orderId)!;
  expect((confirmed.body as { order: Record<string, any> }).order.customer).toMatchObject({ name: who.name, phone: who.phone });
  expect(confirmed.headers).not.toHaveProperty('x-sealed-customer-key');
  // The driver the event provider assigned goes to the POS with the customer (its key read then).
  const withDriver = await until(() => atPos(orderId, 'order.updated').find((object) => object.driver_details));
  expect(withDriver.customer).toMatchObject({ name: who.name, phone: who.phone });
  // The dashboard reads it whole.
  expect(await shown(orderId)).toMatchObject({
    customer: { name: who.name, phone: who.phone, loyaltyId: who.loyalty },
    items: [{ specialInstructions: `extra salt for ${who.name}` }],
    order: { customer: { email: who.email }, special_instructions: `ring ${who.name} at the blue door` },
  });
  // Stored, nothing of it is in clear: the order, its messages, its records, its look-up.
  const copies = await stored(orderId);
  for (const trace of tracesOf(who)) expect({ trace, stored: copies.includes(trace) }).toEqual({ trace, stored: false });
  expect(await readable(orderId)).toContain(who.name);

  // Erased while the order is open: it keeps its customer until it ends.
  const erased = await post(service.url, '/v1/privacy/erasures', { org_id: m.orgId, provider_loyalty_id: who.loyalty }, m.token);
  expect(erased).toMatchObject({ status: 200, body: { orders_redacted: 0, orders_pending: 1 } });
  expect((await shown(orderId)).customer!.name).toBe(who.name);
  // The DSP cancels it: the POS hears of it after the key is gone, so without the customer.
  const canceled = await control(pos, 'orders/cancel', { dsp_store_id: m.storeId, dsp_order_id: placed.dsp_order_id });
  expect(canceled.status).toBe(200);
  await delivered(`order.canceled:${orderId}`);
  const [told] = atPos(orderId, 'order.updated').filter((object) => object.status === 'dsp_canceled');
  expect(told!.customer).toMatchObject({ name: 'redacted', phone: 'redacted', email: 'redacted' });
  expect(told!.special_instructions).toBe('redacted');
  expect(told).not.toHaveProperty('sealed_customer');
  expect(await shown(orderId)).toMatchObject({
    customer: { name: 'redacted', phone: 'redacted', loyaltyId: 'redacted' },
    items: [{ specialInstructions: 'redacted' }],
    order: { customer: { email: 'redacted' }, special_instructions: 'redacted' },
  });
  expect(await service.services.db.customerKey.count({ where: { orderId } })).toBe(0);
  for (const trace of tracesOf(who)) expect(await readable(orderId)).not.toContain(trace);
});

test("an erasure finds a customer's orders by keyed digests of their phone and loyalty id, at their organization only", async () => {
  const who = someone();
  const other = await merchantTakingOrders(service);
  const pickup = { fulfillment_type: 'pickup' };
  const [first, second] = [
    await placeOrder(pos, m.storeId, orderFor(who, pickup)),
    await placeOrder(pos, m.storeId, orderFor(who, pickup)),
  ];
  const elsewhere = await placeOrder(pos, other.storeId, orderFor(who, pickup));
  const ids = [first, second, elsewhere].map((placed) => placed.body.order_id!);
  for (const id of ids) await delivered(`order.created:${id}`);
  for (const id of ids) expect((await posStatus(pos, id, 'completed')).status).toBe(200);
  // The look-up holds digests, never the digits or the loyalty id: the same at one merchant, another at the next.
  const rows = await service.services.db.order.findMany({
    where: { id: { in: ids } },
    select: { id: true, customerPhone: true, customerLoyaltyId: true },
  });
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const row of rows) expect(JSON.stringify(row)).not.toMatch(new RegExp(`${who.digits.slice(-7)}|${who.loyalty}`));
  expect(byId.get(ids[0]!)!.customerPhone).toBe(byId.get(ids[1]!)!.customerPhone);
  expect(byId.get(ids[0]!)!.customerPhone).not.toBe(byId.get(ids[2]!)!.customerPhone);

  // By phone, written another way: both orders at this merchant.
  const written = `+1 (555) ${who.digits.slice(4, 7)}-${who.digits.slice(7)}`;
  const byPhone = await post(service.url, '/v1/privacy/erasures', { org_id: m.orgId, phone: written }, m.token);
  expect(byPhone).toMatchObject({ status: 200, body: { orders_redacted: 2, orders_pending: 0 } });
  for (const id of ids.slice(0, 2)) expect((await shown(id)).customer!.name).toBe('redacted');
  // The other merchant's order of the same customer is theirs to erase: found there by loyalty id.
  expect((await shown(ids[2]!, other.token)).customer!.name).toBe(who.name);
  const byLoyalty = await post(service.url, '/v1/privacy/erasures', { org_id: other.orgId, provider_loyalty_id: who.loyalty }, other.token);
  expect(byLoyalty).toMatchObject({ status: 200, body: { orders_redacted: 1, orders_pending: 0 } });
  expect((await shown(ids[2]!, other.token)).customer!.name).toBe('redacted');
});

(filesUnreadable ? test.skip : test)(
  `the database's files never hold the customer in clear: after a checkpoint, before the erasure and after it${filesUnreadable ? ` (skipped: ${filesUnreadable})` : ''}`,
  async () => {
    const who = someone();
    const placed = await placeOrder(pos, m.storeId, orderFor(who));
    const orderId = placed.body.order_id!;
    await delivered(`order.confirmed:${orderId}`);
    expect(atPos(orderId, 'order.created')[0]!.customer.name).toBe(who.name);
    expect((await posStatus(pos, orderId, 'completed')).status).toBe(200);
    const look = async () => {
      await checkpoint(service);
      const files = await databaseFiles(service, dataDirectory);
      // The scan finds what is there: the order's id.
      expect(occurrences(files, [orderId])[orderId]).toBeGreaterThan(0);
      return occurrences(files, tracesOf(who));
    };
    const none = Object.fromEntries(tracesOf(who).map((trace) => [trace, 0]));
    expect(await look()).toEqual(none);

    const erased = await post(service.url, '/v1/privacy/erasures', { org_id: m.orgId, phone: who.phone }, m.token);
    expect(erased).toMatchObject({ status: 200, body: { orders_redacted: 1 } });
    expect(await look()).toEqual(none);
    expect(await service.services.db.customerKey.count({ where: { orderId } })).toBe(0);
  },
);

test("an erasure takes what names or locates the customer from every copy the service can read, nested fields and the event provider's copy included, and a backup after it holds none of it", async () => {
  const who = someone();
  const placed = await placeOrder(pos, m.storeId, orderFor(who, { fulfillment_instructions: `leave it with ${who.name}` }));
  const orderId = placed.body.order_id!;
  await delivered(`order.confirmed:${orderId}`);
  expect((await posStatus(pos, orderId, 'completed')).status).toBe(200);
  expect(await readable(orderId)).toContain(who.email);

  const erased = await post(service.url, '/v1/privacy/erasures', { org_id: m.orgId, phone: who.phone }, m.token);
  expect(erased).toMatchObject({ status: 200, body: { orders_redacted: 1 } });
  for (const trace of [...tracesOf(who), '30.2671', 'blue door', 'Analytical']) expect(await readable(orderId)).not.toContain(trace);
  // The order's items are still there to be made sense of, only what named the customer went.
  expect(await readable(orderId)).toContain('item_us_fries');
  expect(await stored(orderId)).not.toContain('sealed_customer');

  if (providerOf(service.database.url) === 'sqlite') {
    const file = sqliteFile(service.database.url);
    const copy = path.join(service.database.dataDir, `after-erasure-${Date.now()}.db`);
    await backupDatabase(file, copy);
    const found = occurrences([copy], [orderId, ...tracesOf(who)]);
    expect(found[orderId]).toBeGreaterThan(0);
    for (const trace of tracesOf(who)) expect({ trace, found: found[trace] }).toEqual({ trace, found: 0 });
  }
});

describe('redacted at once when ended, when it ends when open, after RETENTION_DAYS', () => {
  const customer = (phone: string, loyalty: string) => ({
    customer: { name: 'Ada Byron', phone, provider_loyalty_id: loyalty, masked_phone_code: '77' },
    customers: [{ name: 'Ada Byron', phone, provider_loyalty_id: loyalty, masked_phone_code: '77' }],
    delivery_address: { address_line_1: '12 Analytical Way', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
    fulfillment_type: 'pickup',
  });
  let someoneElse: string;

  test("an erasure redacts the customer's final orders at once and an open one when it ends, everywhere it is kept", async () => {
    const done = await placeOrder(pos, m.storeId, customer('+1 (512) 555-0199', 'loy_ada'));
    const open = await placeOrder(pos, m.storeId, customer('+15125550199', 'loy_other'));
    const other = await placeOrder(pos, m.storeId, customer('+15125550100', 'loy_else'));
    someoneElse = other.body.order_id!;
    for (const placed of [done, open, other]) await delivered(`order.created:${placed.body.order_id}`);
    expect((await posStatus(pos, done.body.order_id!, 'completed')).status).toBe(200);
    expect(await readable(done.body.order_id!)).toContain('Ada Byron');

    const erased = await post(service.url, '/v1/privacy/erasures', { org_id: m.orgId, phone: '1 512 555 0199' }, m.token);
    expect(erased).toMatchObject({ status: 200, body: { orders_redacted: 1, orders_pending: 1 } });
    for (const leaked of ['Ada Byron', '0199', 'loy_ada', 'Analytical']) expect(await readable(done.body.order_id!)).not.toContain(leaked);
    expect(await readable(done.body.order_id!)).toContain('redacted');
    // The open one keeps its data while it is made, and loses it when it ends.
    expect(await readable(open.body.order_id!)).toContain('Ada Byron');
    expect((await posStatus(pos, open.body.order_id!, 'merchant_canceled')).status).toBe(200);
    for (const leaked of ['Ada Byron', '0199', 'loy_other', 'Analytical'])
      expect(await readable(open.body.order_id!)).not.toContain(leaked);
    // Another customer's order is untouched.
    expect(await readable(someoneElse)).toContain('Ada Byron');
    // The record says who asked and how many, never whose data.
    const record = await service.services.db.erasure.findFirstOrThrow({ where: { orgId: m.orgId, ordersRedacted: 1, ordersPending: 1 } });
    expect(record).toMatchObject({ ordersRedacted: 1, ordersPending: 1 });
    expect(JSON.stringify(record)).not.toContain('0199');
    // The dashboard's order shows it redacted.
    expect((await shown(done.body.order_id!)).customer).toMatchObject({ name: 'redacted', phone: 'redacted' });
  });

  test('an erasure names a customer and an organization of the caller', async () => {
    expect((await post(service.url, '/v1/privacy/erasures', { org_id: m.orgId }, m.token)).status).toBe(400);
    const other = await service.partner();
    const refused = await post(service.url, '/v1/privacy/erasures', { org_id: m.orgId, phone: '+15125550100' }, other.token);
    expect(refused.status).toBe(404);
    expect(await readable(someoneElse)).toContain('Ada Byron');
  });

  test('RETENTION_DAYS after it ended an order loses its customer data (moved back, not waited for); open and recent ones keep it', async () => {
    const old = await placeOrder(pos, m.storeId, customer('+15125550111', 'loy_old'));
    const recent = await placeOrder(pos, m.storeId, customer('+15125550112', 'loy_recent'));
    const stillOpen = await placeOrder(pos, m.storeId, customer('+15125550113', 'loy_open'));
    for (const placed of [old, recent, stillOpen]) await delivered(`order.created:${placed.body.order_id}`);
    for (const placed of [old, recent]) expect((await posStatus(pos, placed.body.order_id!, 'completed')).status).toBe(200);
    // The old one ended 91 days ago; the open one was placed that long ago but has not ended.
    const longAgo = new Date(Date.now() - 91 * 86_400_000);
    await service.services.db.order.update({ where: { id: old.body.order_id! }, data: { endedAt: longAgo, updatedAt: longAgo } });
    await service.services.db.order.update({ where: { id: stillOpen.body.order_id! }, data: { createdAt: longAgo, updatedAt: longAgo } });
    await service.housekeeping.redact();
    expect(await readable(old.body.order_id!)).not.toContain('Ada Byron');
    expect(await service.services.db.customerKey.count({ where: { orderId: old.body.order_id! } })).toBe(0);
    expect(await readable(recent.body.order_id!)).toContain('Ada Byron');
    expect(await readable(stillOpen.body.order_id!)).toContain('Ada Byron');
    // Twice changes nothing more.
    const before = await stored(old.body.order_id!);
    await service.housekeeping.redact();
    expect(await stored(old.body.order_id!)).toBe(before);
  });
});
