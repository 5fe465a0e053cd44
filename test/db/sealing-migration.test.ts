// A database as the service wrote it before customers were sealed: migrated up to the migration
// before 20261129150000_sealed_customers, its orders and their messages holding their customers in
// clear (the erasure look-up as the phone's digits and the loyalty id), then started as this
// version starts. Then nothing of a customer is stored in clear any more (on SQLite, not even in
// the files); the dashboard reads them as before, a message still to be sent opens to what the
// POS got before, an erasure finds the orders by phone; and a second start seals nothing again.
// On SQLite, and on PostgreSQL when DATABASE_URL points at a server.
import crypto from 'node:crypto';
import type { Db } from '../../src/db/client.js';
import { providerOf, sqliteFile } from '../../src/db/url.js';
import { startService, type RunningService } from '../../src/app/service.js';
import { createPartner } from '../../src/modules/auth/service.js';
import { lookupOf, openMessage } from '../../src/modules/privacy/customer.js';
import { redactJson } from '../../src/modules/privacy/redact.js';
import {
  clientToken,
  databaseThrough,
  graphqlPost,
  insertBefore,
  rowsAsText,
  post,
  testConfig,
  type TestDatabase,
} from '../support/service.js';
import { occurrences } from '../support/database-files.js';

/** The migration before the sealing: the database as the previous version left it. */
const BEFORE = '20261128120000_provider_name';

const customer = { name: 'Jamie Rivera', phone: '+1 512 555 0123', provider_loyalty_id: 'loy_1001', masked_phone_code: '4821' };
const traces = ['Jamie Rivera', '5550123', 'loy_1001', '500 E 4th St'];
/** The previous version's order, as stored. */
const oldOrder = (id: string) => ({
  id,
  dsp_order_id: id,
  customer,
  customers: [customer],
  delivery_address: { address_line_1: '500 E 4th St', city: 'Austin' },
  special_instructions: 'No cutlery',
  currency: 'usd',
  total: 450,
  items: [{ service_id: 'item_us_fries', name: 'Fries', quantity: 1, price: 450 }],
});

let database: TestDatabase;
let partner: { partnerId: string; clientId: string; clientSecret: string };
const ids = { org: '', ended: '', open: '', redacted: '', unbound: '', message: '' };
const id = (prefix: string) => `${prefix}_${crypto.randomBytes(6).toString('hex')}`;

/** Writes what the previous version wrote: an organization's orders (ended, open, redacted) and
 * one of no organization, and the open one's order.created to its POS, dead (the POS was down). */
async function fillAsBefore(db: Db): Promise<void> {
  partner = await createPartner(db, { name: 'partner before sealing' });
  ids.org = id('org');
  await db.organization.create({ data: { id: ids.org, partnerId: partner.partnerId, name: 'Grill', providerId: 'grill-before' } });
  const order = (key: 'ended' | 'open' | 'redacted' | 'unbound', more: Record<string, string | Date>) => {
    ids[key] = id('ord');
    const body = key === 'redacted' ? redactJson(oldOrder(ids[key])) : oldOrder(ids[key]);
    return insertBefore(db, 'Order', {
      id: ids[key],
      partnerId: key === 'unbound' ? null : partner.partnerId,
      orgId: key === 'unbound' ? null : ids.org,
      dspSource: 'sandbox-dsp',
      dspStoreId: 'store_old',
      dspOrderId: `dsp_${ids[key]}`,
      body: JSON.stringify(body),
      customerPhone: key === 'redacted' || key === 'unbound' ? null : '15125550123',
      customerLoyaltyId: key === 'redacted' || key === 'unbound' ? null : 'loy_1001',
      ...more,
    });
  };
  await order('ended', { status: 'completed', endedAt: new Date() });
  await order('open', { status: 'in_progress' });
  await order('redacted', { status: 'completed', endedAt: new Date(), redactedAt: new Date() });
  await order('unbound', { status: 'failed', endedAt: new Date() });
  ids.message = id('msg');
  await insertBefore(db, 'OutboxMessage', {
    id: ids.message,
    partnerId: partner.partnerId,
    orgId: ids.org,
    kind: 'order.created',
    source: 'sandbox-pos',
    operation: 'orders',
    body: JSON.stringify({ type: 'order.created', object: { ...oldOrder(ids.open), id: ids.open, location_id: 'loc_1' } }),
    headers: JSON.stringify({ 'x-provider-location-id': 'loc_1' }),
    idempotencyKey: `order.created:${ids.open}`,
    subjectId: ids.open,
    status: 'dead',
  });
}

