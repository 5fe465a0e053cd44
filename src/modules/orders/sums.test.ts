// The order's sums, as tables: subtotal what its lines come to (modifiers at any depth, times
// their quantities, times the line's), total the subtotal and what is added, less the discounts;
// the markup what was priced above the catalog.
import { atCatalogPrices, discountsSum, itemsSum, lineSum, mismatchSentence, sumsMismatch, sumsProblem, totalOf } from './sums.js';

const line = (price: number, quantity?: number, modifiers?: unknown[], service_id = 'x') => ({
  service_id,
  price,
  ...(quantity === undefined ? {} : { quantity }),
  ...(modifiers ? { modifiers } : {}),
});
// Two burgers at 1199 with cheese (125, with two slices of Swiss at 50 in it, each with a pinch
// of pepper at 5) and fries at 450: modifiers at three depths.
const burger = line(1199, 2, [line(125, 1, [line(50, 2, [line(5, 1)])])], 'burger');
const fries = line(450, 1, [], 'fries');
const items = [burger, fries];
const subtotal = 2 * (1199 + 125 + 2 * (50 + 5)) + 450;

describe('what a line comes to', () => {
  test.each<[string, unknown, number | null]>([
    ['a line of one', line(450, 1), 450],
    ['a quantity above 1', line(450, 3), 1350],
    ['a modifier without its quantity counts once', line(100, 1, [{ service_id: 'm', price: 20 }]), 120],
    ['a modifier times its quantity, the line times its own', line(100, 2, [line(20, 3)]), 2 * (100 + 60)],
    ['modifiers at three depths', burger, 2 * (1199 + 125 + 2 * (50 + 5))],
    ['a line without its price is not judged here', { service_id: 'x', quantity: 1 }, null],
    ['a modifier without its price neither', line(100, 1, [{ service_id: 'm' }]), null],
    ['not a line at all', 'fries', null],
    ['a quantity that is no whole number counts once', { service_id: 'x', price: 100, quantity: 1.5 }, 100],
  ])('%s', (_case, given, sum) => expect(lineSum(given)).toBe(sum));

  test('the items together, none of them 0, one without a price none', () => {
    expect(itemsSum(items)).toBe(subtotal);
    expect(itemsSum([])).toBe(0);
    expect(itemsSum(undefined)).toBe(0);
    expect(itemsSum([fries, { service_id: 'y' }])).toBeNull();
  });
});

describe('what the total must be', () => {
  test.each<[string, Record<string, unknown>, number]>([
    ['the subtotal alone', {}, 1000],
    [
      'each added amount added',
      { tax: 1, tax_withheld_by_dsp: 10, delivery_fee: 100, delivery_fee_tax: 1000, restaurant_tip: 10_000, driver_tip: 100_000 },
      112_111,
    ],
    ['discounts taken off', { discounts: [{ amount: 300 }, { amount: 100 }] }, 600],
    ['a discount without an amount takes nothing off', { discounts: [{ name: 'odd' }, null] }, 1000],
    ['an amount that is not money adds nothing', { tax: '5' }, 1000],
  ])('%s', (_case, object, total) => expect(totalOf(object, 1000)).toBe(total));

  test('the discounts together', () => {
    expect(discountsSum([{ amount: 5 }, { amount: 7 }])).toBe(12);
    expect(discountsSum(undefined)).toBe(0);
    expect(discountsSum({ amount: 5 })).toBe(0);
  });
});

