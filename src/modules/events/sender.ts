// Sends partner events to their webhook endpoints: the outbox's messages with an endpoint, in a
// runner of their own, so that partner endpoints never take the room of orders going to a POS.
// Each call is signed per Standard Webhooks (every secret signing now: two during a rotation),
// bounded (WEBHOOK_TIMEOUT_MS, the first 64 KB of the answer, no redirects followed), made only to
// an address the endpoint may reach (./address.ts), and logged as an attempt. Every failure is
// retried with backoff; after the last attempt the message is dead, and a delivery.dead event
// tells the partner (its other endpoints). An endpoint whose attempts all failed for five days is
// disabled; its messages wait until it is enabled again. A partner has at most
// WEBHOOK_CONCURRENCY_PER_PARTNER calls under way per instance (twice that for a moment at most),
// so one partner's thousand hanging endpoints leave room for every other partner's.
import type { Services } from '../../services.js';
import type { DeadLetterWrites, Message } from '../../delivery/worker.js';
import { retryDelay } from '../../delivery/worker.js';
import { tableRunner, type Runner } from '../../delivery/runner.js';
import { endingRelease, release, successorWaits } from '../../db/sql/work.js';
import { exchange, type ProviderResponse } from '../../integrations/provider-client.js';
import { tracedCall } from '../../telemetry/tracing.js';
import { continueTrace } from '../../delivery/outbox.js';
import { statementsOf, type Run, type Step } from '../../db/statements.js';
import { endpointById, holdEndpoint, noteFailure, noteSuccess } from '../../db/sql/events.js';
import { signStandardWebhook } from '../../common/signatures.js';
import { newId } from '../../common/ids.js';
import { addressPolicy, retired, type EndpointRow } from './endpoints.js';
import { guardedLookup, refusedLiteral, systemResolver } from './address.js';
import { recordEvent } from './service.js';
import { nextSlice, RESEND_STEP } from './resends.js';
import { tables } from '../../db/tables.js';

