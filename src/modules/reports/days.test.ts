import { datesOf, daysOf, isDate, MAX_DAYS } from './days.js';

const bounds = { firstDate: '2026-01-01', today: '2026-11-29' };

describe('a local day on the location’s clock', () => {
  test.each([
    ['an ordinary day in New York', '2026-06-10', 'America/New_York', '2026-06-10T04:00:00.000Z', '2026-06-11T04:00:00.000Z', 24],
    ['spring forward in New York: 23 hours', '2026-03-08', 'America/New_York', '2026-03-08T05:00:00.000Z', '2026-03-09T04:00:00.000Z', 23],
    ['fall back in New York: 25 hours', '2026-11-01', 'America/New_York', '2026-11-01T04:00:00.000Z', '2026-11-02T05:00:00.000Z', 25],
    ['spring forward in Berlin', '2026-03-29', 'Europe/Berlin', '2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z', 23],
    ['UTC', '2026-06-10', 'UTC', '2026-06-10T00:00:00.000Z', '2026-06-11T00:00:00.000Z', 24],
    // Santiago's clocks skip midnight itself in September: its day begins at 01:00.
    ['a day whose midnight is skipped', '2026-09-06', 'America/Santiago', '2026-09-06T04:00:00.000Z', '2026-09-07T03:00:00.000Z', 23],
  ])('%s', (_what, date, zone, start, end, hours) => {
    const [day] = daysOf([date], zone);
    expect({ start: new Date(day!.start).toISOString(), end: new Date(day!.end).toISOString(), hours: day!.hours }).toEqual({
      start,
      end,
      hours,
    });
  });
});

describe('the dates a request names', () => {
  test.each([
    ['one day', '2026-11-29', '2026-11-29', ['2026-11-29']],
    ['across a month', '2026-10-30', '2026-11-02', ['2026-10-30', '2026-10-31', '2026-11-01', '2026-11-02']],
    ['the organization’s first day', '2026-01-01', '2026-01-01', ['2026-01-01']],
  ])('%s', (_what, from, to, dates) => {
    expect(datesOf({ from, to, ...bounds })).toEqual({ dates });
  });

  test(`${MAX_DAYS} days, and not one more`, () => {
    expect(datesOf({ from: '2026-10-01', to: '2026-10-31', ...bounds })).toMatchObject({ dates: { length: MAX_DAYS } });
    expect(datesOf({ from: '2026-10-01', to: '2026-11-01', ...bounds })).toEqual({
      problem: 'from 2026-10-01 to 2026-11-01 is more than 31 days: ask for at most 31',
    });
  });

  test.each([
    ['no from', undefined, '2026-11-01', 'from must be a date as YYYY-MM-DD, not null'],
    ['not a date', '11/01/2026', '2026-11-01', 'from must be a date as YYYY-MM-DD, not "11/01/2026"'],
    ['not on the calendar', '2026-11-01', '2026-02-30', 'to must be a date as YYYY-MM-DD, not "2026-02-30"'],
    ['a time with it', '2026-11-01T00:00', '2026-11-01', 'from must be a date as YYYY-MM-DD, not "2026-11-01T00:00"'],
    ['ends before it starts', '2026-11-02', '2026-11-01', 'to is 2026-11-01, before from (2026-11-02)'],
    ['before the organization', '2025-12-31', '2026-01-02', 'from is 2025-12-31, before the organization existed (2026-01-01)'],
    ['in the future', '2026-11-29', '2026-11-30', 'to is 2026-11-30, in the future (today is 2026-11-29 at the location)'],
  ])('%s', (_what, from, to, problem) => {
    expect(datesOf({ from, to, ...bounds })).toEqual({ problem });
  });

  test.each([
    ['2026-02-28', true],
    ['2028-02-29', true],
    ['2026-02-29', false],
    ['2026-13-01', false],
    [' 2026-01-01', false],
    [20260101, false],
  ])('%s is a date: %s', (value, expected) => {
    expect(isDate(value)).toBe(expected);
  });
});
