// The delivery worker: the one policy of the outbox, for every destination. A transport carries a
// message (a provider call with the merchant's token, ./provider-transport.ts; a Standard Webhooks
// call to a partner's endpoint, ./endpoint-transport.ts) and says what the peer answered; the
// worker decides, the same way for both:
// - the peer took it (its transport says so, and the kind's answer check holds): delivered;
// - it may take it later (no answer, a timeout, 408, 429 honouring Retry-After, 5xx, or what the
//   transport counts as not yet): tried again with exponential backoff and jitter;
// - it refused it for good, or the attempts ran out: dead, kept with its last answer, its partner
//   told (delivery.dead), redeliverable.
// Messages of one ordering key go out one at a time, in order (../db/sql/work.ts). How a message
// ended is recorded in one transaction with what its kind's outcome handler writes (a menu
// publish settled, an order taken) and what its transport keeps of the attempt. Once recorded, the
// worker says so (WorkerEvents): the operator's log and the tests hear it, rather than reading rows.
import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatched, Services } from '../services.js';
import { backoff, deliveredReleases, tableRunner, type ClaimScope, type Runner } from './runner.js';
import { bodyApart, endingRelease, release } from '../db/sql/work.js';
import { RowChanged, statementsOf, type Run } from '../db/statements.js';
import { continueTrace } from './outbox.js';

/** A message: its row, with its subject's row when its writer handed it over (./outbox.ts). */
export type Message = Dispatched;

/** What the peer answered: its status (null when it never answered) and body, or why not. */
export type Answer = {
  status: number | null;
  body?: unknown;
  headers?: Record<string, string | string[] | undefined>;
  error: string | null;
};
export type Outcome = { delivered: boolean; status: number | null; error: string | null; body?: unknown };

/** How a transport's call went. */
export type Sent =
  /** The peer's answer, and what the transport makes of it. */
  | { answer: Answer; verdict: 'delivered' | 'retry' | 'refused' }
  /** No call made: the message waits, its attempt not counted (the merchant must authorize the
   * provider again; the endpoint is disabled), or ends (its endpoint is gone). */
  | { instead: { status: 'waiting' | 'dead'; error: string } }
  /** The transport ended the message itself, with its own writes (a resend's step). */
  | { done: true };

/** A way to carry messages: which share of the outbox it claims and its room, the call, and what
 * it keeps of each attempt. */
export type Transport = {
  name: string;
  scope: ClaimScope;
  /** Whether it takes this message now (a partner at its cap: not yet). */
  accepts?: (message: Message) => boolean;
  /** Around each message's work: what it counts under way, released by what it returns. */
  begin?: (message: Message) => () => void;
  send: (message: Message) => Promise<Sent>;
  /** What each kind of its messages' outcome writes, and what a 2xx must hold, by kind. */
  outcomes?: OutcomeHandlers;
  answerChecks?: AnswerChecks;
  /** Its writes beside the message's release (an endpoint's attempt, its run of failures). A
   * message it finds it cannot keep (its endpoint deleted meanwhile) ends as it returns. */
  record?: (
    run: Run,
    message: Message,
    answer: Answer,
    fate: 'delivered' | 'retry' | 'dead',
  ) => Promise<{ status: 'dead'; error: string } | undefined>;
};

/** The subject an outcome handler is given: what the message is about, decoded once when it was
 * written (`OutboxMessage.subjectId`), what it was stored with (its headers), and the subject's
 * row as its writer left it, when it was handed over (./outbox.ts, `subjectRow`). */
export type Subject = Pick<Message, 'id' | 'kind' | 'subjectId' | 'partnerId' | 'orgId' | 'headers' | 'subjectRow'>;

/** Reads what it needs (outside any transaction) and returns the writes that run in the
 * transaction recording the outcome, through its `run` only; what those return runs after the
 * commit. */
