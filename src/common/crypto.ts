// Encryption at rest for the secrets we hold: provider client and webhook secrets, and the
// OAuth tokens of merchants. AES-256-GCM; the stored form is "v1.<iv>.<tag>.<ciphertext>".
import crypto from 'node:crypto';

/** The key that signs our tokens (HS256), as jose wants it: given the secret as bytes (or as a
 * KeyObject, which it exports to bytes), jose imports it through WebCrypto again on every sign
 * and verify (3% of a read request's CPU); a CryptoKey it uses as it is. Made once, at start-up
 * (Services.tokenKey). */
export function importTokenKey(secret: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
}

export type Sealer = { seal: (plain: string) => string; open: (sealed: string) => string };

export function sealer(key: Uint8Array): Sealer {
  // Any key material becomes a 256-bit key; a generated key is already 256 random bits.
  const aesKey = crypto.createHash('sha256').update(key).digest();
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
