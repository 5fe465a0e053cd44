// The kitchen's answer to an order, read from the POS's wire (docs/pos-vendors.md, "Orders"): the
// minutes it quotes, whether it decides later, and a refusal that names what it cannot make
// (`posValidation`, in Stream's shape). Pure: the service (./service.ts, ./decisions.ts) acts on
// what these say.
import type { JsonSchema } from '../../http/route-docs.js';
import { prepMinutesOf } from '../stores/pace.js';

export { PREP_MINUTES, locationQuote } from '../stores/pace.js';

/** What the POS's 2xx to order.created (or its order.accepted) says of the kitchen: the minutes it
 * quotes (null: none, or `ignored` holds what it sent out of range), and whether it decides later. */
export type KitchenAnswer = { prepTimeMinutes: number | null; ignored?: unknown; decidesLater: boolean };

export function kitchenAnswerOf(order: unknown): KitchenAnswer {
  const o = (order && typeof order === 'object' ? order : {}) as { prep_time_minutes?: unknown; async_acceptance?: unknown };
  const prepTimeMinutes = prepMinutesOf(o.prep_time_minutes);
  return {
    prepTimeMinutes,
    ...(o.prep_time_minutes !== undefined && o.prep_time_minutes !== null && prepTimeMinutes === null
      ? { ignored: o.prep_time_minutes }
      : {}),
    decidesLater: o.async_acceptance === true,
  };
}

/** The minutes an order is quoted: the longer of the POS's answer and its location's quote (a
 * POS that knows its kitchen is busy answers longer already; one that does not is lifted to the
 * busy quote), either alone when only one is known. */
export function orderPrep(answer: number | null, location: number | null): number | null {
  if (answer === null) return location;
  return location === null ? answer : Math.max(answer, location);
}

/** When an order taken at `takenAt` (epoch ms) is to be ready. */
export const readyAt = (takenAt: number, prepTimeMinutes: number | null) =>
  prepTimeMinutes === null ? null : new Date(takenAt + prepTimeMinutes * 60_000);

/** The prep time and ready time of an order taken `now`, written by the write that records its
 * taking: the POS's minutes (null: none said) against its location's quote at intake (the
 * order's prepTimeMinutes until then). */
export function readiness(order: { prepTimeMinutes: number | null }, answer: number | null, now: Date) {
  const prepTimeMinutes = orderPrep(answer, order.prepTimeMinutes);
  return prepTimeMinutes === null ? {} : { prepTimeMinutes, estimatedReadyAt: readyAt(now.getTime(), prepTimeMinutes) };
}

/** Stream's refusal of an order, as a POS sends it (docs/pos-vendors.md). */
export type StockShortage = { type: 'item' | 'modifier'; serviceId: string; quantity: number };
export type PosValidation = {
  stock: StockShortage[];
  totals: { posTotal: number; streamTotal: number }[];
  order: { error: string; reason: string }[];
};

/** The most entries of each list that are read: an order names no more lines than this. */
export const MOST_VALIDATION_ENTRIES = 100;

/** The lines of an order object, at any depth: each item's and modifier's service_id with its name. */
export function orderLines(object: Record<string, unknown>): Map<string, string> {
  const lines = new Map<string, string>();
  const walk = (list: unknown) => {
    if (!Array.isArray(list)) return;
    for (const line of list as { service_id?: unknown; name?: unknown; modifiers?: unknown }[]) {
      if (line && typeof line.service_id === 'string')
        lines.set(line.service_id, typeof line.name === 'string' ? line.name : line.service_id);
      walk(line?.modifiers);
    }
  };
  walk(object.items);
  return lines;
}

const list = (value: unknown) => (Array.isArray(value) ? value : []);
const record = (value: unknown) => (value && typeof value === 'object' ? (value as Record<string, unknown>) : {});

/**
 * A `posValidation` read against the order's lines: what it says (stock shortages of the order's
 * own lines only, totals that are numbers, order errors with their reasons; `unknownValidation`
 * read as `orderValidation`), and what was not taken of it, in sentences (a list too long, a
 * provider_id not in the order, an entry of the wrong shape). Null when there is no posValidation.
 */
