// The order's sums (docs/dsp-channels.md, "The order's money"), pure and beside the intake's
// other rules (./intake.ts): what its lines come to, what its total must be, and what a platform
// priced above the catalog (its markup). They read the order object in its wire names, as the
// intake's rules do; its money was checked to be money before (./wire.ts), so a figure here is a
// whole number of the currency's smallest unit, or absent.
import { isPlainObject } from '../../common/input.js';
import { isAmount } from '../../common/money.js';

/** What the total adds to the subtotal, in the order the rule says them. Discounts come off. */
export const ADDED = ['tax', 'tax_withheld_by_dsp', 'delivery_fee', 'delivery_fee_tax', 'restaurant_tip', 'driver_tip'] as const;

/** A line's quantity: a modifier sent without one counts once. */
const quantityOf = (line: Record<string, unknown>) => (Number.isSafeInteger(line.quantity) ? (line.quantity as number) : 1);
const linesOf = (list: unknown): unknown[] => (Array.isArray(list) ? list : []);

/** What a line comes to: (its price + what each of its modifiers comes to, at any depth) times its
 * quantity; null when a price in it is not given (the cart's checks judge such a line). */
export function lineSum(line: unknown): number | null {
  if (!isPlainObject(line) || !isAmount(line.price)) return null;
  let each = line.price;
  for (const modifier of linesOf(line.modifiers)) {
    const sum = lineSum(modifier);
    if (sum === null) return null;
    each += sum;
  }
  return each * quantityOf(line);
}

/** What the order's items come to: its subtotal as it must be (null when a line has no price). */
export function itemsSum(items: unknown): number | null {
  let sum = 0;
  for (const line of linesOf(items)) {
    const each = lineSum(line);
    if (each === null) return null;
    sum += each;
  }
  return sum;
}

/** The discounts' amounts, together (none: 0). Discounts are not taken off prices or the subtotal. */
export const discountsSum = (discounts: unknown): number =>
  linesOf(discounts).reduce<number>(
    (sum, discount) => sum + (isPlainObject(discount) && isAmount(discount.amount) ? discount.amount : 0),
    0,
  );

/** The total an order of this subtotal must have: what is added (ADDED; each absent is 0), less
 * its discounts. */
export function totalOf(object: Record<string, unknown>, subtotal: number): number {
  const added = ADDED.reduce((sum, field) => sum + (isAmount(object[field]) ? object[field] : 0), 0);
  return subtotal + added - discountsSum(object.discounts);
}

/** A sum that does not add up: the field, the figure sent and the one worked out. */
export type Mismatch = { field: 'subtotal' | 'total'; sent: number; computed: number };

/** The first of the order's sums that does not add up: its `subtotal` against its lines, then its
 * `total` against the subtotal worked out (so one wrong line is named once, at the subtotal).
 * null when both add up, or are not given, or a line has no price. */
export function sumsMismatch(object: Record<string, unknown>): Mismatch | null {
  const subtotal = itemsSum(object.items);
  if (subtotal === null) return null;
  if (isAmount(object.subtotal) && object.subtotal !== subtotal) return { field: 'subtotal', sent: object.subtotal, computed: subtotal };
  const total = totalOf(object, subtotal);
  return isAmount(object.total) && object.total !== total ? { field: 'total', sent: object.total, computed: total } : null;
}

/** A mismatch in a sentence, as the order's failure_details say it. */
export function mismatchSentence({ field, sent, computed }: Mismatch): string {
  return field === 'subtotal'
    ? `subtotal is ${sent}, but the items come to ${computed}`
    : `total is ${sent}, but subtotal + ${ADDED.join(' + ')} − discounts come to ${computed}`;
}

/** The order's sums judged in a sentence (mismatchSentence), or null when they add up. */
export function sumsProblem(object: Record<string, unknown>): string | null {
  const mismatch = sumsMismatch(object);
  return mismatch && mismatchSentence(mismatch);
}

/** The catalog's price of an item (or of a modifier, at any depth), or undefined when it has none. */
export type CatalogPrice = (serviceId: unknown, kind: 'item' | 'modifier') => number | undefined;

/**
 * The items at the catalog's prices, and the markup: what the lines priced above the catalog come
 * to above it (prices times quantities, modifiers at any depth), so that the items repriced and
 * the markup add up to what was sent. A line priced at or below the catalog, or one the catalog
 * does not price, keeps its price.
 */
export function atCatalogPrices(items: unknown, catalogPrice: CatalogPrice): { items: unknown[]; markup: number } {
  const reprice = (line: unknown, kind: 'item' | 'modifier'): unknown => {
    if (!isPlainObject(line)) return line;
    const catalog = catalogPrice(line.service_id, kind);
    // Above a price the catalog has: a line without a price, or one the catalog lacks, is never above.
    const price = catalog !== undefined && (line.price as number) > catalog ? catalog : line.price;
    const modifiers = Array.isArray(line.modifiers) ? { modifiers: line.modifiers.map((modifier) => reprice(modifier, 'modifier')) } : {};
    return { ...line, price, ...modifiers };
  };
  const repriced = linesOf(items).map((line) => reprice(line, 'item'));
  // Repricing keeps a line without a price as it is: both sums are null, or neither.
  return { items: repriced, markup: (itemsSum(items) ?? 0) - (itemsSum(repriced) ?? 0) };
}
