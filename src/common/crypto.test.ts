import { sealer } from './crypto.js';

test('sealed secrets open with the same key only, and never show the plain text', () => {
  const a = sealer(new TextEncoder().encode('key-a'));
  const b = sealer(new TextEncoder().encode('key-b'));
  const sealed = a.seal('pos-client-secret');
  expect(sealed).not.toContain('pos-client-secret');
  expect(a.seal('pos-client-secret')).not.toBe(sealed);
  expect(a.open(sealed)).toBe('pos-client-secret');
  expect(() => b.open(sealed)).toThrow();
  // A flipped bit anywhere in the ciphertext fails authentication.
  const [v, iv, tag, data] = sealed.split('.');
  const flipped = Buffer.from(data!, 'base64url');
  flipped[0]! ^= 1;
  expect(() => a.open([v, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
});
