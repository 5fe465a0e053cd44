// The money of the order object as every peer carries it (docs/reference.md § Money), in its wire
// names: the order's amounts and each item's and modifier's price, whole numbers of the
// currency's smallest unit, and `currency`, a lower-case ISO 4217 code.
import { Invalid } from '../../common/errors.js';
import { isPlainObject } from '../../common/input.js';
import { amountRule, currencyRule, isAmount, isCurrency, MAX_AMOUNT } from '../../common/money.js';
import type { JsonSchema } from '../../http/route-docs.js';

/** The order's own amounts. */
export const ORDER_AMOUNTS = [
  'subtotal',
  'tax',
  'tax_withheld_by_dsp',
  'driver_tip',
  'restaurant_tip',
  'delivery_fee',
  'delivery_fee_tax',
  'total',
  'cash_amount_due',
] as const;
/** The amounts an order may leave out that are then 0 (a tip to the store, tax the platform
 * remits itself): every reader is told them all the same. */
const ZERO_UNLESS_GIVEN = ['restaurant_tip', 'tax_withheld_by_dsp'] as const;
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

/** A discount as the domain keeps it (docs/dsp-channels.md, "The order's money"): its amount
 * comes off the total, not off prices or the subtotal; the merchant pays `merchantAmount` of it,
 * the platform the rest. */
export type Discount = {
  name: string;
  amount: number;
  scope: 'order' | 'item';
  serviceId: string | null;
  fundedBy: 'dsp' | 'merchant' | 'shared';
  merchantAmount: number;
};
export const DISCOUNT_SCOPES = ['order', 'item'] as const;
export const DISCOUNT_FUNDERS = ['dsp', 'merchant', 'shared'] as const;
/** At most this many discounts on one order. */
export const MAX_DISCOUNTS = 50;

/**
 * An order's discounts read (none: []), or 400 naming the field: at most MAX_DISCOUNTS, each with
 * a name, an amount that is money, a scope (an item's naming an item of this order by its
 * service_id), who funds it, and the merchant's part: the amount when the merchant funds it, 0
 * when the platform does, and for a shared one no more than the amount.
 */
export function readDiscounts(object: Record<string, unknown>): Discount[] {
  const list = object.discounts;
  if (!given(list)) return [];
  if (!Array.isArray(list)) throw new Invalid('object.discounts must be an array');
  if (list.length > MAX_DISCOUNTS) throw new Invalid(`object.discounts takes at most ${MAX_DISCOUNTS} discounts, not ${list.length}`);
  const items = new Set(
    (Array.isArray(object.items) ? object.items : []).map((line) => (isPlainObject(line) ? line.service_id : undefined)),
  );
  return list.map((discount, index): Discount => {
    const at = `object.discounts[${index}]`;
    if (!isPlainObject(discount)) throw new Invalid(`${at} must be an object`);
    if (typeof discount.name !== 'string' || !discount.name.trim()) throw new Invalid(`${at}.name is required`);
    if (!isAmount(discount.amount)) throw new Invalid(`${at}.amount ${amountRule(discount.amount, null)}`);
    const { amount } = discount;
    if (!DISCOUNT_SCOPES.includes(discount.scope as never))
      throw new Invalid(`${at}.scope must be one of ${DISCOUNT_SCOPES.join(', ')}, not ${JSON.stringify(discount.scope)}`);
    const scope = discount.scope as Discount['scope'];
    let serviceId: string | null = null;
    if (scope === 'item') {
      if (typeof discount.service_id !== 'string' || !items.has(discount.service_id))
        throw new Invalid(`${at}.service_id must name an item of this order, not ${JSON.stringify(discount.service_id ?? null)}`);
      serviceId = discount.service_id;
    }
    if (!DISCOUNT_FUNDERS.includes(discount.funded_by as never))
      throw new Invalid(`${at}.funded_by must be one of ${DISCOUNT_FUNDERS.join(', ')}, not ${JSON.stringify(discount.funded_by ?? null)}`);
    const fundedBy = discount.funded_by as Discount['fundedBy'];
    const merchantAmount = given(discount.merchant_amount) ? discount.merchant_amount : fundedBy === 'merchant' ? amount : 0;
    if (!isAmount(merchantAmount)) throw new Invalid(`${at}.merchant_amount ${amountRule(merchantAmount, null)}`);
    if (merchantAmount > amount) throw new Invalid(`${at}.merchant_amount is ${merchantAmount}, above its amount ${amount}`);
    const owed = fundedBy === 'merchant' ? amount : fundedBy === 'dsp' ? 0 : merchantAmount;
    if (merchantAmount !== owed)
      throw new Invalid(`${at}.merchant_amount must be ${owed} for a discount funded_by ${fundedBy}, not ${merchantAmount}`);
    return { name: discount.name.trim(), amount, scope, serviceId, fundedBy, merchantAmount };
  });
}

/** The order's money as its columns keep it (prisma/models.prisma, Order): each amount as sent
 * (null: not given; the store's tip and the tax its platform remits: 0), and its discounts by who
 * funds them. Its markup is the intake's to work out (./sums.ts). */
