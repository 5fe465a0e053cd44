import { amountRule, currencyRule, isAmount, isCurrency, majorUnits, MAX_AMOUNT, minorUnitDigits } from './money.js';

test.each([
  [0, true],
  [2500, true],
  [MAX_AMOUNT, true],
  [MAX_AMOUNT + 1, false],
  [11.99, false],
  [3.5, false],
  [-1, false],
  [-0, false],
  [1e12, false],
  [1e308, false],
  [Number.NaN, false],
  [Number.POSITIVE_INFINITY, false],
  ['4.00', false],
  ['2500', false],
  [null, false],
  [undefined, false],
])('isAmount(%p) is %p', (value, expected) => {
  expect(isAmount(value)).toBe(expected);
});

test.each([
  ['usd', true],
  ['eur', true],
  ['jpy', true],
  ['kwd', true],
  ['USD', false],
  ['dollars', false],
  ['xyz', false],
  ['', false],
  [840, false],
])('isCurrency(%p) is %p', (value, expected) => {
  expect(isCurrency(value)).toBe(expected);
});

test.each([
  ['usd', 2],
  ['eur', 2],
  ['jpy', 0],
  ['kwd', 3],
  ['bhd', 3],
  ['krw', 0],
])("the platform's minor unit of %s has %i decimals", (currency, digits) => {
  expect(minorUnitDigits(currency)).toBe(digits);
});

test.each([
  [2500, 2, '25.00'],
  [2500, 0, '2500'],
  [2500, 3, '2.500'],
  [5, 2, '0.05'],
  [0, 2, '0.00'],
  [1199, 2, '11.99'],
  [MAX_AMOUNT, 2, '1000000000.00'],
  [-2500, 2, '-25.00'],
  [-5, 2, '-0.05'],
  [-2500, 0, '-2500'],
])('%i with %i decimals is %s in major units, exactly', (amount, digits, text) => {
  expect(majorUnits(amount, digits)).toBe(text);
});

test.each([
  [3.5, 'usd', "must be a whole number of the currency's smallest unit, from 0 to 100000000000, not 3.5; send 350 for 3.5 usd"],
  [11.99, 'eur', "must be a whole number of the currency's smallest unit, from 0 to 100000000000, not 11.99; send 1199 for 11.99 eur"],
  [1.5, 'kwd', "must be a whole number of the currency's smallest unit, from 0 to 100000000000, not 1.5; send 1500 for 1.5 kwd"],
  [2.5, 'jpy', "must be a whole number of the currency's smallest unit, from 0 to 100000000000, not 2.5"],
  [3.5, null, "must be a whole number of the currency's smallest unit, from 0 to 100000000000, not 3.5"],
  [-1, 'usd', "must be a whole number of the currency's smallest unit, from 0 to 100000000000, not -1"],
  [-0, 'usd', "must be a whole number of the currency's smallest unit, from 0 to 100000000000, not -0"],
  [1e12, 'usd', "must be a whole number of the currency's smallest unit, from 0 to 100000000000, not 1000000000000"],
  [0.07, 'usd', "must be a whole number of the currency's smallest unit, from 0 to 100000000000, not 0.07; send 7 for 0.07 usd"],
  [11.999, 'usd', "must be a whole number of the currency's smallest unit, from 0 to 100000000000, not 11.999"],
  [1.005, 'usd', "must be a whole number of the currency's smallest unit, from 0 to 100000000000, not 1.005"],
  [-1.5, 'usd', "must be a whole number of the currency's smallest unit, from 0 to 100000000000, not -1.5"],
  [2e9 + 0.5, 'usd', "must be a whole number of the currency's smallest unit, from 0 to 100000000000, not 2000000000.5"],
  [Number.NaN, 'usd', "must be a whole number of the currency's smallest unit, from 0 to 100000000000, not null"],
  [Number.POSITIVE_INFINITY, 'usd', "must be a whole number of the currency's smallest unit, from 0 to 100000000000, not null"],
  [true, 'usd', "must be a whole number of the currency's smallest unit, from 0 to 100000000000, not true"],
  [3.5, 'dollars', "must be a whole number of the currency's smallest unit, from 0 to 100000000000, not 3.5"],
  ['', 'usd', `must be a whole number of the currency's smallest unit, from 0 to 100000000000, not ""`],
  [' ', 'usd', `must be a whole number of the currency's smallest unit, from 0 to 100000000000, not " "`],
  ['twelve', 'usd', `must be a whole number of the currency's smallest unit, from 0 to 100000000000, not "twelve"`],
  [
    '2500',
    'usd',
    `must be a whole number of the currency's smallest unit, from 0 to 100000000000, not "2500"; send a JSON number, not text`,
  ],
  ['x'.repeat(100), 'usd', `must be a whole number of the currency's smallest unit, from 0 to 100000000000, not "${'x'.repeat(39)}`],
  [
    '4.00',
    'usd',
    `must be a whole number of the currency's smallest unit, from 0 to 100000000000, not "4.00"; send a JSON number, not text`,
  ],
])('the rule %p (%s) breaks, and what to send instead', (value, currency, rule) => {
  expect(amountRule(value, currency)).toBe(rule);
});

test.each([
  ['USD', 'must be a lower-case ISO 4217 code (usd, eur, jpy…), not "USD"; send "usd"'],
  ['dollars', 'must be a lower-case ISO 4217 code (usd, eur, jpy…), not "dollars"'],
  [978, 'must be a lower-case ISO 4217 code (usd, eur, jpy…), not 978'],
])('the currency %p is refused, saying what to send', (value, rule) => {
  expect(currencyRule(value)).toBe(rule);
});
