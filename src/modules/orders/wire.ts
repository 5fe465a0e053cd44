// The money of the order object as every peer carries it (docs/reference.md § Money), in its wire
// names: the order's amounts and each item's and modifier's price, whole numbers of the
// currency's smallest unit, and `currency`, a lower-case ISO 4217 code.
import { Invalid } from '../../common/errors.js';
import { isPlainObject } from '../../common/input.js';
import { amountRule, currencyRule, isAmount, isCurrency } from '../../common/money.js';

/** The order's own amounts. */
export const ORDER_AMOUNTS = ['subtotal', 'tax', 'driver_tip', 'delivery_fee', 'delivery_fee_tax', 'total', 'cash_amount_due'] as const;
export type OrderAmount = (typeof ORDER_AMOUNTS)[number];

/** Left out or null: not given. */
const given = (value: unknown) => value !== undefined && value !== null;

/**
 * A DSP's order whose money is not money is refused whole (400, nothing stored), naming the first
 * field: a currency that is not a code, an amount or a price (of an item, or of a modifier at any
 * depth) that is not a whole number from 0 to MAX_AMOUNT. Its nesting is bounded by the input
 * checks (common/input.ts); the walk is iterative all the same.
 */
export function assertOrderMoney(object: Record<string, unknown>): void {
  if (given(object.currency) && !isCurrency(object.currency)) throw new Invalid(`object.currency ${currencyRule(object.currency)}`);
  const currency = isCurrency(object.currency) ? object.currency : null;
  for (const field of ORDER_AMOUNTS)
    if (given(object[field]) && !isAmount(object[field])) throw new Invalid(`object.${field} ${amountRule(object[field], currency)}`);
  const lines = (list: unknown, where: string): [string, unknown][] =>
    Array.isArray(list) ? list.map((line, index) => [`${where}[${index}]`, line] as [string, unknown]).reverse() : [];
  const stack = lines(object.items, 'object.items');
  while (stack.length) {
    const [where, line] = stack.pop()!;
    if (!isPlainObject(line)) continue;
    if (given(line.price) && !isAmount(line.price)) throw new Invalid(`${where}.price ${amountRule(line.price, currency)}`);
    stack.push(...lines(line.modifiers, `${where}.modifiers`));
  }
}

/** The order's currency and amounts as the order object carries them (those it gives). */
export function orderAmounts(object: Record<string, unknown>): Partial<Record<OrderAmount | 'currency', unknown>> {
  const amounts: Partial<Record<OrderAmount | 'currency', unknown>> = {};
  for (const field of ['currency', ...ORDER_AMOUNTS] as const) if (given(object[field])) amounts[field] = object[field];
  return amounts;
}
