import crypto from 'node:crypto';
import { sameBytes, signBody, signStandardWebhook, verifySignature, verifyStandardWebhook } from './signatures.js';

const body = Buffer.from('{"type":"location.catalog.updated","object":{"location_id":"loc_1"}}');

test('hex and base64 signatures of the exact bytes verify; anything else does not', () => {
  const hex = signBody(body, 'secret');
  const base64 = crypto.createHmac('sha256', 'secret').update(body).digest('base64');
  expect(verifySignature(body, hex, 'secret')).toBe(true);
  expect(verifySignature(body, hex.toUpperCase(), 'secret')).toBe(true);
  expect(verifySignature(body, `sha256=${hex}`, 'secret')).toBe(true);
  expect(verifySignature(body, base64, 'secret')).toBe(true);
  expect(verifySignature(body, hex, 'other-secret')).toBe(false);
  expect(verifySignature(Buffer.from(`${body} `), hex, 'secret')).toBe(false);
  expect(verifySignature(body, undefined, 'secret')).toBe(false);
  expect(verifySignature(body, '', 'secret')).toBe(false);
  expect(verifySignature(body, 'zz', 'secret')).toBe(false);
  // The header as sent, spaces around it trimmed; the prefix only at its start.
  expect(verifySignature(body, ` ${hex} `, 'secret')).toBe(true);
  expect(verifySignature(body, `SHA256=${hex}`, 'secret')).toBe(true);
  // Exactly 64 hex digits: one more is not a hex signature, whatever it starts with.
  expect(verifySignature(body, `${hex}0`, 'secret')).toBe(false);
});

test.each<[string, Buffer | string, Buffer | string, boolean]>([
  ['the same text', 'Bearer abc', 'Bearer abc', true],
  ['texts that differ', 'Bearer abc', 'Bearer abd', false],
  ['texts of different lengths', 'Bearer abc', 'Bearer abcd', false],
  ['texts of one length in characters, not in bytes', 'é', 'ab', false],
  ['text and its bytes', 'clé', Buffer.from('clé'), true],
  ['the same bytes', Buffer.from([1, 2, 3]), Buffer.from([1, 2, 3]), true],
  ['bytes that differ', Buffer.from([1, 2, 3]), Buffer.from([1, 2, 4]), false],
])('sameBytes: %s', (_case, a, b, expected) => {
  expect(sameBytes(a, b)).toBe(expected);
  expect(sameBytes(b, a)).toBe(expected);
});

test('Standard Webhooks: id, timestamp and body are signed; five minutes of clock tolerance; rotation lists', () => {
  const now = 1_800_000_000_000;
  const ts = now / 1000;
  const signature = signStandardWebhook('msg_1', ts, body, 'secret');
  expect(signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
  // The signed content is id.timestamp.body, as the specification's reference libraries make it.
  expect(signature.slice(3)).toBe(crypto.createHmac('sha256', 'secret').update(`msg_1.${ts}.${body}`).digest('base64'));
  const check = (headers: { id?: string; timestamp?: string; signature?: string }, secret = 'secret', at = now) =>
    verifyStandardWebhook(body, headers, secret, at);
  const valid = { id: 'msg_1', timestamp: String(ts), signature };
  expect(check(valid)).toBe('valid');
  expect(check({ ...valid, signature: `v1,bm90IGl0 ${signature}` })).toBe('valid');
  expect(check({ ...valid, id: 'msg_2' })).toBe('invalid');
  expect(check({ ...valid, timestamp: String(ts + 1) })).toBe('invalid');
  expect(check(valid, 'other')).toBe('invalid');
  expect(check({ ...valid, signature: signature.replace('v1,', 'v2,') })).toBe('invalid');
  expect(check({ id: 'msg_1', signature })).toBe('invalid');
  expect(check(valid, 'secret', now + 301_000)).toBe('stale');
  expect(check(valid, 'secret', now - 301_000)).toBe('stale');
  expect(check(valid, 'secret', now + 299_000)).toBe('valid');
  // Five minutes exactly either way is still on time.
  expect(check(valid, 'secret', now + 300_000)).toBe('valid');
  expect(check(valid, 'secret', now - 300_000)).toBe('valid');
  // Each header is required, and the timestamp is whole seconds in digits only, even when the
  // signature was made over what its number reads as.
  expect(check({ id: 'msg_1', timestamp: String(ts) })).toBe('invalid');
  expect(check({ timestamp: String(ts), signature: signStandardWebhook('undefined', ts, body, 'secret') })).toBe('invalid');
  for (const timestamp of [`${ts}.0`, `+${ts}`, ` ${ts}`, `${ts} `, '']) expect(check({ ...valid, timestamp })).toBe('invalid');
  expect(check({ ...valid, timestamp: 'abc', signature: signStandardWebhook('msg_1', Number.NaN, body, 'secret') })).toBe('invalid');
  // A whsec_ secret is base64 key material.
  const key = Buffer.from('0123456789abcdef0123456789abcdef');
  const whsec = `whsec_${key.toString('base64')}`;
  const byKey = crypto.createHmac('sha256', key).update(`msg_1.${ts}.${body}`).digest('base64');
  expect(check({ ...valid, signature: `v1,${byKey}` }, whsec)).toBe('valid');
});
