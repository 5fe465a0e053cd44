// Partner events to their webhook endpoints: the outbox's transport for messages with an endpoint,
// beside ./provider-transport.ts (the worker's policy is the outbox's one, ./worker.ts). Each call
// is signed per Standard Webhooks (every secret signing now: two or more during a rotation),
// bounded (WEBHOOK_TIMEOUT_MS, the first 64 KB of the answer, no redirects followed), made only to
// an address the endpoint may reach, and kept as an attempt. What an endpoint may reach, which
// secrets sign and what a resend's step does are the partner events module's rules
// (modules/events/endpoints.ts, endpointRules), handed over by the composition root. Every answer but a 2xx
// is tried again: an endpoint is the partner's own, and its 4xx today may be fixed tomorrow. An
// endpoint whose attempts all failed for five days is disabled; its messages wait until it is
// enabled again. A partner has at most WEBHOOK_CONCURRENCY_PER_PARTNER calls under way per
// instance (twice that for a moment at most), so one partner's thousand hanging endpoints leave
// room for every other partner's.
import type { LookupFunction } from 'node:net';
import { Kept } from '../common/kept.js';
import type { Services } from '../services.js';
import type { Answer, Message, Sent, Transport } from './worker.js';
import { exchange } from '../integrations/provider-client.js';
import { tracedCall } from '../telemetry/tracing.js';
import { statementsOf } from '../db/statements.js';
import { tables } from '../db/tables.js';
import { endpointById, holdEndpoint, noteFailure, noteSuccess, type EndpointRow } from '../db/sql/events.js';
import { signStandardWebhook } from '../common/signatures.js';
import { newId } from '../common/ids.js';

/** What the partner events module rules of an endpoint's calls. */
export type EndpointRules = {
  /** Why a call to this URL is refused before it connects (its host a literal address the
   * endpoint may not reach), or null. */
  refused: (url: string) => string | null;
  /** The lookup a call connects through: it refuses any address the endpoint may not reach. */
  lookup: LookupFunction;
  /** The endpoint's secrets that sign now, sealed: the current one and any a rotation replaced lately. */
  signing: (endpoint: EndpointRow) => string[];
  /** Kinds of message that are steps rather than calls (a resend's next slice), and what each does. */
  steps: Record<string, (message: Message, endpoint: EndpointRow) => Promise<void>>;
};

/** How much of an endpoint's answer is read: enough for an error message. */
const MAX_ANSWER_BYTES = 64 * 1024;
/** How long an endpoint may fail, every attempt, before it is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;

/** An endpoint's refusal, in a line: its status and the start of its answer. */
function describe(response: { status: number; text: string }): string {
  const text = response.text.replace(/\s+/g, ' ').trim().slice(0, 200);
  return `${response.status}${text ? ` ${text}` : ''}`;
}

const disabledReason = (now: Date) => `every attempt failed for five days (disabled ${now.toISOString()})`;

