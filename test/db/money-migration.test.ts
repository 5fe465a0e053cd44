// A database as the service wrote it before money became whole numbers of the currency's smallest
// unit (docs/reference.md § Money): migrated up to the migration before the one that converts it,
// filled as that version filled it (prices and totals in major units: 11.99, 36.18), then started
// as this version starts. Through the service it shows the same prices as before, now in the
// smallest unit (1199, 3618), in every currency by its own decimals; a message still to be sent
// goes with them converted; and a second start converts nothing again. On SQLite, and on
// PostgreSQL when DATABASE_URL points at a server.
import crypto from 'node:crypto';
import type { Db } from '../../src/db/client.js';
import { MONEY_MIGRATION } from '../../src/db/money-conversion.js';
import { startService } from '../../src/app/service.js';
import { createPartner } from '../../src/modules/auth/service.js';
import { deCatalog, jpCatalog, usCatalog } from '../../src/sandbox/pos/catalogs.js';
import { majorUnits, minorUnitDigits } from '../../src/common/money.js';
import { clientToken, databaseThrough, insertBefore, request, testConfig, type TestDatabase } from '../support/service.js';

/** The migration before the conversion: the database as the previous version left it. */
const BEFORE = '20261126180000_order_ended';

/** A sandbox catalog as the previous version's sandbox POS served it: its prices in major units. */
function inMajorUnits(catalog: ReturnType<typeof usCatalog>) {
  const factor = 10 ** minorUnitDigits(catalog.currency);
  const major = <E extends { price: number }>(e: E): E => ({ ...e, price: e.price / factor });
  return { ...catalog, item: catalog.item.map(major), modifier: catalog.modifier.map(major) };
}

/** The previous version's sandbox order (src/sandbox/pos/server.ts then), as stored. */
const oldOrder = (id: string, more: Record<string, unknown> = {}) => ({
  id,
  dsp_order_id: id,
  dsp_store_id: 'store_old_austin',
  customer: { name: 'Jamie Rivera', phone: '+15125550123' },
  currency: 'usd',
  fulfillment_type: 'pickup',
  subtotal: 26.73,
  tax: 2.21,
  driver_tip: 4,
  delivery_fee: 2.99,
  delivery_fee_tax: 0.25,
  total: 36.18,
  items: [
    {
      service_id: 'item_us_classic',
      name: 'Classic Burger',
      quantity: 2,
      price: 11.99,
      modifiers: [
        { service_id: 'mod_us_medium', name: 'Medium', quantity: 1, price: 0, modifiers: [] },
        {
          service_id: 'mod_us_cheese',
          name: 'Extra cheese',
          quantity: 1,
          price: 1.25,
          modifiers: [{ service_id: 'mod_us_swiss', name: 'Swiss', quantity: 1, price: 0, modifiers: [] }],
        },
      ],
    },
    { service_id: 'item_us_fries', name: 'Fries', quantity: 1, price: 4.5, modifiers: [] },
  ],
  unpaid: false,
  cash_amount_due: 0,
  ...more,
});

let database: TestDatabase;
let partner: { partnerId: string; clientId: string; clientSecret: string };
const ids = { org: '', us: '', de: '', jp: '', usOrder: '', deOrder: '', jpOrder: '', kwdOrder: '', message: '' };
const catalogs = { us: inMajorUnits(usCatalog()), de: inMajorUnits(deCatalog()), jp: inMajorUnits(jpCatalog()) };

/** Writes what the previous version wrote: an organization with a location in dollars, one in
 * euros and one in yen, a catalog version of each, orders, and an order still to be sent to its POS. */
