import {
  alwaysOpen,
  closedSentence,
  MOST_RANGES,
  openingAt,
  readRanges,
  isOpenAt,
  nextClosing,
  nextOpening,
  notServedSentence,
  openMenusAt,
  readRange,
  readWeek,
  weekOpen,
  weekText,
  type Holiday,
  type Hours,
} from './hours.js';
import { instantAt, wallClock, weekdayOf } from './local-time.js';
import { holidaysIn } from './holidays.js';

const CHICAGO = 'America/Chicago';
const BERLIN = 'Europe/Berlin';
const utc = (text: string) => Date.parse(`${text}Z`);
const hm = (text: string) => Number(text.slice(0, 2)) * 60 + Number(text.slice(3, 5));
const week = (schedule: Record<string, string[]>) => {
  const { week: read, problems } = readWeek(schedule);
  expect(problems).toEqual([]);
  return read;
};
const hoursOf = (
  timeZone: string,
  menus: Record<string, Record<string, string[]> | null>,
  holidays: Record<string, { name?: string; hours?: string[] }> = {},
): Hours => ({
  timeZone,
  menus: new Map(Object.entries(menus).map(([id, schedule]) => [id, { name: id, week: schedule && week(schedule) }])),
  holidays: new Map(
    Object.entries(holidays).map(([date, h]): [string, Holiday] => [
      date,
      { name: h.name ?? 'Holiday', hours: h.hours ? h.hours.map((r) => readRange(r) as { start: number; end: number }) : null },
    ]),
  ),
});
/** An instant as the location's clock reads it ("2026-03-08 07:00"). */
const local = (text: string, zone: string) => instantAt(text.slice(0, 10), hm(text.slice(11)), zone);
const DAILY = (range: string) =>
  Object.fromEntries(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, [range]]));

describe('reading a schedule', () => {
  test.each([
    ['11:00-15:00', { start: 660, end: 900 }],
    ['9:00-16:00', { start: 540, end: 960 }],
    [' 07:00 - 11:00 ', { start: 420, end: 660 }],
    ['18:00-02:00', { start: 1080, end: 120 }],
    ['22:00-00:00', { start: 1320, end: 0 }],
    ['00:00-24:00', { start: 0, end: 1440 }],
    [
      '25:00-26:00',
      '"25:00-26:00" is not a range of 24-hour times like "11:00-15:00" (hours 00 to 23, minutes 00 to 59; 24:00 only as an end)',
    ],
    ['11:00', '"11:00" is not a range of 24-hour times like "11:00-15:00"'],
    ['11-22', '"11-22" is not a range of 24-hour times like "11:00-15:00"'],
    ['11:60-12:00', expect.stringMatching(/^"11:60-12:00" is not a range/)],
    ['24:00-02:00', expect.stringMatching(/^"24:00-02:00" is not a range/)],
    ['10:00-10:00', '"10:00-10:00" starts as it ends (a whole day is "00:00-24:00")'],
    ['10:00-25:00', expect.stringMatching(/^"10:00-25:00" is not a range/)],
    ['10:00-24:30', expect.stringMatching(/^"10:00-24:30" is not a range/)],
    ['x11:00-15:00', expect.stringMatching(/^"x11:00-15:00" is not a range/)],
    ['11:00-15:00x', expect.stringMatching(/^"11:00-15:00x" is not a range/)],
    [1100, '1100 is not a range of 24-hour times like "11:00-15:00"'],
    ['9'.repeat(60), `"${'9'.repeat(39)} is not a range of 24-hour times like "11:00-15:00"`],
  ])('%j → %j', (text, expected) => {
    expect(readRange(text)).toEqual(expected);
  });

  test.each([
    ['a day named funday', { funday: ['11:00-22:00'] }, ['schedule names "funday", which is not a weekday (monday to sunday)']],
    ['a capitalised day', { Monday: ['11:00-22:00'] }, ['schedule names "Monday", which is not a weekday (monday to sunday)']],
    ['not an object', '11:00-22:00', ['schedule must be an object of weekdays (monday to sunday) and their ranges, not "11:00-22:00"']],
    ['a list', [['11:00-22:00']], ['schedule must be an object of weekdays (monday to sunday) and their ranges, not [["11:00-22:00"]]']],
    [
      'a day that is no list',
      { monday: '11:00-22:00' },
      ['schedule.monday must be a list of ranges like "11:00-15:00", not "11:00-22:00"'],
    ],
    ['10,000 ranges', { monday: Array(10_000).fill('11:00-12:00') }, ['schedule.monday holds 10000 ranges; at most 48']],
    [
      'bad ranges, each named',
      { tuesday: ['11:00-15:00', '25:00-26:00', '11:00'] },
      [
        expect.stringMatching(/^schedule\.tuesday\[1\] "25:00-26:00" is not a range/),
        expect.stringMatching(/^schedule\.tuesday\[2\] "11:00"/),
      ],
    ],
  ])('%s: a problem each', (_what, schedule, problems) => {
    expect(readWeek(schedule).problems).toEqual(problems);
  });

  test(`at most ${MOST_RANGES} ranges a day`, () => {
    expect(readRanges(Array(MOST_RANGES).fill('07:00-08:00'), 'hours')).toMatchObject({ problems: [] });
    expect(readRanges(Array(MOST_RANGES + 1).fill('07:00-08:00'), 'hours')).toEqual({
      ranges: [],
      problems: [`hours holds ${MOST_RANGES + 1} ranges; at most ${MOST_RANGES}`],
    });
    expect(readRanges('07:00-08:00', 'hours')).toEqual({
      ranges: [],
      problems: ['hours must be a list of ranges like "11:00-15:00", not "07:00-08:00"'],
    });
  });

  test('written back in one form: each day in order, its ranges sorted, the days without any left out', () => {
    expect(weekText(week({ sunday: ['18:00-02:00'], monday: ['17:00-22:00', '9:00-15:00'], tuesday: [] }))).toEqual({
      monday: ['09:00-15:00', '17:00-22:00'],
      sunday: ['18:00-02:00'],
    });
  });
});

