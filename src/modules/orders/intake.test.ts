// The order intake's checks as tables of cases: whether the store is ours, whether it is paused,
// whether it takes the order at its time on its location's clock and in its currency, and every
// way a cart is refused (item_not_found, item_unavailable, price_mismatch, invalid_cart), each with
// the details the DSP is told. The cart is checked against a small offer written out here, with a
// clock given to each check.
import type { StoreForOrder } from '../../db/sql/orders.js';
import type { Offer } from '../catalog/offer.js';
import { readWeek, type Holidays } from '../catalog/hours.js';
import type { OffSale } from '../stores/rules.js';
import { cartRefusal, orderCurrency, orderRefusal, pauseRefusal, storeRefusal, type Judged } from './intake.js';

const now = Date.UTC(2026, 10, 26, 12, 0, 0);

/** rings and fries alone; fries take exactly one size; a burger any add-ons, cheese at most one
 * cheese type; a bowl at least one topping, as many as wanted; a wrap a group the offer lacks. */
const offer: Offer = {
  menus: new Map([['all', { name: 'All day', week: null }]]),
  items: new Map([
    ['rings', { price: 525, groups: [], menus: ['all'] }],
    ['fries', { price: 450, groups: ['size'], menus: ['all'] }],
    ['burger', { price: 1200, groups: ['addons'], menus: ['all'] }],
    ['bowl', { price: 900, groups: ['toppings'], menus: ['all'] }],
    ['wrap', { price: 800, groups: ['gone'], menus: ['all'] }],
  ]),
  modifiers: new Map([
    ['regular', { price: 0, groups: [], menus: [] }],
    ['large', { price: 150, groups: [], menus: [] }],
    ['cheese', { price: 125, groups: ['cheese_type'], menus: [] }],
    ['bacon', { price: 200, groups: [], menus: [] }],
    ['pepper_jack', { price: 25, groups: [], menus: [] }],
    ['rice', { price: 0, groups: [], menus: [] }],
    ['beans', { price: 50, groups: [], menus: [] }],
  ]),
  groups: new Map([
    ['size', { min: 1, max: 1, modifiers: new Set(['regular', 'large']) }],
    ['addons', { min: 0, max: Number.POSITIVE_INFINITY, modifiers: new Set(['cheese', 'bacon']) }],
    ['cheese_type', { min: 0, max: 1, modifiers: new Set(['pepper_jack']) }],
    ['toppings', { min: 1, max: Number.POSITIVE_INFINITY, modifiers: new Set(['rice', 'beans']) }],
  ]),
};

/** Off sale: soda until put back, bacon for a minute more, rings until a minute ago. */
const offSale: OffSale = new Map([
  ['soda', null],
  ['bacon', now + 60_000],
  ['rings', now - 60_000],
]);

type Line = { service_id?: unknown; quantity?: unknown; price?: unknown; modifiers?: unknown };
const line = (service_id: string, price: number, modifiers?: Line[], quantity: unknown = 1): Line => ({
  service_id,
  quantity,
  price,
  ...(modifiers ? { modifiers } : {}),
});
/** A modifier line: its quantity left out, as DSPs mostly send it (1). */
const mod = (service_id: string, price: number, modifiers?: Line[]): Line => ({ service_id, price, ...(modifiers ? { modifiers } : {}) });

const check = (items: unknown) => cartRefusal(offer, offSale, items, now);

