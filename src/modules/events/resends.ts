// Resending a partner's events to an endpoint (`POST /v1/webhook-endpoints/{id}/resend`). One
// event goes out again at once. Every event since a time (up to RESEND_MAX) is a resend of its
// own: a step in the outbox that, when the endpoint sender reaches it, queues the next
// RESEND_SLICE events and the step after them, all under one ordering key, so that they go out
// oldest first and the step after waits until they are sent. The outbox never holds more than a
// slice of a resend, and a partner has at most RESENDS_PER_PARTNER under way: 30 resends of
// 10,000 events at once once queued 90,000 rows in thirty transactions, and another partner's
// orders waited seconds behind them.
import type { Services } from '../../services.js';
import type { Message } from '../../delivery/worker.js';
import { TooMany } from '../../common/errors.js';
import { newId } from '../../common/ids.js';
import { messageKey } from '../../delivery/outbox.js';
import { statementsOf, type Run } from '../../db/statements.js';
import {
  countToResend,
  eventsToResend,
  lockPartnerEndpoints,
  resendsUnderWay,
  type EndpointFilter,
  type EventRow,
} from '../../db/sql/events.js';
import { release } from '../../db/sql/work.js';
import { endpointMessage, wireEvent } from './service.js';
import { tables } from '../../db/tables.js';

/** How many events one resend sends again at most. */
export const RESEND_MAX = 10_000;
/** Events of one resend queued at a time. */
export const RESEND_SLICE = 100;
/** Resends of one partner under way at once; another is 429 until one ends. */
export const RESENDS_PER_PARTNER = 3;
/** The kind of a resend's step in the outbox. */
export const RESEND_STEP = 'resend.next';

type Endpoint = EndpointFilter & { id: string };
/** Where a resend stands: from when, after which event, how many are left. */
type Step = { since: number; afterAt: number | null; afterId: string | null; left: number };

/** An event again, to the endpoint, under a key of its own (a resend is a new delivery). */
export function resentMessage(event: EventRow, endpointId: string, now: Date) {
  return {
    ...endpointMessage(event, endpointId, JSON.stringify(wireEvent(event)), JSON.stringify({ 'webhook-id': event.id }), now),
    idempotencyKey: messageKey({ purpose: 'resend', subjectId: event.id, which: [newId('rs')] }),
    subjectId: event.id,
  };
}

/** A step of a resend, at its position under the resend's key. */
function stepMessage(endpoint: Endpoint, key: string, position: number, step: Step, now: Date) {
  const id = newId('rs');
  return {
    ...endpointMessage(
      { id, partnerId: endpoint.partnerId, orgId: endpoint.orgId, type: RESEND_STEP },
      endpoint.id,
      JSON.stringify(step),
      '{}',
      now,
    ),
    idempotencyKey: messageKey({ purpose: 'resend', subjectId: id }),
    subjectId: id,
    orderingKey: key,
    orderingPosition: position,
  };
}

/** Every event since `since` that the endpoint takes, sent again: its first step queued. How many
 * events it will send. */
export async function startResend(services: Services, endpoint: Endpoint, since: Date): Promise<number> {
  const sql = statementsOf(services.db);
  const count = await countToResend(sql, endpoint, since, RESEND_MAX);
  if (!count) return 0;
  const step: Step = { since: since.getTime(), afterAt: null, afterId: null, left: count };
  await sql.transaction(async (run) => {
    // The partner's resends start one at a time (its endpoints' rows locked until the commit), so
    // that resends asked for at once cannot all count the same few under way.
    await run(lockPartnerEndpoints(endpoint.partnerId));
    if ((await resendsUnderWay(run, endpoint.partnerId, RESEND_STEP)) >= RESENDS_PER_PARTNER)
      throw new TooMany(`at most ${RESENDS_PER_PARTNER} resends under way at once: try again when one has ended`, 60);
    run.defer(tables.outbox.insert(stepMessage(endpoint, `resend:${newId('rs')}`, 0, step, new Date())));
    run.after(() => services.partnerDelivery.wake());
  });
  return count;
}

/** A resend's step, reached by the sender: the next slice of its events and the step after them
 * queued, and this step done, in one transaction. */
export async function nextSlice(services: Services, message: Message, endpoint: Endpoint): Promise<void> {
  const sql = statementsOf(services.db);
  const step = JSON.parse(message.body) as Step;
  const after = step.afterId && step.afterAt !== null ? { at: new Date(step.afterAt), id: step.afterId } : null;
  const events = await eventsToResend(sql, endpoint, new Date(step.since), after, Math.min(RESEND_SLICE, step.left));
  const now = new Date();
  const position = message.orderingPosition ?? 0;
  await sql.transaction(async (run: Run) => {
    const sent = events.map((event, i) => ({
      ...resentMessage(event, endpoint.id, now),
      orderingKey: message.orderingKey,
      orderingPosition: position + 1 + i,
    }));
    if (sent.length) run.defer(tables.outbox.insertMany(sent));
    const last = events.at(-1);
    const left = step.left - events.length;
    if (last && left > 0 && events.length === RESEND_SLICE) {
      const next: Step = { ...step, afterAt: last.createdAt.getTime(), afterId: last.id, left };
      run.defer(tables.outbox.insert(stepMessage(endpoint, message.orderingKey!, position + 1 + sent.length, next, now)));
    }
    run.defer(release('outbox', message.id, { status: 'delivered', deliveredAt: now, lastStatus: null, lastError: null }));
    run.after(() => services.partnerDelivery.wake());
  });
}
