// The edge's input rules as tables of cases: required text, clean JSON (depth, NUL, length by the
// kind of field), epoch milliseconds (and, for a time of now, not seconds sent for them). Each refusal is a 400 naming where the input was wrong.
import {
  assertCleanInput,
  EPOCH_MS_RANGE,
  epochMs,
  isPlainObject,
  MAX_IDENTIFIER,
  MAX_JSON_DEPTH,
  MAX_TEXT,
  RECENT_EPOCH_MS,
  recentEpochMs,
  SECONDS_BELOW,
  sentEpochMs,
  requiredText,
  displayName,
} from './input.js';

describe('requiredText', () => {
  test.each([
    ['text', 'abc', 'abc'],
    ['text with spaces around, trimmed', '  abc \n', 'abc'],
  ])('%s', (_case, value, expected) => expect(requiredText(value, 'name')).toBe(expected));
  test.each([
    ['missing', undefined, 'name is required'],
    ['null', null, 'name is required'],
    ['a number', 42, 'name is required'],
    ['empty', '', 'name must not be empty'],
    ['blank', ' \t ', 'name must not be empty'],
  ])('%s is refused', (_case, value, message) => {
    expect(() => requiredText(value, 'name')).toThrow(message);
    try {
      requiredText(value, 'name');
    } catch (error) {
      expect(error).toMatchObject({ statusCode: 400, code: 'invalid_request' });
    }
  });
});

describe('displayName', () => {
  test.each([
    ['a name with an accent and an emoji joined by U+200D', 'Café 👩\u200d🍳', 'Café 👩\u200d🍳'],
    ['Arabic, written right to left by itself', 'مطعم', 'مطعم'],
    ['trimmed', ' Grill ', 'Grill'],
  ])('%s', (_case, value, expected) => expect(displayName(value, 'name')).toBe(expected));
  test.each([
    ['a right-to-left override', 'Pizza\u202Etxt.exe', 'name must not hold control or bidirectional characters (U+202E)'],
    ['a left-to-right isolate', 'A\u2066B', 'name must not hold control or bidirectional characters (U+2066)'],
    ['a right-to-left mark', 'A\u200FB', 'name must not hold control or bidirectional characters (U+200F)'],
    ['a line break inside', 'Grill\nEvil', 'name must not hold control or bidirectional characters (U+000A)'],
    ['an escape', 'Grill\u001b[31m', 'name must not hold control or bidirectional characters (U+001B)'],
    ['missing', undefined, 'name is required'],
  ])('%s is refused', (_case, value, message) => expect(() => displayName(value, 'name')).toThrow(message));
});

test.each([
  ['an object', {}, true],
  ['null', null, false],
  ['an array', [], false],
  ['a string', 'x', false],
])('isPlainObject: %s', (_case, value, expected) => expect(isPlainObject(value)).toBe(expected));

