// What the conformance kit makes of a provider's webhooks at its listener: it answers each as the
// service would (its signature checked with the service's own rule, its body read with the
// service's envelope: 401, 400 and 404 as the service answers them), and says how each was signed,
// in words a vendor can act on, never the secret.
import { STANDARD_WEBHOOK_TOLERANCE_S, verifySignature, verifyStandardWebhook } from '../common/signatures.js';
import { AppError, errorBody } from '../common/errors.js';
import { checkSignature, webhookEnvelope } from '../webhooks/intake.js';
import type { Answer, Arrival } from './kit.js';

/** Why a webhook check was not run. */
export const WITHOUT_WAIT = 'not run: give --wait-webhook SECONDS, and send your webhooks to the URL the kit prints';

/** The webhook's event type, or null for a body that is not a JSON object with one. */
export function webhookType(arrival: Arrival): string | null {
  try {
    const body = JSON.parse(arrival.body.toString('utf8')) as { type?: unknown } | null;
    return body && typeof body === 'object' && typeof body.type === 'string' ? body.type : null;
  } catch {
    return null;
  }
}

/** Matches a webhook of this type. */
export const ofType = (type: string) => (arrival: Arrival) => webhookType(arrival) === type;

/**
 * How the listener answers a provider's webhooks, as the service does: a missing or wrong
 * signature 401, a body that is no envelope of one of `types` 400, then what `accept` answers for
 * its type and object (an AppError it throws answers as the service's error body).
 */
export function answeringAsTheService(
  secret: string,
  types: readonly string[],
  accept: (type: string, object: Record<string, unknown>, arrival: Arrival) => Answer,
): (arrival: Arrival) => Answer {
  return (arrival) => {
    try {
      const header = (name: string) => (typeof arrival.headers[name] === 'string' ? (arrival.headers[name] as string) : undefined);
      checkSignature(arrival.body, header, secret);
      const { type, object } = webhookEnvelope(arrival.body, types);
      return accept(type, object, arrival);
    } catch (error) {
      if (error instanceof AppError) return { status: error.statusCode, body: error.body() };
      return { status: 500, body: errorBody(500, 'internal_error', `the kit could not judge this webhook: ${(error as Error).message}`) };
    }
  };
}

/** What the kit answered a webhook, in words: "401 invalid_signature: …". */
export function answerWords(answer: Answer): string {
  const body = answer.body as { code?: unknown; message?: unknown } | null;
  return typeof body?.message === 'string'
    ? `${answer.status} ${String(body.code)}: ${body.message}`
    : `${answer.status} ${JSON.stringify(answer.body)}`;
}

const EXPECTED_BY_THE_SECRET = 'with the webhook secret the kit was given (not printed)';

/** How a webhook was signed, in words for the person running the kit: the signature it carried,
 * whether it matches, and if not what was expected (never the secret, nor the expected value). */
export function signing(arrival: Arrival, secret: string): { ok: boolean; said: string } {
  const header = (name: string) => (typeof arrival.headers[name] === 'string' ? (arrival.headers[name] as string) : undefined);
  if (header('webhook-signature') !== undefined) {
    const verdict = verifyStandardWebhook(
      arrival.body,
      { id: header('webhook-id'), timestamp: header('webhook-timestamp'), signature: header('webhook-signature') },
      secret,
    );
    if (verdict === 'valid') return { ok: true, said: 'signed with the Standard Webhooks headers, which match' };
    return {
      ok: false,
      said:
        verdict === 'stale'
          ? `signed with the Standard Webhooks headers, but webhook-timestamp ${header('webhook-timestamp')} is more than ${STANDARD_WEBHOOK_TOLERANCE_S / 60} minutes from now (it is seconds since the epoch)`
          : `signed with the Standard Webhooks headers, which do not match: expected webhook-id, webhook-timestamp (seconds) and webhook-signature "v1,<base64 HMAC-SHA256 of id.timestamp.body>" ${EXPECTED_BY_THE_SECRET}`,
    };
  }
  const given = header('service-webhook-signature');
  if (given === undefined)
    return { ok: false, said: "not signed: neither Service-Webhook-Signature nor the Standard Webhooks' webhook-signature came" };
  if (verifySignature(arrival.body, given, secret)) return { ok: true, said: 'signed with Service-Webhook-Signature, which matches' };
  const value = given.trim();
  const shape = /^[0-9a-f]+$/i.test(value) ? `${value.length} hex characters` : `${value.length} characters, not hex`;
  return {
    ok: false,
    said: `its Service-Webhook-Signature does not match the body: expected HMAC-SHA256 of the exact ${arrival.body.length} bytes of the body ${EXPECTED_BY_THE_SECRET}, as 64 lower-case hex characters (or base64); it carried ${shape}`,
  };
}

/** A body for a report line: whole when short, else its start and its length. */
export const excerpt = (body: Buffer, most = 300) => {
  const text = body.toString('utf8');
  return text.length <= most ? text : `${text.slice(0, most)}… (${body.length} bytes in all)`;
};

/** "a catalog.updated", "an order.assign.driver". */
export const aOrAn = (type: string) => `${/^[aeiou]/i.test(type) ? 'an' : 'a'} ${type}`;

/** A webhook, how it was signed, and what the kit answered it, in a line. */
export const told = (arrival: Arrival, secret: string) =>
  `${arrival.method} ${arrival.path}, ${signing(arrival, secret).said}: ${excerpt(arrival.body)} → the kit answered as the service would: ${answerWords(arrival.answer!)}`;

const SIGNING_RULE =
  'carries Service-Webhook-Signature, HMAC-SHA256 of the exact body with the webhook secret (or the Standard Webhooks headers)';

/** A webhook check's detail: the webhook that came and what the kit answered it, or that none came. */
export const webhookDetail = (arrival: Arrival | null, type: string, secret: string, more = '') =>
  arrival
    ? `${told(arrival, secret)}. Rule: ${aOrAn(type)} webhook ${SIGNING_RULE}${more}, and is taken (2xx)`
    : `no ${type} arrived in time. Rule: ${aOrAn(type)} webhook ${SIGNING_RULE}${more}`;
