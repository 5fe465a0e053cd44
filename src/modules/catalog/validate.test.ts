import { usCatalog, deCatalog, jpCatalog } from '../../sandbox/pos/catalogs.js';
import type { Catalog } from './service.js';
import { catalogFor, MAX_PROBLEMS, publishError, readCatalog } from './validate.js';

const us = () => usCatalog() as unknown as Catalog;
const problemsOf = (raw: unknown) => readCatalog(raw).problems;

test('the sandbox catalogs are valid', () => {
  expect(problemsOf(us())).toEqual([]);
  expect(problemsOf(deCatalog())).toEqual([]);
  expect(problemsOf(jpCatalog())).toEqual([]);
});

const WHOLE = "must be a whole number of the currency's smallest unit, from 0 to 100000000000";
test.each([
  [3.5, `${WHOLE}, not 3.5; send 350 for 3.5 usd`],
  [11.99, `${WHOLE}, not 11.99; send 1199 for 11.99 usd`],
  [-1, `${WHOLE}, not -1`],
  [-0, `${WHOLE}, not -0`],
  [1e12, `${WHOLE}, not 1000000000000`],
  ['4.00', `${WHOLE}, not "4.00"; send a JSON number, not text`],
  [null, `${WHOLE}, not null`],
])('a price of %p makes the catalog invalid, the element and the rule named', (price, rule) => {
  const broken = us();
  broken.item[0]!.price = price;
  broken.modifier[3]!.price = price;
  expect(problemsOf(broken)).toEqual([
    `item item_us_classic (Classic Burger): price ${rule}`,
    `modifier mod_us_cheese (Extra cheese): price ${rule}`,
  ]);
});

test('prices from 0 to 10^11 are whole amounts of any currency: a yen price is yen, a dollar price cents', () => {
  const edge = us();
  edge.item[0]!.price = 0;
  edge.item[1]!.price = 100_000_000_000;
  expect(problemsOf(edge)).toEqual([]);
  expect(problemsOf({ ...jpCatalog(), item: jpCatalog().item.map((i) => ({ ...i, price: 12.5 })) })[0]).toBe(
    `item item_jp_teriyaki (てりやきバーガー): price ${WHOLE}, not 12.5`,
  );
});

test.each([
  ['USD', 'currency must be a lower-case ISO 4217 code (usd, eur, jpy…), not "USD"; send "usd"'],
  ['dollars', 'currency must be a lower-case ISO 4217 code (usd, eur, jpy…), not "dollars"'],
  [840, 'currency must be a lower-case ISO 4217 code (usd, eur, jpy…), not 840'],
])('a currency of %p makes the catalog invalid', (currency, problem) => {
  expect(problemsOf({ ...us(), currency })).toEqual([problem]);
});

test('a catalog that names no currency is valid: its location holds orders to none', () => {
  const { currency: _, ...without } = us();
  expect(problemsOf(without)).toEqual([]);
});

test('each kind of broken catalog is named, element by element', () => {
  const broken = us();
  broken.item[0]!.modifier_group_ids = ['mg_gone'];
  broken.item[1]!.price = '13.49';
  broken.item[2]!.price = -1;
  broken.tax[0]!.rate = 825;
  broken.menu.push({ provider_id: 'menu_empty', name: 'Empty', category_ids: [] });
  broken.menu.push({ provider_id: 'menu_ghost', category_ids: ['cat_gone'] });
  broken.modifier_group[0]!.min_selections = 3;
  broken.modifier_group[0]!.max_selections = 1;
  expect(problemsOf(broken)).toEqual([
    'menu menu_empty (Empty) has no items',
    'menu menu_ghost names missing category cat_gone',
    'menu menu_ghost has no items',
    'item item_us_classic (Classic Burger) refers to missing modifier group mg_gone',
    `item item_us_bacon (Bacon Cheeseburger): price ${WHOLE}, not "13.49"; send a JSON number, not text`,
    expect.stringMatching(/^item item_us_\w+ \(.*\): price must be a whole number .*, not -1$/),
    expect.stringMatching(/^modifier group mg_us_\w+ \(.*\): min_selections 3 is above max_selections 1$/),
    'tax tax_us_sales (Sales tax): rate must be from 0 to 100, not 825',
  ]);
});

test('an element without provider_id is named by its list and index, and left out of the canonical catalog', () => {
  const broken = us();
  broken.modifier.push({ name: 'no id', price: 1 } as never);
  const { catalog, problems } = readCatalog(broken);
  expect(problems).toEqual([`modifier[${broken.modifier.length - 1}] has no provider_id`]);
  expect(catalog.modifier).toHaveLength(broken.modifier.length - 1);
});