describe('carts taken', () => {
  test.each<[string, unknown]>([
    ['an item at its price', [line('rings', 525)]],
    ['an item above its price', [line('rings', 600)]],
    ['an item whose time off sale has passed', [line('rings', 525)]],
    ['several of an item', [line('rings', 525, [], 3)]],
    ['a price that is not a number: the webhook checks its type, not the cart', [{ service_id: 'rings', quantity: 1, price: '1' }]],
    ['the one size fries take', [line('fries', 450, [mod('large', 150)])]],
    ['a modifier line with its quantity given', [line('fries', 450, [{ service_id: 'regular', price: 0, quantity: 1 }])]],
    ['a modifier line whose quantity is null: one', [line('fries', 450, [{ service_id: 'regular', price: 0, quantity: null }])]],
    ['add-ons, none chosen', [line('burger', 1200)]],
    ['add-ons, an empty list of them', [line('burger', 1200, [])]],
    ['add-ons, as many as wanted', [line('burger', 1200, [mod('cheese', 125), mod('cheese', 125), mod('cheese', 125)])]],
    ['a modifier of a modifier within its group', [line('burger', 1200, [mod('cheese', 125, [mod('pepper_jack', 25)])])]],
    ['two of a topping, counted once each', [line('bowl', 900, [{ service_id: 'rice', price: 0, quantity: 2 }])]],
    ['a group the offer does not hold: nothing to count against', [line('wrap', 800)]],
  ])('%s', (_case, items) => expect(check(items)).toBeNull());

  test('every item of a store with no catalog yet, but what is off sale, and no order of nothing', () => {
    expect(cartRefusal(null, offSale, [line('made_up', 1, [mod('anything', 0)], 0)], now)).toBeNull();
    expect(cartRefusal(null, offSale, [], now)).toEqual({ reason: 'invalid_cart', details: 'an order with no items' });
    expect(cartRefusal(null, offSale, [line('made_up', 1), line('soda', 100)], now)).toEqual({
      reason: 'item_unavailable',
      details: 'item soda is off sale',
    });
  });

  test('what is off sale is judged at the time given', () => {
    const items = [line('burger', 1200, [mod('bacon', 200)])];
    expect(cartRefusal(offer, offSale, items, now + 60_000)).toBeNull();
    expect(cartRefusal(offer, offSale, items, now + 59_999)).toEqual({ reason: 'item_unavailable', details: 'modifier bacon is off sale' });
  });
});

