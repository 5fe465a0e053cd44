// An order's customer is never stored in clear (docs/operations.md, "Customers' data"). What
// names or locates them (./redact.ts) is sealed before anything is written: under a key of the
// order's own (256 random bits, AES-256-GCM), itself sealed by the service's key, which is never
// in the database, and kept in a row of its own (CustomerKey). The order's body keeps the order
// with each piece of its customer "redacted" in place and the pieces, encrypted, in its
// `sealed_customer` field; the messages that carry the order to its POS and its event provider
// are built from that body and carry the sealed key in their stored headers, so that sending one
// reads nothing more. Readers open it with the key: the POS and the event provider get the
// customer in clear, the dashboard and partners as their role may see it. An erasure, or the end
// of its retention, deletes the key (./service.ts): PostgreSQL keeps the old versions of the rows
// it changed, and every row it wrote in its log, but what they hold of the customer is then
// ciphertext nobody can open. What an erasure finds an order by are keyed digests, per
// organization, never the phone or the loyalty id.
import crypto from 'node:crypto';
import { box, type Box, type Sealer } from '../../common/crypto.js';
import { forgetOverwritten, type Db } from '../../db/client.js';
import { statementsOf, type Run } from '../../db/statements.js';
import { tables } from '../../db/tables.js';
import {
  customerKeysOf,
  messagesToSeal,
  ordersToSeal,
  sealedThrough,
  sealingDone,
  sealMessage,
  sealOrder,
  tablesToSeal,
} from '../../db/sql/privacy.js';
import type { OutboxInput } from '../../delivery/outbox.js';
import { joinCustomer, SEALED, splitCustomer, type Piece } from './redact.js';

type Json = Record<string, unknown>;

/** What an erasure finds an order by: keyed digests of its customer's phone and loyalty id. */
export type Lookup = { customerPhone: string | null; customerLoyaltyId: string | null };

/** Who an order's customer is, as an erasure names them: the digits of their phone and their
 * loyalty id at the DSP (of `customer`, or the first of `customers`). */
export function customerOf(order: Json): { phone: string | null; loyaltyId: string | null } {
  const customer = (order.customer ?? (Array.isArray(order.customers) ? order.customers[0] : undefined)) as Json | undefined;
  const phone = typeof customer?.phone === 'string' ? customer.phone.replace(/\D/g, '') : '';
  const loyalty = typeof customer?.provider_loyalty_id === 'string' ? customer.provider_loyalty_id.trim() : '';
  return { phone: phone || null, loyaltyId: loyalty || null };
}

/** The look-up of a customer of an organization: a digest of each under the organization's own key
 * (the same phone at another merchant gives another). An order of no organization has none: no
 * erasure could name it. */
export function lookupOf(sealer: Sealer, orgId: string | null, who: { phone: string | null; loyaltyId: string | null }): Lookup {
  return {
    customerPhone: orgId && who.phone ? sealer.digest(orgId, `phone:${who.phone}`) : null,
    customerLoyaltyId: orgId && who.loyaltyId ? sealer.digest(orgId, `loyalty:${who.loyaltyId}`) : null,
  };
}

/** The pieces, sealed under a data key, in the value's SEALED field. */
const sealUnder = (dataKey: Buffer, value: Json, pieces: Piece[]): Json => ({
  ...value,
  [SEALED]: box(dataKey).seal(JSON.stringify(pieces)),
});

/** An order as it is stored: its object with the customer sealed, the order's key sealed by the
 * service's (null when the DSP sent no customer data), and its look-up. */
export type SealedOrder = { object: Json; key: string | null; lookup: Lookup };

/** An order's customer sealed under a new key of its own (written after the order's checks, which
 * read the object in clear). */
export function sealCustomer(sealer: Sealer, orgId: string | null, object: Json): SealedOrder {
  const lookup = lookupOf(sealer, orgId, customerOf(object));
  const { redacted, pieces } = splitCustomer(object);
  if (!pieces.length) return { object, key: null, lookup };
  const dataKey = crypto.randomBytes(32);
  return { object: sealUnder(dataKey, redacted as Json, pieces), key: sealer.seal(dataKey.toString('base64url')), lookup };
}

/** The order's key, written with the order (a write of its transaction nobody reads). */
export function keepKey(run: Run, orderId: string, key: string | null): void {
  if (key) run.defer(tables.customerKey.insert({ orderId, sealedKey: key }));
}

/** An order's key, when it has one: for a message about it that carries its customer. */
export async function sealedKeyOf(db: Db, orderId: string): Promise<string | null> {
  const [found] = await statementsOf(db).read<{ sealedKey: string }>(customerKeysOf([orderId]));
  return found?.sealedKey ?? null;
}

/** A stored value (an order's body, a message's) with each customer sealed in it opened by the
 * order's key; without the key (erased, expired), as it is stored: the customer "redacted". The
 * value given is left as it is. */
export function openCustomer(sealer: Sealer, value: unknown, key: string | null): unknown {
  const copy = structuredClone(value);
  openInPlace(copy, openerOf(sealer, key));
  return copy;
}

const openerOf = (sealer: Sealer, key: string | null) => (key ? box(Buffer.from(sealer.open(key), 'base64url')) : null);

/** Each customer sealed in a value of the caller's own (a body just parsed) opened where it is,
 * its sealed field dropped; without an opener, dropped only. In place: on the way to a POS, a
 * copy of the whole order made to open one field was most of what opening cost. */