describe('a week open or closed', () => {
  const lunchAndDinner = week({ monday: ['11:00-15:00', '17:00-22:00'], friday: ['22:00-02:00'], sunday: ['18:00-02:00'] });
  // 2026-11-02 is a Monday.
  const on = (date: string, clock: string) => ({ date, weekday: weekdayOf(date), minute: hm(clock) });
  test.each([
    ['2026-11-02', '10:59', false, 'before the first range'],
    ['2026-11-02', '11:00', true, 'its start'],
    ['2026-11-02', '14:59', true, 'inside'],
    ['2026-11-02', '15:00', false, 'its end is not in it'],
    ['2026-11-02', '21:59', true, 'the second range'],
    ['2026-11-02', '22:00', false, 'after the last'],
    ['2026-11-03', '12:00', false, 'a day left out (Tuesday)'],
    ['2026-11-06', '23:00', true, 'Friday night, past midnight'],
    ['2026-11-07', '01:59', true, 'the range runs into Saturday'],
    ['2026-11-07', '02:00', false, 'and ends there'],
    ['2026-11-07', '23:00', false, 'Saturday has none of its own'],
    ['2026-11-08', '23:00', true, 'Sunday night'],
    ['2026-11-09', '01:00', true, "the week wraps: Sunday's range runs into Monday"],
    ['2026-11-09', '02:00', false, 'and ends there'],
  ])('%s %s: open %s (%s)', (date, clock, open) => {
    expect(weekOpen(lunchAndDinner, on(date, clock))).toBe(open);
  });
});

