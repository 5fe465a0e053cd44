// Writing a message to the outbox: inside the transaction of the change that causes it, so the
// change and the message are both stored or neither is (docs/architecture.md). One call for every
// destination: a provider's operation (a POS, a DSP, an event provider) or a partner's webhook
// endpoint. Every writer of the outbox goes through `enqueue`, so none can forget the worker.
import type { Operation } from '../integrations/providers.js';
import type { Run } from '../db/statements.js';
import { tables } from '../db/tables.js';
import type { Services } from '../services.js';
import { LEASE_MS } from './runner.js';
import { newId } from '../common/ids.js';
import { traceHeaders, type Tracing } from '../telemetry/tracing.js';
import type { OutboxMessage as Message } from '../db/client.js';

/** Why a message is sent: the first part of its idempotency key. */
export type KeyPurpose =
  | 'order.created'
  | 'order.confirmed'
  | 'order.canceled'
  | 'order.updated'
  | 'dsp-event'
  | 'dispatch'
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

/** Where a message goes: a provider's operation (with the merchant's token when it names the
 * onboarding), or a partner's webhook endpoint. */
export type Destination =
  | { provider: string; operation: Operation; onboardingId?: string | null; headers?: Record<string, string> }
  | { endpoint: string; headers: Record<string, string> };

export type OutboxInput = {
  /** What it is, for people and filters: location.connect, order.created, ... */
  kind: string;
  to: Destination;
  /** The body: JSON, or text already made (sent as it is). */
  body: unknown;
  /** The partner and organization whose data caused it (a location or an order row), so that
   * they can see how it went: deliveries are reached through the access rule like any row. */
  owner?: { partnerId: string | null; orgId: string | null } | null;
  /** What it is about: its idempotency key, and the subject outcome handlers are given. */
  subject: MessageSubject;
  /** Messages of one key go out one at a time, by position: the next waits until the one
   * before is delivered or dead (../db/sql/work.ts). Other keys never wait behind it. */
  ordering?: { key: string; position: number };
  /** Written already claimed by this instance and handed to the worker after the commit, which
   * sends it at once with no claim round in between: for a message with nothing before it under
   * its key. Should this process stop before sending it, the lease lapses and any instance takes
   * it up, as after a crash mid-delivery. */
  now?: boolean;
  /** The subject's row as the change writing this message left it, handed to its outcome's
   * handler with a message sent at once (`now`) so that it need not read the row again; kept in
   * memory only (a message read back from the table has none). The handler guards what it
   * writes by it (Run.expect), so a row changed meanwhile costs a read, never a wrong write. */
  subjectRow?: unknown;
};

/** A message's stored headers, with the trace context of the change that writes it (its call
 * continues that trace, ../telemetry/tracing.ts). */
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

/** From this many characters on, a message's body is kept apart from its row (OutboxBody): the
 * row is rewritten at every claim, lease renewal and release, and a catalog's megabytes would be
 * rewritten with it. */
export const BODY_APART_FROM = 64 * 1024;

/** The row of a new outbox message, due now, and its body when that is kept apart. */
function outboxRow(message: OutboxInput, now: Date): Message & { apart?: string } {
  const to = message.to;
  const provider = 'provider' in to;
  const body = typeof message.body === 'string' ? message.body : JSON.stringify(message.body);
  const apart = body.length >= BODY_APART_FROM;
  return {
    id: newId('msg'),
    kind: message.kind,
    partnerId: message.owner?.partnerId ?? null,
    orgId: message.owner?.orgId ?? null,
    source: provider ? to.provider : 'partner',
    onboardingId: provider ? (to.onboardingId ?? null) : null,
    operation: provider ? to.operation : 'webhook',
    endpointId: provider ? null : to.endpoint,
    body: apart ? '' : body,
    bodyApart: apart,
    ...(apart ? { apart: body } : {}),
    headers: withTrace(to.headers),
    orderingKey: message.ordering?.key ?? null,
    orderingPosition: message.ordering?.position ?? null,
    idempotencyKey: messageKey(message.subject),
    subjectId: message.subject.subjectId,
    status: 'pending',
    attempts: message.now ? 1 : 0,
    nextAttemptAt: now,
    lockedUntil: message.now ? new Date(now.getTime() + LEASE_MS) : null,
    lastError: null,
    lastStatus: null,
    createdAt: now,
    deliveredAt: null,
  };
}

/** New messages, written in the plain-SQL transaction of the change that causes them (the
 * outbox is written by plain statements only), one statement for them all. Once it commits, the
 * worker sends those written claimed at once and looks for the others. */
export function enqueue(run: Run, services: Pick<Services, 'delivery'>, ...messages: OutboxInput[]): void {
  if (!messages.length) return;
  const now = new Date();
  const made = messages.map((message) => outboxRow(message, now));
  const rows = made.map(({ apart: _body, ...row }) => row);
  run.defer(rows.length === 1 ? tables.outbox.insert(rows[0]!) : tables.outbox.insertMany(rows));
  for (const { id, apart } of made) if (apart !== undefined) run.defer(tables.outboxBody.insert({ id, body: apart }));
  run.after(() => {
    rows.forEach((row, i) => {
      const { subjectRow } = messages[i]!;
      if (row.lockedUntil) services.delivery.dispatch(subjectRow === undefined ? row : { ...row, subjectRow });
    });
    if (rows.some((row) => !row.lockedUntil)) services.delivery.wake();
  });
}
