// What an erasure removes from an order, as a table of cases: every field of CUSTOMER_DATA at any
// depth, the driver kept, everything else (items, amounts, ids) as it was. What it removes is what
// is sealed (./customer.ts): the pieces taken out put back give the order as it came.
import { joinCustomer, redactJson, SEALED, splitCustomer } from './redact.js';

test.each([
  [
    'a customer object, wholly',
    { customer: { name: 'A', email: 'a@b', tier: 3 } },
    { customer: { name: 'redacted', email: 'redacted', tier: 'redacted' } },
  ],
  [
    'the customers list',
    { customers: [{ first_name: 'A' }, { phone: '1' }] },
    { customers: [{ first_name: 'redacted' }, { phone: 'redacted' }] },
  ],
  [
    'an address with nested coordinates',
    { delivery_address: { city: 'X', coordinates: { latitude: 1.5, longitude: 2 }, verified: true } },
    { delivery_address: { city: 'redacted', coordinates: { latitude: 'redacted', longitude: 'redacted' }, verified: true } },
  ],
  [
    'instructions at the order and on items',
    { special_instructions: 'for Ada', items: [{ service_id: 'i1', price: 400, special_instructions: 'Ada likes it hot' }] },
    { special_instructions: 'redacted', items: [{ service_id: 'i1', price: 400, special_instructions: 'redacted' }] },
  ],
  ['an email anywhere but the driver', { object: { contact: { email: 'a@b' } } }, { object: { contact: { email: 'redacted' } } }],
  [
    "the driver's phone stays: the provider's, not the customer's",
    { driver: { name: 'D', phone: { number: '1' } } },
    { driver: { name: 'D', phone: { number: '1' } } },
  ],
  ['nulls stay null', { customer: null, email: null }, { customer: null, email: null }],
  ['a phone sent as a number', { order: { phone: 5551234 } }, { order: { phone: 'redacted' } }],
  ['notes as a list, booleans kept', { notes: ['ring twice', false] }, { notes: ['redacted', false] }],
  ['orders in a list', [{ customer_name: 'Ada' }, 7, null], [{ customer_name: 'redacted' }, 7, null]],
  [
    'an order without customer data is unchanged',
    { id: 'o', total: 2500, items: [{ name: 'Taco' }] },
    { id: 'o', total: 2500, items: [{ name: 'Taco' }] },
  ],
  [
    'a sealed customer goes, its key gone',
    { id: 'o', [SEALED]: 'v1.a.b.c', customer: { name: 'redacted' } },
    { id: 'o', customer: { name: 'redacted' } },
  ],
  ['a message holding a sealed order', { type: 't', object: { id: 'o', [SEALED]: 'v1.a.b.c' } }, { type: 't', object: { id: 'o' } }],
])('%s', (_name, input, expected) => {
  expect(redactJson(input)).toEqual(expected);
  // Split, it is the same, and its pieces put back give the input again.
  const { redacted, pieces } = splitCustomer(structuredClone(input));
  expect(redacted).toEqual(expected);
  expect(joinCustomer(redacted, pieces)).toEqual(input);
});

test.each([
  ['nothing to take: no pieces', { id: 'o', customer: null, items: [{ notes: 'redacted' }] }, []],
  [
    'a piece of each kind, by where it was',
    { customer: { name: 'A' }, items: [{ x: 1 }, { notes: 'ring' }], email: 'a@b' },
    [
      [['customer'], { name: 'A' }],
      [['items', 1, 'notes'], 'ring'],
      [['email'], 'a@b'],
    ],
  ],
  ["a field of the sealed name in the DSP's order is taken too", { [SEALED]: 'theirs' }, [[[SEALED], 'theirs']]],
])('the pieces taken: %s', (_name, input, pieces) => {
  expect(splitCustomer(input).pieces).toEqual(pieces);
});

test.each([
  ['a place that is gone is left out', { items: [] }, [[['items', 0, 'notes'], 'ring'] as const], { items: [] }],
  ['a place under one that is gone is left out', { items: [] }, [[['items', 0, 'modifiers', 'notes'], 'ring'] as const], { items: [] }],
  ['a place under null is left out', { items: [null] }, [[['items', 0, 'notes'], 'ring'] as const], { items: [null] }],
  ['a place under null, deeper, is left out', { items: [null] }, [[['items', 0, 'x', 'notes'], 'ring'] as const], { items: [null] }],
  [
    'a place under a value that is not an object is left out',
    { items: 'redacted' },
    [[['items', 0, 'notes'], 'ring'] as const],
    { items: 'redacted' },
  ],
  [
    'a place that is there is filled, whatever is there',
    { customer: 'redacted' },
    [[['customer'], { name: 'A' }] as const],
    { customer: { name: 'A' } },
  ],
])('pieces put back: %s', (_name, value, pieces, expected) => {
  expect(
    joinCustomer(
      value,
      pieces.map(([path, piece]) => [[...path], piece]),
    ),
  ).toEqual(expected);
});
