// A token answer's expire_time, in the three forms providers send it: a lifetime in seconds
// (below 10^8), epoch seconds (below 10^11), else epoch milliseconds.
import { expiryOf } from './provider-client.js';

const now = Date.parse('2026-11-29T12:00:00Z');

test.each<[string, number | undefined, string | null]>([
  ['a lifetime of an hour', 3600, '2026-11-29T13:00:00.000Z'],
  ['no lifetime at all: expired now', 0, '2026-11-29T12:00:00.000Z'],
  ['the longest lifetime, just under 10^8 seconds (over three years)', 99_999_999, '2030-01-29T21:46:39.000Z'],
  ['10^8: epoch seconds (1973)', 100_000_000, '1973-03-03T09:46:40.000Z'],
  ['epoch seconds, an hour on', now / 1000 + 3600, '2026-11-29T13:00:00.000Z'],
  ['the last epoch second read as seconds, just under 10^11', 99_999_999_999, '5138-11-16T09:46:39.000Z'],
  ['10^11: epoch milliseconds (1973)', 100_000_000_000, '1973-03-03T09:46:40.000Z'],
  ['epoch milliseconds, an hour on', now + 3_600_000, '2026-11-29T13:00:00.000Z'],
  ['none said', undefined, null],
  ['not a number that ends', Number.POSITIVE_INFINITY, null],
])('%s', (_case, value, expiry) => expect(expiryOf(value, now)?.toISOString() ?? null).toBe(expiry));
