// The statements of Idempotency-Key (server/idempotency.ts): a key's row claimed by a unique
// insert, read, freed once past its keep, taken over when its holder died, dropped.
import { insertStep, type Row, type Step } from '../statements.js';

/** A key's row as kept. */
export type KeyRow = {
  id: string;
  method: string;
  path: string;
  bodyHash: string;
  state: string;
  lockedUntil: Date | null;
  responseStatus: number | null;
  responseHeaders: string | null;
  responseBody: string | null;
  createdAt: Date;
};

/** The key's row, made unless the partner holds the key already: its id when made. */
export function claimKey(row: Row): Step {
  const step = insertStep('IdempotencyKey', row);
  return { sql: `${step.sql} ON CONFLICT ("partnerId", "key") DO NOTHING RETURNING "id"`, args: step.args };
}

export const heldKey = (partnerId: string, key: string): Step => ({
  sql: 'SELECT * FROM "IdempotencyKey" WHERE "partnerId" = ? AND "key" = ?',
  args: [partnerId, key],
});

/** A key kept since before `before` is free again. */
export const freeKept = (id: string, before: Date): Step => ({
  sql: 'DELETE FROM "IdempotencyKey" WHERE "id" = ? AND "createdAt" < ?',
  args: [id, before],
});

/** A key whose request's instance died (its lock past) is taken over until `until`. */
export const takeOver = (id: string, until: Date, now: Date): Step => ({
  sql: `UPDATE "IdempotencyKey" SET "lockedUntil" = ? WHERE "id" = ? AND "state" = 'in_flight' AND "lockedUntil" < ? RETURNING "id"`,
  args: [until, id, now],
});

export const dropKey = (id: string): Step => ({ sql: 'DELETE FROM "IdempotencyKey" WHERE "id" = ?', args: [id] });
