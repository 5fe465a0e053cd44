import { convertCatalog, convertMessage, convertOrder, inMinorUnits } from './money-conversion.js';

test.each([
  [11.99, 2, 1199],
  [36.18, 2, 3618],
  [0.29, 2, 29],
  [4, 2, 400],
  [0, 2, 0],
  [1.005, 2, 101],
  [1.0049, 2, 100],
  [2500, 0, 2500],
  [12.5, 0, 13],
  [1.5, 3, 1500],
  [2.0005, 3, 2001],
  [1e-7, 2, 0],
  [-0.001, 2, 0],
  ['4.00', 2, '4.00'],
  [null, 2, null],
])('%p with %i decimals is %p in the smallest unit (a decimal shift, not a float product)', (major, digits, minor) => {
  expect(inMinorUnits(major, digits)).toBe(minor);
});

test('a catalog: each item and modifier price, by its currency (usd cents, jpy yen, kwd fils); its currency written in lower case', () => {
  const usd = {
    currency: 'usd',
    item: [{ provider_id: 'a', price: 11.99 }, { provider_id: 'b' }],
    modifier: [{ provider_id: 'm', price: 0.25 }],
  };
  convertCatalog(usd);
  expect(usd).toEqual({
    currency: 'usd',
    item: [{ provider_id: 'a', price: 1199 }, { provider_id: 'b' }],
    modifier: [{ provider_id: 'm', price: 25 }],
  });
  const jpy = { currency: 'JPY', item: [{ provider_id: 'a', price: 1280 }], modifier: [] };
  convertCatalog(jpy);
  expect(jpy).toEqual({ currency: 'jpy', item: [{ provider_id: 'a', price: 1280 }], modifier: [] });
  const kwd = { currency: 'kwd', item: [{ provider_id: 'a', price: 1.5 }] };
  convertCatalog(kwd);
  expect(kwd.item[0]!.price).toBe(1500);
  // No currency: two decimals, as most currencies have; a price that was not a number stays as it was.
  const none = {
    item: [
      { provider_id: 'a', price: 3.5 },
      { provider_id: 'b', price: 'free' },
    ],
  };
  convertCatalog(none);
  expect(none.item.map((i) => i.price)).toEqual([350, 'free']);
});

test("an order: its amounts and every item's and modifier's price, at any depth; no currency: its location's", () => {
  const order = {
    currency: 'eur',
    subtotal: 24.3,
    tax: 3.88,
    driver_tip: 2,
    delivery_fee: 2.99,
    delivery_fee_tax: 0.48,
    total: 29.29,
    cash_amount_due: 0,
    items: [
      {
        service_id: 'i',
        quantity: 1,
        price: 18.9,
        modifiers: [{ service_id: 'm', price: 1.5, modifiers: [{ service_id: 'n', price: 0.1 }] }],
      },
      'not a line',
    ],
    customer: { name: 'Jamie', phone: '+1512' },
  };
  convertOrder(order, null);
  expect(order).toEqual({
    currency: 'eur',
    subtotal: 2430,
    tax: 388,
    driver_tip: 200,
    delivery_fee: 299,
    delivery_fee_tax: 48,
    total: 2929,
    cash_amount_due: 0,
    items: [
      {
        service_id: 'i',
        quantity: 1,
        price: 1890,
        modifiers: [{ service_id: 'm', price: 150, modifiers: [{ service_id: 'n', price: 10 }] }],
      },
      'not a line',
    ],
    customer: { name: 'Jamie', phone: '+1512' },
  });
  // Named none: in its location's, which it now names, as new orders do.
  const nameless = { total: 2500, items: [{ price: 2500 }] };
  convertOrder(nameless, 'jpy');
  expect(nameless).toEqual({ total: 2500, items: [{ price: 2500 }], currency: 'jpy' });
});

test('messages not yet delivered: the order to a POS or an event provider, the catalog to a DSP; others untouched', () => {
  const toPos = { type: 'order.created', object: { currency: 'usd', total: 36.18, items: [{ price: 11.99 }] } };
  convertMessage('order.created', toPos, null);
  expect(toPos.object).toEqual({ currency: 'usd', total: 3618, items: [{ price: 1199 }] });
  const confirmed = { type: 'order.confirmed', order: { total: 12 } };
  convertMessage('order.confirmed', confirmed, 'kwd');
  expect(confirmed.order.total).toBe(12000);
  const menus = { store_id: 's', catalog: { currency: 'usd', item: [{ provider_id: 'a', price: 4.5 }] } };
  convertMessage('menu.publish', menus, null);
  expect(menus.catalog.item[0]!.price).toBe(450);
  const notification = { type: 'menu.publish_success', data: { total: 1.5 } };
  convertMessage('notification', notification, null);
  expect(notification.data.total).toBe(1.5);
});
