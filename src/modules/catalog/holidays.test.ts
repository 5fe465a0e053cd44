import { closedDaysAhead, holidaysIn, isHolidayDate } from './holidays.js';

const range = (start: string, end: string) => ({
  start: Number(start.slice(0, 2)) * 60 + Number(start.slice(3)),
  end: Number(end.slice(0, 2)) * 60 + Number(end.slice(3)),
});

describe('which holidays change the hours', () => {
  test.each([
    ['closed', { date: '2026-12-25', name: 'Christmas Day', closed: true }, { name: 'Christmas Day', hours: null }],
    ['closed, its hours ignored', { date: '2026-12-25', name: 'X', closed: true, hours: ['10:00-14:00'] }, { name: 'X', hours: null }],
    [
      'a short day',
      { date: '2026-12-24', name: 'Christmas Eve', hours: ['10:00-14:00'] },
      { name: 'Christmas Eve', hours: [range('10:00', '14:00')] },
    ],
    [
      'a short day, closed: false said',
      { date: '2026-12-24', name: 'Eve', closed: false, hours: ['10:00-12:00', '18:00-02:00'] },
      { name: 'Eve', hours: [range('10:00', '12:00'), range('18:00', '02:00')] },
    ],
    ['hours empty: closed all day', { date: '2026-12-24', name: 'Eve', hours: [] }, { name: 'Eve', hours: null }],
    ['no name', { date: '2026-12-24', closed: true }, { name: 'Holiday', hours: null }],
    ['closed: false and no hours: listed only, an ordinary day', { date: '2027-01-01', name: "New Year's Day", closed: false }, undefined],
    ['hours null: listed only', { date: '2027-01-01', name: "New Year's Day", hours: null }, undefined],
  ])('%s', (_what, holiday, expected) => {
    expect(holidaysIn([holiday]).get(holiday.date)).toEqual(expected);
  });

  // The catalog's reader refuses these (./validate.ts): only a version stored before it has one.
  test.each([
    [{ date: '2026-02-30', closed: true }],
    [{ date: '25.12.2026', closed: true }],
    [{ closed: true }],
    [null],
    [{ date: 20261225, closed: true }],
    [{ date: '2026', closed: true }],
    [{ date: '2026-12-25T10:00', closed: true }],
    [{ date: ' 2026-12-25', closed: true }],
    [{ date: ['2026-12-25'], closed: true }],
  ])('%j: no day of the calendar, left out', (holiday) => {
    expect(isHolidayDate((holiday as { date?: unknown } | null)?.date)).toBe(false);
    expect(holidaysIn([holiday])).toEqual(new Map());
  });

  test('none, or not a list', () => {
    expect(holidaysIn(undefined)).toEqual(new Map());
    expect(holidaysIn(null)).toEqual(new Map());
    expect(holidaysIn({ date: '2026-12-25' })).toEqual(new Map());
  });

  test('2028-02-29 is a date, 2027-02-29 none', () => {
    expect(isHolidayDate('2028-02-29')).toBe(true);
    expect([
      ...holidaysIn([
        { date: '2028-02-29', closed: true },
        { date: '2027-02-29', closed: true },
      ]).keys(),
    ]).toEqual(['2028-02-29']);
  });
});

describe('the closed days ahead, from today on the location clock', () => {
  // Read in each test, so that a broken reader fails the tests rather than the file.
  const holidays = () =>
    holidaysIn([
      { date: '2026-12-31', name: "New Year's Eve", hours: ['10:00-14:00'] },
      { date: '2027-01-01', name: "New Year's Day", closed: true },
      { date: '2026-12-24', name: 'Christmas Eve', closed: true },
      { date: '2026-12-25', name: 'Christmas Day', closed: true },
      { date: '2027-02-22', name: 'Inventory', closed: true },
    ]);
  test.each([
    // 03:00 UTC on the 25th is still the 24th in Chicago (its 60 days end on 21 February), already
    // the 25th in Berlin (they end on the 22nd)
    ['America/Chicago', '2026-12-25T03:00:00Z', 60, ['2026-12-24', '2026-12-25', '2027-01-01']],
    ['Europe/Berlin', '2026-12-25T03:00:00Z', 60, ['2026-12-25', '2027-01-01', '2027-02-22']],
    // today is the first of the days counted
    ['UTC', '2026-12-25T12:00:00Z', 8, ['2026-12-25', '2027-01-01']],
    ['UTC', '2026-12-25T12:00:00Z', 7, ['2026-12-25']],
    ['UTC', '2026-12-24T12:00:00Z', 61, ['2026-12-24', '2026-12-25', '2027-01-01', '2027-02-22']],
  ])('%s at %s, %i days: %j (a short day is not closed)', (zone, now, days, dates) => {
    expect(closedDaysAhead(holidays(), zone, Date.parse(now), days).map((d) => d.date)).toEqual(dates);
  });

  test('each with its name', () => {
    expect(closedDaysAhead(holidays(), 'UTC', Date.parse('2026-12-30T00:00:00Z'), 3)).toEqual([
      { date: '2027-01-01', name: "New Year's Day" },
    ]);
  });
});
