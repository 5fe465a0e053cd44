// The conversion of amounts stored in major units (11.99) to whole numbers of each currency's
// smallest unit (1199), once, for the data stored before money became so (docs/reference.md
// § Money): the migration 20261127120000_money_in_minor_units lists the tables that hold such
// rows (MoneyConversion), and the start-up converts them before the service serves, a batch at a
// time. Each batch converts its rows and moves its table's cursor in one transaction, and the
// cursor row is locked while it does: a start that dies midway goes on where it stopped, two
// instances starting at once convert each row once, and nothing is converted twice. Written in
// plain SQL on its own connection, as the migrations are, for either database.
//
// A currency's decimals are the platform's (common/money.ts, Intl): usd and eur 2, jpy 0, kwd 3.
// An amount whose currency is not known (an order that named none, at a location whose catalog
// named none) is taken to have 2, as most currencies do. The shapes converted are those the
// service stored until then, frozen here as a migration's are.
import { createRequire } from 'node:module';
import pg from 'pg';
import { isCurrency, minorUnitDigits } from '../common/money.js';
import { pgConfig } from './adapters.js';
import { providerOf, sqliteFile } from './url.js';

const require = createRequire(import.meta.url);

/** The migration that lists the tables to convert: none is until it is applied. */
export const MONEY_MIGRATION = '20261127120000_money_in_minor_units';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A currency as it is stored from now on (lower-case), when it is one. */
const currencyOf = (value: unknown): string | null =>
  typeof value === 'string' && isCurrency(value.toLowerCase()) ? value.toLowerCase() : null;

/** An amount in major units as a whole number of the smallest unit, rounded to the nearest. The
 * decimal shift is made on the number's text (11.99 → "11.99e2"), so that no float rounds it
 * (11.99 * 100 is 1198.9999999999998). Anything but a number is left as it was. */
export function inMinorUnits(value: unknown, digits: number): unknown {
  if (typeof value !== 'number' || !Number.isFinite(value)) return value;
  const text = String(value);
  const shifted = text.includes('e') ? value * 10 ** digits : Number(`${text}e${digits}`);
  return Math.round(shifted) + 0;
}

/** Writes an object's currency in lower case, or, when it names none, the one it was in (its
 * location's), as new orders carry it; its decimals (2 when neither is known). */
function decimalsOf(object: Json, fallback: string | null): number {
  const currency = currencyOf(object.currency) ?? (object.currency === undefined || object.currency === null ? fallback : null);
  if (currency) object.currency = currency;
  return currency ? minorUnitDigits(currency) : 2;
}

/** A catalog's prices: each item's and modifier's. */
export function convertCatalog(catalog: Json): void {
  const digits = decimalsOf(catalog, null);
  for (const list of ['item', 'modifier']) {
    const elements = catalog[list];
    if (!Array.isArray(elements)) continue;
    for (const element of elements) if (isObject(element) && 'price' in element) element.price = inMinorUnits(element.price, digits);
  }
}

/** The amounts the order object carried (until then: the order's, and each item's and modifier's price). */
const ORDER_AMOUNTS = ['subtotal', 'tax', 'driver_tip', 'delivery_fee', 'delivery_fee_tax', 'total', 'cash_amount_due'];

/** An order object's amounts and prices, its modifiers at any depth. */
export function convertOrder(order: Json, fallbackCurrency: string | null): void {
  const digits = decimalsOf(order, fallbackCurrency);
  for (const field of ORDER_AMOUNTS) if (field in order) order[field] = inMinorUnits(order[field], digits);
  const lines: unknown[] = Array.isArray(order.items) ? [...order.items] : [];
  while (lines.length) {
    const line = lines.pop();
    if (!isObject(line)) continue;
    if ('price' in line) line.price = inMinorUnits(line.price, digits);
    if (Array.isArray(line.modifiers)) lines.push(...line.modifiers);
  }
}

/** Where a message not yet delivered carries amounts, by its kind: an order to a POS or an event
 * provider, a catalog to a DSP. */
const CARRIED: Record<string, (body: Json) => { order?: unknown; catalog?: unknown }> = {
  'order.created': (body) => ({ order: body.object }),
  'order.updated': (body) => ({ order: body.object }),
  'order.confirmed': (body) => ({ order: body.order }),
  'menu.publish': (body) => ({ catalog: body.catalog }),
};

/** A message's body, converted where it carries amounts. */
export function convertMessage(kind: string, body: Json, fallbackCurrency: string | null): void {
  const carried = CARRIED[kind]?.(body) ?? {};
  if (isObject(carried.order)) convertOrder(carried.order, fallbackCurrency);
  if (isObject(carried.catalog)) convertCatalog(carried.catalog);
}

/** One table's conversion: its rows after a cursor, and how each is converted. `currencyOf`
 * reads the currency a row's amounts are in when the row names none (its location's). */
type TableConversion = {
  table: 'CatalogVersion' | 'Order' | 'OutboxMessage';
  rows: string;
  convert: (row: Row, locationCurrency: (locationId: string | null) => Promise<string | null>) => Promise<void>;
};
type Row = { id: string; body: string; locationId?: string | null; kind?: string; subjectId?: string | null };

/** A database as the conversion speaks to it: a statement with `?` placeholders, and a transaction. */
type Connection = {
  all: (sql: string, args: unknown[]) => Promise<Record<string, unknown>[]>;
  /** Runs `work` in a transaction holding the write lock (SQLite) or the cursor row's lock (PostgreSQL). */
  transaction: <T>(work: () => Promise<T>) => Promise<T>;
  close: () => Promise<void>;
};