function openInPlace(value: unknown, opener: Box | null): void {
  if (Array.isArray(value)) {
    for (const item of value) openInPlace(item, opener);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const object = value as Json;
  for (const field of Object.keys(object)) if (field !== SEALED) openInPlace(object[field], opener);
  if (!(SEALED in object)) return;
  const sealed = object[SEALED];
  delete object[SEALED];
  if (typeof sealed === 'string' && opener) joinCustomer(object, JSON.parse(opener.open(sealed)) as Piece[]);
}

/** Whether a stored order object has a sealed customer (to be opened with its key). */
export const isSealed = (object: Json): boolean => typeof object[SEALED] === 'string';

/** The stored header of a message that carries a sealed customer: the order's key, sealed by the
 * service's. The provider transport opens the body with it just before sending, and never sends it
 * (openMessage). */
const KEY_HEADER = 'x-sealed-customer-key';

/** A message built from the order's sealed object, with the key that opens it; as it was when the
 * order has no key (no customer, or an erased one). */
export function carryingCustomer(message: OutboxInput, key: string | null | undefined): OutboxInput {
  if (!key || !('provider' in message.to)) return message;
  return { ...message, to: { ...message.to, headers: { ...message.to.headers, [KEY_HEADER]: key } } };
}

/** The order's key as a message about it carries it. */
export const keyCarried = (headers: string | null): string | null =>
  (headers && (JSON.parse(headers) as Record<string, string>)[KEY_HEADER]) || null;

/** A message's stored headers without the order's key (an erasure's). */
export function withoutKey(headers: string | null): string | null {
  if (!keyCarried(headers)) return headers;
  const { [KEY_HEADER]: _gone, ...rest } = JSON.parse(headers!) as Record<string, string>;
  return Object.keys(rest).length ? JSON.stringify(rest) : null;
}

/** A stored message as it is sent: its customer opened by the key it carries, which is not sent.
 * One without a key is sent as it is stored (after an erasure: the customer "redacted"). */
export function openMessage(sealer: Sealer, message: { body: string; headers: Record<string, string> }) {
  const { [KEY_HEADER]: key, ...headers } = message.headers;
  if (!key) return message;
  const body: unknown = JSON.parse(message.body);
  openInPlace(body, openerOf(sealer, key));
  return { body: JSON.stringify(body), headers };
}

const BATCH = 200;

/**
 * The customers stored in clear by the versions before this one, sealed once, at start-up before
 * the service serves: the tables the migration 20261129150000_sealed_customers listed, a batch a
 * transaction, each row conditional on being as it was read (two instances starting at once seal
 * each row once), the place reached kept so that a start that stops midway goes on from there.
 * Orders first: a message is sealed under its order's key. The number of rows sealed; the usual
 * start costs one query.
 */
export async function sealStoredCustomers(db: Db, sealer: Sealer): Promise<number> {
  const sql = statementsOf(db);
  const pending = new Map((await sql.read<{ tableName: string; after: string }>(tablesToSeal())).map((t) => [t.tableName, t.after]));
  let sealed = 0;
  for (const table of ['Order', 'OutboxMessage'] as const) {
    let after = pending.get(table);
    if (after === undefined) continue;
    for (;;) {
      const rows: Stored[] = await sql.read(table === 'Order' ? ordersToSeal(after, BATCH) : messagesToSeal(after, BATCH));
      if (!rows.length) break;
      const through = rows.at(-1)!.id;
      sealed += await sql.transaction(async (run) => {
        let count = 0;
        for (const row of rows) if (await (table === 'Order' ? sealStoredOrder : sealStoredMessage)(run, sealer, row)) count++;
        await run(sealedThrough(table, through));
        return count;
      });
      after = through;
    }
    await sql.write(sealingDone(table));
  }
  // SQLite: the log holding the rows as they were, emptied.
  if (sealed) await forgetOverwritten(db);
  return sealed;
}

type Stored = {
  id: string;
  body: string;
  orgId?: string | null;
  customerPhone?: string | null;
  customerLoyaltyId?: string | null;
  headers?: string | null;
  sealedKey?: string;
};

/** An order of before: its customer sealed under a new key, its look-up made digests. */
async function sealStoredOrder(run: Run, sealer: Sealer, row: Stored): Promise<boolean> {
  const object = JSON.parse(row.body) as Json;
  if (isSealed(object)) return false;
  const sealed = sealCustomer(sealer, row.orgId ?? null, object);
  if (!sealed.key && !row.customerPhone && !row.customerLoyaltyId) return false;
  const [done] = await run(sealOrder(row.id, row.body, { body: JSON.stringify(sealed.object), ...sealed.lookup }));
  if (done) keepKey(run, row.id, sealed.key);
  return Boolean(done);
}

/** A message of before about an order: its customer sealed under the order's key, carried beside it. */
async function sealStoredMessage(run: Run, sealer: Sealer, row: Stored): Promise<boolean> {
  if (keyCarried(row.headers ?? null)) return false;
  const { redacted, pieces } = splitCustomer(JSON.parse(row.body));
  if (!pieces.length) return false;
  const dataKey = Buffer.from(sealer.open(row.sealedKey!), 'base64url');
  const headers = { ...(row.headers ? (JSON.parse(row.headers) as Json) : {}), [KEY_HEADER]: row.sealedKey };
  const body = JSON.stringify(sealUnder(dataKey, redacted as Json, pieces));
  const [done] = await run(sealMessage(row.id, row.body, { body, headers: JSON.stringify(headers) }));
  return Boolean(done);
}
