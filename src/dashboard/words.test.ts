// A failed order's reason as the dashboard says it, case by case: the service's sentence (as its
// DSP reads it) with names for ids and the viewer's clock for times; and the service's values by
// their display names.
import {
  cancellationSentence,
  failureSentence,
  messageName,
  named,
  outOfStock,
  REASON_NAMES,
  STATE_NAMES,
  STATUS_NAMES,
  type Naming,
} from './words.js';

const names: Record<string, string> = { item_us_rings: 'Onion Rings', mod_us_swiss: 'Swiss', item_us_fries: 'Fries' };
const naming: Naming = {
  item: (id) => names[id] ?? null,
  store: (id) => (id === 'store_t1_austin' ? 'Sandbox Grill Austin (Delivery)' : null),
  platform: 'Sandbox Eats',
  pos: 'Sandbox POS',
  clock: (ms) => `clock(${new Date(ms).toISOString().slice(11, 16)})`,
  // A viewer who reads 12-hour times.
  time: (hour, minute) => `${hour % 12 || 12}:${String(minute).padStart(2, '0')} ${hour < 12 ? 'AM' : 'PM'}`,
  date: (iso) => `date(${iso})`,
  money: (amount) => `$${(amount / 100).toFixed(2)}`,
  currency: (code) => ({ usd: 'US dollars', eur: 'euros' })[code] ?? code,
};

const cases: [reason: string, details: string | null, shown: string][] = [
  [
    'restaurant_not_accepting_orders',
    'store store_t1_austin is paused until 2026-11-26T13:34:12.568Z',
    'Orders were paused until clock(13:34).',
  ],
  [
    'restaurant_not_accepting_orders',
    'store store_t1_austin is paused until Thu, Nov 26, 07:34 (America/Chicago)',
    'Orders were paused until Thu, Nov 26, 7:34 AM (Chicago time).',
  ],
  ['restaurant_not_accepting_orders', 'store store_t1_austin is paused until resumed', 'Orders were paused at the time.'],
  [
    'restaurant_not_accepting_orders',
    'the location keeps holiday hours 11:00-16:00 on Thu, Dec 24 (Christmas Eve) and is open, but none of its menus is open until Sat, Dec 26, 11:00 (America/Chicago)',
    'The location keeps holiday hours 11:00 AM-4:00 PM on Thu, Dec 24 (Christmas Eve) and is open, but none of its menus is open until Sat, Dec 26, 11:00 AM (Chicago time).',
  ],
  [
    'item_unavailable',
    'the location is open, but item item_us_rings is only on menus closed at Mon, Nov 30, 06:59 (America/Chicago): Breakfast (Mon 07:00-11:00), open next Mon, Nov 30, 07:00 (America/Chicago)',
    'The location is open, but Onion Rings is only on menus closed at Mon, Nov 30, 6:59 AM (Chicago time): Breakfast (Mon 7:00 AM-11:00 AM), open next Mon, Nov 30, 7:00 AM (Chicago time).',
  ],
  ['restaurant_not_accepting_orders', 'store store_t1_austin is paused by its DSP', 'Sandbox Eats had paused the store.'],
  ['restaurant_not_accepting_orders', 'the location of store store_t1_austin was deleted', 'This location was removed.'],
  ['location_not_found', 'store store_x is bound to no location', 'This Sandbox Eats store is not linked to one of your locations.'],
  [
    'restaurant_not_accepting_orders',
    'the location is closed on 2026-11-26 (Thanksgiving)',
    'The location is closed on date(2026-11-26) (Thanksgiving).',
  ],
  [
    'restaurant_not_accepting_orders',
    'the location is closed on 2026-11-26 (Thanksgiving) until Fri 07:00 America/Chicago',
    'The location is closed on date(2026-11-26) (Thanksgiving) until Fri 7:00 AM Chicago time.',
  ],
  [
    'item_unavailable',
    'item item_us_pancakes is only on menus closed at Mon 06:59 America/Argentina/Buenos_Aires: Breakfast (Mon 07:00-11:00)',
    'An item is only on menus closed at Mon 6:59 AM Buenos Aires time: Breakfast (Mon 7:00 AM-11:00 AM).',
  ],
  ['item_unavailable', 'item item_us_rings is off sale', 'Onion Rings was off sale.'],
  ['item_unavailable', 'modifier mod_us_swiss is off sale', 'Swiss was off sale.'],
  ['item_unavailable', 'item item_gone is off sale', 'An item was off sale.'],
  ['item_not_found', 'item item_us_truffle is not on the menus this store received', "An item is not on this store's menus."],
  ['item_not_found', 'modifier mod_us_swiss is not on the menus this store received', "Swiss is not on this store's menus."],
  ['item_not_found', 'modifier mod_x is not on the menus this store received', "An option is not on this store's menus."],
  ['item_not_found', 'modifier mod_us_swiss is not offered with item item_us_fries', 'Swiss is not offered with Fries.'],
  ['price_mismatch', "item item_us_rings is priced 400, below the catalog's 525", "Onion Rings was priced $4.00, below your menu's $5.25."],
  ['price_mismatch', "modifier mod_q is priced 0, below the catalog's 125", "An option was priced $0.00, below your menu's $1.25."],
  [
    'invalid_cart',
    "the order is in eur, its location's catalog in usd",
    "The order was in euros; this location's prices are in US dollars.",
  ],
  ['invalid_cart', 'items is not a list', 'Sandbox Eats sent a cart that could not be read.'],
  ['invalid_cart', 'items[2] has no service_id', 'Sandbox Eats sent a cart that could not be read.'],
  ['invalid_cart', 'item item_us_fries: modifiers[0] has no service_id', 'Sandbox Eats sent a cart that could not be read.'],
  [
    'invalid_cart',
    'item item_us_fries: quantity must be a whole number above 0, not -1',
    'The quantity of Fries was -1, not a whole number above 0.',
  ],
  [
    'invalid_cart',
    'item item_us_fries: 3 chosen from modifier group grp_size, which takes 1 to 1',
    'Fries had 3 options chosen from a group that takes 1 to 1.',
  ],
  [
    'pos_rejected',
    'the POS refused the order: 400 {"error":"sandbox_failure","message":"the kitchen is closed"}',
    'Sandbox POS refused the order: “the kitchen is closed”.',
  ],
  ['pos_rejected', 'the POS refused the order: 422', 'Sandbox POS refused the order.'],
  ['pos_rejected', 'the POS refused the order: 400 {"error":"full"}', 'Sandbox POS refused the order: “full”.'],
  ['pos_rejected', 'the POS refused the order: 400 the kitchen is closed', 'Sandbox POS refused the order: “the kitchen is closed”.'],
  ['pos_rejected', 'the POS refused the order: 400 {not json', 'Sandbox POS refused the order.'],
  [
    'pos_unreachable',
    'the POS did not take the order within the attempts: connect ECONNREFUSED',
    'Sandbox POS did not answer, however often it was tried.',
  ],
  ['item_unavailable', 'the POS has none of: Fries (item_us_fries)', 'Sandbox POS is out of Fries.'],
  [
    'item_unavailable',
    'the POS has none of: Onion Rings (item_us_rings), Combo (large) (item_combo), Swiss (mod_us_swiss)',
    'Sandbox POS is out of Onion Rings, Combo (large) and Swiss.',
  ],
  [
    'confirmation_timeout',
    'the POS said it would decide later and did not within 60 s',
    'Sandbox POS said it would decide on the order and did not within 60 seconds.',
  ],
  ['item_unavailable', null, 'Item off sale.'],
  ['something_new', null, 'Something new.'],
  [
    'something_new',
    'the POS said no to store store_t1_austin at 2026-11-26T13:34:00Z.',
    'Sandbox POS said no to Sandbox Grill Austin (Delivery) at clock(13:34).',
  ],
  ['something_new', 'at 2026-11-26T13:34:00+05:30 and 23:59', 'At clock(08:04) and 11:59 PM.'],
];

