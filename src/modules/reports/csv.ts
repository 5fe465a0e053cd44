// The end of day as RFC 4180 CSV (GET /v1/reports/daily with `Accept: text/csv`): a header, one
// row per order, then each day's line per platform and its total, in minor units with the
// currency beside them. Written by csv-stringify (quoting, CRLF records) rather than by hand.
import { stringify } from 'csv-stringify/sync';
import { SUMMED, type DayOrder } from '../../db/sql/reports.js';
import { snake } from '../../http/rest-route.js';
import type { DailyStatement, StatementLine } from './service.js';
import { dateAt } from './days.js';

const COUNTS = ['taken', 'awaiting', 'failed', 'canceled_by_merchant', 'canceled_by_dsp'] as const;
export const CSV_COLUMNS = [
  'record',
  'date',
  'source',
  'currency',
  'order_id',
  'dsp_order_id',
  'status',
  'reason',
  'created_at',
  ...COUNTS,
  ...SUMMED.map(snake),
  'commission_percent',
  'commission',
  'expected_payout',
] as const;
type Row = Partial<Record<(typeof CSV_COLUMNS)[number], string | number | null>>;

/** A spreadsheet runs a cell that begins with =, +, - or @ as a formula: text from a platform
 * (its order ids) is kept from doing so by a leading apostrophe (OWASP's advice for CSV). */
const inert = (text: string | null) => (text !== null && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

function orderRow(order: DayOrder, timeZone: string): Row {
  const taken = order.outcome === 'taken';
  return {
    record: 'order',
    date: dateAt(order.createdAt.getTime(), timeZone),
    source: order.source,
    currency: order.currency,
    order_id: order.id,
    dsp_order_id: inert(order.dspOrderId),
    status: order.status,
    reason: order.reason,
    created_at: order.createdAt.toISOString(),
    taken: Number(taken),
    awaiting: Number(order.outcome === 'awaiting'),
    failed: Number(order.outcome === 'failed'),
    canceled_by_merchant: Number(order.outcome === 'canceled_by_merchant'),
    canceled_by_dsp: Number(order.outcome === 'canceled_by_dsp'),
    // Only taken orders are summed, so only theirs are here: a column of order rows adds up to the total.
    ...Object.fromEntries(SUMMED.map((column) => [snake(column), taken ? order[column] : null])),
  };
}

function lineRow(date: string, line: StatementLine): Row {
  return {
    record: line.source === null ? 'total' : 'platform',
    date,
    source: line.source,
    currency: line.currency,
    taken: line.taken,
    awaiting: line.awaiting,
    failed: line.failed,
    canceled_by_merchant: line.canceledByMerchant,
    canceled_by_dsp: line.canceledByDsp,
    ...Object.fromEntries(SUMMED.map((column) => [snake(column), line.amounts[column]])),
    commission_percent: line.payout?.commissionPercent ?? null,
    commission: line.payout?.commission ?? null,
    expected_payout: line.payout?.payout ?? null,
  };
}

/** The statements and their orders as one CSV document. */
export function statementsCsv(statements: DailyStatement[], orders: DayOrder[], timeZone: string): string {
  const rows: Row[] = [
    ...orders.map((order) => orderRow(order, timeZone)),
    ...statements.flatMap((statement) => [...statement.platforms, ...statement.totals].map((line) => lineRow(statement.date, line))),
  ];
  return stringify(rows, { header: true, columns: [...CSV_COLUMNS], record_delimiter: 'windows' });
}
