// The delivery worker: sends due outbox messages and records the outcome. Messages of one
// ordering key go out one at a time, in order (./runner.ts, claimDue).
// 2xx: delivered. Network errors, timeouts, 408, 429 (honouring Retry-After) and 5xx: retried
// with exponential backoff and jitter. Other 4xx: the receiver refused it and retrying cannot
// help: dead at once. After the last attempt: dead, visible with its attempts and last error.
// Modules that must know how a message ended (a menu publish) register an outcome handler; it
// runs in the transaction that records the outcome.
import type { Services } from '../services.js';
import type { OutboxMessage } from '../db/client.js';
import { callForOnboarding, send, describeFailure, type ProviderResponse } from '../integrations/provider-client.js';
import { providerUrl, requireProvider } from '../integrations/providers.js';
import { backoff, deliveredReleases, tableRunner, type Runner } from './runner.js';
import { endingRelease, release, successorWaits } from '../db/sql/work.js';
import { signBody } from '../common/signatures.js';
import { statementsOf, type Run } from '../db/statements.js';
import { ReauthorizationRequired } from '../common/errors.js';
import { continueTrace } from './outbox.js';
import { setTimeout as sleep } from 'node:timers/promises';

export type Message = OutboxMessage;
export type Outcome = { delivered: boolean; status: number | null; error: string | null; body?: unknown };

/** Reads what it needs (outside any transaction) and returns the writes that run in the
 * transaction recording the outcome, through its `run` only; what those return runs after the
 * commit. */
export type OutcomeHandler = (message: Message, outcome: Outcome, services: Services) => Promise<OutcomeWrites | undefined>;
/** The writes of an outcome; what they return, if anything, runs after the commit. */
// biome-ignore lint/suspicious/noConfusingVoidType: writes may return nothing at all (an async function without a return)
type OutcomeWrites = (run: Run) => Promise<void | (() => void)>;

/** What each kind of message's outcome does, by kind: each module's own list, assembled once. */
export type OutcomeHandlers = Readonly<Record<string, OutcomeHandler>>;

/** What a 2xx must hold for a kind of message to count as delivered (the POS's order id in its
 * answer to an order): why it does not, or null. A 2xx that fails its check is retried like a
 * 5xx, then dead, with that reason as its error: never a silent success. */
export type AnswerCheck = (body: unknown) => string | null;
export type AnswerChecks = Readonly<Record<string, AnswerCheck>>;

/** What a message that died does besides (the partner hears of it: delivery.dead), in the
 * transaction that records its death. */
export type DeadLetterWrites = (run: Run, services: Services, message: Message, outcome: Outcome) => Promise<void>;

export class DeliveryWorker {
  private readonly runner: Runner<Message>;
  private readonly releaseDelivered: (id: string, status: number) => Promise<boolean>;

  constructor(
    private readonly services: Services,
    private readonly outcomes: OutcomeHandlers,
    private readonly answerChecks: AnswerChecks = {},
    private readonly deadLetter?: DeadLetterWrites,
  ) {
    // Messages to providers; those to partner endpoints have their own sender (modules/events).
    this.runner = tableRunner<Message>(
      'delivery',
      services,
      'outbox',
      (message) => continueTrace(services.tracing, message, () => this.deliver(message)),
      { share: () => ({ endpoints: false }) },
    );
    this.releaseDelivered = deliveredReleases(services.db);
  }

  start = () => {
    this.services.delivery.answerWith(this);
    this.runner.start();
  };
  wake = () => this.runner.wake();
  /** On the next turn of the event loop, so the answer of the request that wrote it goes first. */
  dispatch = (message: Message) => void setImmediate(() => this.runner.begin(message));
  /** Set while stopping: a record that fails then is left to its lease at once. */
  private stopping = false;
  stop = () => {
    this.stopping = true;
    this.services.delivery.answerWith(null);
    return this.runner.stop();
  };

  private async send(message: Message): Promise<ProviderResponse> {
    const headers: Record<string, string> = {
      ...(message.headers ? (JSON.parse(message.headers) as Record<string, string>) : {}),
      'idempotency-key': message.idempotencyKey,
      'content-type': 'application/json',
    };
    // The stored bytes go out as they are: a signature over them stays true.
    const body = message.body;
    const provider = await requireProvider(this.services, message.source);
    // Event providers and DSPs check who sends them events: X-Service-Signature, HMAC-SHA256 of
    // the body with their webhook secret. A POS is called with the merchant's token only.
    if (provider.kind !== 'pos' && provider.webhookSecret) headers['x-service-signature'] = signBody(body, provider.webhookSecret);
    if (message.onboardingId) {
      return callForOnboarding(this.services, message.source, message.onboardingId, message.operation as never, {
        method: 'POST',
        headers,
        body,
        retries: 0,
      });
    }
    return send(this.services, 'POST', providerUrl(provider, message.operation as never), { headers, body, retries: 0 });
  }

