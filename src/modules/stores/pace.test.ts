// A location's quote: its base prep time with a busy extra until its end.
import { busyExtraNow, locationQuote, prepMinutesOf } from './pace.js';

const now = 1_800_000_000_000;
test.each([
  [{ prepTimeMinutes: 15, busyExtraMinutes: null, busyUntil: null }, 15],
  [{ prepTimeMinutes: 15, busyExtraMinutes: 20, busyUntil: null }, 35],
  [{ prepTimeMinutes: 15, busyExtraMinutes: 20, busyUntil: new Date(now + 1) }, 35],
  [{ prepTimeMinutes: 15, busyExtraMinutes: 20, busyUntil: new Date(now) }, 15],
  [{ prepTimeMinutes: null, busyExtraMinutes: 20, busyUntil: null }, 20],
  [{ prepTimeMinutes: null, busyExtraMinutes: null, busyUntil: null }, null],
])('%j quotes %p', (pace, quote) => expect(locationQuote(pace, now)).toBe(quote));

test('a busy extra applies until its end, not at it', () => {
  expect(busyExtraNow({ prepTimeMinutes: 10, busyExtraMinutes: 30, busyUntil: new Date(now + 1) }, now)).toBe(30);
  expect(busyExtraNow({ prepTimeMinutes: 10, busyExtraMinutes: 30, busyUntil: new Date(now - 1) }, now)).toBe(0);
});

test.each([
  [1, 1],
  [240, 240],
  [0, null],
  [241, null],
  [12.5, null],
  ['15', null],
])('prep minutes %p read as %p', (value, read) => expect(prepMinutesOf(value)).toBe(read));
