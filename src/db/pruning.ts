// Tables that stop growing: what traffic writes is deleted once past its keep, a small batch a
// statement (no long lock; the order path's writes go between batches), by any instance (two
// deleting the same rows at once delete them once). Kept: dead messages (until redelivered or
// dropped by an operator), failed webhooks, every location's latest catalog and every catalog a
// store's last publish used. docs/operations.md lists the keeps.
import { statementsOf, type Step } from './statements.js';
import type { Db } from './client.js';

const BATCH = 500;
const DAY = 86_400_000;

/** What is pruned, and when a row is past its keep. */
type Rule = { table: string; select: (now: number) => Step };

/** How long each kind of row is kept: the configuration's days (`keep`), and the keeps the
 * modules that own the rows set (partner events and attempts, idempotency keys, webhook replays). */
export type Keeps = {
  keep: { outboxDays: number; webhooksDays: number; catalogDays: number };
  eventDays: number;
  attemptDays: number;
  idempotencyMs: number;
  replayMs: number;
};

/** The rules for a configuration: each selects a batch of ids past their keep. */
export function pruningRules(config: Keeps): Rule[] {
  const before = (now: number, days: number) => new Date(now - days * DAY);
  return [
    {
      // Bounded by nextAttemptAt too (never after deliveredAt), so the index on (status,
      // nextAttemptAt) ends the scan at the first message young enough to stay.
      table: 'OutboxMessage',
      select: (now) => {
        const cutoff = before(now, config.keep.outboxDays);
        return {
          sql: `SELECT "id" FROM "OutboxMessage" WHERE "status" = 'delivered' AND "nextAttemptAt" < ? AND "deliveredAt" < ? LIMIT ${BATCH}`,
          args: [cutoff, cutoff],
        };
      },
    },
    {
      // The bodies kept apart of the messages just pruned (SQLite keeps no foreign key's cascade).
      table: 'OutboxBody',
      select: () => ({
        sql: `SELECT b."id" FROM "OutboxBody" b WHERE NOT EXISTS (SELECT 1 FROM "OutboxMessage" m WHERE m."id" = b."id") LIMIT ${BATCH}`,
      }),
    },
    {
      table: 'WebhookEvent',
      select: (now) => {
        const cutoff = before(now, config.keep.webhooksDays);
        return {
          sql: `SELECT "id" FROM "WebhookEvent" WHERE "status" = 'applied' AND "nextAttemptAt" < ? AND "createdAt" < ? LIMIT ${BATCH}`,
          args: [cutoff, cutoff],
        };
      },
    },
    {
      table: 'WebhookReplay',
      select: (now) => ({
        sql: `SELECT "id" FROM "WebhookReplay" WHERE "createdAt" < ? LIMIT ${BATCH}`,
        args: [new Date(now - config.replayMs)],
      }),
    },
    {
      table: 'IdempotencyKey',
      select: (now) => ({
        sql: `SELECT "id" FROM "IdempotencyKey" WHERE "createdAt" < ? LIMIT ${BATCH}`,
        args: [new Date(now - config.idempotencyMs)],
      }),
    },
    {
      table: 'Event',
      select: (now) => ({ sql: `SELECT "id" FROM "Event" WHERE "createdAt" < ? LIMIT ${BATCH}`, args: [before(now, config.eventDays)] }),
    },
    {
      table: 'WebhookAttempt',
      select: (now) => ({
        sql: `SELECT "id" FROM "WebhookAttempt" WHERE "attemptedAt" < ? LIMIT ${BATCH}`,
        args: [before(now, config.attemptDays)],
      }),
    },
    {
      // Not the location's latest, not what any store's last successful publish (or one under
      // way) used: orders are checked against those. Its older publishes go with it.
      table: 'CatalogVersion',
      select: (now) => ({
        sql: `SELECT v."id" FROM "CatalogVersion" v WHERE v."fetchedAt" < ?
          AND v."version" < (SELECT MAX(x."version") FROM "CatalogVersion" x WHERE x."locationId" = v."locationId")
          AND NOT EXISTS (SELECT 1 FROM "MenuPublish" p WHERE p."catalogVersionId" = v."id" AND (p."status" = 'pending' OR p."id" =
            (SELECT l."id" FROM "MenuPublish" l WHERE l."dspConnectionId" = p."dspConnectionId" AND l."status" = 'published' ORDER BY l."createdAt" DESC LIMIT 1)))
          LIMIT ${BATCH}`,
        args: [before(now, config.keep.catalogDays)],
      }),
    },
  ];
}

/** Deletes what is past its keep, batch by batch, table by table; the rows deleted by table. */
export async function prune(db: Db, config: Keeps, now = Date.now()): Promise<Record<string, number>> {
  const sql = statementsOf(db);
  const deleted: Record<string, number> = {};
  for (const rule of pruningRules(config)) {
    let count = 0;
    for (;;) {
      const step = rule.select(now);
      const gone = await sql.write<{ id: string }>({
        sql: `DELETE FROM "${rule.table}" WHERE "id" IN (${step.sql}) RETURNING "id"`,
        args: step.args,
      });
      count += gone.length;
      if (gone.length < BATCH) break;
      // Between batches, whatever else waits for the database goes first.
      await new Promise((resolve) => setImmediate(resolve));
    }
    deleted[rule.table] = count;
  }
  return deleted;
}
