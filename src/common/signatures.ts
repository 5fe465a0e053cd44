// HMAC-SHA256 signatures over the exact bytes of a body (docs/reference.md § Authentication, docs/reference.md § Webhooks in).
import crypto from 'node:crypto';

/** Whether two byte strings (or texts, as UTF-8) are equal, in time that does not tell where
 * they differ: for secrets, signatures and tokens. */
export function sameBytes(a: Buffer | string, b: Buffer | string): boolean {
  const x = typeof a === 'string' ? Buffer.from(a) : a;
  const y = typeof b === 'string' ? Buffer.from(b) : b;
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

export const signBody = (body: string | Buffer, secret: string): string => crypto.createHmac('sha256', secret).update(body).digest('hex');

/** Lower-case hex as docs/reference.md fixes it; base64 (or base64url) and an optional "sha256=" prefix accepted too. */
export function verifySignature(body: Buffer, header: string | undefined, secret: string): boolean {
  if (!header) return false;
  const value = header.trim().replace(/^sha256=/i, '');
  const expected = crypto.createHmac('sha256', secret).update(body).digest();
  const candidates = [/^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : null, Buffer.from(value, 'base64')];
  return candidates.some((given) => given !== null && sameBytes(given, expected));
}

/** Standard Webhooks (docs/reference.md § Webhooks in): how far a signed timestamp may be from now. */
export const STANDARD_WEBHOOK_TOLERANCE_S = 5 * 60;

/** The key of a sender's secret: Standard Webhooks' `whsec_<base64>` form, or the text itself. */
const standardKey = (secret: string): Buffer =>
  secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret);

/** Signs as a Standard Webhooks sender does: `v1,<base64 HMAC-SHA256 of id.timestamp.body>`. */
export const signStandardWebhook = (id: string, timestamp: number, body: string | Buffer, secret: string): string =>
  `v1,${crypto.createHmac('sha256', standardKey(secret)).update(`${id}.${timestamp}.`).update(body).digest('base64')}`;

/**
 * Checks Standard Webhooks signing: `webhook-id`, `webhook-timestamp` (seconds, at most five
 * minutes from now) and `webhook-signature` (space-separated `v1,<base64>`; any may match, as
 * during a key rotation). The id is signed, so it can serve as the dedupe key.
 */
export function verifyStandardWebhook(
  body: Buffer,
  headers: { id?: string; timestamp?: string; signature?: string },
  secret: string,
  nowMs = Date.now(),
): 'valid' | 'invalid' | 'stale' {
  const { id, timestamp, signature } = headers;
  if (!id || !signature || !/^\d+$/.test(String(timestamp))) return 'invalid';
  const expected = Buffer.from(signStandardWebhook(id, Number(timestamp), body, secret).slice(3), 'base64');
  const matches = signature
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .some((s) => sameBytes(Buffer.from(s.slice(3), 'base64'), expected));
  if (!matches) return 'invalid';
  return Math.abs(nowMs / 1000 - Number(timestamp)) > STANDARD_WEBHOOK_TOLERANCE_S ? 'stale' : 'valid';
}
