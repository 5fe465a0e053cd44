// The statements of the two tables of due work (the outbox and the webhook inbox): claims by a
// short lease, the lease renewed while the work goes on, and the release that records how it
// went (delivery/runner.ts runs the loop over them).
import { placeholders, statementsOf, updateStep, type Statements, type Step } from '../statements.js';
import type { Db } from '../client.js';

/** The tables of due work, by what they hold. */
export type WorkTable = 'outbox' | 'inbox';
const TABLE: Record<WorkTable, string> = { outbox: 'OutboxMessage', inbox: 'WebhookEvent' };

/** An outbox message with an ordering key is due only when no message of its key before it
 * (by position) is still to be sent or waiting: a key's messages go out one at a time, in order,
 * whichever instance claims them, and a lease that lapses (kill -9) changes nothing of it. Other
 * keys, and messages without one, never wait. The index on (orderingKey, orderingPosition)
 * answers the check. */
const IN_ITS_TURN = `("orderingKey" IS NULL OR NOT EXISTS (SELECT 1 FROM "OutboxMessage" e
  WHERE e."orderingKey" = "OutboxMessage"."orderingKey" AND e."orderingPosition" < "OutboxMessage"."orderingPosition"
  AND e."status" IN ('pending', 'waiting')))`;

/** Which messages of the outbox a claimer takes: those to providers, or those to partners'
 * endpoints but the partners named (at their cap). */
export type OutboxShare = { endpoints: boolean; partnersAtCap?: readonly string[] };

function shareOf(share: OutboxShare | undefined): Step | null {
  if (!share) return null;
  if (!share.endpoints) return { sql: '"endpointId" IS NULL' };
  const full = share.partnersAtCap ?? [];
  return full.length
    ? { sql: `"endpointId" IS NOT NULL AND "partnerId" NOT IN (${placeholders([...full])})`, args: [...full] }
    : { sql: '"endpointId" IS NOT NULL' };
}

/** Takes up to `batch` pending, due, unlocked rows, oldest first; each is taken by one claimer
 * only: the update is conditional on the row being free still. One read and one write per
 * batch, whatever its size. */
export async function claimDue<Row extends { createdAt: Date }>(
  db: Db,
  table: WorkTable,
  leaseMs: number,
  batch: number,
  share?: OutboxShare,
): Promise<Row[]> {
  const sql = statementsOf(db);
  const now = new Date();
  const name = TABLE[table];
  const free = `"status" = 'pending' AND ("lockedUntil" IS NULL OR "lockedUntil" < ?)`;
  const turn = table === 'outbox' ? ` AND ${IN_ITS_TURN}` : '';
  const where = shareOf(share);
  const due = await sql.all<{ id: string }>(
    `SELECT "id" FROM "${name}" WHERE ${free} AND "nextAttemptAt" <= ?${turn}${where ? ` AND ${where.sql}` : ''} ORDER BY "createdAt" LIMIT ${batch}`,
    [now, now, ...(where?.args ?? [])],
  );
  if (!due.length) return [];
  const ids = due.map((row) => row.id);
  const claimed = await sql.write<Row>({
    sql: `UPDATE "${name}" SET "lockedUntil" = ?, "attempts" = "attempts" + 1 WHERE "id" IN (${placeholders(ids)}) AND ${free} RETURNING *`,
    args: [new Date(now.getTime() + leaseMs), ...ids, now],
  });
  return claimed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

/** Extends the leases of rows still worked on; a row already released keeps its release. */
export async function renewLeases(db: Db, table: WorkTable, ids: readonly string[], leaseMs: number): Promise<void> {
  if (!ids.length) return;
  await statementsOf(db).write({
    sql: `UPDATE "${TABLE[table]}" SET "lockedUntil" = ? WHERE "id" IN (${placeholders([...ids])}) AND "status" = 'pending' AND "lockedUntil" IS NOT NULL`,
    args: [new Date(Date.now() + leaseMs), ...ids],
  });
}

/** The write that ends this instance's hold on a row, recording how its work went. */
export const release = (table: WorkTable, id: string, data: Record<string, unknown>): Step =>
  updateStep(TABLE[table], id, { ...data, lockedUntil: null });

/** Whether a message of an outbox row's ordering key waits behind it: the release that ends the
 * row answers it, so that its sender claims that message at once (else up to a poll later). */
const SUCCESSOR_WAITS = `("orderingKey" IS NOT NULL AND EXISTS (SELECT 1 FROM "OutboxMessage" n
  WHERE n."orderingKey" = "OutboxMessage"."orderingKey" AND n."orderingPosition" > "OutboxMessage"."orderingPosition"
  AND n."status" = 'pending')) AS "successorWaits"`;

/** The release that ends an outbox message, delivered or dead: its row says (`successorWaits`)
 * whether a message of its ordering key now has its turn. */
export function endingRelease(id: string, data: Record<string, unknown>): Step {
  const step = release('outbox', id, data);
  return { ...step, sql: `${step.sql} RETURNING ${SUCCESSOR_WAITS}` };
}
export const successorWaits = (rows: readonly Record<string, unknown>[]): boolean => rows.some((row) => Boolean(row.successorWaits));

/** Outbox messages delivered with this status at `at`, as one statement; the ids after which a
 * message of the same ordering key now has its turn. */
export async function releaseDelivered(sql: Statements, ids: readonly string[], status: number, at: Date): Promise<Set<string>> {
  const rows = await sql.write<{ id: string; successorWaits: unknown }>({
    sql: `UPDATE "OutboxMessage" SET "status" = 'delivered', "deliveredAt" = ?, "lastStatus" = ?, "lastError" = NULL, "lockedUntil" = NULL WHERE "id" IN (${placeholders([...ids])}) RETURNING "id", ${SUCCESSOR_WAITS}`,
    args: [at, status, ...ids],
  });
  return new Set(rows.filter((row) => Boolean(row.successorWaits)).map((row) => row.id));
}

/** A message's body kept apart (a large one: delivery/outbox.ts). */
export const bodyApart = (id: string): Step => ({ sql: 'SELECT "body" FROM "OutboxBody" WHERE "id" = ?', args: [id] });

/** The condition of an update that applies only to a dead message (a redelivery). */
export const deadMessage: Step = { sql: '"status" = ?', args: ['dead'] };