describe('carts refused, with what the DSP is told', () => {
  test.each<[string, unknown, string, string]>([
    ['no items at all (the field left out)', undefined, 'invalid_cart', 'an order with no items'],
    ['an empty list', [], 'invalid_cart', 'an order with no items'],
    ['items that are not a list', { service_id: 'rings' }, 'invalid_cart', 'items is not a list'],
    ['a line that is not an object', ['rings'], 'invalid_cart', 'items[0] has no service_id'],
    ['a line that is null', [null], 'invalid_cart', 'items[0] has no service_id'],
    ['a line that is a list', [[]], 'invalid_cart', 'items[0] has no service_id'],
    [
      'a line whose service_id is not text, after a good one',
      [line('rings', 525), { service_id: 7 }],
      'invalid_cart',
      'items[1] has no service_id',
    ],
    ['an item off sale until put back', [line('soda', 100)], 'item_unavailable', 'item soda is off sale'],
    ['an item off sale until later', [line('bacon', 200)], 'item_unavailable', 'item bacon is off sale'],
    ['an item the menus do not hold', [line('made_up', 1)], 'item_not_found', 'item made_up is not on the menus this store received'],
    ['a modifier sent as an item', [line('cheese', 125)], 'item_not_found', 'item cheese is not on the menus this store received'],
    ['a quantity of 0', [line('rings', 525, [], 0)], 'invalid_cart', 'item rings: quantity must be a whole number above 0, not 0'],
    ['a negative quantity', [line('rings', 525, [], -1)], 'invalid_cart', 'item rings: quantity must be a whole number above 0, not -1'],
    [
      'a fractional quantity',
      [line('rings', 525, [], 1.5)],
      'invalid_cart',
      'item rings: quantity must be a whole number above 0, not 1.5',
    ],
    ['a quantity as text', [line('rings', 525, [], '2')], 'invalid_cart', 'item rings: quantity must be a whole number above 0, not "2"'],
    [
      'no quantity on an item',
      [{ service_id: 'rings', price: 525 }],
      'invalid_cart',
      'item rings: quantity must be a whole number above 0, not undefined',
    ],
    [
      'a quantity past a safe integer',
      [line('rings', 525, [], 2 ** 53)],
      'invalid_cart',
      'item rings: quantity must be a whole number above 0, not 9007199254740992',
    ],
    [
      'a quantity shown cut at 40 characters',
      [line('rings', 525, [], 'x'.repeat(100))],
      'invalid_cart',
      `item rings: quantity must be a whole number above 0, not "${'x'.repeat(39)}`,
    ],
    ['an item a unit below its price', [line('rings', 524)], 'price_mismatch', "item rings is priced 524, below the catalog's 525"],
    ['modifiers that are not a list', [line('burger', 1200, 'cheese' as never)], 'invalid_cart', 'item burger: modifiers is not a list'],
    [
      'a modifier line without service_id',
      [line('burger', 1200, [{ price: 1 }])],
      'invalid_cart',
      'item burger: modifiers[0] has no service_id',
    ],
    ['a modifier off sale', [line('burger', 1200, [mod('bacon', 200)])], 'item_unavailable', 'modifier bacon is off sale'],
    [
      'a modifier the menus do not hold',
      [line('burger', 1200, [mod('made_up', 0)])],
      'item_not_found',
      'modifier made_up is not on the menus this store received',
    ],
    [
      'an item sent as a modifier',
      [line('burger', 1200, [mod('rings', 525)])],
      'item_not_found',
      'modifier rings is not on the menus this store received',
    ],
    [
      'a modifier not offered with its item',
      [line('burger', 1200, [mod('large', 150)])],
      'item_not_found',
      'modifier large is not offered with item burger',
    ],
    [
      'a modifier with an item whose group the offer lacks',
      [line('wrap', 800, [mod('regular', 0)])],
      'item_not_found',
      'modifier regular is not offered with item wrap',
    ],
    [
      'a modifier of a modifier not offered with it',
      [line('burger', 1200, [mod('cheese', 125, [mod('large', 150)])])],
      'item_not_found',
      'modifier large is not offered with modifier cheese',
    ],
    [
      'a modifier quantity of 0',
      [line('burger', 1200, [{ service_id: 'cheese', price: 125, quantity: 0 }])],
      'invalid_cart',
      'modifier cheese: quantity must be a whole number above 0, not 0',
    ],
    [
      'a modifier below its price',
      [line('burger', 1200, [mod('cheese', 124)])],
      'price_mismatch',
      "modifier cheese is priced 124, below the catalog's 125",
    ],
    [
      'a modifier of a modifier below its price',
      [line('burger', 1200, [mod('cheese', 125, [mod('pepper_jack', 24)])])],
      'price_mismatch',
      "modifier pepper_jack is priced 24, below the catalog's 25",
    ],
    [
      'a required group left empty',
      [line('fries', 450)],
      'invalid_cart',
      'item fries: 0 chosen from modifier group size, which takes 1 to 1',
    ],
    [
      'two chosen from a group that takes one',
      [line('fries', 450, [mod('regular', 0), mod('large', 150)])],
      'invalid_cart',
      'item fries: 2 chosen from modifier group size, which takes 1 to 1',
    ],
    [
      'one modifier twice, by its quantity, from a group that takes one',
      [line('fries', 450, [{ service_id: 'large', price: 150, quantity: 2 }])],
      'invalid_cart',
      'item fries: 2 chosen from modifier group size, which takes 1 to 1',
    ],
    [
      'a group without an upper bound, left empty',
      [line('bowl', 900)],
      'invalid_cart',
      'item bowl: 0 chosen from modifier group toppings, which takes 1 to any number',
    ],
    [
      'too many from the group of a modifier',
      [line('burger', 1200, [mod('cheese', 125, [mod('pepper_jack', 25), mod('pepper_jack', 25)])])],
      'invalid_cart',
      'modifier cheese: 2 chosen from modifier group cheese_type, which takes 0 to 1',
    ],
    [
      'the first problem of several, in the order of the cart',
      [line('rings', 525), line('fries', 450), line('made_up', 1)],
      'invalid_cart',
      'item fries: 0 chosen from modifier group size, which takes 1 to 1',
    ],
  ])('%s', (_case, items, reason, details) => expect(check(items)).toEqual({ reason, details }));
});