export function posValidationOf(
  value: unknown,
  lines: ReadonlyMap<string, string>,
): { validation: PosValidation; problems: string[] } | null {
  if (value === undefined || value === null) return null;
  const problems: string[] = [];
  if (typeof value !== 'object' || Array.isArray(value))
    return { validation: { stock: [], totals: [], order: [] }, problems: ['posValidation must be an object'] };
  const v = value as Record<string, unknown>;
  const capped = (name: string, entries: unknown[]) => {
    if (entries.length > MOST_VALIDATION_ENTRIES)
      problems.push(`posValidation.${name} has ${entries.length} entries: at most ${MOST_VALIDATION_ENTRIES}`);
    return entries.slice(0, MOST_VALIDATION_ENTRIES);
  };
  const stock: StockShortage[] = [];
  const unknown: string[] = [];
  for (const entry of capped('stockValidation', list(v.stockValidation)).map(record)) {
    const id = entry.provider_id;
    if (typeof id !== 'string' || (entry.type !== 'item' && entry.type !== 'modifier')) {
      problems.push('posValidation.stockValidation entries are {type: item | modifier, provider_id, quantity}');
      continue;
    }
    if (!lines.has(id)) unknown.push(id);
    else if (!stock.some((s) => s.serviceId === id))
      stock.push({ type: entry.type, serviceId: id, quantity: Number.isInteger(entry.quantity) ? (entry.quantity as number) : 0 });
  }
  if (unknown.length) problems.push(`posValidation.stockValidation names items not in the order: ${unknown.slice(0, 5).join(', ')}`);
  const totals = capped('orderTotalsValidation', list(v.orderTotalsValidation))
    .map(record)
    .filter((t) => typeof t.posTotal === 'number' && typeof t.streamTotal === 'number')
    .map((t) => ({ posTotal: t.posTotal as number, streamTotal: t.streamTotal as number }));
  const order = capped('orderValidation', [...list(v.orderValidation), ...list(v.unknownValidation)])
    .map(record)
    .filter((o) => typeof o.order_error_reason === 'string' || typeof o.order_error === 'string')
    .map((o) => ({ error: String(o.order_error ?? ''), reason: String(o.order_error_reason ?? o.order_error) }));
  return { validation: { stock, totals, order }, problems: [...new Set(problems)] };
}

/** Why the order fails, by what the POS named: items out first, then totals, then its reason. */
export function validationRefusal(
  validation: PosValidation,
  lines: ReadonlyMap<string, string>,
  fallback: string,
): { reason: 'item_unavailable' | 'price_mismatch' | 'pos_rejected'; details: string; unavailable?: StockShortage[] } {
  if (validation.stock.length) {
    const named = validation.stock.map((s) => `${lines.get(s.serviceId)} (${s.serviceId})`);
    return { reason: 'item_unavailable', details: `the POS has none of: ${named.join(', ')}`, unavailable: validation.stock };
  }
  const total = validation.totals[0];
  if (total)
    return { reason: 'price_mismatch', details: `the POS's total is ${total.posTotal}, the order's ${total.streamTotal} (minor units)` };
  const said = validation.order.map((o) => o.reason).filter(Boolean);
  return { reason: 'pos_rejected', details: said.length ? `the POS refused the order: ${said.join('; ')}` : fallback };
}

/** Stream's posValidation, for the OpenAPI document and the guides. */
export const POS_VALIDATION_SCHEMA: JsonSchema = {
  type: 'object',
  description: `What you cannot make, named (at most ${MOST_VALIDATION_ENTRIES} entries a list; provider_ids of lines of this order): the order fails item_unavailable when stockValidation names any, else price_mismatch when orderTotalsValidation gives the totals, else pos_rejected with order_error_reason. unknownValidation is read as orderValidation.`,
  properties: {
    stockValidation: {
      type: 'array',
      maxItems: MOST_VALIDATION_ENTRIES,
      items: {
        type: 'object',
        required: ['type', 'provider_id'],
        properties: {
          type: { type: 'string', enum: ['item', 'modifier'] },
          provider_id: { type: 'string', description: 'The service_id of a line of the order (your catalog id).' },
          quantity: { type: 'integer', description: 'How many you have (0: none).' },
        },
      },
    },
    orderTotalsValidation: {
      type: 'array',
      items: { type: 'object', properties: { posTotal: { type: 'integer' }, streamTotal: { type: 'integer' } } },
    },
    orderValidation: {
      type: 'array',
      items: { type: 'object', properties: { order_error: { type: 'string' }, order_error_reason: { type: 'string' } } },
    },
    unknownValidation: { type: 'array', items: { type: 'object' } },
  },
};