export function endpointTransport(services: Services, rules: EndpointRules): Transport {
  const cap = services.config.webhooks.concurrencyPerPartner;
  /** Calls under way per partner, in this instance. */
  const busy = new Map<string, number>();
  /** What a call found of its endpoint, for the attempt's record. */
  const calls = new WeakMap<Message, { endpoint: EndpointRow; durationMs: number }>();
  /** Secrets opened, by their sealed text (which never changes): one decryption per secret. */
  const opened = new Kept<string, string>({ max: 10_000 });
  const open = (sealed: string) => {
    let secret = opened.get(sealed);
    if (secret === undefined) {
      secret = services.sealer.open(sealed);
      opened.set(sealed, secret);
    }
    return secret;
  };

  /** One signed call to the endpoint, from the stored bytes; its webhook-id is the event's id. */
  const call = (endpoint: EndpointRow, message: Message) => {
    const refused = rules.refused(endpoint.url);
    if (refused) throw new Error(`refused before connecting: ${refused}`);
    const id = message.subjectId!;
    const timestamp = Math.floor(Date.now() / 1000);
    // Every secret signing now: the current one, and each a rotation replaced in the last day.
    const secrets = rules.signing(endpoint).map(open);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'partner-ordering-webhooks',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': secrets.map((secret) => signStandardWebhook(id, timestamp, message.body, secret)).join(' '),
    };
    return tracedCall(
      services.tracing,
      () => {
        const where = new URL(endpoint.url);
        return [
          `POST ${where.host}`,
          { 'http.request.method': 'POST', 'server.address': where.hostname, 'webhook.endpoint': endpoint.id, 'webhook.event': id },
        ];
      },
      headers,
      (traced) =>
        exchange('POST', endpoint.url, { headers: traced, body: message.body }, services.config.webhooks.timeoutMs, {
          dnsLookup: rules.lookup,
          maxBytes: MAX_ANSWER_BYTES,
        }),
    );
  };

  return {
    name: 'partner-webhooks',
    scope: {
      share: () => ({ endpoints: true, partnersAtCap: [...busy].filter(([, count]) => count >= cap).map(([partner]) => partner) }),
      // A claim takes no more than one partner may have under way: a partner just under its cap
      // goes over it by less than a claim.
      batch: cap,
      maxInFlight: 256,
    },
    accepts: (message) => (busy.get(message.partnerId ?? '') ?? 0) < cap,
    begin: (message) => {
      const partner = message.partnerId ?? '';
      busy.set(partner, (busy.get(partner) ?? 0) + 1);
      return () => {
        const left = (busy.get(partner) ?? 1) - 1;
        if (left) busy.set(partner, left);
        else busy.delete(partner);
      };
    },
    async send(message): Promise<Sent> {
      const [endpoint] = await statementsOf(services.db).read<EndpointRow>(endpointById(message.endpointId!, null));
      if (!endpoint) return { instead: { status: 'dead', error: 'the endpoint was deleted' } };
      // Not an attempt: it waits for the endpoint to be enabled again.
      if (endpoint.status !== 'enabled') return { instead: { status: 'waiting', error: 'the endpoint is disabled' } };
      // A step (a resend's: the next of its events queued), no call made.
      const step = rules.steps[message.kind];
      if (step) {
        await step(message, endpoint);
        return { done: true };
      }
      const started = Date.now();
      let answer: Answer;
      try {
        const response = await call(endpoint, message);
        const ok = response.status >= 200 && response.status < 300;
        answer = { status: response.status, headers: response.headers, error: ok ? null : describe(response) };
      } catch (failure) {
        answer = { status: null, error: (failure as Error).message };
      }
      calls.set(message, { endpoint, durationMs: Date.now() - started });
      return { answer, verdict: answer.error === null ? 'delivered' : 'retry' };
    },
    /** The attempt kept, and what it does to the endpoint's run of failures. */
    async record(run, message, answer, fate) {
      const { endpoint, durationMs } = calls.get(message)!;
      // Deleted while the call was under way: the message ends with it, and no attempt is kept
      // for an endpoint that is gone. Otherwise the endpoint stays until the commit.
      if (!(await run(holdEndpoint(endpoint.id))).length) return { status: 'dead', error: 'the endpoint was deleted' };
      const now = new Date();
      await run(
        tables.attempt.insert({
          id: newId('att'),
          endpointId: endpoint.id,
          eventId: message.subjectId,
          messageId: message.id,
          attemptedAt: now,
          statusCode: answer.status,
          durationMs,
          error: answer.error,
        }),
      );
      if (fate === 'delivered') {
        if (endpoint.failingSince) await run(noteSuccess(endpoint.id));
        return undefined;
      }
      const [first, disable] = noteFailure(endpoint.id, now, new Date(now.getTime() - DISABLE_AFTER_MS), disabledReason(now));
      await run(first!);
      if ((await run(disable!)).length)
        run.after(() =>
          services.log.warn(
            { endpoint: endpoint.id, partner: endpoint.partnerId },
            'webhook endpoint disabled: every attempt failed for five days',
          ),
        );
      return undefined;
    },
  };
}