describe('menus and holidays at a moment', () => {
  const diner = hoursOf(
    CHICAGO,
    { all_day: null, breakfast: DAILY('07:00-11:00') },
    {
      '2026-12-24': { name: 'Christmas Eve', hours: ['10:00-14:00'] },
      '2026-12-25': { name: 'Christmas Day' },
      '2026-12-31': { name: "New Year's Eve", hours: ['18:00-02:00'] },
      '2027-01-01': { name: "New Year's Day", hours: ['12:00-16:00'] },
      '2027-01-08': { name: 'Split day', hours: ['10:00-12:00', '14:00-16:00'] },
      '2027-01-09': { name: 'Next', hours: ['20:00-22:00'] },
    },
  );
  test.each([
    ['2026-12-23 06:59', ['all_day'], 'an ordinary day: the menu without schedule only'],
    ['2026-12-23 07:00', ['all_day', 'breakfast'], 'breakfast begins'],
    ['2026-12-23 11:00', ['all_day'], 'breakfast ends'],
    ['2026-12-24 09:59', [], 'a holiday with hours: before them'],
    ['2026-12-24 10:00', ['all_day', 'breakfast'], 'within them, each menu still by its own schedule'],
    ['2026-12-24 11:30', ['all_day'], 'breakfast over, the holiday hours go on'],
    ['2026-12-24 14:00', [], 'after them'],
    ['2026-12-25 12:00', [], 'closed all day'],
    ['2026-12-31 23:00', ['all_day'], "New Year's Eve runs past midnight"],
    ['2027-01-01 01:59', ['all_day'], "into New Year's Day, a holiday of its own hours"],
    ['2027-01-01 02:00', [], 'until its end'],
    ['2027-01-01 12:00', ['all_day'], "New Year's Day's own hours"],
    ['2027-01-08 15:00', ['all_day'], 'the second range of a day of two'],
    ['2027-01-08 13:00', [], 'between them'],
  ])('%s: open menus %j (%s)', (moment, open) => {
    const at = local(moment, CHICAGO);
    expect([...openMenusAt(diner, wallClock(at, CHICAGO))]).toEqual(open);
    expect(isOpenAt(diner, at)).toBe(open.length > 0);
  });

  test('a future order for a holiday with hours: within them it passes, outside them the next opening is named', () => {
    expect(isOpenAt(diner, local('2026-12-24 12:00', CHICAGO))).toBe(true);
    expect(closedSentence(diner, local('2026-12-24 15:00', CHICAGO))).toBe(
      'the location keeps holiday hours 10:00-14:00 on Thu, Dec 24 (Christmas Eve) and is closed until Sat, Dec 26, 00:00 (America/Chicago)',
    );
    expect(closedSentence(diner, local('2026-12-25 09:00', CHICAGO))).toBe(
      'the location is closed on Fri, Dec 25 (Christmas Day) until Sat, Dec 26, 00:00 (America/Chicago)',
    );
  });
});

