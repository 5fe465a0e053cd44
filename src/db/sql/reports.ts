// The end-of-day statement's statements (modules/reports): a location's orders of a run of local
// days, summed and counted in the database. Both read the index on ("locationId", "createdAt"):
// a day of one store is one range of it.
import type { Step } from '../statements.js';

/** What the statement sums, in the order the guides list them: the Order's money columns. */
export const SUMMED = [
  'subtotal',
  'tax',
  'taxWithheldByDsp',
  'deliveryFee',
  'deliveryFeeTax',
  'restaurantTip',
  'driverTip',
  'discountMerchant',
  'discountDsp',
  'markup',
  'total',
] as const;
export type Summed = (typeof SUMMED)[number];

/** What became of an order, as the statement counts it: taken (on its way or completed), awaiting
 * its POS's decision, failed, or canceled by the restaurant or by the platform. */
export const OUTCOMES = ['taken', 'awaiting', 'failed', 'canceled_by_merchant', 'canceled_by_dsp'] as const;
export type Outcome = (typeof OUTCOMES)[number];

const OUTCOME_OF = `CASE o."status" WHEN 'failed' THEN 'failed' WHEN 'merchant_canceled' THEN 'canceled_by_merchant'
  WHEN 'dsp_canceled' THEN 'canceled_by_dsp' WHEN 'awaiting_confirmation' THEN 'awaiting' ELSE 'taken' END`;

/** One group of a day's orders: a day (its position in the run), a platform, a currency, an
 * outcome and its reason (the failure's or the cancellation's; null for the others), how many,
 * and their figures summed (read only for the taken ones: the others are counted, not summed). */
export type DayGroup = {
  day: number;
  source: string;
  currency: string | null;
  outcome: Outcome;
  reason: string | null;
  orders: number;
} & Record<Summed, number>;

/** Which day of the run an order's instant falls in: the days' bounds (`bounds[i]` starts day i,
 * the last one ends the run), as a CASE over the range the index reads. */
function dayOf(bounds: Date[]): { sql: string; args: Date[] } {
  const whens = bounds.slice(1, -1).map((_bound, i) => `WHEN o."createdAt" < ? THEN ${i}`);
  return { sql: whens.length ? `CASE ${whens.join(' ')} ELSE ${whens.length} END` : '0', args: bounds.slice(1, -1) };
}

/** A location's orders of a run of days (`bounds`: each day's start, then the run's end), grouped
 * by day, platform, currency, outcome and reason, each group counted and its figures summed. */
export function dayGroups(locationId: string, bounds: Date[]): Step {
  const day = dayOf(bounds);
  const sums = SUMMED.map((column) => `CAST(COALESCE(SUM("${column}"), 0) AS BIGINT) AS "${column}"`).join(', ');
  return {
    sql: `SELECT "day", "source", "currency", "outcome", "reason", COUNT(*) AS "orders", ${sums}
      FROM (SELECT ${day.sql} AS "day", o."dspSource" AS "source", o."currency", ${OUTCOME_OF} AS "outcome",
          CASE WHEN o."status" = 'failed' THEN o."failureReason" ELSE o."cancelReason" END AS "reason",
          ${SUMMED.map((column) => `o."${column}"`).join(', ')}
        FROM "Order" o WHERE o."locationId" = ? AND o."createdAt" >= ? AND o."createdAt" < ?) AS "g"
      GROUP BY "day", "source", "currency", "outcome", "reason"
      ORDER BY "day", "source", "currency", "outcome", "reason"`,
    args: [...day.args, locationId, bounds[0], bounds[bounds.length - 1]],
  };
}

/** One order of the run, as the statement's CSV lists it. */
export type DayOrder = {
  id: string;
  dspOrderId: string;
  source: string;
  status: string;
  outcome: Outcome;
  reason: string | null;
  createdAt: Date;
  currency: string | null;
} & Record<Summed, number | null>;

/** A location's orders of a run of days (`start` to `end`), oldest first. */
export const dayOrders = (locationId: string, start: Date, end: Date): Step => ({
  sql: `SELECT o."id", o."dspOrderId", o."dspSource" AS "source", o."status", ${OUTCOME_OF} AS "outcome",
      CASE WHEN o."status" = 'failed' THEN o."failureReason" ELSE o."cancelReason" END AS "reason",
      o."createdAt", o."currency", ${SUMMED.map((column) => `o."${column}"`).join(', ')}
    FROM "Order" o WHERE o."locationId" = ? AND o."createdAt" >= ? AND o."createdAt" < ?
    ORDER BY o."createdAt", o."id"`,
  args: [locationId, start, end],
});
