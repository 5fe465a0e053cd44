// The money of the order object as every peer carries it (docs/reference.md § Money), in its wire
// names: the order's amounts and each item's and modifier's price, whole numbers of the
// currency's smallest unit, and `currency`, a lower-case ISO 4217 code.
import { Invalid } from '../../common/errors.js';
import { isPlainObject } from '../../common/input.js';
import { amountRule, currencyRule, isAmount, isCurrency, MAX_AMOUNT } from '../../common/money.js';
import type { JsonSchema } from '../../http/route-docs.js';

/** The order's own amounts. */
export const ORDER_AMOUNTS = ['subtotal', 'tax', 'driver_tip', 'delivery_fee', 'delivery_fee_tax', 'total', 'cash_amount_due'] as const;
export type OrderAmount = (typeof ORDER_AMOUNTS)[number];

/** Left out or null: not given. */
const given = (value: unknown) => value !== undefined && value !== null;

/** The most of one line an order may ask for: past it, a quantity is a platform's mistake. */
export const MAX_QUANTITY = 1000;

/** How many bad fields a refusal names one by one; past them it counts the rest. */
const NAMED_AT_MOST = 10;

/**
 * A DSP's order whose money is not money is refused whole (400, nothing stored), naming every
 * such field by its path: the prices and quantities of its lines first (an item or a modifier at
 * any depth: what a platform sending major units gets wrong first, and what its sums follow from), then a
 * currency that is not a code and the order's amounts that are not whole numbers from 0 to
 * MAX_AMOUNT. Its nesting is bounded by the input checks (common/input.ts); the walk is
 * iterative all the same.
 */
export function assertOrderMoney(object: Record<string, unknown>): void {
  const currency = isCurrency(object.currency) ? object.currency : null;
  const problems: string[] = [];
  const lines = (list: unknown, where: string): [string, unknown][] =>
    Array.isArray(list) ? list.map((line, index) => [`${where}[${index}]`, line] as [string, unknown]).reverse() : [];
  const stack = lines(object.items, 'object.items');
  while (stack.length) {
    const [where, line] = stack.pop()!;
    if (!isPlainObject(line)) continue;
    // Every line is priced: a line without one would pass the catalog's price check unchecked.
    if (!given(line.price)) problems.push(`${where}.price is required`);
    else if (!isAmount(line.price)) problems.push(`${where}.price ${amountRule(line.price, currency)}`);
    // An item says how many; a modifier is one unless it says otherwise.
    const isItem = !where.includes('.modifiers[');
    if ((isItem || given(line.quantity)) && !isQuantity(line.quantity))
      problems.push(
        `${where}.quantity must be a whole number from 1 to ${MAX_QUANTITY}, not ${JSON.stringify(line.quantity) ?? 'missing'}`,
      );
    stack.push(...lines(line.modifiers, `${where}.modifiers`));
  }
  if (given(object.currency) && !isCurrency(object.currency)) problems.push(`object.currency ${currencyRule(object.currency)}`);
  for (const field of ORDER_AMOUNTS)
    if (given(object[field]) && !isAmount(object[field])) problems.push(`object.${field} ${amountRule(object[field], currency)}`);
  if (!problems.length) return;
  const more = problems.length - NAMED_AT_MOST;
  throw new Invalid([...problems.slice(0, NAMED_AT_MOST), ...(more > 0 ? [`and ${more} more fields are wrong`] : [])].join('. '));
}

const isQuantity = (value: unknown) => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_QUANTITY;
const count = (value: unknown) => (Number.isSafeInteger(value) && (value as number) > 0 ? (value as number) : 1);
const money = (value: unknown) => (isAmount(value) ? value : 0);

/** What a line comes to: (its price + each modifier's, times the modifier's quantity, at any
 * depth) times its quantity; null when a price in it is not given. */
function lineSum(line: unknown): number | null {
  if (!isPlainObject(line) || !isAmount(line.price)) return null;
  let each = line.price;
  for (const modifier of Array.isArray(line.modifiers) ? line.modifiers : []) {
    const sum = lineSum(modifier);
    if (sum === null) return null;
    each += sum;
  }
  return each * count(line.quantity);
}