  /** Ends a message, delivered or dead, with what its outcome writes. */
  private async finish(message: Message, data: Record<string, unknown>, outcome: Outcome): Promise<void> {
    const writes = await this.outcomes[message.kind]?.(message, outcome, this.services);
    const sql = statementsOf(this.services.db);
    const alone = !writes && !(data.status === 'dead' && this.deadLetter);
    // What the outcome's writes answer, to run after their commit.
    let after: unknown;
    // Whether a message of its ordering key now has its turn.
    let successor: boolean;
    if (alone) {
      // A release with nothing beside it is no transaction of its own: delivered (most messages,
      // a DSP's accept among them, end this way), it goes with the others of its moment; else it
      // is one statement (on PostgreSQL, no BEGIN and COMMIT round trips around it).
      successor =
        outcome.delivered && outcome.status !== null
          ? await this.releaseDelivered(message.id, outcome.status)
          : successorWaits(await sql.write(endingRelease(message.id, data)));
    } else {
      after = await sql.transaction(async (run) => {
        if (data.status === 'dead') await this.deadLetter?.(run, this.services, message, outcome);
        const then = await writes?.(run);
        // Last, deferred: on PostgreSQL it goes in one statement with the writes' own deferred
        // ones (a DSP's event), not a round trip of its own. Nothing of the writes reads the row.
        run.defer(release('outbox', message.id, data));
        return then;
      });
      // A deferred release answers nothing: a claim round finds out (these ends are the rarer ones).
      successor = message.orderingKey !== null;
    }
    // What the writes put in the outbox woke the worker itself (./outbox.ts): no claim round for it.
    if (typeof after === 'function') after();
    if (successor) this.runner.wake();
    // A dead letter, or a menu publish settled: the organization's dashboard shows both.
    if (message.orgId && (data.status === 'dead' || message.kind === 'menu.publish')) {
      this.services.pubsub.publish('organizationChanged', message.orgId, { kind: 'delivery', id: message.id });
    }
  }

  private async deliver(message: Message): Promise<void> {
    const { config, log } = this.services;
    let response: ProviderResponse | undefined;
    let error: string;
    try {
      response = await this.send(message);
    } catch (failure) {
      if (failure instanceof ReauthorizationRequired) {
        // Not the receiver's failure, and no attempt of it: the message waits, its attempts as
        // they were, until a new onboarding of the same account sends it on (modules/onboarding).
        return this.record(message, () =>
          statementsOf(this.services.db).write(
            release('outbox', message.id, { status: 'waiting', attempts: message.attempts - 1, lastError: failure.message }),
          ),
        );
      }
      error = (failure as Error).message;
    }
    // What the peer answered decides the outcome; recording it is another matter (`record`).
    let unfit = false;
    if (response && response.status >= 200 && response.status < 300) {
      const problem = this.answerChecks[message.kind]?.(response.body) ?? null;
      if (!problem) {
        const delivered = response;
        return this.record(message, () =>
          this.finish(
            message,
            { status: 'delivered', deliveredAt: new Date(), lastStatus: delivered.status, lastError: null },
            { delivered: true, status: delivered.status, error: null, body: delivered.body },
          ),
        );
      }
      unfit = true;
      error = `${response.status} ${problem}`;
    } else if (response) error = describeFailure(response);
    const status = response?.status ?? null;
    const retryable = unfit || status === null || status === 408 || status === 429 || status >= 500;
    if (!retryable || message.attempts >= config.outbox.maxAttempts) {
      log.warn({ message: message.id, kind: message.kind, attempts: message.attempts, error: error! }, 'dead-lettered');
      return this.record(message, () =>
        this.finish(message, { status: 'dead', lastStatus: status, lastError: error }, { delivered: false, status, error }),
      );
    }
    const nextAttemptAt = new Date(Date.now() + retryDelay(message.attempts, config.outbox, response));
    return this.record(message, () =>
      statementsOf(this.services.db).write(release('outbox', message.id, { nextAttemptAt, lastStatus: status, lastError: error })),
    );
  }

  /**
   * Writes what became of a message. A database error here (a connection not to be had in time,
   * the server restarting) is the database's, not the peer's: the write is tried again, and never
   * taken for a failed send (a POS's yes recorded as a failed order, the DSP told `fail`). Past
   * the tries the message is left to its lease, which lapses once this work ends: any instance
   * then takes it up and sends it again under its idempotency key, and the peer answers that
   * repeat as it answered the first.
   */
  private async record(message: Message, write: () => Promise<unknown>): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        await write();
        return;
      } catch (error) {
        const wait = RECORD_RETRY_MS[attempt];
        if (wait === undefined || this.stopping) throw error;
        this.services.log.warn({ err: error, message: message.id, attempt: attempt + 1 }, 'recording a delivery failed; trying again');
        await sleep(wait);
      }
    }
  }
}

/** Waits before each new try of a delivery's record: about three seconds in all, inside the lease
 * that the runner renews while the work goes on. */
const RECORD_RETRY_MS = [50, 200, 500, 1000, 1500];

/** Backoff for the next attempt; a 429's Retry-After (seconds or a date) wins. */
export function retryDelay(attempts: number, policy: { retryBaseMs: number; retryMaxMs: number }, response?: ProviderResponse): number {
  const header = response?.status === 429 ? response.headers['retry-after'] : undefined;
  const retryAfter = typeof header === 'string' ? (/^\d+$/.test(header) ? Number(header) * 1000 : Date.parse(header) - Date.now()) : NaN;
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return Math.min(retryAfter, policy.retryMaxMs);
  return backoff(attempts, policy);
}
