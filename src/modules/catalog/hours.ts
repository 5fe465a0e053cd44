// Opening hours (docs/pos-vendors.md, "Opening hours"): a menu's `schedule` ({monday:
// ["11:00-15:00", "17:00-22:00"], …}, a range ending at or before its start running past midnight
// into the next day, a day left out closed, no schedule: open whenever the location is) and a
// holiday's `hours` (that day open those hours only). Everything is judged on the location's wall
// clock (./local-time.ts), so a schedule means what its restaurant's clock says on every day,
// daylight-saving changes included. How they are read and what they decide, as pure functions
// tested as tables of cases beside this file (hours.test.ts).
import {
  addDays,
  clockText,
  dayLabel,
  instantAt,
  localMoment,
  wallClock,
  WEEKDAYS,
  weekdayOf,
  weekdayShort,
  type WallClock,
} from './local-time.js';

/** A range of a day's clock in minutes: from `start` (0 to 1439) to `end` (1 to 1440); an end at
 * or before its start is on the next day. */
export type Range = { start: number; end: number };
/** A menu's week: the ranges of each weekday, Monday first (none: closed that day). */
export type Week = readonly (readonly Range[])[];
/** A day the location keeps other hours: closed all day (`hours` null), or open those only. */
export type Holiday = { name: string; hours: readonly Range[] | null };
/** The location's holidays that change its hours, by date (YYYY-MM-DD). */
export type Holidays = ReadonlyMap<string, Holiday>;
/** A menu's hours: its week, or null (no schedule: open whenever the location is). */
export type MenuHours = { name: string; week: Week | null };
/** What decides whether a location (or one of its stores) is open: the menus it has, the
 * holidays, and the zone its clock is in. */
export type Hours = { timeZone: string; menus: ReadonlyMap<string, MenuHours>; holidays: Holidays };

/** The most ranges one day of a schedule or one holiday may hold. */
export const MOST_RANGES = 48;
/** How far ahead the next opening is looked for. */
export const LOOK_AHEAD_DAYS = 400;

const RANGE = /^(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})$/;
const shown = (value: unknown) => (JSON.stringify(value) ?? String(value)).slice(0, 40);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A range written "HH:MM-HH:MM" (24-hour; "24:00" only as an end), or what is wrong with it. */
export function readRange(text: unknown): Range | string {
  const match = typeof text === 'string' ? RANGE.exec(text.trim()) : null;
  if (!match) return `${shown(text)} is not a range of 24-hour times like "11:00-15:00"`;
  const [start, end] = [
    [match[1], match[2]],
    [match[3], match[4]],
  ].map(([h, m]) => Number(h) * 60 + Number(m)) as [number, number];
  const valid = (hour: string, minute: string, isEnd: boolean) =>
    Number(minute) < 60 && (Number(hour) < 24 || (isEnd && hour === '24' && minute === '00'));
  if (!valid(match[1]!, match[2]!, false) || !valid(match[3]!, match[4]!, true))
    return `${shown(text)} is not a range of 24-hour times like "11:00-15:00" (hours 00 to 23, minutes 00 to 59; 24:00 only as an end)`;
  if (start === end) return `${shown(text)} starts as it ends (a whole day is "00:00-24:00")`;
  return { start, end };
}

/** A list of ranges (a day of a schedule, a holiday's hours): those it holds, and what is wrong
 * with the others, each named by `field` and its index. */
export function readRanges(raw: unknown, field: string): { ranges: Range[]; problems: string[] } {
  if (!Array.isArray(raw)) return { ranges: [], problems: [`${field} must be a list of ranges like "11:00-15:00", not ${shown(raw)}`] };
  if (raw.length > MOST_RANGES) return { ranges: [], problems: [`${field} holds ${raw.length} ranges; at most ${MOST_RANGES}`] };
  const ranges: Range[] = [];
  const problems: string[] = [];
  raw.forEach((text: unknown, index) => {
    const range = readRange(text);
    if (typeof range === 'string') problems.push(`${field}[${index}] ${range}`);
    else ranges.push(range);
  });
  return { ranges, problems };
}

