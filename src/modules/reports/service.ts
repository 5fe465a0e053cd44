// The end of day (docs/api-guide.md, "End of day"): what each platform's orders of a location add
// up to, per local day, ready to match against each platform's payout; and the commission a
// partner sets per organization and platform, which the expected payout takes off. The sums are
// the database's (db/sql/reports.ts); here they are put in their places.
import type { Services } from '../../services.js';
import type { AuthInfo } from '../../common/scopes.js';
import { Forbidden, Invalid, NotFound } from '../../common/errors.js';
import { statementsOf } from '../../db/statements.js';
import { dayGroups, dayOrders, SUMMED, type DayGroup, type DayOrder, type Summed } from '../../db/sql/reports.js';
import { findOrganization } from '../organizations/service.js';
import { zoneOf } from '../catalog/local-time.js';
import { findProvider } from '../../integrations/providers.js';
import { dateAt, datesOf, daysOf, type Day } from './days.js';
import { basisPointsOf, payoutOf, type Payout } from './payout.js';
import { STATEMENT_READING_ROLES } from '../access/index.js';

export type Figures = Record<Summed, number>;
/** How many of a kind, by reason (the failure's or the cancellation's; null: none given). */
export type ByReason = { reason: string | null; orders: number }[];

/** One platform's day in one currency (or, with `source` null, every platform's together). */
export type StatementLine = {
  source: string | null;
  currency: string | null;
  /** Orders taken (on their way or completed): these are summed. */
  taken: number;
  /** Orders whose POS had not decided yet; failed; canceled by each party: counted, not summed. */
  awaiting: number;
  failed: number;
  failedByReason: ByReason;
  canceledByMerchant: number;
  canceledByMerchantByReason: ByReason;
  canceledByDsp: number;
  canceledByDspByReason: ByReason;
  amounts: Figures;
  /** The platform's expected payout, when a commission is set for it (a total has none: each
   * platform pays out its own). */
  payout: Payout | null;
};

export type DailyStatement = {
  date: string;
  locationId: string;
  timeZone: string;
  /** The day on the location's clock: its first instant, the next day's, its hours (23, 24, 25). */
  startsAt: number;
  endsAt: number;
  hours: number;
  /** One line per platform and currency, by source. */
  platforms: StatementLine[];
  /** Every platform together, one line per currency. */
  totals: StatementLine[];
};

export type StatementsAsked = { orgId: string; locationId: string; from: unknown; to: unknown };

const zero = (): Figures => Object.fromEntries(SUMMED.map((column) => [column, 0])) as Figures;

const emptyLine = (source: string | null, currency: string | null): StatementLine => ({
  source,
  currency,
  taken: 0,
  awaiting: 0,
  failed: 0,
  failedByReason: [],
  canceledByMerchant: 0,
  canceledByMerchantByReason: [],
  canceledByDsp: 0,
  canceledByDspByReason: [],
  amounts: zero(),
  payout: null,
});

const countBy = (list: ByReason, reason: string | null, orders: number) => {
  const found = list.find((entry) => entry.reason === reason);
  if (found) found.orders += orders;
  else list.push({ reason, orders });
};

/** Adds one group of orders (as the database counted and summed it) to a line. */
function add(line: StatementLine, group: Omit<DayGroup, 'day' | 'source' | 'currency'>): void {
  const { outcome, reason, orders } = group;
  if (outcome === 'taken') {
    line.taken += orders;
    for (const column of SUMMED) line.amounts[column] += group[column];
  } else if (outcome === 'awaiting') line.awaiting += orders;
  else if (outcome === 'failed') {
    line.failed += orders;
    countBy(line.failedByReason, reason, orders);
  } else if (outcome === 'canceled_by_merchant') {
    line.canceledByMerchant += orders;
    countBy(line.canceledByMerchantByReason, reason, orders);
  } else {
    line.canceledByDsp += orders;
    countBy(line.canceledByDspByReason, reason, orders);
  }
}

/** Each day's statement from the database's groups: a line per platform and currency, a total per
 * currency, and each platform's expected payout at its commission (basis points by source). */