/** How much of an endpoint's answer is read: enough for an error message. */
const MAX_ANSWER_BYTES = 64 * 1024;
/** How long an endpoint may fail, every attempt, before it is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;

export class EndpointSender {
  private readonly runner: Runner<Message>;
  /** Calls under way per partner, in this instance. */
  private readonly busy = new Map<string, number>();

  private readonly cap: number;

  constructor(private readonly services: Services) {
    const cap = services.config.webhooks.concurrencyPerPartner;
    this.cap = cap;
    this.runner = tableRunner<Message>('partner-webhooks', services, 'outbox', (message) => this.deliver(message), {
      share: () => ({ endpoints: true, partnersAtCap: [...this.busy].filter(([, count]) => count >= cap).map(([partner]) => partner) }),
      // A claim takes no more than one partner may have under way: a partner just under its cap
      // goes over it by less than a claim.
      batch: cap,
      maxInFlight: 256,
    });
  }

  start = () => {
    this.services.partnerDelivery.answerWith(this);
    this.runner.start();
  };
  wake = () => this.runner.wake();
  /** A message written already claimed, sent on the next turn of the event loop; a partner at its
   * cap gets it back to the queue instead (claimed again when there is room). */
  dispatch = (message: Message) =>
    void setImmediate(() => {
      if ((this.busy.get(message.partnerId ?? '') ?? 0) < this.cap) return this.runner.begin(message);
      statementsOf(this.services.db)
        .write(release('outbox', message.id, { attempts: message.attempts - 1 }))
        .then(this.wake, (error: unknown) =>
          this.services.log.warn({ err: error, message: message.id }, 'could not queue a partner webhook; its lease will lapse'),
        );
    });
  stop = () => {
    this.services.partnerDelivery.answerWith(null);
    return this.runner.stop();
  };

  private async deliver(message: Message): Promise<void> {
    const partner = message.partnerId ?? '';
    this.busy.set(partner, (this.busy.get(partner) ?? 0) + 1);
    try {
      // In the trace of the change that wrote it, whenever and wherever it is sent.
      await continueTrace(this.services.tracing, message, () => this.attempt(message));
    } finally {
      const left = (this.busy.get(partner) ?? 1) - 1;
      if (left) this.busy.set(partner, left);
      else this.busy.delete(partner);
    }
  }

  private async attempt(message: Message): Promise<void> {
    const sql = statementsOf(this.services.db);
    const [endpoint] = await sql.read<EndpointRow>(endpointById(message.endpointId!, null));
    if (!endpoint) {
      await sql.write(release('outbox', message.id, { status: 'dead', lastError: 'the endpoint was deleted' }));
      return;
    }
    if (endpoint.status !== 'enabled') {
      // Not an attempt: it waits for the endpoint to be enabled again.
      await sql.write(
        release('outbox', message.id, {
          status: 'waiting',
          attempts: message.attempts - 1,
          lastError: 'the endpoint is disabled',
        }),
      );
      return;
    }
    // A resend's step: the next of its events queued, no call made (./resends.ts).
    if (message.kind === RESEND_STEP) return nextSlice(this.services, message, endpoint);
    const started = Date.now();
    let response: Pick<ProviderResponse, 'status' | 'headers' | 'text'> | undefined;
    let error: string | null = null;
    try {
      response = await this.call(endpoint, message);
      if (response.status < 200 || response.status >= 300) error = describe(response);
    } catch (failure) {
      error = (failure as Error).message;
    }
    await this.finish(message, endpoint, { status: response?.status ?? null, error, durationMs: Date.now() - started }, response);
  }

  /** Secrets opened, by their sealed text (which never changes): one decryption per secret. */
  private readonly opened = new Map<string, string>();
  private open(sealed: string): string {
    let secret = this.opened.get(sealed);
    if (secret === undefined) {
      if (this.opened.size >= 10_000) this.opened.clear();
      secret = this.services.sealer.open(sealed);
      this.opened.set(sealed, secret);
    }
    return secret;
  }

  /** Every secret signing now: the current one, and each a rotation replaced in the last day. */
  private secretsOf(endpoint: EndpointRow): string[] {
    return [endpoint.secretEnc, ...retired(endpoint).map((secret) => secret.sealed)].map((sealed) => this.open(sealed));
  }

  /** One signed call to the endpoint, from the stored bytes. */
  private call(endpoint: EndpointRow, message: Message) {
    const { services } = this;
    const policy = addressPolicy(services);
    const refused = refusedLiteral(endpoint.url, policy);
    if (refused) throw new Error(`refused before connecting: ${refused}`);
    const id = (JSON.parse(message.headers ?? '{}') as { 'webhook-id': string })['webhook-id'];
    const timestamp = Math.floor(Date.now() / 1000);
    const signatures = this.secretsOf(endpoint).map((secret) => signStandardWebhook(id, timestamp, message.body, secret));
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'partner-ordering-webhooks',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatures.join(' '),
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
          dnsLookup: guardedLookup(services.resolveHost ?? systemResolver, policy),
          maxBytes: MAX_ANSWER_BYTES,
        }),
    );
  }

  /** The attempt's record, and what it does to the message and the endpoint, in one transaction. */
  private async finish(
    message: Message,
    endpoint: EndpointRow,
    attempt: { status: number | null; error: string | null; durationMs: number },
    response: Pick<ProviderResponse, 'status' | 'headers'> | undefined,
  ): Promise<void> {
    const { services } = this;
    const now = new Date();
    const delivered = attempt.error === null;
    const dead = !delivered && message.attempts >= services.config.outbox.maxAttempts;
    const ending: Step = delivered
      ? endingRelease(message.id, { status: 'delivered', deliveredAt: now, lastStatus: attempt.status, lastError: null })
      : dead
        ? endingRelease(message.id, { status: 'dead', lastStatus: attempt.status, lastError: attempt.error })
        : release('outbox', message.id, {
            nextAttemptAt: new Date(now.getTime() + retryDelay(message.attempts, services.config.outbox, response as ProviderResponse)),
            lastStatus: attempt.status,
            lastError: attempt.error,
          });
    const eventId = (JSON.parse(message.headers ?? '{}') as { 'webhook-id': string })['webhook-id'];
    const disabled = await statementsOf(services.db).transaction(async (run) => {
      // Deleted while the call was under way: the message ends with it, and no attempt is kept
      // for an endpoint that is gone. Otherwise the endpoint stays until the commit.
      if (!(await run(holdEndpoint(endpoint.id))).length) {
        await run(endingRelease(message.id, { status: 'dead', lastStatus: attempt.status, lastError: 'the endpoint was deleted' }));
        return false;
      }
      // The event after it for the same order, if one waits its turn, is claimed at once.
      if (successorWaits(await run(ending))) run.after(this.wake);
      await run(
        tables.attempt.insert({
          id: newId('att'),
          endpointId: endpoint.id,
          eventId,
          messageId: message.id,
          attemptedAt: now,
          statusCode: attempt.status,
          durationMs: attempt.durationMs,
          error: attempt.error,
        }),
      );
      if (delivered) {
        if (endpoint.failingSince) await run(noteSuccess(endpoint.id));
        return false;
      }
      if (dead) await this.tellDead(run, message, attempt);
      const [first, disable] = noteFailure(endpoint.id, now, new Date(now.getTime() - DISABLE_AFTER_MS), disabledReason(now));
      await run(first!);
      return (await run(disable!)).length > 0;
    });
    if (dead) services.log.warn({ message: message.id, endpoint: endpoint.id, error: attempt.error }, 'partner webhook dead-lettered');
    if (disabled)
      services.log.warn(
        { endpoint: endpoint.id, partner: endpoint.partnerId },
        'webhook endpoint disabled: every attempt failed for five days',
      );
  }

  /** delivery.dead to the partner's other endpoints; a dead delivery.dead tells no one again. */
  private async tellDead(run: Run, message: Message, attempt: { status: number | null; error: string | null }): Promise<void> {
    if (message.kind === 'delivery.dead' || !message.partnerId) return;
    await recordEvent(run, this.services, {
      type: 'delivery.dead',
      partnerId: message.partnerId,
      orgId: message.orgId,
      except: message.endpointId ?? undefined,
      data: deadData(message, attempt),
    });
  }
}

