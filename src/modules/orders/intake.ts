// The checks an order passes before the POS sees it, pure: first whether the store is ours at all
// (`storeRefusal`), then whether it is paused now, by us or by its DSP (`pauseRefusal`), then
// (`orderRefusal`) whether it takes orders at the order's time, now or a future order's, on its
// location's clock (a closed day, outside a holiday's hours, or no menu the store received open),
// then its currency against its location's, then the cart against what the store offers, what is
// off sale, and which of its menus are open then. What the store offers, its menus' hours and its
// location's holidays are those of the catalog version it last received (its last successful
// publish, else its location's latest catalog): an order is judged by the hours its platform
// shows. The first check that fails names the order's failure reason; the order is stored failed
// with it, never sent to the POS, and the DSP is told. One place: a new reason not to take an
// order is a new check here. What they judge by comes with the store's one statement
// (db/sql/orders.ts) or is kept per catalog version and per availability version (./service.ts,
// `intakeRefusal`): none is read per order.
import type { StoreForOrder } from '../../db/sql/orders.js';
import { epochMs, isPlainObject } from '../../common/input.js';
import type { Offer, Offered } from '../catalog/offer.js';
import { alwaysOpen, closedSentence, notServedSentence, openMenusAt, type Holidays, type Hours } from '../catalog/hours.js';
import { localMoment, wallClock, zoneOf } from '../catalog/local-time.js';
import { isOffSale, pausedNow, type OffSale } from '../stores/rules.js';
import type { Refusal } from './peers.js';
import { atCatalogPrices, mismatchSentence, sumsMismatch } from './sums.js';

/** Whether the store takes orders now. A store never bound is not one of ours; one whose location
 * was deleted takes none. */
export function storeRefusal(binding: StoreForOrder | undefined, dspStoreId: string): Refusal | null {
  if (!binding) return { reason: 'location_not_found', details: `store ${dspStoreId} is bound to no location` };
  if (binding.storeStatus !== 'APPROVED' || !binding.id || binding.status !== 'active')
    return { reason: 'restaurant_not_accepting_orders', details: `the location of store ${dspStoreId} was deleted` };
  return null;
}

/** A store paused now: by us (until its end, or until resumed) or by its DSP. Asked before
 * anything about the order is read. A pause's end is said on the location's clock
 * (`timezone`), as its hours are. */
export function pauseRefusal(
  store: Pick<StoreForOrder, 'pausedAt' | 'pausedUntil' | 'dspStatus'>,
  storeId: string,
  now: number,
  timezone: string,
): Refusal | null {
  if (pausedNow(store, now)) {
    const until = store.pausedUntil ? ` until ${localMoment(store.pausedUntil.getTime(), zoneOf(timezone), now)}` : ' until resumed';
    return { reason: 'restaurant_not_accepting_orders', details: `store ${storeId} is paused${until}` };
  }
  return store.dspStatus === 'paused'
    ? { reason: 'restaurant_not_accepting_orders', details: `store ${storeId} is paused by its DSP` }
    : null;
}

/** What an order is judged by besides its store: its location's currency (its latest catalog's;
 * null: none), what the store offers (null: no catalog yet) and the holidays of that catalog
 * version, and the location's items off sale. */
export type Judged = { currency: string | null; offer: Offer | null; holidays: Holidays; offSale: OffSale };

/** Whether the store takes this order at its time on its location's clock (`timezone`), in its
 * location's currency, and its cart. */
export function orderRefusal(object: Record<string, unknown>, timezone: string, now: number, judged: Judged): Refusal | null {
  const at = orderTime(object, now);
  const opening = openingAt(judged, timezone, at);
  if (opening && !opening.open.size) return { reason: 'restaurant_not_accepting_orders', details: closedSentence(opening.hours, at) };
  const outOfHours: OutOfHours | undefined = opening
    ? (what, offered) =>
        offered.menus.some((menu) => opening.open.has(menu))
          ? null
          : { reason: 'item_unavailable', details: notServedSentence(opening.hours, what, offered.menus, at) }
    : undefined;
  return (
    currencyRefusal(object, judged.currency) ??
    cartRefusal(judged.offer, judged.offSale, object.items, now, outOfHours) ??
    sumsRefusal(object)
  );
}

/** An order whose sums do not add up (./sums.ts) is refused, naming the field and both figures. */
export function sumsRefusal(object: Record<string, unknown>): Refusal | null {
  const mismatch = sumsMismatch(object);
  return mismatch && { reason: 'invalid_cart', details: mismatchSentence(mismatch) };
}

/** The order's items at the prices of what the store offers, and its markup (./sums.ts): none
 * without a catalog. */
export function catalogPriced(offer: Offer | null, items: unknown): { items: unknown[]; markup: number } | null {
  return offer
    ? atCatalogPrices(items, (id, kind) =>
        typeof id === 'string' ? (kind === 'item' ? offer.items : offer.modifiers).get(id)?.price : undefined,
      )
    : null;
}

/** The store's hours and its menus open at `at`; null when nothing about time can refuse an order
 * (no catalog yet, or every menu open whenever the location is and no holiday). */
function openingAt({ offer, holidays }: Judged, timezone: string, at: number): { hours: Hours; open: Set<string> } | null {
  if (!offer) return null;
  const hours: Hours = { timeZone: zoneOf(timezone), menus: offer.menus, holidays };
  return alwaysOpen(hours) ? null : { hours, open: openMenusAt(hours, wallClock(at, hours.timeZone)) };
}

/** The currency an order is in: its own, else its location's (its latest catalog's), which the
 * service writes into it so that the POS, the event provider and the partner read it too. A
 * location whose catalog names none holds its orders to none. */
