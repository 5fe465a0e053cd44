// A location's holidays: the catalog's `holidays` (docs/reference.md § Resources) that change its
// hours, as dates in the location's time zone (the IANA name its POS gives; UTC when it gives
// none): closed all day (`closed: true`, or `hours` empty), or open only the `hours` given (a
// short day). A holiday with neither (`closed: false` and no `hours`) is listed for information:
// an ordinary day. A malformed date or `hours` makes the catalog invalid (./validate.ts), so a
// published catalog has none; a version stored before that rule is read without its malformed
// holidays. Time zones come from the platform's own data (./local-time.ts). Pure: a stored
// version's holidays are read once and kept (./stored.ts).
import { readRanges, type Holiday, type Holidays } from './hours.js';
import { addDays, localDate } from './local-time.js';

/** A date written YYYY-MM-DD that is on the calendar: read as the platform reads it, and written
 * back the same (2026-02-30 reads as 2 March, 2026 as 1 January: neither is one). */
export const isHolidayDate = (value: unknown): value is string => {
  const at = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === value;
};

/** A catalog's holidays that change its hours (a list that is none, or an element that is not a
 * holiday, is none of them). */
export function holidaysIn(holidays: unknown): Holidays {
  const days = new Map<string, Holiday>();
  if (!Array.isArray(holidays)) return days;
  holidays.forEach((holiday: unknown, index) => {
    const { date, name, closed, hours } = (holiday ?? {}) as { date?: unknown; name?: unknown; closed?: unknown; hours?: unknown };
    if (!isHolidayDate(date)) return;
    const named = typeof name === 'string' ? name : 'Holiday';
    if (closed === true) days.set(date, { name: named, hours: null });
    else if (hours !== undefined && hours !== null) {
      const { ranges } = readRanges(hours, `holidays[${index}].hours`);
      days.set(date, { name: named, hours: ranges.length ? ranges : null });
    }
  });
  return days;
}

/** The days closed all day from the day `now` falls on in the time zone, for `days` days, in order. */
export function closedDaysAhead(holidays: Holidays, timeZone: string, now: number, days = 60): { date: string; name: string }[] {
  const today = localDate(now, timeZone);
  const last = addDays(today, days - 1);
  return [...holidays]
    .filter(([date, holiday]) => !holiday.hours && date >= today && date <= last)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, { name }]) => ({ date, name }));
}
