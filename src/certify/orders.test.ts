// The test order the kit sends a POS, as a table: made of the catalog the POS has just answered.
import { orderOf } from './orders.js';

const catalog = (more: Record<string, unknown> = {}) => ({
  currency: 'usd',
  menu: [
    { provider_id: 'm-breakfast', category_ids: ['c-breakfast'], schedule: { monday: ['07:00-11:00'] } },
    { provider_id: 'm-main', category_ids: ['c-main'] },
  ],
  category: [
    { provider_id: 'c-breakfast', item_ids: ['i-pancakes'] },
    { provider_id: 'c-main', item_ids: ['i-taco'] },
  ],
  item: [
    { provider_id: 'i-orphan', name: 'On no menu', price: 100 },
    { provider_id: 'i-pancakes', name: 'Pancakes', price: 800 },
    { provider_id: 'i-taco', name: 'Taco', price: 350, modifier_group_ids: ['g-salsa', 'g-extra'], tax_ids: ['t-sales', 't-vat'] },
  ],
  modifier_group: [
    { provider_id: 'g-salsa', min_selections: 2, max_selections: 3, modifier_ids: ['s-roja'] },
    { provider_id: 'g-extra', min_selections: 0, modifier_ids: ['s-queso'] },
    { provider_id: 'g-heat', min_selections: 1, modifier_ids: ['h-hot'] },
  ],
  modifier: [
    { provider_id: 's-roja', name: 'Roja', price: 25, modifier_group_ids: ['g-heat'] },
    { provider_id: 's-queso', name: 'Queso', price: 50 },
    { provider_id: 'h-hot', name: 'Hot', price: 5 },
  ],
  tax: [
    { provider_id: 't-sales', rate: 8.25 },
    { provider_id: 't-vat', rate: 19, inclusive: true },
  ],
  ...more,
});

test('an item of a menu open whenever the location is, each required choice made at its depth, at the catalog prices, its exclusive tax added', () => {
  const order = orderOf(catalog(), 'loc-1');
  if (typeof order === 'string') throw new Error(order);
  const hot = { service_id: 'h-hot', name: 'Hot', quantity: 1, price: 5, special_instructions: '', modifiers: [] };
  expect(order.object.items).toEqual([
    {
      service_id: 'i-taco',
      name: 'Taco',
      quantity: 1,
      price: 350,
      special_instructions: '',
      modifiers: [{ service_id: 's-roja', name: 'Roja', quantity: 2, price: 25, special_instructions: '', modifiers: [hot] }],
    },
  ]);
  // 350 + 2 × (25 + 5) = 410; 8.25 % of it is 33.825, rounded 34; the VAT is in the price.
  expect(order.object).toMatchObject({ location_id: 'loc-1', currency: 'usd', subtotal: 410, tax: 34, total: 444 });
  expect(order.object.id).toMatch(/^ord_certify_[0-9a-f]{12}$/);
  expect(order.items).toBe('i-taco (2 × s-roja (h-hot)) at 410 usd');
});

test('with only scheduled menus, an item of one of them; no currency, none named', () => {
  const order = orderOf(
    catalog({ menu: [{ provider_id: 'm-breakfast', category_ids: ['c-breakfast'], schedule: {} }], currency: undefined }),
    'l',
  );
  if (typeof order === 'string') throw new Error(order);
  expect(order.object.items).toMatchObject([{ service_id: 'i-pancakes', price: 800 }]);
  expect(order.object).not.toHaveProperty('currency');
});

test('a catalog with no item on a menu: no order, and why', () => {
  expect(orderOf(catalog({ menu: [] }), 'l')).toBe('its catalog has no item on a menu to order');
  expect(orderOf('not a catalog', 'l')).toBe('its catalog has no item on a menu to order');
});
