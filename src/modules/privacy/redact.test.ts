// What an erasure removes from an order, as a table of cases: every field of CUSTOMER_DATA at any
// depth, the driver kept, everything else (items, amounts, ids) as it was.
import { redactJson } from './redact.js';

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
])('%s', (_name, input, expected) => {
  expect(redactJson(input)).toEqual(expected);
});
