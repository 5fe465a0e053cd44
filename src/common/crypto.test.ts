import nodeCrypto from 'node:crypto';
import { box, importTokenKey, sealer } from './crypto.js';

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

test('any text seals and opens as it was: empty, or beyond ASCII', () => {
  const box = sealer(new TextEncoder().encode('key'));
  for (const plain of ['', 'clé · 秘密 · 🔑']) expect(box.open(box.seal(plain))).toBe(plain);
});

test("a box under a key of its own (an order's customer) opens with that key only, not the service's", () => {
  const key = nodeCrypto.randomBytes(32);
  const sealed = box(key).seal('Ada Byron');
  expect(box(key).open(sealed)).toBe('Ada Byron');
  expect(() => box(nodeCrypto.randomBytes(32)).open(sealed)).toThrow();
  expect(() => sealer(key).open(sealed)).toThrow();
});

test('digests are the same for the same value in one scope, another in another scope or under another key, and hold nothing of the value', () => {
  const a = sealer(new TextEncoder().encode('key-a'));
  const b = sealer(new TextEncoder().encode('key-b'));
  const phone = 'phone:15125550199';
  expect(a.digest('org_1', phone)).toBe(a.digest('org_1', phone));
  expect(a.digest('org_1', phone)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(a.digest('org_1', phone)).not.toContain('5550199');
  expect(
    new Set([a.digest('org_1', phone), a.digest('org_2', phone), b.digest('org_1', phone), a.digest('org_1', 'phone:15125550190')]).size,
  ).toBe(4);
  // Neither the scope nor the value alone, nor their text run together, makes the digest.
  expect(a.digest('org_1', 'x')).not.toBe(a.digest('org_1x', ''));
  const plain = nodeCrypto.createHmac('sha256', new TextEncoder().encode('key-a')).update(phone).digest('base64url');
  expect(a.digest('org_1', phone)).not.toBe(plain);
});

test('a digest stays what it was when it was stored (orders are found by it later): a known answer', () => {
  expect(sealer(new TextEncoder().encode('key-a')).digest('org_1', 'phone:15125550199')).toBe(
    'scxwE2bNGKp4M4irh1OcnSJSy65zFr73juJJc5Dtm3c',
  );
});

describe('a value that is not one we sealed is refused as such, before any decryption', () => {
  /** A sealed value, its parts changed: [version, iv, tag, ciphertext]. */
  const changed = (change: (parts: string[]) => string[]) => {
    const box = sealer(new TextEncoder().encode('key'));
    return () => box.open(change(box.seal('secret').split('.')).join('.'));
  };
  test.each<[string, (parts: string[]) => string[]]>([
    ['another version', ([, iv, tag, data]) => ['v2', iv!, tag!, data!]],
    ['no iv', ([v, , tag, data]) => [v!, '', tag!, data!]],
    ['no tag', ([v, iv, , data]) => [v!, iv!, '', data!]],
    ['no ciphertext', (parts) => parts.slice(0, 3)],
    ['plain text', () => ['secret']],
  ])('%s', (_case, change) => expect(changed(change)).toThrow(/^not a sealed value$/));
});

test("the token key signs and verifies HMAC-SHA256, and cannot be read back out of the process's keys", async () => {
  const secret = new TextEncoder().encode('token-secret');
  const key = await importTokenKey(secret);
  const data = new TextEncoder().encode('header.payload');
  const signature = Buffer.from(await crypto.subtle.sign('HMAC', key, data));
  expect(signature.equals(nodeCrypto.createHmac('sha256', secret).update(data).digest())).toBe(true);
  expect(await crypto.subtle.verify('HMAC', key, signature, data)).toBe(true);
  await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
});
