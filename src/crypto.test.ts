import { sealer } from './crypto.js';

test('sealed secrets open with the same key only, and never show the plain text', () => {
  const a = sealer(new TextEncoder().encode('key-a'));
  const b = sealer(new TextEncoder().encode('key-b'));
  const sealed = a.seal('pos-client-secret');
  expect(sealed).not.toContain('pos-client-secret');
  expect(a.seal('pos-client-secret')).not.toBe(sealed);
  expect(a.open(sealed)).toBe('pos-client-secret');
  expect(() => b.open(sealed)).toThrow();
  expect(() => a.open(sealed.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')))).toThrow();
});
