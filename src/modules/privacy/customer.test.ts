// An order's customer sealed and opened, as cases: stored, nothing of the customer is readable
// without the order's key; opened with it, the order is as the DSP sent it; once the key is gone,
// the customer is "redacted". The look-up is a digest per organization.
import crypto from 'node:crypto';
import { sealer } from '../../common/crypto.js';
import type { OutboxInput } from '../../delivery/outbox.js';
import {
  carryingCustomer,
  customerOf,
  isSealed,
  keyCarried,
  lookupOf,
  openCustomer,
  openMessage,
  sealCustomer,
  withoutKey,
} from './customer.js';
import { redactJson } from './redact.js';

const service = sealer(crypto.randomBytes(32));
const order = {
  id: 'dsp_1',
  customer: { name: 'Ada Byron', phone: '+1 (512) 555-0199', provider_loyalty_id: ' loy_ada ' },
  delivery_address: { city: 'Austin', coordinates: { latitude: 30.2671, longitude: -97.7431 } },
  special_instructions: 'ring Ada',
  items: [{ service_id: 'item_taco', price: 400, special_instructions: 'hot for Ada' }],
  total: 400,
  driver: { name: 'D', phone: { number: '5' } },
};

test('an order stored sealed holds nothing of its customer, and opens with its key to what the DSP sent', () => {
  const sealed = sealCustomer(service, 'org_1', structuredClone(order));
  const stored = JSON.stringify(sealed.object);
  for (const trace of ['Ada', '0199', 'loy_ada', 'Austin', '30.2671']) expect(stored).not.toContain(trace);
  expect(isSealed(sealed.object)).toBe(true);
  // What it keeps in clear is what an erasure leaves, with the sealed pieces beside it.
  const { sealed_customer: pieces, ...rest } = sealed.object;
  expect(rest).toEqual(redactJson(order));
  expect(pieces).toMatch(/^v1\./);
  expect(openCustomer(service, JSON.parse(stored), sealed.key)).toEqual(order);
  // Each order has a key of its own: another's does not open it, nor does another service's.
  const other = sealCustomer(service, 'org_1', structuredClone(order));
  expect(other.key).not.toBe(sealed.key);
  expect(() => openCustomer(service, JSON.parse(stored), other.key)).toThrow();
  expect(() => openCustomer(sealer(crypto.randomBytes(32)), JSON.parse(stored), sealed.key)).toThrow();
});

test('without its key (erased, expired), the order opens with its customer "redacted"', () => {
  const sealed = sealCustomer(service, 'org_1', structuredClone(order));
  expect(openCustomer(service, sealed.object, null)).toEqual(redactJson(order));
});

test('an order without customer data is stored as it came, with no key', () => {
  const plain = { id: 'dsp_2', items: [{ service_id: 'item_taco' }], customer: null };
  expect(sealCustomer(service, 'org_1', plain)).toEqual({
    object: plain,
    key: null,
    lookup: { customerPhone: null, customerLoyaltyId: null },
  });
});

test.each([
  [
    'the customer',
    { customer: { phone: '+1 (512) 555-0199', provider_loyalty_id: ' loy_ada ' } },
    { phone: '15125550199', loyaltyId: 'loy_ada' },
  ],
  ['the first of the customers', { customers: [{ phone: '555 0100' }, { phone: '1' }] }, { phone: '5550100', loyaltyId: null }],
  [
    'a phone without digits, an empty loyalty id',
    { customer: { phone: 'n/a', provider_loyalty_id: ' ' } },
    { phone: null, loyaltyId: null },
  ],
  ['no customer', { items: [] }, { phone: null, loyaltyId: null }],
  ['values that are not text', { customer: { phone: 5550100, provider_loyalty_id: 7 } }, { phone: null, loyaltyId: null }],
])('who an erasure names: %s', (_case, object, who) => {
  expect(customerOf(object)).toEqual(who);
});

test("the look-up is a digest per organization of the customer's phone digits and loyalty id, never the values", () => {
  const sealed = sealCustomer(service, 'org_1', structuredClone(order));
  expect(sealed.lookup).toEqual(lookupOf(service, 'org_1', { phone: '15125550199', loyaltyId: 'loy_ada' }));
  expect(JSON.stringify(sealed.lookup)).not.toMatch(/0199|loy_ada/);
  expect(sealed.lookup.customerPhone).not.toBe(lookupOf(service, 'org_2', { phone: '15125550199', loyaltyId: null }).customerPhone);
  // A phone and a loyalty id of the same text are told apart.
  const same = lookupOf(service, 'org_1', { phone: '123', loyaltyId: '123' });
  expect(same.customerPhone).not.toBe(same.customerLoyaltyId);
  // An order of no organization cannot be named by an erasure: no look-up.
  expect(lookupOf(service, null, { phone: '1', loyaltyId: 'x' })).toEqual({ customerPhone: null, customerLoyaltyId: null });
});

describe('a message that carries the order', () => {
  const sealed = sealCustomer(service, 'org_1', structuredClone(order));
  const message: OutboxInput = {
    kind: 'order.created',
    to: { provider: 'pos', operation: 'orders', headers: { 'x-provider-location-id': 'loc_1' } },
    body: { type: 'order.created', object: { ...sealed.object, status: 'in_progress' } },
    subject: { purpose: 'order.created', subjectId: 'ord_1' },
  };
  const carried = carryingCustomer(message, sealed.key);
  const stored = { body: JSON.stringify(carried.body), headers: (carried.to as { headers: Record<string, string> }).headers };

  test('is stored sealed, with the key beside it, and sent opened without the key', () => {
    expect(stored.body).not.toContain('Ada');
    expect(keyCarried(JSON.stringify(stored.headers))).toBe(sealed.key);
    const sent = openMessage(service, stored);
    expect(JSON.parse(sent.body)).toEqual({ type: 'order.created', object: { ...order, status: 'in_progress' } });
    expect(sent.headers).toEqual({ 'x-provider-location-id': 'loc_1' });
  });

  test('after an erasure (the key dropped from it, the body redacted), it is sent as stored: the customer "redacted"', () => {
    const erased = {
      body: JSON.stringify(redactJson(JSON.parse(stored.body))),
      headers: JSON.parse(withoutKey(JSON.stringify(stored.headers))!),
    };
    expect(erased.headers).toEqual({ 'x-provider-location-id': 'loc_1' });
    expect(openMessage(service, erased)).toBe(erased);
    expect(JSON.parse(erased.body).object.customer.name).toBe('redacted');
    expect(erased.body).not.toContain('sealed_customer');
  });

  test('an order without a key, or a message to an endpoint, goes as it was', () => {
    expect(carryingCustomer(message, null)).toBe(message);
    const toEndpoint = { ...message, to: { endpoint: 'we_1', headers: {} } };
    expect(carryingCustomer(toEndpoint, sealed.key)).toBe(toEndpoint);
    expect(withoutKey(null)).toBeNull();
    expect(withoutKey('{"traceparent":"t"}')).toBe('{"traceparent":"t"}');
    expect(withoutKey(JSON.stringify({ 'x-sealed-customer-key': sealed.key }))).toBeNull();
  });
});
