// Writing a message to the outbox: inside the transaction of the change that causes it, so the
// change and the message are both stored or neither is (DESIGN.md point 4).
import crypto from 'node:crypto';
import type { Operation } from '../integrations/providers.js';
import { insertStep, type Step } from '../db/statements.js';
import { LEASE_MS } from './runner.js';
import { newId } from '../ids.js';
import { traceHeaders, type Tracing } from '../tracing.js';
import type { OutboxMessage as Message } from '../db/client.js';

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
  /** Defaults to a new UUID; give a stable one where the cause itself can repeat. */
  idempotencyKey?: string;
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
    idempotencyKey: message.idempotencyKey ?? crypto.randomUUID(),
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    createdAt: now,
  };
}

/** A new message, as a step of the plain-SQL transaction of the change that causes it
 * (../db/statements.ts): the outbox is written by plain statements only. */
export function enqueueStep(message: OutboxInput): Step {
  return insertStep('OutboxMessage', outboxRow(message));
}

/**
 * The same, written already claimed by this instance (locked, first attempt): after the commit
 * the caller hands the message to `services.delivery.dispatch`, which sends it at once, with no
 * claim round in between. Should this process stop before sending it, the lease expires and any
 * instance takes it up, as after a crash mid-delivery.
 */
export function enqueueDispatched(message: OutboxInput): { step: Step; message: Message } {
  const row = { ...outboxRow(message), attempts: 1 };
  const claimed = { ...row, lockedUntil: new Date(row.createdAt.getTime() + LEASE_MS) };
  return {
    step: insertStep('OutboxMessage', claimed),
    message: { ...claimed, endpointId: null, lastError: null, lastStatus: null, deliveredAt: null },
  };
}