/** A menu's `schedule`: its week, and what is wrong with it. The days it could not read are
 * closed in the week it gives (a schedule with problems is never published). */
export function readWeek(raw: unknown): { week: Week; problems: string[] } {
  const week: Range[][] = WEEKDAYS.map(() => []);
  if (!isObject(raw))
    return { week, problems: [`schedule must be an object of weekdays (monday to sunday) and their ranges, not ${shown(raw)}`] };
  const problems: string[] = [];
  for (const [day, ranges] of Object.entries(raw)) {
    const weekday = WEEKDAYS.indexOf(day as (typeof WEEKDAYS)[number]);
    if (weekday === -1) {
      problems.push(`schedule names ${shown(day)}, which is not a weekday (monday to sunday)`);
      continue;
    }
    const read = readRanges(ranges, `schedule.${day}`);
    week[weekday] = read.ranges;
    problems.push(...read.problems);
  }
  return { week, problems };
}

/** A range as the wire writes it: "07:00-11:00". */
export const rangeText = (range: Range): string => `${clockText(range.start)}-${clockText(range.end)}`;

/** A week as the wire writes it, each day's ranges in order, the days without any left out. */
export function weekText(week: Week): Partial<Record<(typeof WEEKDAYS)[number], string[]>> {
  return Object.fromEntries(
    WEEKDAYS.flatMap((day, weekday) =>
      week[weekday]!.length ? [[day, [...week[weekday]!].sort((a, b) => a.start - b.start).map(rangeText)]] : [],
    ),
  );
}

/** Whether a range holds a minute of the day it starts on, or (`spill`) of the next day. */
const holds = (range: Range, minute: number) => range.start <= minute && (range.end <= range.start || minute < range.end);
const spills = (range: Range, minute: number) => range.end <= range.start && minute < range.end;

/** Whether a week is open at a moment: a range of that weekday holds it, or one of the day before
 * runs past midnight into it (Sunday's into Monday). */
export function weekOpen(week: Week, clock: WallClock): boolean {
  return week[clock.weekday]!.some((r) => holds(r, clock.minute)) || week[(clock.weekday + 6) % 7]!.some((r) => spills(r, clock.minute));
}

/** A part of a day's ranges: the hours of the day they start on, or those past midnight, on the
 * next day. */
type Part = 'day' | 'after midnight';
const heldIn = (ranges: readonly Range[], minute: number, part: Part) =>
  part === 'day' ? ranges.some((r) => holds(r, minute)) : ranges.some((r) => spills(r, minute));

/**
 * Whether a menu is open at a minute by the ranges of one date (`weekday` its weekday): a range
 * belongs to the day it starts on, its hours past midnight included. On a day closed all day,
 * none; on a day of holiday hours, the holiday's own ranges (past midnight too) take the place of
 * the day's, each menu within them by its own ranges of that day; on any other day, the menu's
 * (no schedule: all day).
 */
function openBy(hours: Hours, menu: MenuHours, date: string, weekday: number, minute: number, part: Part): boolean {
  const holiday = hours.holidays.get(date);
  if (holiday && !holiday.hours) return false;
  const own = menu.week ? heldIn(menu.week[weekday]!, minute, part) : part === 'day';
  if (!holiday) return own;
  return heldIn(holiday.hours!, minute, part) && (!menu.week || own);
}

/** Whether a menu is open at a moment: by that day's ranges, or by the day before's that run past
 * midnight into it. */
function menuOpen(hours: Hours, menu: MenuHours, clock: WallClock): boolean {
  if (!hours.holidays.size) return !menu.week || weekOpen(menu.week, clock);
  return (
    openBy(hours, menu, clock.date, clock.weekday, clock.minute, 'day') ||
    openBy(hours, menu, addDays(clock.date, -1), (clock.weekday + 6) % 7, clock.minute, 'after midnight')
  );
}