const BATCH = 100;
const MESSAGE_KINDS = Object.keys(CARRIED)
  .map((kind) => `'${kind}'`)
  .join(', ');

const TABLES: TableConversion[] = [
  {
    table: 'CatalogVersion',
    rows: 'SELECT "id", "body" FROM "CatalogVersion" WHERE "id" > ? ORDER BY "id" LIMIT ?',
    convert: async (row) => {
      const body = JSON.parse(row.body) as unknown;
      if (isObject(body)) convertCatalog(body);
      row.body = JSON.stringify(body);
    },
  },
  {
    table: 'Order',
    rows: 'SELECT "id", "body", "locationId" FROM "Order" WHERE "id" > ? ORDER BY "id" LIMIT ?',
    convert: async (row, locationCurrency) => {
      const body = JSON.parse(row.body) as unknown;
      if (isObject(body)) convertOrder(body, await locationCurrency(row.locationId ?? null));
      row.body = JSON.stringify(body);
    },
  },
  {
    table: 'OutboxMessage',
    rows: `SELECT m."id", m."body", m."kind", o."locationId" FROM "OutboxMessage" m LEFT JOIN "Order" o ON o."id" = m."subjectId"
      WHERE m."id" > ? AND m."status" <> 'delivered' AND m."kind" IN (${MESSAGE_KINDS}) ORDER BY m."id" LIMIT ?`,
    convert: async (row, locationCurrency) => {
      const body = JSON.parse(row.body) as unknown;
      if (isObject(body)) convertMessage(row.kind ?? '', body, await locationCurrency(row.locationId ?? null));
      row.body = JSON.stringify(body);
    },
  },
];

/** Converts what the money migration listed, and empties the list; the number of rows converted.
 * Nothing to do (the usual start) costs one query. */
export async function convertStoredAmounts(url: string): Promise<number> {
  const db = await connect(url);
  try {
    const pending = new Set((await db.all('SELECT "tableName" FROM "MoneyConversion"', [])).map((r) => String(r.tableName)));
    if (!pending.size) return 0;
    // The currency of a location's latest catalog, read once per location.
    const currencies = new Map<string, Promise<string | null>>();
    const locationCurrency = (locationId: string | null) => {
      if (!locationId) return Promise.resolve(null);
      let currency = currencies.get(locationId);
      if (!currency) {
        currency = db
          .all('SELECT "body" FROM "CatalogVersion" WHERE "locationId" = ? ORDER BY "version" DESC LIMIT 1', [locationId])
          .then(([latest]) => (latest ? currencyOf((JSON.parse(String(latest.body)) as Json).currency) : null));
        currencies.set(locationId, currency);
      }
      return currency;
    };
    let converted = 0;
    for (const conversion of TABLES) {
      if (!pending.has(conversion.table)) continue;
      for (let done = false; !done; ) {
        done = await db.transaction(async () => {
          const [cursor] = await db.all(`SELECT "after" FROM "MoneyConversion" WHERE "tableName" = ?${LOCK[db.kind]}`, [conversion.table]);
          if (!cursor) return true;
          const rows = (await db.all(conversion.rows, [String(cursor.after), BATCH])) as Row[];
          if (!rows.length) {
            await db.all('DELETE FROM "MoneyConversion" WHERE "tableName" = ?', [conversion.table]);
            return true;
          }
          for (const row of rows) {
            await conversion.convert(row, locationCurrency);
            await db.all(`UPDATE "${conversion.table}" SET "body" = ? WHERE "id" = ?`, [row.body, row.id]);
          }
          await db.all('UPDATE "MoneyConversion" SET "after" = ? WHERE "tableName" = ?', [rows.at(-1)!.id, conversion.table]);
          converted += rows.length;
          return false;
        });
      }
    }
    return converted;
  } finally {
    await db.close();
  }
}

/** PostgreSQL locks the cursor row for the batch: another instance converting waits, then reads where this one stopped. */
const LOCK = { sqlite: '', postgresql: ' FOR UPDATE' } as const;

async function connect(url: string): Promise<Connection & { kind: 'sqlite' | 'postgresql' }> {
  if (providerOf(url) === 'sqlite') {
    const Database = require('better-sqlite3') as typeof import('better-sqlite3');
    const db = new Database(sqliteFile(url));
    db.pragma('busy_timeout = 10000');
    return {
      kind: 'sqlite',
      all: async (sql, args) => {
        const statement = db.prepare(sql);
        if (statement.reader) return statement.all(...args) as Record<string, unknown>[];
        statement.run(...args);
        return [];
      },
      // BEGIN IMMEDIATE: the write lock from the start, so that no other writer comes between
      // the cursor read and its move.
      transaction: async (work) => {
        db.exec('BEGIN IMMEDIATE');
        try {
          const result = await work();
          db.exec('COMMIT');
          return result;
        } catch (error) {
          db.exec('ROLLBACK');
          throw error;
        }
      },
      close: async () => void db.close(),
    };
  }
  const client = new pg.Client(pgConfig(url).config);
  await client.connect();
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    kind: 'postgresql',
    all: async (sql, args) => (await client.query(numbered(sql), args)).rows as Record<string, unknown>[],
    transaction: async (work) => {
      await client.query('BEGIN');
      try {
        const result = await work();
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
    close: () => client.end(),
  };
}
