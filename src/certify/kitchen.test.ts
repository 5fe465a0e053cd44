// What the kit says of a posValidation, as a table: the service's own refusals of it, and what the
// service passes over without a word, each in words a vendor can act on.
import { posValidationProblems } from './kitchen.js';

const lines = new Map([
  ['i-fries', 'Fries'],
  ['s-salt', 'Salt'],
]);

test.each<[string, unknown, string[]]>([
  ['a stock shortage of a line', { stockValidation: [{ type: 'item', provider_id: 'i-fries', quantity: 0 }] }, []],
  ['a modifier, quantity left out', { stockValidation: [{ type: 'modifier', provider_id: 's-salt' }] }, []],
  ['totals', { orderTotalsValidation: [{ posTotal: 830, streamTotal: 812 }] }, []],
  ['an order error by unknownValidation', { unknownValidation: [{ order_error: 'closed' }] }, []],
  ['none given', undefined, []],
  ['not an object', [], ['posValidation must be an object']],
  [
    'an item not in the order',
    { stockValidation: [{ type: 'item', provider_id: 'i-nachos', quantity: 0 }] },
    ['posValidation.stockValidation names items not in the order: i-nachos'],
  ],
  [
    'a type the service does not know',
    { stockValidation: [{ type: 'product', provider_id: 'i-fries' }] },
    ['posValidation.stockValidation entries are {type: item | modifier, provider_id, quantity}'],
  ],
  [
    'a quantity that is not whole',
    { stockValidation: [{ type: 'item', provider_id: 'i-fries', quantity: '0' }] },
    ['posValidation.stockValidation[0] quantity must be a whole number (how many you have; 0: none)'],
  ],
  [
    'totals as text',
    {
      orderTotalsValidation: [
        { posTotal: 830, streamTotal: 812 },
        { posTotal: '8.30', streamTotal: '8.12' },
      ],
    },
    ['posValidation.orderTotalsValidation[1] needs posTotal and streamTotal, numbers in minor units: the service passes it over'],
  ],
  [
    'an order error without its reason',
    { orderValidation: [{ error: 'closed' }] },
    ['posValidation.orderValidation[0] needs order_error_reason (a sentence) or order_error: the service passes it over'],
  ],
  [
    'a list that is one entry',
    { stockValidation: { type: 'item', provider_id: 'i-fries' } },
    ['posValidation.stockValidation must be an array'],
  ],
  [
    'lists in snake_case',
    { stock_validation: [{ type: 'item', provider_id: 'i-fries', quantity: 0 }] },
    [
      'posValidation names nothing the service reads (it has stock_validation, which the service does not read): give stockValidation, orderTotalsValidation or orderValidation',
    ],
  ],
  [
    'too many entries',
    { orderValidation: Array.from({ length: 101 }, () => ({ order_error_reason: 'closed' })) },
    ['posValidation.orderValidation has 101 entries: at most 100'],
  ],
])('%s', (_case, value, problems) => {
  expect(posValidationProblems(value, lines)).toEqual(problems);
});