export type OrderMoney = {
  /** Lower-case ISO 4217, as sent (null: none given): a day's figures are summed per currency. */
  currency: string | null;
  subtotal: number | null;
  tax: number | null;
  taxWithheldByDsp: number;
  deliveryFee: number | null;
  deliveryFeeTax: number | null;
  restaurantTip: number;
  driverTip: number | null;
  total: number | null;
  discountMerchant: number;
  discountDsp: number;
};

/** The order's money read from its object, its discounts read before (readDiscounts). */
export function orderMoney(object: Record<string, unknown>, discounts: Discount[]): OrderMoney {
  const figure = (field: OrderAmount) => (isAmount(object[field]) ? object[field] : null);
  const merchant = discounts.reduce((sum, discount) => sum + discount.merchantAmount, 0);
  return {
    currency: isCurrency(object.currency) ? object.currency : null,
    subtotal: figure('subtotal'),
    tax: figure('tax'),
    taxWithheldByDsp: figure('tax_withheld_by_dsp') ?? 0,
    deliveryFee: figure('delivery_fee'),
    deliveryFeeTax: figure('delivery_fee_tax'),
    restaurantTip: figure('restaurant_tip') ?? 0,
    driverTip: figure('driver_tip'),
    total: figure('total'),
    discountMerchant: merchant,
    discountDsp: discounts.reduce((sum, discount) => sum + discount.amount, 0) - merchant,
  };
}

/** A discount in the wire's names. */
export const discountWire = (discount: Discount) => ({
  name: discount.name,
  amount: discount.amount,
  scope: discount.scope,
  ...(discount.serviceId ? { service_id: discount.serviceId } : {}),
  funded_by: discount.fundedBy,
  merchant_amount: discount.merchantAmount,
});

/** The order's money whole, as every reader is told it: its currency and amounts (those it gives,
 * and the store's tip and the tax its platform remits, 0 when not given) and its discounts, in
 * the wire's names. The discounts were read at intake (readDiscounts): as stored, they are valid. */
export function orderAmounts(object: Record<string, unknown>): Record<string, unknown> {
  const amounts: Record<string, unknown> = {};
  for (const field of ['currency', ...ORDER_AMOUNTS] as const) if (given(object[field])) amounts[field] = object[field];
  for (const field of ZERO_UNLESS_GIVEN) amounts[field] ??= 0;
  amounts.discounts = Array.isArray(object.discounts) ? object.discounts : [];
  return amounts;
}

/** Said once where a reader of the OpenAPI document meets amounts: what they count. */
export const AMOUNTS_ARE =
  "Amounts are whole numbers of the currency's smallest unit, from 0 to 100000000000: usd 2500 is $25.00, jpy 2500 is ¥2,500, kwd 2500 is 2.500 KD.";
const amount = { type: 'integer', minimum: 0, maximum: MAX_AMOUNT };
const currency = { type: 'string', pattern: '^[a-z]{3}$', description: 'Lower-case ISO 4217 code.' };

/** What each amount is, where its name does not say it all. */
const AMOUNT_SAID: Partial<Record<OrderAmount, string>> = {
  subtotal:
    'What the items come to: the sum over items of (price + each modifier’s price × its quantity, at any depth) × quantity. Discounts are not taken off it.',
  tax: 'Taxes not included in the prices (a VAT inside the prices is not in it; tax_included may say that share).',
  tax_withheld_by_dsp: 'Tax the customer paid that the platform remits itself. 0 when not given.',
  restaurant_tip: 'The customer’s tip to the store. 0 when not given.',
  driver_tip: 'The customer’s tip to the driver.',
  total:
    'subtotal + tax + tax_withheld_by_dsp + delivery_fee + delivery_fee_tax + restaurant_tip + driver_tip − the discounts’ amounts. An order whose sums do not add up fails invalid_cart, naming the field and both figures.',
};

/** A discount, as a JSON schema. */
const discountSchema: JsonSchema = {
  type: 'object',
  required: ['name', 'amount', 'scope', 'funded_by'],
  properties: {
    name: { type: 'string' },
    amount: { ...amount, description: 'Off the total (never off prices or the subtotal).' },
    scope: { type: 'string', enum: [...DISCOUNT_SCOPES] },
    service_id: { type: 'string', description: 'scope item: the item of this order it is for.' },
    funded_by: { type: 'string', enum: [...DISCOUNT_FUNDERS] },
    merchant_amount: {
      ...amount,
      description:
        'The merchant’s part: the amount when funded_by merchant (the default), 0 when dsp (the default); for shared, at most the amount.',
    },
  },
};

/** The order's currency and amounts, as properties of a JSON schema (the unit is said by its owner, AMOUNTS_ARE). */
export const orderMoneyProperties = (): Record<string, JsonSchema> => ({
  currency,
  ...Object.fromEntries(
    ORDER_AMOUNTS.map((field) => [field, AMOUNT_SAID[field] ? { ...amount, description: AMOUNT_SAID[field] } : amount]),
  ),
  discounts: { type: 'array', maxItems: MAX_DISCOUNTS, items: discountSchema, description: 'At most 50. None: [].' },
});

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
