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
import { enqueue, type OutboxInput } from '../../delivery/outbox.js';
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
import { toEndpoint } from '../../changes/record.js';
import { wireEvent } from '../../changes/types.js';

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
export const resent = (event: EventRow, endpointId: string): OutboxInput =>
  toEndpoint(event, endpointId, JSON.stringify(wireEvent(event)), 'resend');

/** A step of a resend, at its position under the resend's key. */
function stepOf(endpoint: Endpoint, key: string, position: number, step: Step): OutboxInput {
  const id = newId('rs');
  return {
    kind: RESEND_STEP,
    to: { endpoint: endpoint.id, headers: {} },
    body: step,
    owner: endpoint,
    subject: { purpose: 'resend', subjectId: id },
    ordering: { key, position },
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
    enqueue(run, services, stepOf(endpoint, `resend:${newId('rs')}`, 0, step));
  });
  return count;
}

/** A resend's step, reached by the worker: the next slice of its events and the step after them
 * queued, and this step done, in one transaction. */
export async function nextSlice(services: Services, message: Message, endpoint: Endpoint): Promise<void> {
  const sql = statementsOf(services.db);
  // The step's own state, written by startResend or the step before (no peer's body).
  const step = JSON.parse(message.body) as Step;
  const after = step.afterId && step.afterAt !== null ? { at: new Date(step.afterAt), id: step.afterId } : null;
  const events = await eventsToResend(sql, endpoint, new Date(step.since), after, Math.min(RESEND_SLICE, step.left));
  const position = message.orderingPosition ?? 0;
  const key = message.orderingKey!;
  await sql.transaction(async (run: Run) => {
    const sent = events.map((event, i) => ({ ...resent(event, endpoint.id), ordering: { key, position: position + 1 + i } }));
    const last = events.at(-1);
    const left = step.left - events.length;
    const next =
      last && left > 0 && events.length === RESEND_SLICE
        ? [stepOf(endpoint, key, position + 1 + sent.length, { ...step, afterAt: last.createdAt.getTime(), afterId: last.id, left })]
        : [];
    enqueue(run, services, ...sent, ...next);
    run.defer(release('outbox', message.id, { status: 'delivered', deliveredAt: new Date(), lastStatus: null, lastError: null }));
  });
}
