import { addDays, instantAt, isTimeZone, dayLabel, localDate, localMoment, wallClock, weekdayOf, zoneOf } from './local-time.js';

const CHICAGO = 'America/Chicago';
const BERLIN = 'Europe/Berlin';
const utc = (text: string) => Date.parse(`${text}Z`);
const hm = (text: string) => Number(text.slice(0, 2)) * 60 + Number(text.slice(3, 5));

// The Sundays of 2026 on which these zones change: Chicago on 8 March (02:00 → 03:00) and
// 1 November (02:00 → 01:00), Berlin on 29 March (02:00 → 03:00) and 25 October (03:00 → 02:00);
// 1 November in Berlin is an ordinary Sunday of winter time.
test.each([
  // zone, instant (UTC), the wall clock there
  [CHICAGO, '2026-03-08T07:59:00', '2026-03-08', '01:59'],
  [CHICAGO, '2026-03-08T08:00:00', '2026-03-08', '03:00'],
  [CHICAGO, '2026-11-01T06:30:00', '2026-11-01', '01:30'],
  [CHICAGO, '2026-11-01T07:30:00', '2026-11-01', '01:30'],
  [CHICAGO, '2026-11-01T05:59:00', '2026-11-01', '00:59'],
  [CHICAGO, '2026-11-02T05:59:00', '2026-11-01', '23:59'],
  [BERLIN, '2026-03-29T00:59:00', '2026-03-29', '01:59'],
  [BERLIN, '2026-03-29T01:00:00', '2026-03-29', '03:00'],
  [BERLIN, '2026-10-25T00:30:00', '2026-10-25', '02:30'],
  [BERLIN, '2026-10-25T01:30:00', '2026-10-25', '02:30'],
  [BERLIN, '2026-11-01T11:00:00', '2026-11-01', '12:00'],
  ['UTC', '2026-12-31T23:59:59', '2026-12-31', '23:59'],
])('%s: %s is %s %s on the wall clock', (zone, at, date, clock) => {
  expect(wallClock(utc(at), zone)).toEqual({ date, weekday: weekdayOf(date), minute: hm(clock) });
  expect(localDate(utc(at), zone)).toBe(date);
});

test.each([
  // zone, local date and time, the first instant the clock reads it (or later), why
  [CHICAGO, '2026-03-08', '01:00', '2026-03-08T07:00:00', 'before the change'],
  [CHICAGO, '2026-03-08', '02:00', '2026-03-08T08:00:00', 'skipped: the jump'],
  [CHICAGO, '2026-03-08', '02:30', '2026-03-08T08:00:00', 'skipped: the jump'],
  [CHICAGO, '2026-03-08', '03:00', '2026-03-08T08:00:00', 'the first time after the jump'],
  [CHICAGO, '2026-03-08', '12:00', '2026-03-08T17:00:00', 'summer time'],
  [CHICAGO, '2026-11-01', '01:30', '2026-11-01T06:30:00', 'repeated: its first occurrence'],
  [CHICAGO, '2026-11-01', '03:00', '2026-11-01T09:00:00', 'winter time'],
  [CHICAGO, '2026-11-01', '24:00', '2026-11-02T06:00:00', 'the end of the day'],
  [BERLIN, '2026-03-29', '02:30', '2026-03-29T01:00:00', 'skipped: the jump'],
  [BERLIN, '2026-03-29', '11:00', '2026-03-29T09:00:00', 'summer time'],
  [BERLIN, '2026-10-25', '02:30', '2026-10-25T00:30:00', 'repeated: its first occurrence'],
  [BERLIN, '2026-10-25', '03:00', '2026-10-25T02:00:00', 'winter time'],
  [BERLIN, '2026-11-01', '07:00', '2026-11-01T06:00:00', 'an ordinary Sunday'],
  ['Asia/Kolkata', '2026-06-01', '09:00', '2026-06-01T03:30:00', 'a half-hour offset'],
])('%s: %s %s begins at %s (%s)', (zone, date, clock, at) => {
  expect(instantAt(date, hm(clock), zone)).toBe(utc(at));
});

test.each([
  ['2026-11-01', 6, '2026-11-02', 0, 'Sunday wraps to Monday'],
  ['2026-12-31', 3, '2027-01-01', 4, 'the year turns'],
  ['2028-02-28', 0, '2028-02-29', 1, 'a leap day'],
])('%s (weekday %i) is followed by %s (weekday %i): %s', (date, weekday, next, nextWeekday) => {
  expect(weekdayOf(date)).toBe(weekday);
  expect(addDays(date, 1)).toBe(next);
  expect(weekdayOf(next)).toBe(nextWeekday);
  expect(addDays(next, -1)).toBe(date);
});

test.each([
  // at (UTC), from (UTC), in words on Chicago's clock
  ['2026-12-26T17:00:00', '2026-12-24T20:30:00', 'Sat, Dec 26, 11:00 (America/Chicago)', 'two days on: the date says which Saturday'],
  ['2026-12-01T17:00:00', '2026-12-01T16:00:00', 'Tue, Dec 1, 11:00 (America/Chicago)', 'the same day'],
  ['2027-01-02T17:00:00', '2026-12-31T20:00:00', 'Sat, Jan 2, 2027, 11:00 (America/Chicago)', 'another year: the year said'],
  ['2027-01-01T05:30:00', '2027-01-01T05:00:00', 'Thu, Dec 31, 23:30 (America/Chicago)', 'the local date, not the UTC one'],
  ['2027-03-16T16:00:00', '2026-11-26T17:00:00', 'Tue, Mar 16, 2027, 11:00 (America/Chicago)', 'summer time'],
])('%s said from %s: %j (%s)', (at, from, words) => {
  expect(localMoment(utc(at), CHICAGO, utc(from))).toBe(words);
});

test('a date in words, with its year when it is another', () => {
  expect(dayLabel('2026-12-25', '2026')).toBe('Fri, Dec 25');
  expect(dayLabel('2026-12-25')).toBe('Fri, Dec 25, 2026');
  expect(dayLabel('2028-02-29', '2027')).toBe('Tue, Feb 29, 2028');
});

test.each([
  ['America/Chicago', true, 'America/Chicago'],
  ['Europe/Berlin', true, 'Europe/Berlin'],
  ['UTC', true, 'UTC'],
  ['Mars/Olympus_Mons', false, 'UTC'],
  ['', false, 'UTC'],
  [null, false, 'UTC'],
  [42, false, 'UTC'],
])('%j: a time zone the platform knows: %s; judged in %s', (name, known, zone) => {
  expect(isTimeZone(name)).toBe(known);
  expect(zoneOf(name as string)).toBe(zone);
});