describe('storeRefusal: whether the store is one of ours', () => {
  /** A store's binding: approved, to an active location, but for the changes given. */
  const bound = (changes: Record<string, unknown> = {}) =>
    ({ storeStatus: 'APPROVED', id: 'loc_1', status: 'active', ...changes }) as StoreForOrder;
  const gone = { reason: 'restaurant_not_accepting_orders', details: 'the location of store s1 was deleted' };
  test.each<[string, StoreForOrder | undefined, unknown]>([
    ['a store bound to an active location', bound(), null],
    ['a store never bound', undefined, { reason: 'location_not_found', details: 'store s1 is bound to no location' }],
    ['a store no longer approved', bound({ storeStatus: 'DISCONNECTED' }), gone],
    ['a store whose location is gone', bound({ id: null }), gone],
    ['a store whose location was deleted', bound({ status: 'deleted' }), gone],
  ])('%s', (_case, binding, expected) => expect(storeRefusal(binding, 's1')).toEqual(expected));
});

describe('pauseRefusal: a store paused now', () => {
  const store = (pausedAt: number | null, pausedUntil: number | null, dspStatus = 'online') => ({
    pausedAt: pausedAt === null ? null : new Date(pausedAt),
    pausedUntil: pausedUntil === null ? null : new Date(pausedUntil),
    dspStatus,
  });
  const paused = (details: string) => ({ reason: 'restaurant_not_accepting_orders', details });
  test.each([
    ['never paused', store(null, null), null],
    ['paused by us until resumed', store(now - 1000, null), paused('store s1 is paused until resumed')],
    [
      'paused by us for a minute more: its end on the location clock, as hours are',
      store(now - 1000, now + 60_000),
      paused('store s1 is paused until Thu, Nov 26, 06:01 (America/Chicago)'),
    ],
    ['paused by us until a moment ago', store(now - 1000, now), null],
    ['paused by its DSP', store(null, null, 'paused'), paused('store s1 is paused by its DSP')],
    ['paused by its DSP, our pause over', store(now - 1000, now - 1, 'paused'), paused('store s1 is paused by its DSP')],
    ['paused by both: ours named', store(now - 1000, null, 'paused'), paused('store s1 is paused until resumed')],
  ])('%s', (_case, binding, expected) => expect(pauseRefusal(binding, 's1', now, 'America/Chicago')).toEqual(expected));

  test('a pause ends on the clock of a location the platform knows, else UTC', () => {
    const until = store(now - 1000, now + 60_000);
    expect(pauseRefusal(until, 's1', now, 'Asia/Tokyo')?.details).toBe('store s1 is paused until Thu, Nov 26, 21:01 (Asia/Tokyo)');
    expect(pauseRefusal(until, 's1', now, 'Mars/Olympus')?.details).toBe('store s1 is paused until Thu, Nov 26, 12:01 (UTC)');
  });
});

