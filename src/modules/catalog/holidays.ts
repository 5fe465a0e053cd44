// A location's holidays: the catalog's `holidays` (docs/reference.md § Resources) that change its
// hours, as dates in the location's time zone (the IANA name its POS gives; UTC when it gives
// none): closed all day (`closed: true`, or `hours` empty), or open only the `hours` given (a
// short day). A holiday with neither is listed for information and changes nothing. A holiday
// with a malformed date is left out and said so: the catalog is taken all the same; malformed
// `hours` make the catalog invalid (./validate.ts). Time zones come from the platform's own data
// (./local-time.ts). Pure: a stored version's holidays are read once and kept (./stored.ts).
import { readRanges, type Holiday, type Holidays } from './hours.js';
import { addDays, localDate } from './local-time.js';

/** A date written YYYY-MM-DD that is on the calendar: read as the platform reads it, and written
 * back the same (2026-02-30 reads as 2 March, 2026 as 1 January: neither is one). */
const isDate = (value: unknown): value is string => {
  const at = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(at) && new Date(at).toISOString().slice(0, 10) === value;
};

/** A catalog's holidays that change its hours, and what in them could not be read. */
export function holidaysIn(holidays: unknown): { holidays: Holidays; warnings: string[] } {
  const days = new Map<string, Holiday>();
  const warnings: string[] = [];
  if (holidays === undefined || holidays === null) return { holidays: days, warnings };
  if (!Array.isArray(holidays)) return { holidays: days, warnings: ['holidays is not a list: ignored'] };
  holidays.forEach((holiday: unknown, index) => {
    const { date, name, closed, hours } = (holiday ?? {}) as { date?: unknown; name?: unknown; closed?: unknown; hours?: unknown };
    if (!isDate(date)) {
      warnings.push(`holidays[${index}] has no date of the form YYYY-MM-DD (${JSON.stringify(date)}): ignored`);
      return;
    }
    const named = typeof name === 'string' ? name : 'Holiday';
    if (closed === true) days.set(date, { name: named, hours: null });
    else if (hours !== undefined && hours !== null) {
      const { ranges } = readRanges(hours, `holidays[${index}].hours`);
      days.set(date, { name: named, hours: ranges.length ? ranges : null });
    }
  });
  return { holidays: days, warnings };
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