/** The menus open at a moment of the location's clock. */
export function openMenusAt(hours: Hours, clock: WallClock): Set<string> {
  return new Set([...hours.menus].filter(([, menu]) => menuOpen(hours, menu, clock)).map(([id]) => id));
}

/** Whether some menu is open at a moment of the location's clock. */
const openAtClock = (hours: Hours, clock: WallClock) => [...hours.menus.values()].some((menu) => menuOpen(hours, menu, clock));

/** The holiday whose own hours a moment is in (that day's, or the day before's past midnight),
 * else the holiday of its day, with its date; null on an ordinary day. */
function holidayAt(hours: Hours, clock: WallClock): { date: string; holiday: Holiday; within: boolean } | null {
  const before = addDays(clock.date, -1);
  const eve = hours.holidays.get(before);
  if (eve?.hours && heldIn(eve.hours, clock.minute, 'after midnight')) return { date: before, holiday: eve, within: true };
  const today = hours.holidays.get(clock.date);
  if (!today) return null;
  return { date: clock.date, holiday: today, within: !!today.hours && heldIn(today.hours, clock.minute, 'day') };
}

/** Whether the location (its menus, with its holidays) is open at an instant. */
export const isOpenAt = (hours: Hours, at: number): boolean => openAtClock(hours, wallClock(at, hours.timeZone));

/** Whether every menu is open whenever the location is and no holiday changes its hours: then
 * nothing about time can refuse an order, and nothing need be computed. */
export const alwaysOpen = (hours: Pick<Hours, 'menus' | 'holidays'>): boolean =>
  !hours.holidays.size && [...hours.menus.values()].every((menu) => !menu.week);

/** The minutes of a date at which something may begin (open) or end (close): the starts or ends
 * of its menus' ranges and of its holiday hours, and midnight, when a day of other hours begins
 * or ends. */
function edgesOn(hours: Hours, date: string, kind: 'start' | 'end'): number[] {
  const weekday = weekdayOf(date);
  const minutes = new Set([0]);
  const add = (ranges: readonly Range[] | undefined, before: readonly Range[] | undefined) => {
    for (const r of ranges ?? []) minutes.add(kind === 'start' ? r.start : r.end % 1440);
    if (kind === 'end') for (const r of before ?? []) if (r.end <= r.start) minutes.add(r.end);
  };
  for (const menu of hours.menus.values()) add(menu.week?.[weekday], menu.week?.[(weekday + 6) % 7]);
  add(hours.holidays.get(date)?.hours ?? undefined, hours.holidays.get(addDays(date, -1))?.hours ?? undefined);
  return [...minutes].sort((a, b) => a - b);
}

const clockOn = (date: string, minute: number): WallClock => ({ date, weekday: weekdayOf(date), minute });

/** The first instant at or after `from` at which the location is open, or null when none of its
 * menus opens within LOOK_AHEAD_DAYS. */
export function nextOpening(hours: Hours, from: number, clock = wallClock(from, hours.timeZone)): number | null {
  if (openAtClock(hours, clock)) return from;
  if (![...hours.menus.values()].some((menu) => !menu.week || menu.week.some((day) => day.length))) return null;
  for (let day = 0; day < LOOK_AHEAD_DAYS; day++) {
    const date = addDays(clock.date, day);
    const holiday = hours.holidays.get(date);
    if (holiday && !holiday.hours) continue;
    for (const minute of edgesOn(hours, date, 'start')) {
      // Judged on the clock first (no zone data needed), then at the instant that minute begins
      // (a minute the spring change skips begins later, when the clock may read otherwise).
      if (!openAtClock(hours, clockOn(date, minute))) continue;
      const at = instantAt(date, minute, hours.timeZone);
      if (at > from && isOpenAt(hours, at)) return at;
    }
  }
  return null;
}

/** The first instant after `from` at which the location, open then, closes; null when it stays
 * open for the next `days` days (every day, all day). */