async function fillAsBefore(db: Db): Promise<void> {
  const created = await createPartner(db, { name: 'partner before money' });
  partner = created;
  const id = (prefix: string) => `${prefix}_${crypto.randomBytes(6).toString('hex')}`;
  ids.org = id('org');
  await insertBefore(db, 'Organization', { id: ids.org, partnerId: created.partnerId, name: 'Grill', providerId: 'grill-before' });
  const onboarding = id('onb');
  await insertBefore(db, 'Onboarding', {
    id: onboarding,
    partnerId: created.partnerId,
    orgId: ids.org,
    type: 'pos',
    source: 'sandbox-pos',
    status: 'active',
    returnUrl: 'https://p.example',
  });
  for (const [key, catalog] of Object.entries(catalogs) as ['us' | 'de' | 'jp', typeof catalogs.us][]) {
    ids[key] = id('loc');
    await insertBefore(db, 'Location', {
      id: ids[key],
      partnerId: created.partnerId,
      orgId: ids.org,
      onboardingId: onboarding,
      source: 'sandbox-pos',
      providerId: `loc_${key}`,
      activeProviderId: `loc_${key}`,
      name: `Grill ${key}`,
      address: '{}',
    });
    await insertBefore(db, 'CatalogVersion', { id: id('cat'), locationId: ids[key], version: 1, body: JSON.stringify(catalog) });
  }
  const order = async (key: 'usOrder' | 'deOrder' | 'jpOrder' | 'kwdOrder', locationId: string, body: Record<string, unknown>) => {
    ids[key] = id('ord');
    await insertBefore(db, 'Order', {
      id: ids[key],
      partnerId: created.partnerId,
      orgId: ids.org,
      locationId,
      dspSource: 'sandbox-dsp',
      dspStoreId: 'store_old',
      dspOrderId: `dsp_${ids[key]}`,
      status: 'completed',
      fulfillmentType: 'pickup',
      posOrderId: `pos_${ids[key]}`,
      body: JSON.stringify(body),
    });
  };
  await order('usOrder', ids.us, oldOrder('dsp_us'));
  await order(
    'deOrder',
    ids.de,
    oldOrder('dsp_de', {
      currency: 'eur',
      subtotal: 24.3,
      total: 29.29,
      items: [{ service_id: 'item_de_schnitzel', quantity: 1, price: 18.9 }],
    }),
  );
  // An order that named no currency, at the location in yen: its amounts are yen already.
  await order(
    'jpOrder',
    ids.jp,
    oldOrder('dsp_jp', {
      currency: undefined,
      subtotal: 2180,
      total: 2530,
      items: [{ service_id: 'item_jp_teriyaki', quantity: 1, price: 1280 }],
    }),
  );
  // Kuwaiti dinars have three decimals: 1.5 KD is 1500 fils.
  await order(
    'kwdOrder',
    ids.us,
    oldOrder('dsp_kwd', { currency: 'KWD', subtotal: 1.5, total: 1.75, items: [{ service_id: 'x', quantity: 1, price: 1.5 }] }),
  );
  // The US order still on its way to the POS (the POS was down): it goes later, converted.
  ids.message = id('msg');
  await insertBefore(db, 'OutboxMessage', {
    id: ids.message,
    partnerId: created.partnerId,
    orgId: ids.org,
    kind: 'order.created',
    source: 'sandbox-pos',
    onboardingId: onboarding,
    operation: 'orders',
    body: JSON.stringify({ type: 'order.created', object: { ...oldOrder('dsp_us'), id: ids.usOrder, location_id: 'loc_us' } }),
    idempotencyKey: `order.created:${ids.usOrder}`,
    subjectId: ids.usOrder,
    status: 'dead',
  });
}

beforeAll(async () => {
  database = await databaseThrough(BEFORE, async (db) => {
    // The conversion is not there yet: the database is the previous version's.
    const applied = await db.$queryRawUnsafe<{ migration_name: string }[]>('SELECT "migration_name" FROM "_prisma_migrations"');
    expect(applied.map((m) => m.migration_name)).toContain(BEFORE);
    expect(applied.map((m) => m.migration_name)).not.toContain(MONEY_MIGRATION);
    await fillAsBefore(db);
  });
});
afterAll(() => database?.drop());

/** This version started on the database; `look` reads it through the service. */
async function started(look: (base: string, token: string, db: Db) => Promise<void>) {
  const service = await startService(testConfig(database));
  try {
    await look(service.url, await clientToken(service.url, partner.clientId, partner.clientSecret), service.services.db);
  } finally {
    await service.close();
  }
}

const Catalogs = `query($o: ID!) { organizationLocations(orgId: $o) { locations { id catalog { currency items { providerId price { amount currency } } modifiers { providerId price { amount currency } } } } } }`;
const Order = `query($id: ID!) { order(id: $id) { currency subtotal { amount currency } total { amount currency } items { price { amount } modifiers { price { amount } modifiers { price { amount } } } } order } }`;