export function orderCurrency(object: Record<string, unknown>, locationCurrency: string | null): unknown {
  return object.currency ?? locationCurrency ?? undefined;
}

/** An order in another currency than its location's is refused, naming both. */
function currencyRefusal(object: Record<string, unknown>, currency: string | null): Refusal | null {
  return !currency || object.currency == null || object.currency === currency
    ? null
    : { reason: 'invalid_cart', details: `the order is in ${String(object.currency)}, its location's catalog in ${currency}` };
}

/** When the order is for: now, or a future order's fulfillment time (one already past is for now). */
function orderTime(object: Record<string, unknown>, now: number): number {
  if (object.is_future_order !== true || object.future_order_fulfillment_time === undefined) return now;
  return Math.max(now, epochMs(object.future_order_fulfillment_time, 'object.future_order_fulfillment_time'));
}

const shown = (value: unknown) => (JSON.stringify(value) ?? String(value)).slice(0, 40);

/**
 * The cart (docs/reference.md § Resources `items`, with nested `modifiers`) against the offer: every item and
 * modifier offered (a modifier within a group of what it modifies), quantities positive whole
 * numbers (a modifier's defaults to 1), prices no lower than the catalog's (whole numbers of the
 * smallest unit, compared exactly: the webhook refused any other, ./wire.ts), and each
 * modifier group's selections within its min_selections..max_selections; an order of nothing (no
 * `items`, or none in them) is none. The first problem, or null. Linear in the cart's size; its nesting is bounded by the input checks (src/input.ts).
 */
export function cartRefusal(
  offer: Offer | null,
  offSale: OffSale,
  items: unknown,
  now = Date.now(),
  outOfHours?: OutOfHours,
): Refusal | null {
  if (items === undefined || (Array.isArray(items) && !items.length)) return { reason: 'invalid_cart', details: 'an order with no items' };
  if (!Array.isArray(items)) return { reason: 'invalid_cart', details: 'items is not a list' };
  const cart: Cart = { offer, offSale, now };
  for (const [index, line] of items.entries()) {
    if (!isPlainObject(line) || typeof line.service_id !== 'string')
      return { reason: 'invalid_cart', details: `items[${index}] has no service_id` };
    const id = line.service_id;
    if (isOffSale(offSale, id, now)) return { reason: 'item_unavailable', details: `item ${id} is off sale` };
    if (!offer) continue;
    const offered = offer.items.get(id);
    if (!offered) return { reason: 'item_not_found', details: `item ${id} is not on the menus this store received` };
    const problem =
      outOfHours?.(`item ${id}`, offered) ??
      quantityProblem(`item ${id}`, line.quantity) ??
      priceProblem(`item ${id}`, line.price, offered) ??
      modifiersProblem(cart, `item ${id}`, offered.groups, line.modifiers);
    if (problem) return problem;
  }
  return null;
}

/** Whether an item is served at the order's time: null, or why not (its menus are all closed then). */
type OutOfHours = (what: string, offered: Offered) => Refusal | null;

/** What a cart is checked against: the offer (null: no catalog yet), what is off sale, and when. */
type Cart = { offer: Offer | null; offSale: OffSale; now: number };

function quantityProblem(what: string, quantity: unknown): Refusal | null {
  return Number.isSafeInteger(quantity) && (quantity as number) > 0
    ? null
    : { reason: 'invalid_cart', details: `${what}: quantity must be a whole number above 0, not ${shown(quantity)}` };
}

function priceProblem(what: string, price: unknown, offered: Offered): Refusal | null {
  return typeof price === 'number' && price < offered.price
    ? { reason: 'price_mismatch', details: `${what} is priced ${price}, below the catalog's ${offered.price}` }
    : null;
}

function modifiersProblem(cart: Cart, owner: string, groups: string[], modifiers: unknown): Refusal | null {
  const offer = cart.offer!;
  if (modifiers !== undefined && !Array.isArray(modifiers)) return { reason: 'invalid_cart', details: `${owner}: modifiers is not a list` };
  const chosen = new Map<string, number>();
  for (const [index, line] of (modifiers ?? []).entries()) {
    if (!isPlainObject(line) || typeof line.service_id !== 'string')
      return { reason: 'invalid_cart', details: `${owner}: modifiers[${index}] has no service_id` };
    const id = line.service_id;
    if (isOffSale(cart.offSale, id, cart.now)) return { reason: 'item_unavailable', details: `modifier ${id} is off sale` };
    const offered = offer.modifiers.get(id);
    if (!offered) return { reason: 'item_not_found', details: `modifier ${id} is not on the menus this store received` };
    const group = groups.find((g) => offer.groups.get(g)?.modifiers.has(id));
    if (!group) return { reason: 'item_not_found', details: `modifier ${id} is not offered with ${owner}` };
    const quantity = line.quantity ?? 1;
    const problem =
      quantityProblem(`modifier ${id}`, quantity) ??
      priceProblem(`modifier ${id}`, line.price, offered) ??
      modifiersProblem(cart, `modifier ${id}`, offered.groups, line.modifiers);
    if (problem) return problem;
    chosen.set(group, (chosen.get(group) ?? 0) + (quantity as number));
  }
  for (const group of groups) {
    const bounds = offer.groups.get(group);
    const count = chosen.get(group) ?? 0;
    if (bounds && (count < bounds.min || count > bounds.max))
      return {
        reason: 'invalid_cart',
        details: `${owner}: ${count} chosen from modifier group ${group}, which takes ${bounds.min} to ${bounds.max === Number.POSITIVE_INFINITY ? 'any number' : bounds.max}`,
      };
  }
  return null;
}
