// HMAC-SHA256 signatures over the exact bytes of a body (SPEC.md 5.7, CONTRACT.md sections 2, 4).
import crypto from 'node:crypto';

export const signBody = (body: string | Buffer, secret: string): string => crypto.createHmac('sha256', secret).update(body).digest('hex');

/** Lower-case hex as CONTRACT.md fixes it; base64 (or base64url) and an optional "sha256=" prefix accepted too. */
export function verifySignature(body: Buffer, header: string | undefined, secret: string): boolean {
  if (!header) return false;
  const value = header.trim().replace(/^sha256=/i, '');
  const expected = crypto.createHmac('sha256', secret).update(body).digest();
  const candidates = [/^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : null, Buffer.from(value, 'base64')];
  return candidates.some((given) => given !== null && given.length === expected.length && crypto.timingSafeEqual(given, expected));
}
