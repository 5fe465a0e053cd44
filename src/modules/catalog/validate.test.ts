import { usCatalog, deCatalog } from '../../sandbox/pos/catalogs.js';
import type { Catalog } from './service.js';
import { catalogFor, catalogProblems } from './validate.js';

const us = () => usCatalog() as unknown as Catalog;

test('the sandbox catalogs are valid', () => {
  expect(catalogProblems(us())).toEqual([]);
  expect(catalogProblems(deCatalog() as unknown as Catalog)).toEqual([]);
});

test('each kind of broken catalog is named', () => {
  const broken = us();
  broken.item[0]!.modifier_group_ids = ['mg_gone'];
  broken.item[1]!.price = '13.49';
  broken.tax[0]!.rate = 825;
  broken.menu.push({ provider_id: 'menu_empty', name: 'Empty', category_ids: [] });
  expect(catalogProblems(broken)).toEqual([
    'item item_us_classic (Classic Burger) refers to missing modifier group mg_gone',
    'item item_us_bacon (Bacon Cheeseburger) has a price that is not a number: "13.49"',
    'menu menu_empty (Empty) has no items',
    'tax tax_us_sales (Sales tax) has a rate out of range (0 to 100): 825',
  ]);
});

test('a connection gets exactly what its menus reach, nested modifier groups included', () => {
  const part = catalogFor(us(), ['menu_us_breakfast']);
  expect(part.menu.map((m) => m.provider_id)).toEqual(['menu_us_breakfast']);
  expect(part.category.map((c) => c.provider_id)).toEqual(['cat_us_drinks', 'cat_us_breakfast']);
  expect(part.item.map((i) => i.provider_id)).toEqual(['item_us_soda', 'item_us_coffee', 'item_us_pancakes', 'item_us_egg_sandwich']);
  // Add-ons → Extra cheese → the nested Cheese group and its modifiers.
  expect(part.modifier_group.map((g) => g.provider_id).sort()).toEqual(['mg_us_addons', 'mg_us_cheese_type', 'mg_us_size']);
  expect(part.modifier.map((m) => m.provider_id)).toContain('mod_us_pepper_jack');
  expect(part.modifier.map((m) => m.provider_id)).not.toContain('mod_us_well');
});
