// The kernel every module writes through (docs/architecture.md, "The core": one record per
// change): a change is recorded once, in its own transaction, and from that record follow the
// event a partner lists and receives at its endpoints, the messages to peers, and, once the
// transaction commits, the live subscriptions. Below the modules, above the outbox.
import type { Services } from '../services.js';
import { newId } from '../common/ids.js';
import type { Run } from '../db/statements.js';
import { takers, type EventRow } from '../db/sql/events.js';
import { enqueue, type OutboxInput } from '../delivery/outbox.js';
import { tables } from '../db/tables.js';
import type { OrderSnapshot, PubSub } from '../common/pubsub.js';
import { EVENT_TYPES, wireEvent, type EventType, type RecordType } from './types.js';

const announced = (type: RecordType): type is EventType => (EVENT_TYPES as readonly string[]).includes(type);

/** How long events are kept (then purged). */
export const EVENT_KEEP_DAYS = 30;

/** What a change is about: the order's timeline and the live subscriptions find it by this. */
export type ChangeSubject = { kind: 'order' | 'location' | 'onboarding' | 'delivery'; id: string };

/** A change a partner, a peer or a dashboard hears of (docs/architecture.md, "The core": one record per change). */
export type Change = {
  /** What happened, as the events API names it (or a quiet record of the subject's history); null
   * for what only a dashboard hears (a delivery queued again). */
  type: RecordType | null;
  /** Whose it is: the partner hears of it, the organization's dashboards see it. */
  owner: { partnerId: string | null; orgId: string | null };
  subject: ChangeSubject;
  /** What changed, in the REST wire names: the event's data. */
  data?: Record<string, unknown>;
  /** The messages to peers the change makes (the POS's order, the DSP's event), each a contract
   * with its peer, written with it. */
  messages?: OutboxInput[];
  /** For an order: the order as the change left it, which its live subscribers receive. */
  order?: OrderSnapshot;
  /** Known a moment ago to have no enabled endpoint (a new order's store statement looks): no
   * look for endpoints. An endpoint enabled in that moment misses it as it would miss an event
   * whose look came just before it; the event is listed all the same. */
  unheard?: boolean;
  /** The endpoint not to send it to (the one whose delivery died, for delivery.dead). */
  except?: string;
};

/**
 * Records a change, as steps of the transaction that makes it: the one call of every change.
 * From this record the rest follows, so no change site repeats it: the event the partner lists
 * and receives at its endpoints (one order's events in order, per endpoint), the messages to
 * peers, and, once the transaction commits, the live subscriptions (an order's with the order as
 * it is now; the organization's with what changed, read by the subscriber's own query).
 */
export async function recordChange(run: Run, services: Pick<Services, 'delivery' | 'pubsub'>, change: Change): Promise<void> {
  const { owner } = change;
  if (change.type && owner.partnerId)
    await recordEvent(run, services, change as Change & { type: EventType; owner: { partnerId: string } });
  if (change.messages) enqueue(run, services, ...change.messages);
  if (owner.orgId) {
    const orgId = owner.orgId;
    run.after(() => live(services.pubsub, orgId, change));
  }
}

/** What live subscribers hear of a change. */
function live(pubsub: PubSub, orgId: string, { subject, type, order }: Change): void {
  if (subject.kind === 'order') {
    if (order) pubsub.publish('orderUpdated', orgId, order);
    return;
  }
  if (subject.kind === 'onboarding') pubsub.publish('onboardingUpdated', subject.id, { id: subject.id });
  pubsub.publish('organizationChanged', orgId, { orgId, kind: subject.kind, id: subject.id, type });
}

/** Up to this many endpoints, an event's messages that need not wait their turn are written
 * already claimed and handed to the worker after the commit (no claim round); a larger fan-out
 * is claimed by the worker, a few at a time per partner. */
const DISPATCHED_FAN_OUT = 8;

/** The change's event: its row, and a message to each of the partner's enabled endpoints that
 * takes it (one order's events under one ordering key per endpoint). */
async function recordEvent(
  run: Run,
  services: Pick<Services, 'delivery'>,
  change: Change & { type: RecordType; owner: { partnerId: string } },
): Promise<void> {
  const row: EventRow = {
    id: newId('evt'),
    partnerId: change.owner.partnerId,
    orgId: change.owner.orgId,
    type: change.type,
    subjectId: change.subject.id,
    data: JSON.stringify(change.data ?? {}),
    createdAt: new Date(),
  };
  const keySuffix = change.subject.kind === 'order' ? `:order:${change.subject.id}` : null;
  // The endpoints are read before the event is written (neither depends on the other), so that
  // a change writing nothing before its event reads them ahead of its BEGIN on PostgreSQL and its
  // writes go as one statement (../../db/statements.ts, Run.defer).
  const endpoints = change.unheard || !announced(change.type) ? [] : await takers(run, row, keySuffix, change.except ?? null);
  run.defer(tables.event.insert(row));
  if (!endpoints.length) return;
  const body = JSON.stringify(wireEvent(row));
  const dispatch = endpoints.length <= DISPATCHED_FAN_OUT;
  enqueue(
    run,
    services,
    ...endpoints.map((endpoint) => ({
      ...toEndpoint(row, endpoint.id, body),
      ...(keySuffix === null ? {} : { ordering: { key: `${endpoint.id}${keySuffix}`, position: Number(endpoint.last ?? 0) + 1 } }),
      // First under its key (or under none): nothing before it to wait for.
      now: dispatch && (keySuffix === null || endpoint.last === null),
    })),
  );
}

/** An event to an endpoint (its webhook-id is the event's id: the message's subject). */
export function toEndpoint(
  event: Pick<EventRow, 'id' | 'partnerId' | 'orgId' | 'type'>,
  endpointId: string,
  body: string,
  purpose: 'event' | 'resend' = 'event',
): OutboxInput {
  return {
    kind: event.type,
    to: { endpoint: endpointId, headers: {} },
    body,
    owner: event,
    subject: { purpose, subjectId: event.id, which: [purpose === 'event' ? endpointId : newId('rs')] },
  };
}