/** A value nested `depth` objects deep, `leaf` at the bottom. */
const nested = (depth: number, leaf: unknown = 'leaf'): unknown => {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe('assertCleanInput', () => {
  test.each<[string, unknown]>([
    ['a plain body', { name: 'Taco Bar', items: [{ id: 'item_1', quantity: 2 }] }],
    ['nesting at the limit', nested(MAX_JSON_DEPTH)],
    ['nesting at the limit, a number at the bottom', nested(MAX_JSON_DEPTH, 7)],
    ['nesting at the limit, null at the bottom', nested(MAX_JSON_DEPTH, null)],
    ['nesting at the limit, a list at the bottom', nested(MAX_JSON_DEPTH - 1, [1, 'two', null])],
    ['an identifier at its length', { order_id: 'x'.repeat(MAX_IDENTIFIER) }],
    ['a text at its length', { notes: 'x'.repeat(MAX_TEXT) }],
    ['a text longer than an identifier', { notes: 'x'.repeat(MAX_IDENTIFIER + 1) }],
    ['a text alone, at its length', 'x'.repeat(MAX_TEXT)],
    ["a GraphQL operation's text, however long", { query: 'x'.repeat(MAX_TEXT + 1) }],
    // Identifiers are named so by their key's end: a text whose key only begins or contains one is text.
    ['a text whose key begins like an identifier', { keynote: 'x'.repeat(MAX_IDENTIFIER + 1) }],
    ['a text whose camelCase key holds an identifier', { customerEmailNotes: 'x'.repeat(MAX_IDENTIFIER + 1) }],
    ['a text whose key ends like a kind of thing', { resource: 'x'.repeat(MAX_IDENTIFIER + 1) }],
    ['a text whose key begins like a kind of thing', { status_message: 'x'.repeat(MAX_IDENTIFIER + 1) }],
    ['numbers, booleans and nulls', { a: 1, b: true, c: null, d: [1, null, false] }],
  ])('takes %s', (_case, value) => expect(() => assertCleanInput(value, 'the body')).not.toThrow());

  test.each<[string, unknown, string]>([
    ['nesting one past the limit', nested(MAX_JSON_DEPTH + 1), `the body is nested deeper than ${MAX_JSON_DEPTH} levels`],
    ['nesting a hundred thousand deep', nested(100_000), `the body is nested deeper than ${MAX_JSON_DEPTH} levels`],
    [
      'a NUL in a nested string',
      { locations: [{ provider_id: 'a\u0000b' }] },
      'the body: locations[0].provider_id contains a NUL character',
    ],
    ['a NUL in a key', { user: { 'na\u0000me': 'x' } }, 'the body: a key of user contains a NUL character'],
    ['a NUL in the value itself', 'a\u0000', 'the body: the value contains a NUL character'],
    ['an id one past its length', { order_id: 'x'.repeat(MAX_IDENTIFIER + 1) }, `order_id is longer than ${MAX_IDENTIFIER} characters`],
    ['a camelCase id', { orgId: 'x'.repeat(MAX_IDENTIFIER + 1) }, `orgId is longer than ${MAX_IDENTIFIER} characters`],
    ['an email', { user: { email: 'x'.repeat(MAX_IDENTIFIER + 1) } }, `user.email is longer than ${MAX_IDENTIFIER}`],
    ['a source', { source: 'x'.repeat(MAX_IDENTIFIER + 1) }, `source is longer than ${MAX_IDENTIFIER}`],
    ['an id in a list of ids', { item_ids: ['x'.repeat(MAX_IDENTIFIER + 1)] }, `item_ids[0] is longer than ${MAX_IDENTIFIER}`],
    ['a key', { api_key: 'x'.repeat(MAX_IDENTIFIER + 1) }, `api_key is longer than ${MAX_IDENTIFIER}`],
    ['a camelCase key', { idempotencyKey: 'x'.repeat(MAX_IDENTIFIER + 1) }, `idempotencyKey is longer than ${MAX_IDENTIFIER}`],
    ['a list of keys', { keys: ['x'.repeat(MAX_IDENTIFIER + 1)] }, `keys[0] is longer than ${MAX_IDENTIFIER}`],
    ['a phone, its last element in a list', { phone: ['1', 'x'.repeat(MAX_IDENTIFIER + 1)] }, `phone[1] is longer than ${MAX_IDENTIFIER}`],
    ['a text one past its length', { notes: 'x'.repeat(MAX_TEXT + 1) }, `notes is longer than ${MAX_TEXT} characters`],
    ['a text alone, one past its length', 'x'.repeat(MAX_TEXT + 1), `the body: the value is longer than ${MAX_TEXT} characters`],
    ["a 'query' that is not the operation", { a: { query: 'x'.repeat(MAX_TEXT + 1) } }, `a.query is longer than ${MAX_TEXT}`],
  ])('refuses %s', (_case, value, message) => expect(() => assertCleanInput(value, 'the body')).toThrow(message));
});

describe('epochMs', () => {
  test.each([
    ['the epoch', 0],
    ['now', Date.UTC(2026, 10, 26)],
    ['the last millisecond both databases keep', EPOCH_MS_RANGE.max],
  ])('takes %s', (_case, value) => expect(epochMs(value, 'at')).toBe(value));
  test.each<[string, unknown]>([
    ['before the epoch', -1],
    ['past the year 9999', EPOCH_MS_RANGE.max + 1],
    ['a fraction', 1.5],
    ['1e308', 1e308],
    ['a string', '1000'],
    ['null', null],
  ])('refuses %s, naming the field', (_case, value) =>
    expect(() => epochMs(value, 'object.at')).toThrow('object.at must be epoch milliseconds'),
  );
});

describe('sentEpochMs: a time a POS or a partner sends', () => {
  test.each([
    ['10^11, the first it takes (1973-03-03)', SECONDS_BELOW],
    ['now', Date.UTC(2026, 10, 26)],
  ])('takes %s', (_case, value) => expect(sentEpochMs(value, 'at')).toBe(value));
  test.each<[string, unknown, string]>([
    [
      'epoch seconds of 2026',
      1795719325,
      'object.paused_until is in epoch milliseconds; 1795719325 looks like seconds (1795719325 seconds is 1795719325000 milliseconds)',
    ],
    ['one below 10^11', SECONDS_BELOW - 1, 'object.paused_until is in epoch milliseconds; 99999999999 looks like seconds'],
    ['what epochMs refuses', 'soon', 'object.paused_until must be epoch milliseconds, a whole number'],
  ])('refuses %s, naming the field and the unit', (_case, value, message) =>
    expect(() => sentEpochMs(value, 'object.paused_until')).toThrow(message),
  );
});

describe('recentEpochMs', () => {
  test.each([
    ['2001-09-09, the first it takes', RECENT_EPOCH_MS],
    ['now', Date.UTC(2026, 10, 26)],
  ])('takes %s', (_case, value) => expect(recentEpochMs(value, 'at')).toBe(value));
  test.each<[string, unknown, string]>([
    [
      'epoch seconds of 2026: the unit said',
      1795719325,
      'object.at is in epoch milliseconds; 1795719325 looks like seconds (1795719325 seconds is 1795719325000 milliseconds)',
    ],
    ['a time of 1990', 631152000000, 'object.at must be epoch milliseconds from 1000000000000 (2001-09-09) on, not 631152000000'],
    ['what epochMs refuses', 'soon', 'object.at must be epoch milliseconds, a whole number'],
  ])('refuses %s, naming the field and the unit', (_case, value, message) =>
    expect(() => recentEpochMs(value, 'object.at')).toThrow(message),
  );
});