/**
 * Whether an order's sums add up: `subtotal` is what its items come to (lineSum), and `total` is
 * subtotal + tax + tax_withheld_by_dsp + delivery_fee + delivery_fee_tax + restaurant_tip +
 * driver_tip − its discounts' amounts (discounts are not taken off prices or the subtotal). The
 * first that does not, naming the field, the figure sent and the one worked out; null when both
 * do, or are not given. Money that is not money is refused before (assertOrderMoney).
 */
export function sumsProblem(object: Record<string, unknown>): string | null {
  const lines = Array.isArray(object.items) ? object.items.map(lineSum) : [];
  if (lines.includes(null)) return null;
  const subtotal = (lines as number[]).reduce((sum, line) => sum + line, 0);
  if (given(object.subtotal) && object.subtotal !== subtotal)
    return `subtotal is ${String(object.subtotal)}, but the items come to ${subtotal}`;
  if (!given(object.total)) return null;
  const added = ['tax', 'tax_withheld_by_dsp', 'delivery_fee', 'delivery_fee_tax', 'restaurant_tip', 'driver_tip'];
  const discounts = (Array.isArray(object.discounts) ? object.discounts : []).reduce(
    (sum: number, discount: unknown) => sum + money((discount as { amount?: unknown } | null)?.amount),
    0,
  );
  const total = subtotal + added.reduce((sum, field) => sum + money(object[field]), 0) - discounts;
  return object.total === total
    ? null
    : `total is ${String(object.total)}, but subtotal + ${added.join(' + ')} − discounts come to ${total}`;
}

/** The order's currency and amounts as the order object carries them (those it gives). */
export function orderAmounts(object: Record<string, unknown>): Partial<Record<OrderAmount | 'currency', unknown>> {
  const amounts: Partial<Record<OrderAmount | 'currency', unknown>> = {};
  for (const field of ['currency', ...ORDER_AMOUNTS] as const) if (given(object[field])) amounts[field] = object[field];
  return amounts;
}

/** Said once where a reader of the OpenAPI document meets amounts: what they count. */
export const AMOUNTS_ARE =
  "Amounts are whole numbers of the currency's smallest unit, from 0 to 100000000000: usd 2500 is $25.00, jpy 2500 is ¥2,500, kwd 2500 is 2.500 KD.";
const amount = { type: 'integer', minimum: 0, maximum: MAX_AMOUNT };
const currency = { type: 'string', pattern: '^[a-z]{3}$', description: 'Lower-case ISO 4217 code.' };

/** The order's currency and amounts, as properties of a JSON schema (the unit is said by its owner, AMOUNTS_ARE). */
export const orderMoneyProperties = (): Record<string, JsonSchema> => ({
  currency,
  ...Object.fromEntries(ORDER_AMOUNTS.map((field) => [field, amount])),
});

/** The order's money as the partners' order events describe it (modules/events/docs.ts). */
export const orderMoneyDocs = () => ({ properties: orderMoneyProperties(), said: AMOUNTS_ARE });

/** The order object a DSP sends (docs/reference.md § Resources), as far as the service reads it. */
export function orderObjectSchema(): JsonSchema {
  const line = (modifiers: JsonSchema, required: string[]): JsonSchema => ({
    type: 'object',
    required,
    properties: {
      service_id: { type: 'string', description: 'The catalog provider_id.' },
      name: { type: 'string' },
      quantity: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_QUANTITY,
        description: "An item's is required; a modifier's is 1 when left out.",
      },
      price: { ...amount, description: 'Of one.' },
      special_instructions: { type: 'string' },
      modifiers,
    },
  });
  const deeper = { type: 'array', description: 'Nested modifiers, lines of the same shape, at any depth.', items: { type: 'object' } };
  return {
    type: 'object',
    description: `The order object of docs/reference.md § Resources; any other field is passed on as sent. ${AMOUNTS_ARE} A currency other than the location's fails the order (invalid_cart); none is the location's.`,
    required: ['dsp_store_id'],
    properties: {
      dsp_order_id: { type: 'string', description: 'Your id of the order (else `id`).' },
      id: { type: 'string' },
      dsp_store_id: { type: 'string', description: 'The bound store.' },
      fulfillment_type: { type: 'string' },
      ...orderMoneyProperties(),
      items: {
        type: 'array',
        items: line({ type: 'array', items: line(deeper, ['service_id', 'price']) }, ['service_id', 'quantity', 'price']),
      },
    },
  };
}