beforeAll(async () => {
  database = await databaseThrough(BEFORE, fillAsBefore);
});
afterAll(() => database?.drop());

/** This version started on the database. */
async function started(look: (service: RunningService, token: string) => Promise<void>) {
  const service = await startService(testConfig(database));
  try {
    await look(service, await clientToken(service.url, partner.clientId, partner.clientSecret));
  } finally {
    await service.close();
  }
}

/** Every order and message, as stored. */
async function everything(db: Db): Promise<string> {
  return rowsAsText([await db.order.findMany({ orderBy: { id: 'asc' } }), await db.outboxMessage.findMany({ orderBy: { id: 'asc' } })]);
}
let sealedOnce: string;

test('a database of the previous version, started: its customers sealed, read and sent as before, found by an erasure', async () => {
  await started(async (service, token) => {
    const { db, sealer } = service.services;
    const stored = await everything(db);
    for (const trace of traces) expect({ trace, stored: stored.includes(trace) }).toEqual({ trace, stored: false });
    expect(await db.customerSealing.count()).toBe(0);
    // A key for each order that had a customer; none for the one redacted before.
    const keys = await db.customerKey.findMany({ select: { orderId: true } });
    expect(keys.map((key) => key.orderId).sort()).toEqual([ids.ended, ids.open, ids.unbound].sort());
    // The look-up is the organization's digests; an order of none has none.
    const ended = await db.order.findUniqueOrThrow({ where: { id: ids.ended } });
    expect(ended).toMatchObject(lookupOf(sealer, ids.org, { phone: '15125550123', loyaltyId: 'loy_1001' }));
    expect(await db.order.findUniqueOrThrow({ where: { id: ids.unbound } })).toMatchObject({
      customerPhone: null,
      customerLoyaltyId: null,
    });
    sealedOnce = await everything(db);
    if (providerOf(database.url) === 'sqlite') {
      // Nor in the database's file or its log: what the sealing overwrote is zeroed.
      const file = sqliteFile(database.url);
      expect(occurrences([file, `${file}-wal`], traces)).toEqual(Object.fromEntries(traces.map((trace) => [trace, 0])));
    }

    // The dashboard reads the customer as before.
    const shown = await graphqlPost(service.url, token, `query($id: ID!) { order(id: $id) { customer { name phone loyaltyId } } }`, {
      id: ids.ended,
    });
    expect(shown.body.data.order.customer).toEqual({ name: 'Jamie Rivera', phone: '+1 512 555 0123', loyaltyId: 'loy_1001' });
    // The message still to be sent carries the order's key, and opens to what the POS was to get.
    const message = await db.outboxMessage.findUniqueOrThrow({ where: { id: ids.message } });
    const sent = openMessage(sealer, { body: message.body, headers: JSON.parse(message.headers!) });
    expect(JSON.parse(sent.body)).toEqual({ type: 'order.created', object: { ...oldOrder(ids.open), id: ids.open, location_id: 'loc_1' } });
    expect(sent.headers).toEqual({ 'x-provider-location-id': 'loc_1' });
    // An erasure finds the customer's orders by their phone: the ended one now, the open one when it ends.
    const erased = await post(service.url, '/v1/privacy/erasures', { org_id: ids.org, phone: '+1 (512) 555-0123' }, token);
    expect(erased).toMatchObject({ status: 200, body: { orders_redacted: 1, orders_pending: 1 } });
    expect(await db.customerKey.count({ where: { orderId: ids.ended } })).toBe(0);
  });
});

test('started again: nothing is sealed twice', async () => {
  await started(async (service) => {
    const { db } = service.services;
    const now = JSON.parse(await everything(db)) as [{ id: string; body: string }[], { id: string; body: string; headers: string }[]];
    const before = JSON.parse(sealedOnce) as typeof now;
    // Only the erasure changed the ended order since; the others are as the first start sealed them.
    const others = <R extends { id: string }>(rows: R[]) => rows.filter((row) => row.id !== ids.ended);
    expect(others(now[0]).map((o) => o.body)).toEqual(others(before[0]).map((o) => o.body));
    expect(now[1].map((m) => [m.body, m.headers])).toEqual(before[1].map((m) => [m.body, m.headers]));
  });
});