export type OutcomeHandler = (subject: Subject, outcome: Outcome, services: Services) => Promise<OutcomeWrites | undefined>;
/** The writes of an outcome; what they return, if anything, runs after the commit. */
// biome-ignore lint/suspicious/noConfusingVoidType: writes may return nothing at all (an async function without a return)
export type OutcomeWrites = (run: Run) => Promise<void | (() => void)>;

/** What each kind of message's outcome does, by kind: each module's own list, assembled once. */
export type OutcomeHandlers = Readonly<Record<string, OutcomeHandler>>;

/** What a 2xx must hold for a kind of message to count as delivered (the POS's order id in its
 * answer to an order): why it does not, or null. A 2xx that fails its check is retried like a
 * 5xx, then dead, with that reason as its error: never a silent success. */
export type AnswerCheck = (body: unknown) => string | null;
export type AnswerChecks = Readonly<Record<string, AnswerCheck>>;

/** Each module's handlers of one kind (outcomes, answer checks) as one list: a kind of message two
 * modules both handle is a mistake found at start-up, not a handler silently replaced. */
export function byKind<T>(what: string, ...lists: Readonly<Record<string, T>>[]): Readonly<Record<string, T>> {
  const all: Record<string, T> = {};
  for (const list of lists)
    for (const [kind, handler] of Object.entries(list)) {
      if (kind in all) throw new Error(`two ${what} handlers for ${kind} messages`);
      all[kind] = handler;
    }
  return all;
}

/** What a message that died does besides (the partner hears of it: delivery.dead), in the
 * transaction that records its death. */
export type DeadLetterWrites = (run: Run, services: Services, message: Message, outcome: Outcome) => Promise<void>;

export type DeliveryPlan = {
  /** For messages to providers, and to partners' endpoints. */
  transports: { provider: Transport; endpoint: Transport };
  deadLetter: DeadLetterWrites;
};

/** What the worker says of its messages, once what became of each is recorded. */
export type WorkerEvents = {
  /** The peer took it. */
  delivered: [message: Message, status: number | null];
  /** It died: refused, out of attempts, or its endpoint gone; kept with its last answer. */
  dead: [message: Message, error: string | null];
  /** Tried and to be tried again later. */
  retry: [message: Message, error: string | null];
  /** Nothing under way and nothing due when it last looked (it says so again after more work). */
  idle: [];
};

/** Waits before each new try of a delivery's record: about three seconds in all, inside the lease
 * that the runner renews while the work goes on. */
const RECORD_RETRY_MS = [50, 200, 500, 1000, 1500];
/** Each time an outcome's writes find their row changed, another change of it landed: far more
 * than the changes one message's subject ever gets at once. */
const MOST_DECISIONS = 40;

export class DeliveryWorker extends EventEmitter<WorkerEvents> {
  private readonly runners: { provider: Runner<Message>; endpoint: Runner<Message> };
  /** Which runners are quiet now; the worker is idle when both are. */
  private readonly quiet = new Set<string>();
  private readonly releaseDelivered: (id: string, status: number) => Promise<boolean>;
  /** Set while stopping: a record that fails then is left to its lease at once. */
  private stopping = false;

  constructor(
    private readonly services: Services,
    private readonly plan: DeliveryPlan,
  ) {
    super();
    const runner = (transport: Transport) =>
      tableRunner<Message>(
        transport.name,
        services,
        'outbox',
        (message) => continueTrace(services.tracing, message, () => this.deliver(transport, message)),
        transport.scope,
        {
          listening: () => this.listenerCount('idle') > 0,
          quiet: (idle) => {
            if (!idle) return void this.quiet.delete(transport.name);
            this.quiet.add(transport.name);
            if (this.isIdle()) this.emit('idle');
          },
        },
      );
    this.runners = { provider: runner(plan.transports.provider), endpoint: runner(plan.transports.endpoint) };
    this.releaseDelivered = deliveredReleases(services.db);
    // The operator's log hears what the tests hear.
    this.on('dead', (message, error) =>
      services.log.warn({ message: message.id, kind: message.kind, attempts: message.attempts, error }, 'dead-lettered'),
    );
  }

  /** Whether nothing is under way and nothing was due when each runner last looked. */
  isIdle = () => this.quiet.size === 2;

