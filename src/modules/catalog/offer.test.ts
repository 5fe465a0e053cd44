// What a store offers, as tables of cases: the items, modifiers and groups of the menus it
// received with their prices, bounds and the menus holding each item, and which catalog version
// and menus a store is judged by.
import { readWeek } from './hours.js';
import { offeredVersion, offerIn, type Offer } from './offer.js';
import { readCatalog } from './validate.js';

/** Breakfast (07:00-11:00 on Mondays) and an all-day menu (naming a category the catalog lacks),
 * sharing coffee; a lunch menu nobody chose below; fries with one size and a sauce group that
 * takes none, a burger with add-ons nested in a cheese group. */
const catalog = () =>
  readCatalog({
    menu: [
      { provider_id: 'breakfast', name: 'Breakfast', category_ids: ['morning', 'drinks'], schedule: { monday: ['07:00-11:00'] } },
      { provider_id: 'all_day', category_ids: ['drinks', 'mains', 'drinks', 'gone'], schedule: null },
      { provider_id: 'lunch', name: 'Lunch', category_ids: ['lunch'] },
    ],
    category: [
      { provider_id: 'morning', item_ids: ['pancakes', 'coffee'] },
      { provider_id: 'drinks', item_ids: ['coffee'] },
      { provider_id: 'mains', item_ids: ['fries', 'burger'] },
      { provider_id: 'lunch', item_ids: ['salad'] },
    ],
    item: [
      { provider_id: 'pancakes', price: 800 },
      { provider_id: 'coffee', price: 300 },
      { provider_id: 'fries', price: 450, modifier_group_ids: ['size', 'no_sauce', 7] },
      { provider_id: 'burger', price: 'twelve', modifier_group_ids: ['addons'] },
      { provider_id: 'salad', price: 900 },
    ],
    modifier_group: [
      { provider_id: 'size', modifier_ids: ['regular', 'large'], min_selections: 1, max_selections: 1 },
      { provider_id: 'no_sauce', modifier_ids: ['ketchup'], min_selections: 0, max_selections: 0 },
      { provider_id: 'addons', modifier_ids: ['cheese'], min_selections: -1, max_selections: 2.5 },
      { provider_id: 'cheese_type', modifier_ids: ['cheddar'] },
    ],
    modifier: [
      { provider_id: 'regular', price: 0 },
      { provider_id: 'large', price: 150 },
      { provider_id: 'ketchup', price: 0 },
      { provider_id: 'cheese', price: 125, modifier_group_ids: ['cheese_type'] },
      { provider_id: 'cheddar', price: 25 },
    ],
  }).catalog;

describe('offerIn: the offer of the menus a store received', () => {
  let offer: Offer;
  beforeAll(() => {
    offer = offerIn(catalog(), ['breakfast', 'all_day']);
  });

  test('its menus with their hours: a schedule read into a week, none without one, a name or the id', () => {
    expect(offer.menus).toEqual(
      new Map([
        ['breakfast', { name: 'Breakfast', week: readWeek({ monday: ['07:00-11:00'] }).week }],
        ['all_day', { name: 'all_day', week: null }],
      ]),
    );
  });

  test('its items: their prices (0 for none that can be read), their groups, and each menu holding them, once', () => {
    expect(offer.items).toEqual(
      new Map([
        ['pancakes', { price: 800, groups: [], menus: ['breakfast'] }],
        ['coffee', { price: 300, groups: [], menus: ['breakfast', 'all_day'] }],
        ['fries', { price: 450, groups: ['size', 'no_sauce'], menus: ['all_day'] }],
        ['burger', { price: 0, groups: ['addons'], menus: ['all_day'] }],
      ]),
    );
  });

  test('its modifiers at any depth, held by no menu themselves', () => {
    expect(offer.modifiers).toEqual(
      new Map([
        ['regular', { price: 0, groups: [], menus: [] }],
        ['large', { price: 150, groups: [], menus: [] }],
        ['ketchup', { price: 0, groups: [], menus: [] }],
        ['cheese', { price: 125, groups: ['cheese_type'], menus: [] }],
        ['cheddar', { price: 25, groups: [], menus: [] }],
      ]),
    );
  });

  test('its groups: bounds that are not whole numbers from 0 read as none (0 to any number)', () => {
    expect(offer.groups).toEqual(
      new Map([
        ['size', { min: 1, max: 1, modifiers: new Set(['regular', 'large']) }],
        ['no_sauce', { min: 0, max: 0, modifiers: new Set(['ketchup']) }],
        ['addons', { min: 0, max: Number.POSITIVE_INFINITY, modifiers: new Set(['cheese']) }],
        ['cheese_type', { min: 0, max: Number.POSITIVE_INFINITY, modifiers: new Set(['cheddar']) }],
      ]),
    );
  });

  test('of every menu when none are named', () => {
    const all = offerIn(catalog(), null);
    expect([...all.menus.keys()]).toEqual(['breakfast', 'all_day', 'lunch']);
    expect(all.items.get('salad')).toEqual({ price: 900, groups: [], menus: ['lunch'] });
  });

  test('of one menu: nothing of the others', () => {
    const lunch = offerIn(catalog(), ['lunch']);
    expect([...lunch.menus.keys()]).toEqual(['lunch']);
    expect([...lunch.items.keys()]).toEqual(['salad']);
    expect(lunch.modifiers.size + lunch.groups.size).toBe(0);
  });
});

describe('offeredVersion: which catalog version and menus a store is judged by', () => {
  test.each([
    [
      'what it last received',
      { published: 'ver_2 ["breakfast","all_day"]', assignedMenus: '["lunch"]' },
      'ver_3',
      { versionId: 'ver_2', menus: ['breakfast', 'all_day'] },
    ],
    [
      "never published: its location's latest catalog, the menus assigned it",
      { published: null, assignedMenus: '["lunch"]' },
      'ver_3',
      { versionId: 'ver_3', menus: ['lunch'] },
    ],
    [
      'never published, no menus assigned: all of them',
      { published: null, assignedMenus: null },
      'ver_3',
      { versionId: 'ver_3', menus: null },
    ],
    ['no catalog yet', { published: null, assignedMenus: '["lunch"]' }, null, null],
  ])('%s', (_case, store, latest, expected) => expect(offeredVersion(store, latest)).toEqual(expected));
});
