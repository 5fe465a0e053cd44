import { usCatalog, deCatalog, jpCatalog } from '../../sandbox/pos/catalogs.js';
import type { Catalog } from './service.js';
import { catalogFor, MAX_PROBLEMS, MOST_ELEMENTS, publishError, readCatalog } from './validate.js';

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

test('a store gets exactly what its menus reach, nested modifier groups included', () => {
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

/** A small catalog, valid: one menu, category, item (with its family and tax), modifier group and modifier. */
const small = () => ({
  currency: 'usd',
  menu: [{ provider_id: 'm1', name: 'All day', category_ids: ['c1'] }] as Record<string, unknown>[],
  category: [{ provider_id: 'c1', name: 'Mains', item_ids: ['i1'] }] as Record<string, unknown>[],
  item: [{ provider_id: 'i1', name: 'Burger', price: 1000, modifier_group_ids: ['g1'], tax_ids: ['t1'], item_family_id: 'f1' }] as Record<
    string,
    unknown
  >[],
  item_family: [{ provider_id: 'f1', name: 'Burgers' }] as Record<string, unknown>[],
  modifier_group: [{ provider_id: 'g1', name: 'Add-ons', modifier_ids: ['x1'], min_selections: 0, max_selections: 2 }] as Record<
    string,
    unknown
  >[],
  modifier: [{ provider_id: 'x1', name: 'Cheese', price: 100 }] as Record<string, unknown>[],
  tax: [{ provider_id: 't1', name: 'Sales', rate: 8.25 }] as Record<string, unknown>[],
});
type Small = ReturnType<typeof small>;
const changed = (change: (catalog: Small) => void) => {
  const catalog = small();
  change(catalog);
  return catalog;
};

describe('every rule a catalog can break, each named', () => {
  test('the small catalog breaks none', () => expect(problemsOf(small())).toEqual([]));

  test.each<[string, (catalog: Small) => void, string[]]>([
    ['a null element', (c) => c.menu.push(null as never), ['menu[1] has no provider_id']],
    ['a provider_id that is blank', (c) => c.tax.push({ provider_id: '  ', rate: 1 }), ['tax[1] has no provider_id']],
    ['a provider_id that is not text', (c) => c.tax.push({ provider_id: 7, rate: 1 }), ['tax[1] has no provider_id']],
    ['an element twice', (c) => c.modifier.push({ ...c.modifier[0] }), ['modifier x1 (Cheese) appears twice in modifier']],
    ['an item family twice', (c) => c.item_family.push({ provider_id: 'f1' }), ['item family f1 appears twice in item_family']],
    ['a menu without category_ids', (c) => delete c.menu[0]!.category_ids, ['menu m1 (All day) lists no category_ids']],
    [
      'a menu whose only category is missing',
      (c) => (c.menu[0]!.category_ids = ['c9']),
      ['menu m1 (All day) names missing category c9', 'menu m1 (All day) has no items'],
    ],
    [
      'a menu whose category holds no item of the catalog',
      (c) => (c.category[0]!.item_ids = ['i9']),
      ['menu m1 (All day) has no items', 'category c1 (Mains) lists missing item i9'],
    ],
    ['an item naming a missing category', (c) => (c.item[0]!.category_id = 'c9'), ['item i1 (Burger) names missing category c9']],
    ['an item naming missing categories', (c) => (c.item[0]!.category_ids = ['c1', 'c8']), ['item i1 (Burger) names missing category c8']],
    [
      'a modifier group without modifier_ids',
      (c) => delete c.modifier_group[0]!.modifier_ids,
      ['modifier group g1 (Add-ons) lists no modifier_ids'],
    ],
    [
      'a modifier group listing a missing modifier',
      (c) => (c.modifier_group[0]!.modifier_ids = ['x1', 'x9']),
      ['modifier group g1 (Add-ons) lists missing modifier x9'],
    ],
    [
      'min_selections below 0',
      (c) => (c.modifier_group[0]!.min_selections = -1),
      ['modifier group g1 (Add-ons): min_selections must be a whole number, not -1'],
    ],
    [
      'min_selections as text, above max_selections',
      (c) => (c.modifier_group[0]!.min_selections = '3'),
      ['modifier group g1 (Add-ons): min_selections must be a whole number, not "3"'],
    ],
    [
      'max_selections a fraction',
      (c) => (c.modifier_group[0]!.max_selections = 1.5),
      ['modifier group g1 (Add-ons): max_selections must be a whole number, not 1.5'],
    ],
    [
      'max_selections as text, below min_selections',
      (c) => Object.assign(c.modifier_group[0]!, { min_selections: 2, max_selections: '1' }),
      ['modifier group g1 (Add-ons): max_selections must be a whole number, not "1"'],
    ],
    [
      'a modifier naming a missing modifier group',
      (c) => (c.modifier[0]!.modifier_group_ids = ['g9']),
      ['modifier x1 (Cheese) refers to missing modifier group g9'],
    ],
    ['a tax rate below 0', (c) => (c.tax[0]!.rate = -1), ['tax t1 (Sales): rate must be from 0 to 100, not -1']],
    ['a tax rate as text', (c) => (c.tax[0]!.rate = '50'), ['tax t1 (Sales): rate must be from 0 to 100, not "50"']],
    ['a tax rate that is not a number', (c) => (c.tax[0]!.rate = Number.NaN), ['tax t1 (Sales): rate must be from 0 to 100, not null']],
    [
      'a value shown cut at 60 characters',
      (c) => (c.tax[0]!.rate = 'x'.repeat(100)),
      [`tax t1 (Sales): rate must be from 0 to 100, not "${'x'.repeat(59)}`],
    ],
    ['a catalog tax_rate above 100', (c) => Object.assign(c, { tax_rate: 101 }), ['tax_rate must be from 0 to 100, not 101']],
    [
      'holiday hours it cannot read, the holiday unnamed',
      (c) => Object.assign(c, { holidays: [{ date: '2026-12-24', hours: ['9-14'] }] }),
      ['holidays[0]: hours[0] "9-14" is not a range of 24-hour times like "11:00-15:00"'],
    ],
    [
      'a holiday dated 24.12.2026: the catalog invalid, not the day dropped',
      (c) => Object.assign(c, { holidays: [{ date: '24.12.2026', name: 'Heiligabend', closed: true }] }),
      ['holidays[0] (Heiligabend): date must be a day of the calendar written YYYY-MM-DD (2026-12-24), not "24.12.2026"'],
    ],
    [
      'a holiday on no day of the calendar, or with no date',
      (c) =>
        Object.assign(c, {
          holidays: [
            { date: '2026-02-30', closed: true },
            { name: 'Someday', closed: true },
          ],
        }),
      [
        'holidays[0]: date must be a day of the calendar written YYYY-MM-DD (2026-12-24), not "2026-02-30"',
        'holidays[1] (Someday): date must be a day of the calendar written YYYY-MM-DD (2026-12-24), not undefined',
      ],
    ],
    [
      'holidays that are no list',
      (c) => Object.assign(c, { holidays: { date: '2026-12-24' } }),
      ['holidays must be an array, not {"date":"2026-12-24"}'],
    ],
    [
      'a holiday that is no object',
      (c) => Object.assign(c, { holidays: ['2026-12-24'] }),
      ['holidays[0] must be an object {date, name, closed, hours?}, not "2026-12-24"'],
    ],
  ])('%s', (_case, change, problems) => expect(problemsOf(changed(change))).toEqual(problems));

  test.each<[string, (catalog: Small) => void]>([
    ['a tax rate of 0', (c) => (c.tax[0]!.rate = 0)],
    ['a tax rate of 100', (c) => (c.tax[0]!.rate = 100)],
    ['a catalog tax_rate of 100', (c) => Object.assign(c, { tax_rate: 100 })],
    ['a modifier group without bounds', (c) => (c.modifier_group[0] = { provider_id: 'g1', modifier_ids: ['x1'] })],
    ['min_selections equal to max_selections', (c) => Object.assign(c.modifier_group[0]!, { min_selections: 2, max_selections: 2 })],
    ['ids that are not text among a list of ids, left out', (c) => (c.menu[0]!.category_ids = ['c1', 7, null])],
    ['a menu whose schedule is null: open whenever the location is', (c) => (c.menu[0]!.schedule = null)],
    ['a holiday whose hours are null: listed only', (c) => Object.assign(c, { holidays: [{ date: '2026-12-24', hours: null }] })],
    [
      'a holiday with closed: false and no hours: an ordinary day',
      (c) => Object.assign(c, { holidays: [{ date: '2026-12-24', closed: false }] }),
    ],
    ['holidays null: none', (c) => Object.assign(c, { holidays: null })],
  ])('takes %s', (_case, change) => expect(problemsOf(changed(change))).toEqual([]));
});

test('a catalog with problems still gives a store its part: what it names but lacks is left out', () => {
  const broken = changed((c) => {
    c.item[0]!.modifier_group_ids = ['g1', 'g9'];
    c.modifier_group[0]!.modifier_ids = ['x1', 'x9'];
    c.modifier[0]!.modifier_group_ids = ['g8'];
  });
  const part = catalogFor(readCatalog(broken).catalog as Catalog, ['m1']);
  expect(part.modifier_group.map((g) => g.provider_id)).toEqual(['g1']);
  expect(part.modifier.map((m) => m.provider_id)).toEqual(['x1']);
});

test('the canonical catalog keeps each category with the items it holds', () => {
  const { catalog } = readCatalog(changed((c) => c.item.push({ provider_id: 'i2', price: 500, category_ids: ['c1'] })));
  expect(catalog.category).toEqual([{ provider_id: 'c1', name: 'Mains', item_ids: ['i1', 'i2'] }]);
  expect(catalog.item_family).toEqual([{ provider_id: 'f1', name: 'Burgers' }]);
});

test('a catalog answer of null is a problem, not a throw', () => {
  expect(problemsOf(null)).toEqual(['the catalog answer is not a JSON object', 'the catalog has no menu']);
});

describe('modifier groups nested in a loop', () => {
  /** Groups g1 → x1 → g2 → x2 → g3 → x3 → back to `to`. */
  const looped = (to: string) =>
    changed((c) => {
      c.modifier_group.push({ provider_id: 'g2', modifier_ids: ['x2'] }, { provider_id: 'g3', modifier_ids: ['x3'] });
      c.modifier[0]!.modifier_group_ids = ['g2'];
      c.modifier.push(
        { provider_id: 'x2', price: 0, modifier_group_ids: ['g3'] },
        { provider_id: 'x3', price: 0, modifier_group_ids: [to] },
      );
    });
  test.each([
    ['back to the first', 'g1', 'modifier group g1 is nested inside itself (g1 → g2 → g3 → g1)'],
    ['back to one on the way', 'g2', 'modifier group g2 is nested inside itself (g2 → g3 → g2)'],
    ['a group inside itself', 'g3', 'modifier group g3 is nested inside itself (g3 → g3)'],
  ])('%s: named from where the loop begins', (_case, to, problem) => expect(problemsOf(looped(to))).toEqual([problem]));

  test('a store still gets each group of a loop once', () => {
    const part = catalogFor(readCatalog(looped('g1')).catalog as Catalog, ['m1']);
    expect(part.modifier_group.map((g) => g.provider_id)).toEqual(['g1', 'g2', 'g3']);
    expect(part.modifier.map((m) => m.provider_id)).toEqual(['x1', 'x2', 'x3']);
  });
});

test('groups that share nested groups are judged once each: forty levels of two ways down, in a moment', () => {
  // Each group's two modifiers both lead to the next group: 2^40 paths, 40 groups.
  const deep = changed((c) => {
    c.modifier_group = [];
    c.modifier = [];
    for (let level = 1; level <= 40; level++) {
      c.modifier_group.push({ provider_id: `g${level}`, modifier_ids: [`a${level}`, `b${level}`] });
      const below = level < 40 ? [`g${level + 1}`] : [];
      c.modifier.push({ provider_id: `a${level}`, price: 0, modifier_group_ids: below });
      c.modifier.push({ provider_id: `b${level}`, price: 0, modifier_group_ids: below });
    }
  });
  expect(problemsOf(deep)).toEqual([]);
  expect(catalogFor(readCatalog(deep).catalog as Catalog, ['m1']).modifier_group).toHaveLength(40);
});

test.each([
  [['item i1 is wrong'], 'the catalog is invalid: item i1 is wrong'],
  [['first', 'second'], 'the catalog is invalid: first (and 1 more problem)'],
  [['first', 'second', 'third'], 'the catalog is invalid: first (and 2 more problems)'],
  [Array.from({ length: MAX_PROBLEMS }, (_, i) => `p${i}`), `the catalog is invalid: p0 (and ${MAX_PROBLEMS - 1} more problems)`],
])('publishError(%j)', (problems, error) => expect(publishError(problems)).toBe(error));

describe('what a store gets of a catalog of two menus', () => {
  /** A second menu: its own category, item (with another family and tax) and modifier group. */
  const two = () =>
    readCatalog(
      changed((c) => {
        c.menu.push({ provider_id: 'm2', category_ids: ['c2'] });
        c.category.push({ provider_id: 'c2', item_ids: ['i2'] });
        c.item.push({ provider_id: 'i2', price: 200, modifier_group_ids: ['g2'], tax_ids: ['t2'], item_family_id: 'f2' });
        c.item_family.push({ provider_id: 'f2' });
        c.modifier_group.push({ provider_id: 'g2', modifier_ids: ['x2'] });
        c.modifier.push({ provider_id: 'x2', price: 0, modifier_group_ids: ['g3'] });
        c.modifier_group.push({ provider_id: 'g3', modifier_ids: ['x3'] });
        c.modifier.push({ provider_id: 'x3', price: 0 });
        // Reached by nothing: a modifier naming the first menu's group.
        c.modifier.push({ provider_id: 'x4', price: 0, modifier_group_ids: ['g1'] });
      }),
    ).catalog as Catalog;
  test.each([
    [['m1'], { menu: ['m1'], category: ['c1'], item: ['i1'], item_family: ['f1'], modifier_group: ['g1'], modifier: ['x1'], tax: ['t1'] }],
    [
      ['m2'],
      { menu: ['m2'], category: ['c2'], item: ['i2'], item_family: ['f2'], modifier_group: ['g2', 'g3'], modifier: ['x2', 'x3'], tax: [] },
    ],
    [[], { menu: [], category: [], item: [], item_family: [], modifier_group: [], modifier: [], tax: [] }],
  ])('menus %j', (menus, expected) => {
    const part = catalogFor(two(), menus);
    const listed = Object.fromEntries(
      Object.keys(expected).map((list) => [list, (part[list as keyof Catalog] as { provider_id: string }[]).map((e) => e.provider_id)]),
    );
    expect(listed).toEqual(expected);
    expect(part.currency).toBe('usd');
  });
});

describe('a catalog past any list limit is refused whole, unread', () => {
  const filled = (list: string, count: number) => ({ [list]: Array.from({ length: count }, (_, i) => ({ provider_id: `${list}_${i}` })) });
  test.each(Object.entries(MOST_ELEMENTS))('%s: at most %i', (list, most) => {
    const at = readCatalog({ menu: [], ...filled(list, most) }).problems;
    expect(at.some((problem) => problem.includes('a catalog holds at most'))).toBe(false);
    expect(readCatalog({ menu: [], ...filled(list, most + 1) })).toEqual({
      catalog: { category: [], item_family: [], item: [], modifier_group: [], modifier: [], menu: [], tax: [] },
      problems: [`${list} holds ${(most + 1).toLocaleString('en-US')} elements; a catalog holds at most ${most.toLocaleString('en-US')}`],
    });
  });
});
