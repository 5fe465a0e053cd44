// The local days a statement covers (docs/api-guide.md, "End of day"), pure: which run of dates a
// request names, and where each date begins and ends on a location's clock. A day is midnight to
// midnight in the location's time zone, so a day the clocks change has 23 or 25 hours.
import { addDays, instantAt, localDate } from '../catalog/local-time.js';

/** The most days one request may cover. */
export const MAX_DAYS = 31;

const HOUR_MS = 3_600_000;

/** A date as YYYY-MM-DD that is on the calendar (2026-02-30 is not). */
export function isDate(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const at = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === value;
}

/** A run of dates asked for, and what bounds it: the first date the organization existed on and
 * today, both on the location's clock. */
export type RunAsked = { from: unknown; to: unknown; firstDate: string; today: string };

/** The dates from `from` to `to`, both included; or what is wrong with them, naming the parameter. */
export function datesOf({ from, to, firstDate, today }: RunAsked): { dates: string[] } | { problem: string } {
  for (const [name, value] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (!isDate(value)) return { problem: `${name} must be a date as YYYY-MM-DD, not ${JSON.stringify(value ?? null)}` };
    if (value < firstDate) return { problem: `${name} is ${value}, before the organization existed (${firstDate})` };
    if (value > today) return { problem: `${name} is ${value}, in the future (today is ${today} at the location)` };
  }
  const [first, last] = [from as string, to as string];
  if (last < first) return { problem: `to is ${last}, before from (${first})` };
  const dates = [first];
  while (dates[dates.length - 1]! < last) {
    if (dates.length === MAX_DAYS)
      return { problem: `from ${first} to ${last} is more than ${MAX_DAYS} days: ask for at most ${MAX_DAYS}` };
    dates.push(addDays(dates[dates.length - 1]!, 1));
  }
  return { dates };
}

/** A local day: its date, its first instant and the first of the next day (epoch ms), its hours. */
export type Day = { date: string; start: number; end: number; hours: number };

/** Each date's day on the clock of `timeZone`. */
export function daysOf(dates: string[], timeZone: string): Day[] {
  return dates.map((date) => {
    const start = instantAt(date, 0, timeZone);
    const end = instantAt(addDays(date, 1), 0, timeZone);
    return { date, start, end, hours: (end - start) / HOUR_MS };
  });
}

/** The date an instant falls on at the location (its day in a statement). */
export const dateAt = (at: number, timeZone: string): string => localDate(at, timeZone);