  /** Resolves once the worker is idle (at once when it is). */
  idle = (): Promise<void> => (this.isIdle() ? Promise.resolve() : new Promise((resolve) => this.once('idle', () => resolve())));

  start = () => {
    this.services.delivery.answerWith(this);
    this.runners.provider.start();
    this.runners.endpoint.start();
  };
  wake = () => {
    this.runners.provider.wake();
    this.runners.endpoint.wake();
  };
  /** A message written already claimed, sent on the next turn of the event loop (the answer of the
   * request that wrote it goes first); one its transport does not take now goes back to the queue,
   * claimed again when there is room. */
  dispatch = (message: Message) =>
    void setImmediate(() => {
      const which = message.endpointId === null ? 'provider' : 'endpoint';
      if (this.plan.transports[which].accepts?.(message) ?? true) return this.runners[which].begin(message);
      statementsOf(this.services.db)
        .write(release('outbox', message.id, { attempts: message.attempts - 1 }))
        .then(this.wake, (error: unknown) =>
          this.services.log.warn({ err: error, message: message.id }, 'could not queue a message back; its lease will lapse'),
        );
    });
  stop = async () => {
    this.stopping = true;
    this.services.delivery.answerWith(null);
    await Promise.all([this.runners.provider.stop(), this.runners.endpoint.stop()]);
  };

  private async deliver(transport: Transport, stored: Message): Promise<void> {
    const done = transport.begin?.(stored);
    try {
      // A large body kept apart (./outbox.ts) is read for the call alone.
      const message = stored.bodyApart
        ? { ...stored, body: (await statementsOf(this.services.db).read<{ body: string }>(bodyApart(stored.id)))[0]?.body ?? '' }
        : stored;
      const sent = await transport.send(message);
      if ('done' in sent) return;
      if ('instead' in sent) {
        const { status, error } = sent.instead;
        const data = status === 'waiting' ? { status, attempts: message.attempts - 1, lastError: error } : { status, lastError: error };
        await this.record(message, () => statementsOf(this.services.db).write(endingRelease(message.id, data)));
        if (status === 'dead') this.emit('dead', message, error);
        return;
      }
      const { answer } = sent;
      let { verdict } = sent;
      let error = answer.error;
      if (verdict === 'delivered') {
        const problem = transport.answerChecks?.[message.kind]?.(answer.body) ?? null;
        if (problem) {
          verdict = 'retry';
          error = `${answer.status} ${problem}`;
        }
      }
      const fate =
        verdict === 'delivered'
          ? 'delivered'
          : verdict === 'refused' || message.attempts >= this.services.config.outbox.maxAttempts
            ? 'dead'
            : 'retry';
      const ended = await this.record(message, () => this.finish(transport, message, fate, { ...answer, error }));
      if (ended === 'dead') this.emit('dead', message, error);
      else if (fate === 'delivered') this.emit('delivered', message, answer.status);
      else this.emit('retry', message, error);
    } finally {
      done?.();
    }
  }