async function readThrough(base: string, token: string) {
  const graphql = async (query: string, variables: Record<string, unknown>) => {
    const res = await request(base, 'POST', '/graphql', { token, body: { query, variables } });
    expect(res.body.errors).toBeUndefined();
    return res.body.data;
  };
  const { organizationLocations } = await graphql(Catalogs, { o: ids.org });
  const orders = Object.fromEntries(
    await Promise.all(
      (['usOrder', 'deOrder', 'jpOrder', 'kwdOrder'] as const).map(async (key) => [key, (await graphql(Order, { id: ids[key] })).order]),
    ),
  );
  return { locations: organizationLocations.locations as { id: string; catalog: any[] }[], orders };
}

test('a database of the previous version, upgraded: the same prices as before, in the smallest unit of each currency', async () => {
  await started(async (base, token, db) => {
    const { locations, orders } = await readThrough(base, token);
    // Every catalog price is the one the POS had, in its currency's smallest unit: $11.99 is 1199,
    // 18,90 € is 1890, ¥1,280 is 1280.
    for (const [key, before] of Object.entries(catalogs) as ['us' | 'de' | 'jp', typeof catalogs.us][]) {
      const catalog = locations.find((l) => l.id === ids[key])!.catalog[0];
      const digits = minorUnitDigits(before.currency);
      expect(catalog.currency).toBe(before.currency);
      for (const list of ['item', 'modifier'] as const) {
        const shown = catalog[list === 'item' ? 'items' : 'modifiers'] as {
          providerId: string;
          price: { amount: number; currency: string };
        }[];
        expect(shown).toHaveLength(before[list].length);
        for (const element of before[list]) {
          const price = shown.find((e) => e.providerId === element.provider_id)!.price;
          expect(price.currency).toBe(before.currency);
          expect(Number.isInteger(price.amount)).toBe(true);
          expect(majorUnits(price.amount, digits)).toBe(element.price.toFixed(digits));
        }
      }
    }
    expect(locations.find((l) => l.id === ids.us)!.catalog[0].items[0]).toEqual({
      providerId: 'item_us_classic',
      price: { amount: 1199, currency: 'usd' },
    });
    // Orders: every amount, every item's and modifier's price.
    expect(orders.usOrder).toMatchObject({
      currency: 'usd',
      subtotal: { amount: 2673, currency: 'usd' },
      total: { amount: 3618, currency: 'usd' },
      items: [
        {
          price: { amount: 1199 },
          modifiers: [{ price: { amount: 0 } }, { price: { amount: 125 }, modifiers: [{ price: { amount: 0 } }] }],
        },
        { price: { amount: 450 } },
      ],
      order: { tax: 221, driver_tip: 400, delivery_fee: 299, delivery_fee_tax: 25, total: 3618, cash_amount_due: 0 },
    });
    expect(orders.deOrder).toMatchObject({
      currency: 'eur',
      subtotal: { amount: 2430 },
      total: { amount: 2929, currency: 'eur' },
      items: [{ price: { amount: 1890 } }],
    });
    expect(orders.jpOrder).toMatchObject({
      currency: 'jpy',
      subtotal: { amount: 2180 },
      total: { amount: 2530, currency: 'jpy' },
      items: [{ price: { amount: 1280 } }],
    });
    expect(orders.kwdOrder).toMatchObject({
      currency: 'kwd',
      subtotal: { amount: 1500, currency: 'kwd' },
      total: { amount: 1750 },
      items: [{ price: { amount: 1500 } }],
    });
    // The message still to be sent carries the order converted, as the POS will get it.
    const message = await db.outboxMessage.findUniqueOrThrow({ where: { id: ids.message } });
    expect(JSON.parse(message.body).object).toMatchObject({
      currency: 'usd',
      subtotal: 2673,
      total: 3618,
      items: [{ price: 1199 }, { price: 450 }],
    });
    expect(await db.moneyConversion.count()).toBe(0);
  });
});

test('started again: nothing is converted twice', async () => {
  await started(async (base, token) => {
    const { locations, orders } = await readThrough(base, token);
    expect(locations.find((l) => l.id === ids.us)!.catalog[0].items[0].price).toEqual({ amount: 1199, currency: 'usd' });
    expect(orders.usOrder.total).toEqual({ amount: 3618, currency: 'usd' });
    expect(orders.kwdOrder.total.amount).toBe(1750);
  });
});