describe('hours at their edges: a range belongs to the day it starts on', () => {
  // 2026-12-25 is a Friday, 2026-12-31 a Thursday.
  const fridayLate = hoursOf(
    CHICAGO,
    { late: { thursday: ['22:00-01:00'], friday: ['17:00-02:00'], saturday: ['11:00-15:00'] } },
    { '2026-12-25': { name: 'Christmas Day' } },
  );
  const newYearsEve = hoursOf(
    CHICAGO,
    { dinner: { wednesday: ['22:00-02:00'], thursday: ['17:00-02:00'], friday: ['11:00-15:00'] } },
    { '2026-12-31': { name: "New Year's Eve", hours: ['17:00-01:00'] } },
  );
  const eveIntoClosed = hoursOf(
    CHICAGO,
    { menu: null },
    { '2026-12-24': { name: 'Christmas Eve', hours: ['18:00-01:00'] }, '2026-12-25': { name: 'Christmas Day' } },
  );
  const cases: Record<string, Hours> = { fridayLate, newYearsEve, eveIntoClosed };
  test.each([
    ['fridayLate', '2026-12-18 23:00', true, 'an ordinary Friday night'],
    ['fridayLate', '2026-12-19 01:30', true, "an ordinary Friday's 17:00-02:00 runs into Saturday"],
    ['fridayLate', '2026-12-25 18:00', false, 'Christmas Day, a Friday closed all day'],
    ['fridayLate', '2026-12-26 00:30', false, "the closed Friday's 17:00-02:00 does not open Saturday 00:00-02:00"],
    ['fridayLate', '2026-12-26 01:59', false, 'nor at its last minute'],
    ['fridayLate', '2026-12-26 11:00', true, 'the day after keeps its own'],
    ['fridayLate', '2026-12-25 00:30', true, "Thursday's 22:00-01:00 is Thursday's: it runs into the closed Friday"],
    ['newYearsEve', '2026-12-31 20:00', true, "New Year's Eve within its holiday hours"],
    ['newYearsEve', '2026-12-31 16:30', false, "before them, though Thursday's menu would not have opened either"],
    ['newYearsEve', '2027-01-01 00:30', true, "the holiday's 17:00-01:00 runs past midnight"],
    ['newYearsEve', '2027-01-01 01:30', false, "the holiday's hours replace Thursday's 17:00-02:00, its tail included"],
    ['newYearsEve', '2027-01-01 11:00', true, 'the day after keeps its own'],
    ['newYearsEve', '2026-12-31 01:30', true, "Wednesday's 22:00-02:00 is Wednesday's: the holiday changes only its own day's"],
    ['eveIntoClosed', '2026-12-25 00:30', true, "a holiday's own hours past midnight run into a day closed all day"],
    ['eveIntoClosed', '2026-12-25 01:00', false, 'until their end'],
  ])('%s, %s: open %s (%s)', (name, moment, open) => {
    expect(isOpenAt(cases[name]!, local(moment, CHICAGO))).toBe(open);
  });

  test('the next opening and closing see the same edges', () => {
    expect(nextOpening(fridayLate, local('2026-12-25 12:00', CHICAGO))).toBe(local('2026-12-26 11:00', CHICAGO));
    expect(nextClosing(newYearsEve, local('2026-12-31 23:00', CHICAGO))).toBe(local('2027-01-01 01:00', CHICAGO));
    expect(nextClosing(fridayLate, local('2026-12-24 23:00', CHICAGO))).toBe(local('2026-12-25 01:00', CHICAGO));
  });

  test('a holiday with closed: false and no hours is an ordinary day', () => {
    const holidays = holidaysIn([{ date: '2026-12-25', name: 'Christmas Day', closed: false }]);
    const hours: Hours = { ...fridayLate, holidays };
    expect(isOpenAt(hours, local('2026-12-25 18:00', CHICAGO))).toBe(true);
    expect(isOpenAt(hours, local('2026-12-26 01:30', CHICAGO))).toBe(true);
    expect(alwaysOpen({ menus: new Map([['menu', { name: 'menu', week: null }]]), holidays })).toBe(true);
  });

  // Lunch and dinner every day; Christmas Eve open 11:00-16:00 only, Christmas Day closed.
  const christmas = hoursOf(
    CHICAGO,
    { lunch: DAILY('11:00-14:00'), dinner: DAILY('17:00-02:00') },
    { '2026-12-24': { name: 'Christmas Eve', hours: ['11:00-16:00'] }, '2026-12-25': { name: 'Christmas Day' } },
  );
  test.each([
    [
      '2026-12-24 14:30',
      'within holiday hours, no menu open: the location is open, and the next opening has its date',
      'the location keeps holiday hours 11:00-16:00 on Thu, Dec 24 (Christmas Eve) and is open, but none of its menus is open until Sat, Dec 26, 11:00 (America/Chicago)',
    ],
    [
      '2026-12-24 16:30',
      'after holiday hours: closed',
      'the location keeps holiday hours 11:00-16:00 on Thu, Dec 24 (Christmas Eve) and is closed until Sat, Dec 26, 11:00 (America/Chicago)',
    ],
    [
      '2026-12-25 12:00',
      'a day closed all day',
      'the location is closed on Fri, Dec 25 (Christmas Day) until Sat, Dec 26, 11:00 (America/Chicago)',
    ],
    [
      '2026-12-26 01:00',
      "after the closed day, whose dinner's tail is closed with it",
      'the location is closed until Sat, Dec 26, 11:00 (America/Chicago)',
    ],
    ['2026-12-22 15:00', 'an ordinary afternoon', 'the location is closed until Tue, Dec 22, 17:00 (America/Chicago)'],
  ])('%s: %s', (moment, _why, sentence) => {
    expect(closedSentence(christmas, local(moment, CHICAGO))).toBe(sentence);
  });

  test('an opening in another year says its year', () => {
    const closedTwice = hoursOf(CHICAGO, { lunch: DAILY('11:00-14:00') }, { '2026-12-31': {}, '2027-01-01': {} });
    expect(closedSentence(closedTwice, local('2026-12-31 12:00', CHICAGO))).toBe(
      'the location is closed on Thu, Dec 31 (Holiday) until Sat, Jan 2, 2027, 11:00 (America/Chicago)',
    );
  });
});

