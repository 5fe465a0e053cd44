// Malformed input stops at the edge, as 400 `invalid_request` (docs/reference.md § Limits): JSON nested
// deeper than any real request, and text with U+0000, which PostgreSQL cannot store (error
// 22021) and SQLite would cut short. Checked once where input enters: the JSON and form body
// parsers, the query string and path parameters, and each webhook's parsed body. Nothing
// downstream (the REST key mapper, GraphQL, either database) then sees such input.
import { Invalid } from './errors.js';

/** Deeper than any request of the API needs (docs/reference.md's deepest, an order's nested modifiers,
 * is about ten), and far from what overflows a recursive walk. */
export const MAX_JSON_DEPTH = 64;

/** A required text field, trimmed: 400 `${field} is required` when it is missing or not text,
 * `${field} must not be empty` when it is blank. The one check of the kind, for GraphQL and REST
 * inputs and webhook bodies alike. */
export function requiredText(value: unknown, field: string): string {
  if (typeof value !== 'string') throw new Invalid(`${field} is required`);
  const trimmed = value.trim();
  if (!trimmed) throw new Invalid(`${field} must not be empty`);
  return trimmed;
}

/** Characters a name never holds: controls (a line break, an escape) and the bidirectional
 * marks and overrides (U+202E turns "Pizza‮txt.exe" around on the screen of whoever reads it). */
const NOT_IN_A_NAME = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/** A name people read (an organization, a store, a driver, a provider): requiredText, and 400
 * naming the field when it holds a control or bidirectional character. */
export function displayName(value: unknown, field: string): string {
  const name = requiredText(value, field);
  const found = NOT_IN_A_NAME.exec(name)?.[0];
  if (found)
    throw new Invalid(
      `${field} must not hold control or bidirectional characters (U+${found.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`,
    );
  return name;
}

/** A JSON object: not null, not an array. */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The longest text any field takes (a customer's instructions, a description): far above a real
 * one. The operation text of a GraphQL request is bounded by the body limit and the token bound
 * instead. */
export const MAX_TEXT = 16_384;
/** The longest identifier (an id, a key, an email, a phone): what both databases index. A longer
 * one would not fit an index entry on PostgreSQL (2,704 bytes, and a character is up to 4). */
export const MAX_IDENTIFIER = 512;
/** Keys whose values are identifiers, or lists of them (`item_ids`): looked up and indexed. */
const IDENTIFIER = /(^|_)(ids?|keys?|email|phone)$|[a-z](Ids?|Keys?|Email|Phone)$|^(source|kind|type|status)$/;

type Node = { value: unknown; key: string | number | null; parent: Node | null; depth: number };

/** Where a node sits, for the error message: `locations[0].provider_id`. */
function pathOf(node: Node): string {
  const keys: (string | number)[] = [];
  for (let at: Node | null = node; at && at.key !== null; at = at.parent) keys.unshift(at.key);
  return keys.map((k, i) => (typeof k === 'number' ? `[${k}]` : i ? `.${k}` : k)).join('') || 'the value';
}

/** The key a string is the value of: its own, or, in a list, the list's. */
const keyOf = (node: Node): string | null => (typeof node.key === 'number' ? keyOf(node.parent!) : node.key);

/** Throws 400 for nesting deeper than MAX_JSON_DEPTH, a NUL in any string or key, or a string
 * longer than its field takes (MAX_IDENTIFIER, MAX_TEXT), naming the field. Iterative: a value
 * nested a million deep is refused without using the stack. */
export function assertCleanInput(value: unknown, where: string): void {
  const stack: Node[] = [{ value, key: null, parent: null, depth: 0 }];
  while (stack.length) {
    const node = stack.pop()!;
    const current = node.value;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) throw new Invalid(`${where}: ${pathOf(node)} contains a NUL character (U+0000)`);
      if (current.length > MAX_IDENTIFIER) {
        const key = keyOf(node);
        // A GraphQL request's operation is bounded otherwise (the body limit, the token bound).
        const operation = node.depth === 1 && key === 'query';
        const most = IDENTIFIER.test(String(key)) ? MAX_IDENTIFIER : operation ? Number.POSITIVE_INFINITY : MAX_TEXT;
        if (current.length > most) throw new Invalid(`${where}: ${pathOf(node)} is longer than ${most} characters`);
      }
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (node.depth >= MAX_JSON_DEPTH) throw new Invalid(`${where} is nested deeper than ${MAX_JSON_DEPTH} levels`);
    const depth = node.depth + 1;
    if (Array.isArray(current)) {
      for (const [i, inner] of current.entries()) stack.push({ value: inner, key: i, parent: node, depth });
      continue;
    }
    for (const key in current) {
      if (key.includes('\u0000')) throw new Invalid(`${where}: a key of ${pathOf(node)} contains a NUL character (U+0000)`);
      stack.push({ value: (current as Record<string, unknown>)[key], key, parent: node, depth });
    }
  }
}

/** The dates both databases keep exactly, as epoch milliseconds: 1970-01-01 to 9999-12-31. */
export const EPOCH_MS_RANGE = { min: 0, max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) } as const;

/** A date given as epoch milliseconds, from a body, a variable or a literal: 400 naming the
 * field when it is not a whole number in EPOCH_MS_RANGE (1e308 would be an Invalid Date, which
 * neither database stores). */
export function epochMs(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < EPOCH_MS_RANGE.min || value > EPOCH_MS_RANGE.max)
    throw new Invalid(`${field} must be epoch milliseconds, a whole number from ${EPOCH_MS_RANGE.min} to ${EPOCH_MS_RANGE.max}`);
  return value;
}

/** Below 10^11, a number sent as epoch milliseconds is one in seconds: 10^11 milliseconds is
 * 1973-03-03, 10^11 seconds the year 5138. */
export const SECONDS_BELOW = 1e11;

/** A time a POS or a partner sends as epoch milliseconds (`paused_until`, `until_ms`,
 * `busy_until`): epochMs, and 400 saying the unit when the number looks like seconds. */
export function sentEpochMs(value: unknown, field: string): number {
  const ms = epochMs(value, field);
  if (ms < SECONDS_BELOW)
    throw new Invalid(`${field} is in epoch milliseconds; ${ms} looks like seconds (${ms} seconds is ${ms * 1000} milliseconds)`);
  return ms;
}

/** 10^12 epoch milliseconds is 2001-09-09: an earlier time of something happening now (a
 * driver's arrival) is a time in the wrong unit; epoch seconds of today are about 1.8 * 10^9. */
export const RECENT_EPOCH_MS = 1e12;

/** A time of now or later, as epoch milliseconds: sentEpochMs, and 400 naming the field for a
 * number that is not milliseconds of this century. */
export function recentEpochMs(value: unknown, field: string): number {
  const ms = sentEpochMs(value, field);
  if (ms < RECENT_EPOCH_MS) throw new Invalid(`${field} must be epoch milliseconds from ${RECENT_EPOCH_MS} (2001-09-09) on, not ${ms}`);
  return ms;
}