describe("orderRefusal: the order at its time, on its location's clock, in its currency", () => {
  const zone = 'America/Chicago';
  /** An instant of the location's clock in December (Chicago is six hours behind UTC then). */
  const local = (date: string, time: string) => Date.parse(`${date}T${time}:00-06:00`);
  /** Breakfast every day 07:00-11:00; the main menu whenever the location is open. */
  const menus = new Map([
    [
      'breakfast',
      {
        name: 'Breakfast',
        week: readWeek(
          Object.fromEntries(
            ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, ['07:00-11:00']]),
          ),
        ).week,
      },
    ],
    ['main', { name: 'Main', week: null }],
  ]);
  const hoursOffer: Offer = {
    menus,
    items: new Map([
      ['pancakes', { price: 800, groups: [], menus: ['breakfast'] }],
      ['rings', { price: 525, groups: [], menus: ['main'] }],
      ['coffee', { price: 300, groups: [], menus: ['breakfast', 'main'] }],
    ]),
    modifiers: new Map(),
    groups: new Map(),
  };
  const holidays: Holidays = new Map([
    ['2026-12-25', { name: 'Christmas Day', hours: null }],
    ['2026-12-24', { name: 'Christmas Eve', hours: readWeek({ monday: ['10:00-14:00'] }).week[0]! }],
  ]);
  const judged: Judged = { currency: 'usd', offer: hoursOffer, holidays, offSale: new Map() };
  const order = (items: string[], more: Record<string, unknown> = {}) => ({
    currency: 'usd',
    items: items.map((id) => line(id, 1000)),
    ...more,
  });
  const tuesday8 = local('2026-12-01', '08:00');
  const tuesdayNoon = local('2026-12-01', '12:00');

  test.each<[string, Record<string, unknown>, number, unknown]>([
    ['breakfast at breakfast time', order(['pancakes', 'coffee']), tuesday8, null],
    ['the main menu at noon', order(['rings', 'coffee']), tuesdayNoon, null],
    [
      'breakfast at noon: the item, its menus and their hours named',
      order(['rings', 'pancakes']),
      tuesdayNoon,
      {
        reason: 'item_unavailable',
        details:
          'the location is open, but item pancakes is only on menus closed at Tue, Dec 1, 12:00 (America/Chicago): Breakfast (Tue 07:00-11:00), open next Wed, Dec 2, 07:00 (America/Chicago)',
      },
    ],
    [
      'any order on a day closed all day',
      order(['rings']),
      local('2026-12-25', '12:00'),
      {
        reason: 'restaurant_not_accepting_orders',
        details: 'the location is closed on Fri, Dec 25 (Christmas Day) until Sat, Dec 26, 00:00 (America/Chicago)',
      },
    ],
    ['an order within holiday hours', order(['rings']), local('2026-12-24', '13:59'), null],
    [
      'an order after holiday hours',
      order(['rings']),
      local('2026-12-24', '14:00'),
      {
        reason: 'restaurant_not_accepting_orders',
        details:
          'the location keeps holiday hours 10:00-14:00 on Thu, Dec 24 (Christmas Eve) and is closed until Sat, Dec 26, 00:00 (America/Chicago)',
      },
    ],
    [
      'a future order: judged at its fulfillment time',
      order(['pancakes'], { is_future_order: true, future_order_fulfillment_time: local('2026-12-02', '08:00') }),
      tuesdayNoon,
      null,
    ],
    [
      'a future order for a closed day',
      order(['rings'], { is_future_order: true, future_order_fulfillment_time: local('2026-12-25', '09:00') }),
      tuesdayNoon,
      {
        reason: 'restaurant_not_accepting_orders',
        details: 'the location is closed on Fri, Dec 25 (Christmas Day) until Sat, Dec 26, 00:00 (America/Chicago)',
      },
    ],
    [
      'a future order whose time has passed: judged now',
      order(['pancakes'], { is_future_order: true, future_order_fulfillment_time: tuesday8 }),
      tuesdayNoon,
      {
        reason: 'item_unavailable',
        details:
          'the location is open, but item pancakes is only on menus closed at Tue, Dec 1, 12:00 (America/Chicago): Breakfast (Tue 07:00-11:00), open next Wed, Dec 2, 07:00 (America/Chicago)',
      },
    ],
    [
      'a fulfillment time on an order that is not a future one: judged now',
      order(['rings'], { is_future_order: false, future_order_fulfillment_time: local('2026-12-25', '09:00') }),
      tuesdayNoon,
      null,
    ],
    ['a future order without its time: judged now', order(['pancakes'], { is_future_order: true }), tuesday8, null],
    [
      'an order in another currency than its location',
      order(['rings'], { currency: 'eur' }),
      tuesdayNoon,
      { reason: 'invalid_cart', details: "the order is in eur, its location's catalog in usd" },
    ],
    [
      'a closed day before the currency',
      order(['rings'], { currency: 'eur' }),
      local('2026-12-25', '12:00'),
      {
        reason: 'restaurant_not_accepting_orders',
        details: 'the location is closed on Fri, Dec 25 (Christmas Day) until Sat, Dec 26, 00:00 (America/Chicago)',
      },
    ],
    [
      'the currency before the cart',
      order(['made_up'], { currency: 'eur' }),
      tuesdayNoon,
      { reason: 'invalid_cart', details: "the order is in eur, its location's catalog in usd" },
    ],
    [
      'the cart checked',
      order(['made_up']),
      tuesdayNoon,
      { reason: 'item_not_found', details: 'item made_up is not on the menus this store received' },
    ],
  ])('%s', (_case, object, at, expected) => expect(orderRefusal(object, zone, at, judged)).toEqual(expected));

  test('a location whose time zone is not one the platform knows is judged in UTC', () => {
    // 08:00 in Chicago is 14:00 in UTC: breakfast is over there.
    expect(orderRefusal(order(['pancakes']), 'Mars/Olympus', tuesday8, judged)).toEqual({
      reason: 'item_unavailable',
      details:
        'the location is open, but item pancakes is only on menus closed at Tue, Dec 1, 14:00 (UTC): Breakfast (Tue 07:00-11:00), open next Wed, Dec 2, 07:00 (UTC)',
    });
  });

  test("a future order's time that is not epoch milliseconds is refused as bad input", () => {
    expect(() =>
      orderRefusal(order(['rings'], { is_future_order: true, future_order_fulfillment_time: 'tomorrow' }), zone, tuesday8, judged),
    ).toThrow('object.future_order_fulfillment_time must be epoch milliseconds');
  });

  test('without a catalog, or with menus open whenever the location is and no holiday, time refuses nothing', () => {
    const christmas = local('2026-12-25', '12:00');
    expect(orderRefusal(order(['anything']), zone, christmas, { ...judged, offer: null })).toBeNull();
    const allDay: Offer = { ...hoursOffer, menus: new Map([['main', { name: 'Main', week: null }]]) };
    expect(orderRefusal(order(['rings']), zone, christmas, { ...judged, offer: allDay, holidays: new Map() })).toBeNull();
  });

  test('what is off sale is judged now, even for a future order', () => {
    const object = order(['rings'], { is_future_order: true, future_order_fulfillment_time: tuesdayNoon + 3_600_000 });
    const offSale = new Map([['rings', tuesdayNoon + 60_000]]);
    expect(orderRefusal(object, zone, tuesdayNoon, { ...judged, offSale })).toEqual({
      reason: 'item_unavailable',
      details: 'item rings is off sale',
    });
  });

  test.each<[string, unknown, string | null, unknown, unknown]>([
    ["an order naming no currency is in its location's", undefined, 'usd', null, 'usd'],
    ['an order whose currency is null, likewise', null, 'usd', null, 'usd'],
    ["an order in its location's currency", 'usd', 'usd', null, 'usd'],
    ['a location whose catalog names none holds orders to none', 'eur', null, null, 'eur'],
    ['nor gives them one', undefined, null, null, undefined],
  ])('%s', (_case, currency, locationCurrency, expected, written) => {
    const object: Record<string, unknown> = { items: [line('rings', 525)] };
    if (currency !== undefined) object.currency = currency;
    expect(orderCurrency(object, locationCurrency)).toBe(written);
    expect(orderRefusal({ ...object, currency: written }, zone, tuesdayNoon, { ...judged, currency: locationCurrency })).toEqual(expected);
  });
});
