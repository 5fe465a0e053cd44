// Encryption at rest for what we hold: provider client and webhook secrets, the OAuth tokens of
// merchants, and the keys of orders' customers (modules/privacy/customer.ts). AES-256-GCM; the
// stored form is "v1.<iv>.<tag>.<ciphertext>".
import crypto from 'node:crypto';

/** The key that signs our tokens (HS256), as jose wants it: given the secret as bytes (or as a
 * KeyObject, which it exports to bytes), jose imports it through WebCrypto again on every sign
 * and verify (3% of a read request's CPU); a CryptoKey it uses as it is. Made once, at start-up
 * (Services.tokenKey). */
export function importTokenKey(secret: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}

/** Authenticated encryption of text: what is sealed opens with the same key only, and a changed
 * byte is refused. */
export type Box = { seal: (plain: string) => string; open: (sealed: string) => string };

/** The service's sealer: a Box under the service's key, and keyed digests. */
export type Sealer = Box & {
  /** A keyed hash of `value` under a key of `scope`'s own (an organization's): the same value
   * gives the same digest in one scope and another in any other, and without the service's key
   * nobody can compute one, nor check a guess against it. For finding rows by a value that is
   * not stored (a customer's phone). */
  digest: (scope: string, value: string) => string;
};

/** AES-256-GCM under a 256-bit key; the sealed form is "v1.<iv>.<tag>.<ciphertext>". */
export function box(aesKey: Uint8Array): Box {
  return {
    seal(plain) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', aesKey, iv);
      const data = Buffer.concat([cipher.update(plain), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
    },
    open(sealed) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('not a sealed value');
      const decipher = crypto.createDecipheriv('aes-256-gcm', aesKey, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

const hmac = (key: Uint8Array, data: string) => crypto.createHmac('sha256', key).update(data).digest();

const SCOPE_KEYS_KEPT = 10_000;

export function sealer(key: Uint8Array): Sealer {
  // Any key material becomes a 256-bit key; a generated key is already 256 random bits. The
  // digests' key is derived apart from it, so that neither tells anything of the other.
  const sealing = box(crypto.createHash('sha256').update(key).digest());
  const digests = hmac(key, 'digests');
  // Each scope's key kept once made (an organization's: two digests an order), up to a bound.
  const scopes = new Map<string, Buffer>();
  const scopeKey = (scope: string) => {
    let known = scopes.get(scope);
    if (!known) {
      if (scopes.size >= SCOPE_KEYS_KEPT) scopes.clear();
      known = hmac(digests, scope);
      scopes.set(scope, known);
    }
    return known;
  };
  return {
    ...sealing,
    digest: (scope, value) => hmac(scopeKey(scope), value).toString('base64url'),
  };
}
