// The kitchen's answer read from the POS's wire: its minutes, its "later", and what it names.
import { kitchenAnswerOf, orderLines, orderPrep, posValidationOf, readyAt, validationRefusal } from './kitchen.js';

test.each([
  [{ prep_time_minutes: 20 }, { prepTimeMinutes: 20, decidesLater: false }],
  [{ prep_time_minutes: 1 }, { prepTimeMinutes: 1, decidesLater: false }],
  [
    { prep_time_minutes: 240, async_acceptance: true },
    { prepTimeMinutes: 240, decidesLater: true },
  ],
  [{ prep_time_minutes: 0 }, { prepTimeMinutes: null, ignored: 0, decidesLater: false }],
  [{ prep_time_minutes: 241 }, { prepTimeMinutes: null, ignored: 241, decidesLater: false }],
  [{ prep_time_minutes: 12.5 }, { prepTimeMinutes: null, ignored: 12.5, decidesLater: false }],
  [{ prep_time_minutes: '15' }, { prepTimeMinutes: null, ignored: '15', decidesLater: false }],
  [{ async_acceptance: 'true' }, { prepTimeMinutes: null, decidesLater: false }],
  [undefined, { prepTimeMinutes: null, decidesLater: false }],
])('the answer %j reads as %j', (order, read) => expect(kitchenAnswerOf(order)).toEqual(read));

test.each([
  [null, null, null],
  [20, null, 20],
  [null, 15, 15],
  [10, 35, 35],
  [40, 35, 40],
])('the POS says %p, its location quotes %p: the order is quoted %p', (answer, location, quoted) =>
  expect(orderPrep(answer, location)).toBe(quoted),
);

test('ready at taken-at plus the minutes', () => {
  expect(readyAt(1_000, 15)).toEqual(new Date(1_000 + 15 * 60_000));
  expect(readyAt(1_000, null)).toBeNull();
});

const object = {
  items: [
    { service_id: 'burger', name: 'Classic Burger', modifiers: [{ service_id: 'cheese', name: 'Extra cheese', modifiers: [] }] },
    { service_id: 'fries', name: 'Fries' },
  ],
};
const lines = orderLines(object);

test('the lines of an order, at any depth', () =>
  expect([...lines]).toEqual([
    ['burger', 'Classic Burger'],
    ['cheese', 'Extra cheese'],
    ['fries', 'Fries'],
  ]));

test.each([
  [
    { stockValidation: [{ type: 'modifier', provider_id: 'cheese', quantity: 0 }] },
    'item_unavailable',
    'the POS has none of: Extra cheese (cheese)',
  ],
  [
    { stockValidation: [{ type: 'item', provider_id: 'fries' }], orderTotalsValidation: [{ posTotal: 1, streamTotal: 2 }] },
    'item_unavailable',
    'the POS has none of: Fries (fries)',
  ],
  [
    { orderTotalsValidation: [{ posTotal: 4100, streamTotal: 4078 }] },
    'price_mismatch',
    "the POS's total is 4100, the order's 4078 (minor units)",
  ],
  [
    { orderValidation: [{ order_error: 'closed', order_error_reason: 'kitchen closed' }] },
    'pos_rejected',
    'the POS refused the order: kitchen closed',
  ],
  [{ unknownValidation: [{ order_error_reason: 'printer jam' }] }, 'pos_rejected', 'the POS refused the order: printer jam'],
  [{}, 'pos_rejected', 'fallback'],
])('posValidation %j fails the order %s', (said, reason, details) => {
  const read = posValidationOf(said, lines)!;
  expect(read.problems).toEqual([]);
  expect(validationRefusal(read.validation, lines, 'fallback')).toMatchObject({ reason, details });
});

test('what is not taken of a posValidation is said, and the rest read', () => {
  const read = posValidationOf(
    {
      stockValidation: [{ type: 'item', provider_id: 'nachos' }, { type: 'item', provider_id: 'fries', quantity: 2 }, { provider_id: 'x' }],
    },
    lines,
  )!;
  expect(read.validation.stock).toEqual([{ type: 'item', serviceId: 'fries', quantity: 2 }]);
  expect(read.problems).toEqual([
    'posValidation.stockValidation entries are {type: item | modifier, provider_id, quantity}',
    'posValidation.stockValidation names items not in the order: nachos',
  ]);
  expect(posValidationOf({ orderValidation: Array.from({ length: 101 }, () => ({ order_error_reason: 'r' })) }, lines)!.problems).toEqual([
    'posValidation.orderValidation has 101 entries: at most 100',
  ]);
  expect(posValidationOf([], lines)!.problems).toEqual(['posValidation must be an object']);
  expect(posValidationOf(undefined, lines)).toBeNull();
});
