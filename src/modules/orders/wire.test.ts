// The order's sums, as a table: subtotal what its lines come to, modifiers at any depth times
// their quantities; total the subtotal and what is added, less the discounts.
import { assertOrderMoney, sumsProblem } from './wire.js';

const line = (price: number, quantity = 1, modifiers: unknown[] = []) => ({ service_id: 'x', price, quantity, modifiers });
// Two burgers at 1199 with cheese (125, a slice of Swiss at 50 in it) and fries at 450.
const items = [line(1199, 2, [line(125, 1, [line(50, 2)])]), line(450)];
const subtotal = 2 * (1199 + 125 + 2 * 50) + 450;

test.each<[string, Record<string, unknown>, string | null]>([
  [
    'sums that add up',
    { items, subtotal, tax: 235, driver_tip: 400, delivery_fee: 299, delivery_fee_tax: 25, total: subtotal + 959 },
    null,
  ],
  ['no sums given', { items }, null],
  ['a modifier without its quantity counts once', { items: [line(100, 1, [{ service_id: 'm', price: 20 }])], subtotal: 120 }, null],
  [
    "the subtotal of the lines' prices alone",
    { items, subtotal: 2 * 1199 + 450 },
    `subtotal is ${2 * 1199 + 450}, but the items come to ${subtotal}`,
  ],
  [
    'a total without the tip',
    { items, subtotal, tax: 235, driver_tip: 400, total: subtotal + 235 },
    `total is ${subtotal + 235}, but subtotal + tax + tax_withheld_by_dsp + delivery_fee + delivery_fee_tax + restaurant_tip + driver_tip − discounts come to ${subtotal + 635}`,
  ],
  [
    'the store’s tip and the tax the platform remits are added, discounts taken off',
    {
      items,
      subtotal,
      tax_withheld_by_dsp: 90,
      restaurant_tip: 200,
      discounts: [{ amount: 300 }, { amount: 100 }],
      total: subtotal + 90 + 200 - 400,
    },
    null,
  ],
  ['a total computed without a subtotal given', { items, total: subtotal }, null],
  ['a line without its price: not judged here', { items: [{ service_id: 'x', quantity: 1 }], subtotal: 999, total: 1 }, null],
])('%s', (_case, object, problem) => expect(sumsProblem(object)).toBe(problem));

describe('money that is not money: every bad field named by its path, the lines’ prices first', () => {
  const WHOLE = "must be a whole number of the currency's smallest unit, from 0 to 100000000000";
  const refusal = (object: Record<string, unknown>) => {
    try {
      assertOrderMoney(object);
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  };
  test.each<[string, Record<string, unknown>, string | null]>([
    ['whole numbers everywhere', { currency: 'usd', items, subtotal, total: subtotal }, null],
    [
      'one price in dollars',
      { currency: 'usd', items: [line(1199), line(5.25)] },
      `object.items[1].price ${WHOLE}, not 5.25; send 525 for 5.25 usd`,
    ],
    [
      'a platform in dollars: the prices that caused it, then the sums that follow',
      { currency: 'usd', subtotal: 17.24, items: [line(11.99), line(5.25, 1, [line(0.5)])], total: 17.24 },
      [
        `object.items[0].price ${WHOLE}, not 11.99; send 1199 for 11.99 usd`,
        `object.items[1].price ${WHOLE}, not 5.25; send 525 for 5.25 usd`,
        `object.items[1].modifiers[0].price ${WHOLE}, not 0.5; send 50 for 0.5 usd`,
        `object.subtotal ${WHOLE}, not 17.24; send 1724 for 17.24 usd`,
        `object.total ${WHOLE}, not 17.24; send 1724 for 17.24 usd`,
      ].join('. '),
    ],
    [
      'a currency that is none, and an amount as text',
      { currency: 'USD', tax: '1.00' },
      `object.currency must be a lower-case ISO 4217 code (usd, eur, jpy…), not "USD"; send "usd". object.tax ${WHOLE}, not "1.00"; send a JSON number, not text`,
    ],
    [
      'twelve bad prices: ten named, the rest counted',
      { items: Array.from({ length: 12 }, () => line(-1)) },
      [...Array.from({ length: 10 }, (_, i) => `object.items[${i}].price ${WHOLE}, not -1`), 'and 2 more fields are wrong'].join('. '),
    ],
  ])('%s', (_case, object, message) => expect(refusal(object)).toBe(message));
});