describe('the next opening and closing, across the daylight-saving changes', () => {
  const breakfastAndDay = { breakfast: DAILY('07:00-11:00'), all_day: DAILY('11:00-22:00') };
  test.each([
    // zone, from (local clock), the next opening (UTC), why
    [CHICAGO, '2026-03-07 23:00', '2026-03-08T12:00:00', 'Sunday 07:00 in summer time, the night an hour short'],
    [CHICAGO, '2026-11-01 00:30', '2026-11-01T13:00:00', 'Sunday 07:00 in winter time, the night an hour long'],
    [BERLIN, '2026-03-29 00:30', '2026-03-29T05:00:00', 'Sunday 07:00 in summer time'],
    [BERLIN, '2026-10-25 00:30', '2026-10-25T06:00:00', 'Sunday 07:00 in winter time'],
    [BERLIN, '2026-11-01 23:00', '2026-11-02T06:00:00', 'an ordinary Sunday night, into Monday'],
    [CHICAGO, '2026-03-08 12:00', '2026-03-08T17:00:00', 'open now: now'],
  ])('%s from %s: opens %s (%s)', (zone, from, opens) => {
    expect(nextOpening(hoursOf(zone, breakfastAndDay), local(from, zone))).toBe(utc(opens));
  });

  test.each([
    // a Sunday menu whose start the spring change skips opens when the clock jumps past it
    [CHICAGO, { sunday: ['02:30-05:00'] }, '2026-03-08 00:00', '2026-03-08T08:00:00'],
    [BERLIN, { sunday: ['02:15-04:00'] }, '2026-03-29 00:00', '2026-03-29T01:00:00'],
    // one whose start the autumn change repeats opens at its first occurrence
    [CHICAGO, { sunday: ['01:30-03:00'] }, '2026-11-01 00:00', '2026-11-01T06:30:00'],
    [BERLIN, { sunday: ['02:30-04:00'] }, '2026-10-25 00:00', '2026-10-25T00:30:00'],
    // the week wraps from Sunday to Monday
    [CHICAGO, { monday: ['09:00-17:00'] }, '2026-11-01 20:00', '2026-11-02T15:00:00'],
    [CHICAGO, { monday: ['09:00-17:00'] }, '2026-11-03 09:00', '2026-11-09T15:00:00'],
  ])('%s, %j, from %s: opens %s', (zone, schedule, from, opens) => {
    expect(nextOpening(hoursOf(zone, { menu: schedule }), local(from, zone))).toBe(utc(opens));
  });

  test('a closed day is skipped; a menu that never opens has no next opening', () => {
    const closedMonday = hoursOf(CHICAGO, { menu: { monday: ['09:00-17:00'], tuesday: ['09:00-17:00'] } }, { '2026-11-02': {} });
    expect(nextOpening(closedMonday, local('2026-11-01 12:00', CHICAGO))).toBe(local('2026-11-03 09:00', CHICAGO));
    const never = hoursOf(CHICAGO, { menu: {} });
    expect(nextOpening(never, local('2026-11-01 12:00', CHICAGO))).toBeNull();
    expect(closedSentence(never, local('2026-11-01 12:00', CHICAGO))).toBe(
      'the location is closed, and none of its menus opens in the next 400 days',
    );
    expect(notServedSentence(hoursOf(CHICAGO, { all_day: null, never: {} }), 'item x', ['never'], local('2026-11-01 12:00', CHICAGO))).toBe(
      'the location is open, but item x is only on menus closed at Sun, Nov 1, 12:00 (America/Chicago): never (not on Sun), none of them opening in the next 400 days',
    );
  });

  test.each([
    [{ menu: null }, '2026-11-01 12:00', null, 'a menu without schedule never closes'],
    [breakfastAndDay, '2026-11-01 08:00', '2026-11-01 22:00', 'breakfast hands over to the day menu'],
    [{ late: { friday: ['22:00-02:00'] } }, '2026-11-06 23:00', '2026-11-07 02:00', 'past midnight'],
    [{ late: { sunday: ['22:00-02:00'] } }, '2026-11-01 23:00', '2026-11-02 02:00', 'Sunday into Monday'],
  ] as const)('%j from %s closes at %s (%s)', (menus, from, closes, _why) => {
    const hours = hoursOf(CHICAGO, menus as Record<string, Record<string, string[]> | null>);
    expect(nextClosing(hours, local(from, CHICAGO))).toBe(closes && local(closes, CHICAGO));
  });

  test("a holiday's hours past midnight close the next day at their end", () => {
    const hours = hoursOf(
      CHICAGO,
      { menu: null },
      { '2026-12-31': { hours: ['12:00-14:00', '18:00-02:00'] }, '2027-01-01': { hours: ['12:00-16:00'] } },
    );
    expect(isOpenAt(hours, local('2027-01-01 01:00', CHICAGO))).toBe(true);
    expect(nextClosing(hours, local('2026-12-31 23:00', CHICAGO))).toBe(local('2027-01-01 02:00', CHICAGO));
    expect(nextClosing(hours, local('2027-01-01 01:00', CHICAGO))).toBe(local('2027-01-01 02:00', CHICAGO));
  });

  test('a closed day ahead closes a menu without schedule at its midnight', () => {
    const hours = hoursOf(CHICAGO, { menu: null }, { '2026-11-03': { name: 'Inventory' } });
    expect(nextClosing(hours, local('2026-11-01 12:00', CHICAGO))).toBe(local('2026-11-03 00:00', CHICAGO));
  });
});