  /**
   * Writes what became of a message. A database error here (a connection not to be had in time,
   * the server restarting) is the database's, not the peer's: the write is tried again, and never
   * taken for a failed send (a POS's yes recorded as a failed order, the DSP told `fail`). Past
   * the tries the message is left to its lease, which lapses once this work ends: any instance
   * then takes it up and sends it again under its idempotency key, and the peer answers that
   * repeat as it answered the first.
   */
  private async record<T>(message: Message, write: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        const wait = RECORD_RETRY_MS[attempt];
        if (wait === undefined || this.stopping) throw error;
        this.services.log.warn({ err: error, message: message.id, attempt: attempt + 1 }, 'recording a delivery failed; trying again');
        await sleep(wait);
      }
    }
  }

  /** Records the attempt: delivered, to be tried again, or dead, with what its outcome and its
   * transport write beside, in one transaction (a lone release of a delivered message goes with
   * the others of its moment, ./runner.ts). */
  private async finish(
    transport: Transport,
    message: Message,
    fate: 'delivered' | 'retry' | 'dead',
    answer: Answer,
  ): Promise<'delivered' | 'retry' | 'dead'> {
    const { services } = this;
    const outcome: Outcome = { delivered: fate === 'delivered', status: answer.status, error: answer.error, body: answer.body };
    const handler = fate === 'retry' ? undefined : transport.outcomes?.[message.kind];
    let subject: Subject = message;
    for (let asked = 1; ; asked++) {
      try {
        return await this.finishWith(transport, message, fate, answer, outcome, await handler?.(subject, outcome, services));
      } catch (error) {
        // Its writes were decided on a row that changed since it was read (or handed over):
        // decided again on the row as it is now (another change of the same order landed).
        if (!(error instanceof RowChanged) || asked >= MOST_DECISIONS) throw error;
        subject = { ...message, subjectRow: undefined };
      }
    }
  }

  /** The record of `finish` with the writes its outcome handler decided. */
  private async finishWith(
    transport: Transport,
    message: Message,
    fate: 'delivered' | 'retry' | 'dead',
    answer: Answer,
    outcome: Outcome,
    writes: OutcomeWrites | undefined,
  ): Promise<'delivered' | 'retry' | 'dead'> {
    const { services, plan } = this;
    const data =
      fate === 'delivered'
        ? { status: 'delivered', deliveredAt: new Date(), lastStatus: answer.status, lastError: null }
        : fate === 'dead'
          ? { status: 'dead', lastStatus: answer.status, lastError: answer.error }
          : {
              nextAttemptAt: new Date(Date.now() + retryDelay(message.attempts, services.config.outbox, answer)),
              lastStatus: answer.status,
              lastError: answer.error,
            };
    const sql = statementsOf(services.db);
    let successor: boolean;
    if (!writes && !transport.record && fate !== 'dead') {
      // A release with nothing beside it is no transaction of its own: delivered (most messages,
      // a DSP's accept among them, end this way) it goes with the others of its moment; to be
      // tried again it is one statement.
      if (fate === 'delivered' && answer.status !== null) successor = await this.releaseDelivered(message.id, answer.status);
      else {
        await sql.write(release('outbox', message.id, data));
        successor = false;
      }
    } else {
      const after = await sql.transaction(async (run) => {
        const instead = await transport.record?.(run, message, answer, fate);
        if (instead) {
          await run(endingRelease(message.id, { status: instead.status, lastStatus: answer.status, lastError: instead.error }));
          return instead.status;
        }
        if (fate === 'dead') await plan.deadLetter(run, services, message, outcome);
        const then = await writes?.(run);
        // Last, deferred: on PostgreSQL it goes in one statement with the writes' own deferred
        // ones (a DSP's event), not a round trip of its own. Nothing of the writes reads the row.
        run.defer(release('outbox', message.id, data));
        return then;
      });
      if (after === 'dead') fate = after;
      else if (typeof after === 'function') after();
      // A deferred release answers nothing: a claim round finds out.
      successor = fate !== 'retry' && message.orderingKey !== null;
    }
    if (successor) this.wake();
    return fate;
  }
}

/** Backoff for the next attempt; a 429's Retry-After (seconds or a date) wins. */
export function retryDelay(
  attempts: number,
  policy: { retryBaseMs: number; retryMaxMs: number },
  answer?: Pick<Answer, 'status' | 'headers'>,
): number {
  const header = answer?.status === 429 ? answer.headers?.['retry-after'] : undefined;
  const retryAfter = typeof header === 'string' ? (/^\d+$/.test(header) ? Number(header) * 1000 : Date.parse(header) - Date.now()) : NaN;
  if (Number.isFinite(retryAfter) && retryAfter >= 0) return Math.min(retryAfter, policy.retryMaxMs);
  return backoff(attempts, policy);
}

/** Whether a status is a peer's "not now": 408, 429 and 5xx, or no answer at all. */
export const notYet = (status: number | null) => status === null || status === 408 || status === 429 || status >= 500;
