// The time rules of stores that stop and start, as tables of cases: when a pause or a time off
// sale may end, whether a pause applies now, how its end is shown, whether an item is off sale.
// The clock is a number given to each rule, never waited for.
import { endOf, isOffSale, LONGEST_STOP_MS, pausedNow, pausedUntilShown, type OffSale } from './rules.js';

const now = Date.UTC(2026, 10, 26, 12, 0, 0);
const at = (ms: number) => new Date(now + ms);

describe('endOf: when a pause or a time off sale ends', () => {
  test.each([
    ['absent: until undone', undefined, null],
    ['null: until undone', null, null],
    ['a millisecond ahead', now + 1, new Date(now + 1)],
    ['at the longest stop', now + LONGEST_STOP_MS, new Date(now + LONGEST_STOP_MS)],
  ])('%s', (_case, value, expected) => expect(endOf(value, 'until_ms', now)).toEqual(expected));

  test.each([
    ['now', now, 'until_ms must be in the future'],
    ['in the past', now - 1, 'until_ms must be in the future'],
    ['past the longest stop', now + LONGEST_STOP_MS + 1, 'until_ms may be at most 366 days ahead'],
    ['a fraction of a millisecond', now + 1.5, 'until_ms must be epoch milliseconds, a whole number'],
    ['a string', String(now + 1000), 'until_ms must be epoch milliseconds, a whole number'],
    ['beyond a safe integer', 2 ** 53, 'until_ms must be epoch milliseconds, a whole number'],
    ['not a number', Number.NaN, 'until_ms must be epoch milliseconds, a whole number'],
    [
      'epoch seconds an hour ahead: the unit said, not "in the future"',
      Math.floor(now / 1000) + 3600,
      `until_ms is in epoch milliseconds; ${Math.floor(now / 1000) + 3600} looks like seconds`,
    ],
  ])('%s is refused, naming the field', (_case, value, message) => {
    expect(() => endOf(value, 'until_ms', now)).toThrow(message);
  });

  test('names the field it was given', () => expect(() => endOf(now, 'object.until_ms', now)).toThrow('object.until_ms'));
});

describe('pausedNow and pausedUntilShown: a pause as it stands at a moment', () => {
  test.each([
    ['never paused', { pausedAt: null, pausedUntil: null }, false, null],
    ['paused until resumed', { pausedAt: at(-60_000), pausedUntil: null }, true, -1],
    ['paused, its end ahead', { pausedAt: at(-60_000), pausedUntil: at(1) }, true, now + 1],
    ['paused, its end now: over', { pausedAt: at(-60_000), pausedUntil: at(0) }, false, null],
    ['paused, its end passed', { pausedAt: at(-60_000), pausedUntil: at(-1) }, false, null],
    ['an end with no pause (resumed)', { pausedAt: null, pausedUntil: at(60_000) }, false, null],
  ])('%s', (_case, store, paused, shown) => {
    expect(pausedNow(store, now)).toBe(paused);
    expect(pausedUntilShown(store, now)).toBe(shown);
  });
});

describe('isOffSale: an item at a moment', () => {
  const items: OffSale = new Map<string, number | null>([
    ['until-put-back', null],
    ['until-later', now + 1],
    ['until-now', now],
    ['until-before', now - 1],
  ]);
  test.each([
    ['an item never taken off sale', 'on-sale', false],
    ['off sale until put back', 'until-put-back', true],
    ['off sale, its end ahead', 'until-later', true],
    ['off sale, its end now: back on sale', 'until-now', false],
    ['off sale, its end passed: back on sale', 'until-before', false],
  ])('%s', (_case, id, expected) => expect(isOffSale(items, id, now)).toBe(expected));
});