test('items may name their category instead of categories listing their items; both read the same', () => {
  const linked = us();
  const members = new Map(linked.category.map((c) => [c.provider_id, c.item_ids as string[]]));
  for (const category of linked.category) delete category.item_ids;
  for (const item of linked.item) {
    const named = [...members].filter(([, items]) => items.includes(item.provider_id)).map(([id]) => id);
    if (named.length === 1) item.category_id = named[0];
    else item.category_ids = named;
  }
  const { catalog, problems } = readCatalog(linked);
  expect(problems).toEqual([]);
  const canonical = readCatalog(us()).catalog;
  expect(Object.fromEntries(catalog.category.map((c) => [c.provider_id, [...(c.item_ids as string[])].sort()]))).toEqual(
    Object.fromEntries(canonical.category.map((c) => [c.provider_id, [...(c.item_ids as string[])].sort()])),
  );
  expect(
    catalogFor(catalog, ['menu_us_breakfast'])
      .item.map((i) => i.provider_id)
      .sort(),
  ).toEqual(
    catalogFor(canonical, ['menu_us_breakfast'])
      .item.map((i) => i.provider_id)
      .sort(),
  );
});

test('no menu, not an object, a list that is not a list: each a problem, never a throw', () => {
  expect(problemsOf({ ...us(), menu: [] })).toEqual(['the catalog has no menu']);
  expect(problemsOf('<html>')).toEqual(['the catalog answer is not a JSON object', 'the catalog has no menu']);
  expect(problemsOf({ ...us(), item: { provider_id: 'x' } })[0]).toBe('item must be an array, not {"provider_id":"x"}');
});

test('modifier groups nested in a loop are a problem naming the loop', () => {
  const looped = us();
  const [group] = looped.modifier_group;
  const modifier = looped.modifier.find((m) => (group!.modifier_ids as string[]).includes(m.provider_id))!;
  modifier.modifier_group_ids = [group!.provider_id];
  expect(problemsOf(looped)).toEqual([
    `modifier group ${group!.provider_id} is nested inside itself (${group!.provider_id} → ${group!.provider_id})`,
  ]);
});

test('a catalog of 10,000 broken items: its problems bounded, the first named', () => {
  const big = us();
  for (let i = 0; i < 10_000; i++) big.item.push({ provider_id: `bulk_${i}`, price: 'free', modifier_group_ids: [`mg_${i}`] });
  const { problems } = readCatalog(big);
  expect(problems.length).toBe(MAX_PROBLEMS + 1);
  expect(publishError(problems)).toBe(`the catalog is invalid: ${problems[0]} (and at least ${MAX_PROBLEMS} more problems)`);
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

test('opening hours: a schedule or holiday hours it cannot read are problems naming the element; those it reads are written one way', () => {
  const broken = us();
  const [allDay, breakfast, lateNight] = broken.menu;
  allDay!.schedule = { funday: ['11:00-22:00'], monday: ['25:00-26:00', '11:00', '11-22'] };
  breakfast!.schedule = '07:00-11:00';
  lateNight!.schedule = { friday: Array(10_000).fill('22:00-02:00') };
  broken.holidays = [{ date: '2026-12-24', name: 'Christmas Eve', hours: ['10:00-14:00', '9-14'] }];
  expect(problemsOf(broken)).toEqual([
    'menu menu_us_all_day (All Day): schedule names "funday", which is not a weekday (monday to sunday)',
    expect.stringMatching(/^menu menu_us_all_day \(All Day\): schedule\.monday\[0\] "25:00-26:00" is not a range/),
    'menu menu_us_all_day (All Day): schedule.monday[1] "11:00" is not a range of 24-hour times like "11:00-15:00"',
    'menu menu_us_all_day (All Day): schedule.monday[2] "11-22" is not a range of 24-hour times like "11:00-15:00"',
    'menu menu_us_breakfast (Breakfast): schedule must be an object of weekdays (monday to sunday) and their ranges, not "07:00-11:00"',
    'menu menu_us_late_night (Late Night): schedule.friday holds 10000 ranges; at most 48',
    'holidays[0] (Christmas Eve): hours[1] "9-14" is not a range of 24-hour times like "11:00-15:00"',
  ]);

  const written = us();
  written.menu[0]!.schedule = { sunday: ['18:00-2:00'], monday: ['17:00-22:00', '9:00-15:00'] };
  written.holidays = [{ date: '2026-12-24', name: 'Christmas Eve', closed: false, hours: ['9:30-14:00'] }];
  const { catalog, problems } = readCatalog(written);
  expect(problems).toEqual([]);
  expect(catalog.menu[0]!.schedule).toEqual({ monday: ['09:00-15:00', '17:00-22:00'], sunday: ['18:00-02:00'] });
  expect(catalog.holidays).toEqual([{ date: '2026-12-24', name: 'Christmas Eve', closed: false, hours: ['09:30-14:00'] }]);
  // A menu without a schedule keeps none: open whenever the location is.
  expect(readCatalog(us()).catalog.menu.find((m) => m.provider_id === 'menu_us_all_day')).not.toHaveProperty('schedule');
});