describe('the sums judged: the field, the figure sent and the one worked out', () => {
  const full = { items, subtotal, tax: 235, driver_tip: 400, delivery_fee: 299, delivery_fee_tax: 25, total: subtotal + 959 };
  test.each<[string, Record<string, unknown>, ReturnType<typeof sumsMismatch>]>([
    ['sums that add up', full, null],
    ['no sums given', { items }, null],
    ['a subtotal one cent off', { ...full, subtotal: subtotal + 1 }, { field: 'subtotal', sent: subtotal + 1, computed: subtotal }],
    [
      "the subtotal of the lines' prices alone (the modifiers forgotten)",
      { items, subtotal: 2 * 1199 + 450 },
      { field: 'subtotal', sent: 2 * 1199 + 450, computed: subtotal },
    ],
    ['a total one cent off', { ...full, total: subtotal + 958 }, { field: 'total', sent: subtotal + 958, computed: subtotal + 959 }],
    [
      'a total without the driver’s tip',
      { items, subtotal, tax: 235, driver_tip: 400, total: subtotal + 235 },
      { field: 'total', sent: subtotal + 235, computed: subtotal + 635 },
    ],
    [
      'the store’s tip and the tax the platform remits added, an order- and an item-level discount taken off',
      {
        items,
        subtotal,
        tax_withheld_by_dsp: 90,
        restaurant_tip: 200,
        discounts: [
          { amount: 300, scope: 'order' },
          { amount: 100, scope: 'item', service_id: 'fries' },
        ],
        total: subtotal + 90 + 200 - 400,
      },
      null,
    ],
    [
      'a total that forgets the discount',
      { items, subtotal, discounts: [{ amount: 300 }], total: subtotal },
      { field: 'total', sent: subtotal, computed: subtotal - 300 },
    ],
    [
      'a discount on one item of two: the subtotal keeps both prices',
      { items, subtotal: subtotal - 450, discounts: [{ amount: 450, scope: 'item', service_id: 'fries' }], total: subtotal - 900 },
      { field: 'subtotal', sent: subtotal - 450, computed: subtotal },
    ],
    ['a total judged against the subtotal worked out, none sent', { items, total: subtotal }, null],
    [
      'a wrong subtotal is named once, not again at the total',
      { items, subtotal: 1, total: 1 },
      { field: 'subtotal', sent: 1, computed: subtotal },
    ],
    ['a line without its price: not judged here', { items: [{ service_id: 'x', quantity: 1 }], subtotal: 999, total: 1 }, null],
    ['JPY has no minor unit: ¥1,200 is 1200', { currency: 'jpy', items: [line(600, 2)], subtotal: 1200, tax: 120, total: 1320 }, null],
    [
      'JPY one yen off',
      { currency: 'jpy', items: [line(600, 2)], subtotal: 1200, total: 1201 },
      { field: 'total', sent: 1201, computed: 1200 },
    ],
    ['an order of nothing that says nothing', { items: [], subtotal: 0, total: 0 }, null],
  ])('%s', (_case, object, mismatch) => expect(sumsMismatch(object)).toEqual(mismatch));

  test('said in a sentence, each field its own', () => {
    expect(sumsProblem({ items, subtotal: subtotal + 1 })).toBe(`subtotal is ${subtotal + 1}, but the items come to ${subtotal}`);
    expect(sumsProblem({ items, total: 5 })).toBe(
      `total is 5, but subtotal + tax + tax_withheld_by_dsp + delivery_fee + delivery_fee_tax + restaurant_tip + driver_tip − discounts come to ${subtotal}`,
    );
    expect(sumsProblem(full)).toBeNull();
    expect(mismatchSentence({ field: 'subtotal', sent: 2, computed: 1 })).toBe('subtotal is 2, but the items come to 1');
  });
});

describe('at the catalog’s prices: the markup is what was priced above it', () => {
  // The catalog prices the burger 1099, cheese 100 and Swiss 50; fries and pepper it does not price.
  const catalog = { item: new Map([['burger', 1099]]), modifier: new Map([['x', 100]]) };
  const catalogPrice = (id: unknown, kind: 'item' | 'modifier') => catalog[kind].get(id as string);

  test.each<[string, unknown[], unknown[], number]>([
    ['a line at the catalog’s price keeps it', [line(1099, 1, [], 'burger')], [line(1099, 1, [], 'burger')], 0],
    ['a line above it, times its quantity', [line(1199, 3, [], 'burger')], [line(1099, 3, [], 'burger')], 300],
    ['a line below it keeps its price', [line(999, 1, [], 'burger')], [line(999, 1, [], 'burger')], 0],
    ['a line the catalog does not price keeps its price', [fries], [fries], 0],
    [
      'a modifier above it, times its quantity and its line’s',
      [line(1099, 2, [line(120, 3)], 'burger')],
      [line(1099, 2, [line(100, 3)], 'burger')],
      2 * 3 * 20,
    ],
    ['a modifier is priced as a modifier, not as an item', [line(120, 1, [], 'x')], [line(120, 1, [], 'x')], 0],
  ])('%s', (_case, sent, repriced, markup) => {
    const priced = atCatalogPrices(sent, catalogPrice);
    expect(priced).toEqual({ items: repriced, markup });
    expect((itemsSum(priced.items) ?? 0) + priced.markup).toBe(itemsSum(sent));
  });

  test('what is not a line passes as it is, and a cart without prices has no markup', () => {
    expect(atCatalogPrices(['odd', { service_id: 'burger' }], catalogPrice)).toEqual({
      items: ['odd', { service_id: 'burger', price: undefined }],
      markup: 0,
    });
    expect(atCatalogPrices(undefined, catalogPrice)).toEqual({ items: [], markup: 0 });
  });
});
