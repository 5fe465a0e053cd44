// What GET /metrics counts of the stored rows, read when it is scraped (telemetry/metrics.ts).
import type { Statements } from '../statements.js';
import type { StoredCounts } from '../../telemetry/metrics.js';

/** The tables traffic writes to: what pruning keeps in check. */
const GROWING_TABLES = [
  'Order',
  'OutboxMessage',
  'WebhookEvent',
  'Event',
  'WebhookAttempt',
  'IdempotencyKey',
  'CatalogVersion',
  'MenuPublish',
];

export function storedCounts(sql: Statements): StoredCounts {
  const byStatus = async (table: string, column: 'kind' | 'type') =>
    (
      await sql.all<{ a: string; b: string; n: number | string }>(
        `SELECT "${column}" AS "a", "status" AS "b", COUNT(*) AS "n" FROM "${table}" GROUP BY "${column}", "status"`,
      )
    ).map((row) => ({ labels: { [column]: row.a, status: row.b }, n: Number(row.n) }));
  return {
    outbox: () => byStatus('OutboxMessage', 'kind'),
    webhooks: () => byStatus('WebhookEvent', 'type'),
    tables: async () =>
      (
        await sql.all<{ t: string; n: number | string }>(
          GROWING_TABLES.map((table) => `SELECT '${table}' AS "t", COUNT(*) AS "n" FROM "${table}"`).join(' UNION ALL '),
        )
      ).map((row) => ({ labels: { table: row.t }, n: Number(row.n) })),
  };
}
