// A location's closed days: the catalog's `holidays` (docs/reference.md § Resources) with `closed: true`, as dates
// in the location's time zone (the IANA name its POS gives; UTC when it gives none). Time zones
// come from the platform's own data (Intl), never from offsets written here. A holiday with a
// malformed date, or a time zone that is not a known IANA name, is left out and said so: the
// catalog is taken all the same.
import type { Db } from '../../db/client.js';
import { statementsOf } from '../../db/statements.js';
import { catalogVersionBody } from '../../db/sql/catalog.js';
import { keptPer } from '../../common/kept.js';

/** Closed days by date (YYYY-MM-DD), with their names. */
export type ClosedDays = ReadonlyMap<string, string>;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const isDate = (text: string) => {
  const match = DATE.exec(text);
  if (!match) return false;
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return day.toISOString().slice(0, 10) === text;
};

/** A catalog's closed days, and what in its holidays could not be read. */
export function closedDaysIn(holidays: unknown): { days: ClosedDays; warnings: string[] } {
  const days = new Map<string, string>();
  const warnings: string[] = [];
  if (holidays === undefined) return { days, warnings };
  if (!Array.isArray(holidays)) return { days, warnings: ['holidays is not a list: ignored'] };
  holidays.forEach((holiday: unknown, index) => {
    const { date, name, closed } = (holiday ?? {}) as { date?: unknown; name?: unknown; closed?: unknown };
    if (typeof date !== 'string' || !isDate(date)) {
      warnings.push(`holidays[${index}] has no date of the form YYYY-MM-DD (${JSON.stringify(date)}): ignored`);
      return;
    }
    if (closed === true) days.set(date, typeof name === 'string' ? name : 'Closed');
  });
  return { days, warnings };
}

/** Whether the platform knows this IANA time zone name. */
export function isTimeZone(name: unknown): name is string {
  if (typeof name !== 'string' || !name) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();
/** The date (YYYY-MM-DD) an instant falls on in a time zone. */
export function localDate(at: number, timeZone: string): string {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formats.set(timeZone, format);
  }
  return format.format(at);
}

/** The closed days from the day `now` falls on in the time zone, for `days` days, in order. */
export function closedDaysAhead(closed: ClosedDays, timeZone: string, now: number, days = 60): { date: string; name: string }[] {
  const today = localDate(now, timeZone);
  const last = new Date(Date.parse(`${today}T00:00:00Z`) + (days - 1) * 86_400_000).toISOString().slice(0, 10);
  return [...closed]
    .filter(([date]) => date >= today && date <= last)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, name]) => ({ date, name }));
}

/** Closed days kept per database client and catalog version (a version never changes). */
const closedDaysOf = keptPer<Db, string, Promise<ClosedDays>>({ max: 500 });

/** The closed days of a stored catalog version: read once per version on each instance. */
export function storedClosedDays(db: Db, versionId: string): Promise<ClosedDays> {
  return closedDaysOf(db).remember(versionId, () =>
    catalogVersionBody(statementsOf(db), versionId).then((body) => {
      const catalog = body === undefined ? {} : (JSON.parse(body) as { holidays?: unknown });
      return closedDaysIn(catalog.holidays).days;
    }),
  );
}
