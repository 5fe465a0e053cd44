// Writing a message to the outbox: inside the transaction of the change that causes it, so the
// change and the message are both stored or neither is (docs/architecture.md).
import type { Operation } from '../integrations/providers.js';
import type { Run } from '../db/statements.js';
import type { Services } from '../services.js';
import { LEASE_MS } from './runner.js';
import { newId } from '../common/ids.js';
import { traceHeaders, type Tracing } from '../telemetry/tracing.js';
import type { OutboxMessage as Message } from '../db/client.js';
import { tables } from '../db/tables.js';

/** Why a message is sent: the first part of its idempotency key. */
export type KeyPurpose =
  | 'order.created'
  | 'order.confirmed'
  | 'order.canceled'
  | 'dsp-event'
  | 'dsp-store-event'
  | 'connect'
  | 'disconnect'
  | 'publish'
  | 'notify'
  | 'event'
  | 'resend';

/** What a message is about, and which of a repeating cause (an order's third event). */
export type MessageSubject = { purpose: KeyPurpose; subjectId: string; which?: (string | number)[] };

/** The one way an outbox message's idempotency key is made. It stays the same across retries,
 * so receivers drop repeats by it; the subject's id is kept on the message too
 * (`OutboxMessage.subjectId`), so that nothing parses it back out of the key. */
export const messageKey = ({ purpose, subjectId, which = [] }: MessageSubject): string => [purpose, subjectId, ...which].join(':');

export type OutboxInput = {
  /** What it is, for people and filters: location.connect, order.created, ... */
  kind: string;
  /** The provider registration it goes to. */
  source: string;
  /** The onboarding whose OAuth token authorizes the call, for calls to a POS or DSP. */
  onboardingId?: string | null;
  operation: Operation;
  body: unknown;
  /** Headers the call carries besides the standard ones (X-Provider-Location-Id, ...). */
  headers?: Record<string, string>;
  /** The partner and organization whose data caused it (a location or an order row), so that
   * they can see how it went: deliveries are reached through the access rule like any row. */
  owner?: { partnerId: string | null; orgId: string | null } | null;
  /** What it is about: its idempotency key and subject (messageKey). */
  subject: MessageSubject;
  /** Messages of one key go out one at a time, by position: the next waits until the one
   * before is delivered or dead (./runner.ts, claimDue). Other keys never wait behind it. */
  ordering?: { key: string; position: number };
};

/** A message's stored headers, with the trace context of the change that writes it (its call
 * continues that trace, ../tracing.ts). */
export function withTrace(headers: Record<string, string> | undefined): string | null {
  const all = { ...headers, ...traceHeaders() };
  return Object.keys(all).length ? JSON.stringify(all) : null;
}

/** Work on a message (its sending, what its outcome writes) in the trace it was written in. */
export function continueTrace(
  tracing: Tracing,
  message: Pick<Message, 'headers' | 'kind' | 'id'>,
  work: () => Promise<void>,
): Promise<void> {
  if (!tracing.enabled) return work();
  const parent = tracing.extract(message.headers ? (JSON.parse(message.headers) as Record<string, string>) : {});
  return tracing.span(`deliver ${message.kind}`, { 'messaging.message.id': message.id }, work, { parent });
}

/** The row of a new outbox message, due now. */
function outboxRow(message: OutboxInput) {
  const now = new Date();
  return {
    id: newId('msg'),
    kind: message.kind,
    partnerId: message.owner?.partnerId ?? null,
    orgId: message.owner?.orgId ?? null,
    source: message.source,
    onboardingId: message.onboardingId ?? null,
    operation: message.operation,
    body: JSON.stringify(message.body),
    headers: withTrace(message.headers),
    orderingKey: message.ordering?.key ?? null,
    orderingPosition: message.ordering?.position ?? null,
    idempotencyKey: messageKey(message.subject),
    subjectId: message.subject.subjectId,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    createdAt: now,
  };
}

/** A new message, written in the plain-SQL transaction of the change that causes it
 * (../db/statements.ts: the outbox is written by plain statements only). Once that transaction
 * commits, the worker is woken to claim it: every writer of the outbox goes through here or
 * `enqueueNow`, so none can forget the worker. */
export async function enqueue(run: Run, services: Pick<Services, 'delivery'>, message: OutboxInput): Promise<void> {
  run.defer(tables.outbox.insert(outboxRow(message)));
  run.after(() => services.delivery.wake());
}

/**
 * The same, written already claimed by this instance (locked, first attempt) and handed to the
 * worker after the commit, which sends it at once with no claim round in between. Should this
 * process stop before sending it, the lease expires and any instance takes it up, as after a
 * crash mid-delivery.
 */
export async function enqueueNow(run: Run, services: Pick<Services, 'delivery'>, message: OutboxInput): Promise<void> {
  const row = { ...outboxRow(message), attempts: 1 };
  const claimed = { ...row, lockedUntil: new Date(row.createdAt.getTime() + LEASE_MS) };
  run.defer(tables.outbox.insert(claimed));
  run.after(() => services.delivery.dispatch({ ...claimed, endpointId: null, lastError: null, lastStatus: null, deliveredAt: null }));
}
