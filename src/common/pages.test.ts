// Page sizes: a whole number from 1 to the list's largest page, its default when omitted, and
// never a silent clamp.
import { pageSize } from './pages.js';

const page = { name: 'first', default: 50, max: 200 };

test.each<[string, number | string | null | undefined, number]>([
  ['omitted: the default', undefined, 50],
  ['null: the default', null, 50],
  ['one', 1, 1],
  ['the largest', 200, 200],
  ['a number in a string (a query string)', '20', 20],
])('%s', (_case, value, expected) => expect(pageSize(value, page)).toBe(expected));

test.each<[string, number | string]>([
  ['zero', 0],
  ['one past the largest', 201],
  ['negative', -1],
  ['a fraction', 2.5],
  ['a string that is not a whole number', '2.5'],
  ['a signed string', '-5'],
  ['an empty string', ''],
  ['a number in exponent form', '1e2'],
  ['a number in hex', '0x10'],
  ['digits after a space', ' 20'],
  ['digits before a space', '20 '],
])('%s is refused, naming the argument and the range', (_case, value) =>
  expect(() => pageSize(value, page)).toThrow('first must be a whole number from 1 to 200'),
);