export function nextClosing(hours: Hours, from: number, days = 8, clock = wallClock(from, hours.timeZone)): number | null {
  if (!openAtClock(hours, clock)) return from;
  const last = addDays(clock.date, days);
  // With a menu open whenever the location is, only a holiday closes it: only its days are looked at.
  const dates = [...hours.menus.values()].some((menu) => !menu.week)
    ? [...hours.holidays.keys()].filter((date) => date >= clock.date && date <= last).sort()
    : Array.from({ length: days + 1 }, (_, day) => addDays(clock.date, day));
  for (const date of dates) {
    for (const minute of edgesOn(hours, date, 'end')) {
      if (openAtClock(hours, clockOn(date, minute))) continue;
      const at = instantAt(date, minute, hours.timeZone);
      if (at > from && !isOpenAt(hours, at)) return at;
    }
  }
  return null;
}

/** Whether the location is open at `now` by its hours, and when that changes: when it opens next
 * (closed now), or when it closes (open now; null when not within a week). */
export function openingAt(hours: Hours, now: number): { open: boolean; opensAt: number | null; closesAt: number | null } {
  if (alwaysOpen(hours)) return { open: true, opensAt: null, closesAt: null };
  const clock = wallClock(now, hours.timeZone);
  const open = openAtClock(hours, clock);
  return open
    ? { open, opensAt: null, closesAt: nextClosing(hours, now, 7, clock) }
    : { open, opensAt: nextOpening(hours, now, clock), closesAt: null };
}

/** Why the location takes no order at `at` (none of its menus is open then), for people: the
 * true cause (a day closed all day, outside a holiday's hours, within them but with no menu open,
 * or closed) and when it next opens, on its clock with the date: "the location is closed on Fri,
 * Dec 25 (Christmas Day) until Sat, Dec 26, 11:00 (America/Chicago)". */
export function closedSentence(hours: Hours, at: number): string {
  const clock = wallClock(at, hours.timeZone);
  const day = holidayAt(hours, clock);
  const named = day && `${dayLabel(day.date, clock.date.slice(0, 4))} (${day.holiday.name})`;
  const ranges = day?.holiday.hours?.map(rangeText).join(', ');
  const why = !day
    ? 'the location is closed'
    : !ranges
      ? `the location is closed on ${named}`
      : `the location keeps holiday hours ${ranges} on ${named} and is ${day.within ? 'open, but none of its menus is open' : 'closed'}`;
  const next = nextOpening(hours, at);
  return next === null
    ? `${why}, and none of its menus opens in the next ${LOOK_AHEAD_DAYS} days`
    : `${why} until ${localMoment(next, hours.timeZone, at)}`;
}

/** Why an item is not served at `at` though the location is open (another menu is), naming the
 * hours of the menus that hold it on that weekday and when the first of them opens next:
 * "the location is open, but item i is only on menus closed at Mon, Nov 30, 06:59
 * (America/Chicago): Breakfast (Mon 07:00-11:00), open next Mon, Nov 30, 07:00 (America/Chicago)". */
export function notServedSentence(hours: Hours, what: string, menuIds: readonly string[], at: number): string {
  const clock = wallClock(at, hours.timeZone);
  const day = weekdayShort(clock.weekday);
  const menus = menuIds.map((id) => {
    const menu = hours.menus.get(id)!;
    const ranges = menu.week?.[clock.weekday] ?? [];
    return `${menu.name} (${ranges.length ? `${day} ${ranges.map(rangeText).join(', ')}` : `not on ${day}`})`;
  });
  const next = nextOpening({ ...hours, menus: new Map(menuIds.map((id) => [id, hours.menus.get(id)!])) }, at);
  return `the location is open, but ${what} is only on menus closed at ${localMoment(at, hours.timeZone)}: ${menus.join('; ')}, ${next === null ? `none of them opening in the next ${LOOK_AHEAD_DAYS} days` : `open next ${localMoment(next, hours.timeZone, at)}`}`;
}