test('whether it is open now, and when that changes', () => {
  const always = hoursOf(CHICAGO, { menu: null });
  expect(alwaysOpen(always)).toBe(true);
  expect(openingAt(always, local('2026-11-30 03:00', CHICAGO))).toEqual({ open: true, opensAt: null, closesAt: null });
  expect(alwaysOpen(hoursOf(CHICAGO, { menu: null }, { '2026-12-25': {} }))).toBe(false);
  expect(alwaysOpen(hoursOf(CHICAGO, { menu: null, breakfast: DAILY('07:00-11:00') }))).toBe(false);
  const diner = hoursOf(CHICAGO, { all_day: DAILY('11:00-22:00') });
  expect(openingAt(diner, local('2026-11-30 03:00', CHICAGO))).toEqual({
    open: false,
    opensAt: local('2026-11-30 11:00', CHICAGO),
    closesAt: null,
  });
  expect(openingAt(diner, local('2026-11-30 12:00', CHICAGO))).toEqual({
    open: true,
    opensAt: null,
    closesAt: local('2026-11-30 22:00', CHICAGO),
  });
  // A closing more than a week ahead is none to show.
  const closedLater = hoursOf(CHICAGO, { menu: null }, { '2026-12-25': {} });
  expect(openingAt(closedLater, local('2026-12-17 12:00', CHICAGO)).closesAt).toBeNull();
  expect(openingAt(closedLater, local('2026-12-18 12:00', CHICAGO)).closesAt).toBe(local('2026-12-25 00:00', CHICAGO));
});

test('in words: when it opens next on its own clock, and which menus hold an item out of hours', () => {
  const hours = hoursOf(CHICAGO, { all_day: DAILY('11:00-22:00'), breakfast: DAILY('07:00-11:00'), brunch: { sunday: ['10:00-14:00'] } });
  // 2026-11-30 is a Monday.
  expect(closedSentence(hours, local('2026-11-30 03:00', CHICAGO))).toBe(
    'the location is closed until Mon, Nov 30, 07:00 (America/Chicago)',
  );
  expect(closedSentence(hours, local('2026-11-30 22:30', CHICAGO))).toBe(
    'the location is closed until Tue, Dec 1, 07:00 (America/Chicago)',
  );
  expect(notServedSentence(hours, 'item item_us_pancakes', ['breakfast', 'brunch'], local('2026-11-30 12:00', CHICAGO))).toBe(
    'the location is open, but item item_us_pancakes is only on menus closed at Mon, Nov 30, 12:00 (America/Chicago): breakfast (Mon 07:00-11:00); brunch (not on Mon), open next Tue, Dec 1, 07:00 (America/Chicago)',
  );
  expect(notServedSentence(hours, 'item item_us_pancakes', ['brunch'], local('2026-12-01 12:00', CHICAGO))).toBe(
    'the location is open, but item item_us_pancakes is only on menus closed at Tue, Dec 1, 12:00 (America/Chicago): brunch (not on Tue), open next Sun, Dec 6, 10:00 (America/Chicago)',
  );
});
