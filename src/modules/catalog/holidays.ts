// A location's holidays: the catalog's `holidays` (docs/reference.md § Resources) that change its
// hours, as dates in the location's time zone (the IANA name its POS gives; UTC when it gives
// none): closed all day (`closed: true`, or `hours` empty), or open only the `hours` given (a
// short day). A holiday with neither is listed for information and changes nothing. A holiday
// with a malformed date is left out and said so: the catalog is taken all the same; malformed
// `hours` make the catalog invalid (./validate.ts). Time zones come from the platform's own data
// (./local-time.ts).
import type { Db } from '../../db/client.js';
import { statementsOf } from '../../db/statements.js';
import { catalogVersionBody } from '../../db/sql/catalog.js';
import { keptPer } from '../../common/kept.js';
import { openingAt, readRanges, type Holiday, type Holidays, type Hours } from './hours.js';
import { addDays, localDate, zoneOf } from './local-time.js';
import { storedOffer } from './offer.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const isDate = (text: string) => {
  const match = DATE.exec(text);
  if (!match) return false;
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return day.toISOString().slice(0, 10) === text;
};

/** A catalog's holidays that change its hours, and what in them could not be read. */
export function holidaysIn(holidays: unknown): { holidays: Holidays; warnings: string[] } {
  const days = new Map<string, Holiday>();
  const warnings: string[] = [];
  if (holidays === undefined || holidays === null) return { holidays: days, warnings };
  if (!Array.isArray(holidays)) return { holidays: days, warnings: ['holidays is not a list: ignored'] };
  holidays.forEach((holiday: unknown, index) => {
    const { date, name, closed, hours } = (holiday ?? {}) as { date?: unknown; name?: unknown; closed?: unknown; hours?: unknown };
    if (typeof date !== 'string' || !isDate(date)) {
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

/** Holidays kept per database client and catalog version (a version never changes). */
const holidaysOf = keptPer<Db, string, Promise<Holidays>>({ max: 500 });

/** The holidays of a stored catalog version: read once per version on each instance. */
export function storedHolidays(db: Db, versionId: string): Promise<Holidays> {
  return holidaysOf(db).remember(versionId, () =>
    catalogVersionBody(statementsOf(db), versionId).then((body) => {
      const catalog = body === undefined ? {} : (JSON.parse(body) as { holidays?: unknown });
      return holidaysIn(catalog.holidays).holidays;
    }),
  );
}

/** Hours kept per database client, catalog version and zone (none of them changes). */
const hoursKept = keptPer<Db, string, Promise<Hours>>({ max: 500 });

/** A location's hours: every menu of a catalog version (its latest valid one), with its holidays,
 * in its time zone. */
export function locationHours(db: Db, versionId: string, timezone: string): Promise<Hours> {
  const timeZone = zoneOf(timezone);
  return hoursKept(db).remember(`${versionId}|${timeZone}`, async () => {
    const [offer, holidays] = await Promise.all([storedOffer(db, versionId, null), storedHolidays(db, versionId)]);
    return { timeZone, menus: offer?.menus ?? new Map(), holidays };
  });
}

type Opening = ReturnType<typeof openingAt>;
/** Openings kept until they change: from when they were worked out until the location next opens
 * or closes (a minute, when that is not within the week). */
const openingKept = keptPer<Db, string, { opening: Opening; from: number; until: number }>({ max: 500 });

/** Whether a location's hours have it open at `now`, and when that changes: worked out once for
 * as long as it holds, not at every read of the location. */
export async function locationOpening(db: Db, versionId: string, timezone: string, now = Date.now()): Promise<Opening> {
  const key = `${versionId}|${zoneOf(timezone)}`;
  const kept = openingKept(db).get(key);
  if (kept && kept.from <= now && now < kept.until) return kept.opening;
  const opening = openingAt(await locationHours(db, versionId, timezone), now);
  openingKept(db).set(key, { opening, from: now, until: opening.opensAt ?? opening.closesAt ?? now + 60_000 });
  return opening;
}