export function statementsFrom(
  days: Day[],
  locationId: string,
  timeZone: string,
  groups: DayGroup[],
  commissions: ReadonlyMap<string, number>,
): DailyStatement[] {
  return days.map((day, i) => {
    const platforms = new Map<string, StatementLine>();
    const totals = new Map<string, StatementLine>();
    for (const group of groups) {
      if (group.day !== i) continue;
      const key = `${group.source} ${group.currency}`;
      if (!platforms.has(key)) platforms.set(key, emptyLine(group.source, group.currency));
      if (!totals.has(String(group.currency))) totals.set(String(group.currency), emptyLine(null, group.currency));
      add(platforms.get(key)!, group);
      add(totals.get(String(group.currency))!, group);
    }
    for (const line of platforms.values()) {
      const basisPoints = commissions.get(line.source!);
      if (basisPoints !== undefined) line.payout = payoutOf(line.amounts, basisPoints);
    }
    return {
      date: day.date,
      locationId,
      timeZone,
      startsAt: day.start,
      endsAt: day.end,
      hours: day.hours,
      platforms: [...platforms.values()],
      totals: [...totals.values()],
    };
  });
}

/** The location asked for, in the caller's reach, and the local days asked for; 404 for a location
 * not of the organization, 400 naming the parameter for the dates. */
async function runAsked(services: Services, auth: AuthInfo, asked: StatementsAsked) {
  if (auth.dashboard && !STATEMENT_READING_ROLES.includes(auth.dashboard.role))
    throw new Forbidden(`only owners, admins and managers read the end of day; you are ${auth.dashboard.role}`, 'insufficient_role');
  const org = await findOrganization(services, auth, asked.orgId);
  const location = await services.db.location.findFirst({
    where: { id: asked.locationId, orgId: org.id },
    select: { id: true, timezone: true },
  });
  if (!location) throw new NotFound(`location ${asked.locationId} not found`);
  const timeZone = zoneOf(location.timezone);
  const run = datesOf({
    from: asked.from,
    to: asked.to,
    firstDate: dateAt(org.createdAt.getTime(), timeZone),
    today: dateAt(Date.now(), timeZone),
  });
  if ('problem' in run) throw new Invalid(run.problem);
  return { org, location, timeZone, days: daysOf(run.dates, timeZone) };
}

type Run = Awaited<ReturnType<typeof runAsked>>;

async function statementsOfRun(services: Services, { org, location, timeZone, days }: Run): Promise<DailyStatement[]> {
  const bounds = [...days.map((day) => new Date(day.start)), new Date(days[days.length - 1]!.end)];
  const [groups, commissions] = await Promise.all([
    statementsOf(services.db).read<DayGroup>(dayGroups(location.id, bounds)),
    services.db.platformCommission.findMany({ where: { orgId: org.id }, select: { source: true, basisPoints: true } }),
  ]);
  const rates = new Map(commissions.map((commission) => [commission.source, commission.basisPoints]));
  return statementsFrom(days, location.id, timeZone, groups, rates);
}

/** The location's statement of each local day from `from` to `to` (1 to 31 days). */
export async function dailyStatements(services: Services, auth: AuthInfo, asked: StatementsAsked): Promise<DailyStatement[]> {
  return statementsOfRun(services, await runAsked(services, auth, asked));
}

/** The same days' statements and each of their orders, oldest first (the CSV lists both). */
export async function dailyStatementsWithOrders(services: Services, auth: AuthInfo, asked: StatementsAsked) {
  const run = await runAsked(services, auth, asked);
  const { location, days } = run;
  const [statements, orders] = await Promise.all([
    statementsOfRun(services, run),
    statementsOf(services.db).read<DayOrder>(dayOrders(location.id, new Date(days[0]!.start), new Date(days[days.length - 1]!.end))),
  ]);
  return { statements, orders, timeZone: run.timeZone };
}

/** Sets what a platform keeps of the organization's orders (commission_percent, 0 to 100, at most
 * two decimals): the statements' expected payout takes it off from then on, for every day read. */
export async function setPlatformCommission(
  services: Services,
  auth: AuthInfo,
  input: { orgId: string; source: string; commissionPercent: unknown },
) {
  const rate = basisPointsOf(input.commissionPercent);
  if ('problem' in rate) throw new Invalid(rate.problem);
  const org = await findOrganization(services, auth, input.orgId);
  if ((await findProvider(services, input.source))?.kind !== 'dsp')
    throw new NotFound(`platform ${input.source} not found: not a registered delivery platform`);
  const key = { orgId: org.id, source: input.source };
  await services.db.platformCommission.upsert({
    where: { orgId_source: key },
    create: { ...key, basisPoints: rate.basisPoints },
    update: { basisPoints: rate.basisPoints },
  });
  return { orgId: org.id, source: input.source, commissionPercent: rate.basisPoints / 100 };
}
