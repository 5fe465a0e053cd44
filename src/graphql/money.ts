// Money in the GraphQL schema (docs/reference.md § Money): one type for every amount of every
// module, as the wire carries it, a whole number of the currency's smallest unit with its
// lower-case ISO 4217 code. Shared vocabulary of the schema, as the JSON scalar is.
import { isAmount, isCurrency } from '../common/money.js';
import { builder } from './builder.js';

export type MoneyShape = { amount: number; currency: string };

/** GraphQL's Int is 32 bits: an amount above it (accepted on the wire, up to MAX_AMOUNT) has no
 * Money in GraphQL and shows as null; the order's `order` object carries it whole. */
const LARGEST_INT = 2 ** 31 - 1;

export const Money = builder.objectRef<MoneyShape>('Money').implement({
  description:
    "An amount as the platforms carry it: a whole number of the currency's smallest unit (usd 2500 is $25.00, jpy 2500 is ¥2,500, kwd 2500 is 2.500 KD).",
  fields: (t) => ({
    amount: t.exposeInt('amount', { description: "Whole number of the currency's smallest unit (cents for usd)." }),
    currency: t.exposeString('currency', { description: 'Lower-case ISO 4217 code.' }),
  }),
});

/** Money, or null when there is none to show: no whole amount, no currency, or above GraphQL's Int. */
export const moneyOf = (amount: unknown, currency: unknown): MoneyShape | null =>
  isAmount(amount) && amount <= LARGEST_INT && isCurrency(currency) ? { amount, currency } : null;
