// The ids of the rows we create: a prefix that says what a row is, then 96 random bits as 16
// base64url characters. The bits come from the operating system's CSPRNG 4 KB at a time, as
// Node's own randomUUID buffers its entropy: a crypto.randomBytes call per id is a native job
// each time (about 3 µs warm against 0.2, and about 1% of an order's CPU under load, where an
// order and its outbox message take one id each).
import crypto from 'node:crypto';

const ID_BYTES = 12;
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let next = 0;

/** 96 random bits, base64url: an id without a prefix. */
export function randomId(): string {
  if (next + ID_BYTES > pool.length) {
    pool = crypto.randomFillSync(Buffer.allocUnsafe(POOL_BYTES));
    next = 0;
  }
  const id = pool.toString('base64url', next, next + ID_BYTES);
  next += ID_BYTES;
  return id;
}

/** A new row's id: `ord_…`, `msg_…`, `loc_…`. */
export const newId = (prefix: string): string => `${prefix}_${randomId()}`;