const disabledReason = (now: Date) => `every attempt failed for five days (disabled ${now.toISOString()})`;

/** An endpoint's refusal, in a line: its status and the start of its answer. */
function describe(response: Pick<ProviderResponse, 'status' | 'text'>): string {
  const text = response.text.replace(/\s+/g, ' ').trim().slice(0, 200);
  return `${response.status}${text ? ` ${text}` : ''}`;
}

/** A message to a provider died: its partner hears of it (delivery.dead). */
export const providerMessageDied: DeadLetterWrites = async (run, services, message, outcome) => {
  if (!message.partnerId) return;
  await recordEvent(run, services, {
    type: 'delivery.dead',
    partnerId: message.partnerId,
    orgId: message.orgId,
    data: deadData(message, outcome),
  });
};

/** delivery.dead's data: which message died, where it was going, and why. */
export function deadData(message: Message, attempt: { status: number | null; error: string | null }): Record<string, unknown> {
  return {
    delivery_id: message.id,
    kind: message.kind,
    ...(message.endpointId
      ? { endpoint_id: message.endpointId, event_id: (JSON.parse(message.headers ?? '{}') as Record<string, string>)['webhook-id'] }
      : { destination: message.source }),
    attempts: message.attempts,
    last_status: attempt.status,
    last_error: attempt.error,
  };
}