test.each(cases)('%s: %s', (reason, details, shown) => expect(failureSentence(reason, details, naming)).toBe(shown));

test.each([
  ['item_unavailable', 'the POS has none of: Fries (item_us_fries)', ['item_us_fries']],
  ['item_unavailable', 'the POS has none of: Combo (large) (item_combo), Swiss (mod_us_swiss)', ['item_combo', 'mod_us_swiss']],
  // Off sale already, or named by the service's own check: nothing to take off sale.
  ['item_unavailable', 'item item_us_rings is off sale', []],
  ['pos_rejected', 'the POS has none of: Fries (item_us_fries)', []],
  ['item_unavailable', null, []],
] as const)('out of stock on %s: %s', (reason, details, ids) => expect(outOfStock(reason, details)).toEqual(ids));

test.each([
  [STATUS_NAMES, 'in_progress', 'Preparing'],
  [STATUS_NAMES, 'dsp_canceled', 'Canceled by the platform'],
  [STATUS_NAMES, 'on_hold', 'On hold'],
  [REASON_NAMES, 'item_unavailable', 'Item off sale'],
  [STATE_NAMES, 'APPROVED', 'Connected'],
  [STATE_NAMES, 'reauthorization_required', 'Needs reconnecting'],
  [STATE_NAMES, null, '—'],
])('%#: %s is named %s', (table, value, name) => expect(named(table, value)).toBe(name));

test.each([
  ['order.created', 'New order'],
  ['location.order.accept', 'Order accepted notice'],
  ['order.something_else', 'Order something else'],
])('a message of kind %s is a %s', (kind, name) => expect(messageName(kind)).toBe(name));

test.each<[string, { by: string; reason: string | null; details?: string | null }, string]>([
  ['the restaurant, out of stock', { by: 'merchant', reason: 'out_of_stock' }, 'Canceled by the restaurant: out of stock.'],
  [
    'the restaurant, with its sentence',
    { by: 'merchant', reason: 'other', details: 'Oven broke' },
    'Canceled by the restaurant: another reason (“Oven broke”).',
  ],
  ['the platform, for fraud', { by: 'dsp', reason: 'fraud' }, 'Canceled by Sandbox Eats: suspected fraud.'],
  ['the platform, saying nothing', { by: 'dsp', reason: null }, 'Canceled by Sandbox Eats.'],
])('a cancellation by %s', (_case, cancellation, shown) => expect(cancellationSentence(cancellation, naming)).toBe(shown));

test.each<[string, string]>([
  ['subtotal is 3099, but the items come to 3098', 'Sandbox Eats sent a subtotal of $30.99, but the items come to $30.98.'],
  [
    'total is 4248, but subtotal + tax + tax_withheld_by_dsp + delivery_fee + delivery_fee_tax + restaurant_tip + driver_tip − discounts come to 3078',
    'Sandbox Eats sent a total of $42.48, but its figures come to $30.78.',
  ],
])('sums that do not add up: %s', (details, shown) => expect(failureSentence('invalid_cart', details, naming)).toBe(shown));
