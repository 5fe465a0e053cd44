// The order's money as the wire carries it: every amount a whole number of the smallest unit,
// each bad field named by its path. Its sums are ./sums.test.ts's.
import { assertOrderMoney } from './wire.js';

const line = (price: number, quantity = 1, modifiers: unknown[] = []) => ({ service_id: 'x', price, quantity, modifiers });
// Two burgers at 1199 with cheese (125, a slice of Swiss at 50 in it) and fries at 450.
const items = [line(1199, 2, [line(125, 1, [line(50, 2)])]), line(450)];
const subtotal = 2 * (1199 + 125 + 2 * 50) + 450;

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
