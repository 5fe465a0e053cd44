// Local time in a location's time zone (an IANA name): the wall clock an instant shows there, and
// the instant a wall-clock time of a date begins. Every offset comes from the platform's own time
// zone data (Intl), none is written here, so daylight-saving changes fall where the zone says:
// a wall-clock time the spring change skips begins when the clock jumps past it, and one the
// autumn change repeats begins at its first occurrence. Pure functions, tested as tables of
// cases beside this file (local-time.test.ts).

/** Monday first, as the catalog's schedules name the days. */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const SHORT = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

// The names the platform knew: each order asks of its location's zone, and asking Intl builds a
// formatter (about 50 µs). Intl also takes a name in any letter case, so the set stops growing at
// a bound rather than at the platform's list; past it a name is asked of Intl each time.
const knownZones = new Set<string>();
const MOST_KNOWN_ZONES = 1_000;

/** Whether the platform knows this IANA time zone name. */
export function isTimeZone(name: unknown): name is string {
  if (typeof name !== 'string' || !name) return false;
  if (knownZones.has(name)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
  } catch {
    return false;
  }
  if (knownZones.size < MOST_KNOWN_ZONES) knownZones.add(name);
  return true;
}

/** The zone to judge a location's times in: its POS's, UTC when that is none the platform knows. */
export const zoneOf = (timezone: string | null | undefined): string => (isTimeZone(timezone) ? timezone : 'UTC');

const dateFormats = new Map<string, Intl.DateTimeFormat>();
/** The date (YYYY-MM-DD) an instant falls on in a time zone. */
export function localDate(at: number, timeZone: string): string {
  let format = dateFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dateFormats.set(timeZone, format);
  }
  return format.format(at);
}

/** A moment on a location's wall clock: its date, the weekday of that date (0 is Monday) and the
 * minute of the day (0 to 1439). */
export type WallClock = { date: string; weekday: number; minute: number };

const clockFormats = new Map<string, Intl.DateTimeFormat>();
function clockFormat(timeZone: string): Intl.DateTimeFormat {
  let format = clockFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    clockFormats.set(timeZone, format);
  }
  return format;
}

/** How the clock format writes an instant: "11/26/2026, 14:05:00". */
const READING = /^(\d{1,2})\/(\d{1,2})\/(\d{4}), (\d{2}):(\d{2}):(\d{2})$/;

/** The wall-clock reading of an instant in a zone, as if it were UTC: epoch ms of the same
 * year, month, day, hour, minute and second (the milliseconds dropped). The formatted text is
 * read: three times faster than its parts. */
function wallMs(at: number, timeZone: string): number {
  const text = clockFormat(timeZone).format(at);
  const match = READING.exec(text);
  if (!match) throw new Error(`the platform wrote a time as ${JSON.stringify(text)}, not as M/D/YYYY, HH:MM:SS`);
  return Date.UTC(Number(match[3]), Number(match[1]) - 1, Number(match[2]), Number(match[4]), Number(match[5]), Number(match[6]));
}

/** The date of a wall-clock reading (epoch ms as if UTC). */
const dateOfWall = (wall: number) => new Date(wall).toISOString().slice(0, 10);
/** Midnight of a date, as if UTC. */
const midnight = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** The weekday of a date (0 is Monday). */
export const weekdayOf = (date: string): number => (new Date(midnight(date)).getUTCDay() + 6) % 7;

/** The date `days` after (or before) a date. */
export const addDays = (date: string, days: number): string => dateOfWall(midnight(date) + days * DAY_MS);

/** What a location's wall clock shows at an instant. */
export function wallClock(at: number, timeZone: string): WallClock {
  const wall = wallMs(at, timeZone);
  const days = Math.floor(wall / DAY_MS);
  // 1970-01-01 was a Thursday (3, Monday being 0).
  return { date: dateOfWall(wall), weekday: (days + 3) % 7, minute: Math.floor((wall - days * DAY_MS) / MINUTE_MS) };
}

/**
 * The first instant at which the wall clock of a zone reads `minute` (0 to 1440) of `date` or
 * later. A time that exists once is that instant; a time the autumn change repeats, its first
 * occurrence; a time the spring change skips, the instant the clock jumps past it.
 */
export function instantAt(date: string, minute: number, timeZone: string): number {
  const wall = midnight(date) + minute * MINUTE_MS;
  // The offsets a day either side: a zone changes its offset at most once in two days.
  const offsets = [wall - DAY_MS, wall + DAY_MS].map((at) => wallMs(at, timeZone) - at);
  const readings = offsets.map((offset) => wall - offset).filter((at) => wallMs(at, timeZone) === wall);
  if (readings.length) return Math.min(...readings);
  // Skipped: the clock reads before `wall` until the change and after it from then on; the
  // change lies between the two readings, found by halving (to the millisecond).
  let [low, high] = offsets.map((offset) => wall - offset).sort((a, b) => a - b) as [number, number];
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (wallMs(middle, timeZone) >= wall) high = middle;
    else low = middle;
  }
  return high;
}

/** A minute of the day as a clock shows it, 24-hour ("07:00"; "24:00" is the end of the day). */
export const clockText = (minute: number): string =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** A date in words for people: "Sat, Dec 26", with its year when it is not `year` ("Sat, Jan 2,
 * 2027"): a weekday alone is a guess once the date is more than a few days off. */
export function dayLabel(date: string, year?: string): string {
  const [y, m, d] = date.split('-') as [string, string, string];
  return `${SHORT[weekdayOf(date)]}, ${MONTHS[Number(m) - 1]} ${Number(d)}${y === year ? '' : `, ${y}`}`;
}

/** An instant as a location's clock shows it, in words for people, said from `from` (the year
 * when it is another): "Sat, Dec 26, 11:00 (America/Chicago)". One form for every time a
 * refusal names, an opening as a pause's end. */
export function localMoment(at: number, timeZone: string, from: number = at): string {
  const clock = wallClock(at, timeZone);
  return `${dayLabel(clock.date, localDate(from, timeZone).slice(0, 4))}, ${clockText(clock.minute)} (${timeZone})`;
}

/** The short name of a weekday (0 is Monday). */
export const weekdayShort = (weekday: number): string => SHORT[weekday]!;
