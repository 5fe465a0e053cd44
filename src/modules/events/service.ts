// Partner events (docs/api-guide.md, "Hearing back"): every change a partner would want to know
// of, written in the transaction of the change, listed oldest first after a cursor, and sent to
// the partner's webhook endpoints through the outbox (./sender.ts). One order's events reach an
// endpoint in the order they happened (the outbox's ordering key, per endpoint and order).
import { pageSize } from '../../common/pages.js';
import type { Services } from '../../services.js';
import type { AuthInfo } from '../../common/scopes.js';
import { Invalid, someOf } from '../../common/errors.js';
import { EPOCH_MS_RANGE } from '../../common/input.js';
import { newId } from '../../common/ids.js';
import { statementsOf, type Run } from '../../db/statements.js';
import { eventsAfter, takers, type EventRow } from '../../db/sql/events.js';
import { assertOrgInReach } from '../access/index.js';
import { LEASE_MS } from '../../delivery/runner.js';
import type { Message } from '../../delivery/worker.js';
import { messageKey, withTrace } from '../../delivery/outbox.js';
import { tables } from '../../db/tables.js';

export const EVENT_TYPES = [
  'onboarding.updated',
  'location.ingested',
  'location.deleted',
  'location.paused',
  'location.resumed',
  'location.items.availability',
  'dsp_connection.bound',
  'dsp_connection.status',
  'menu.publish.succeeded',
  'menu.publish.failed',
  'order.created',
  'order.updated',
  'order.failed',
  'delivery.dead',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** How long events are kept (then purged). */
export const EVENT_KEEP_DAYS = 30;

/** Events are listed once they are this old: a transaction that wrote an event a moment before
 * another's may commit after it, and a cursor past the later one must not skip the earlier. */
export const SETTLE_MS = 1000;

export type NewEvent = {
  type: EventType;
  partnerId: string;
  orgId: string | null;
  /** What changed, in the REST wire names. */
  data: Record<string, unknown>;
  /** An order's events reach each endpoint one at a time, in the order they were written. */
  orderId?: string;
  /** The endpoint not to send it to (the one whose delivery died, for delivery.dead). */
  except?: string;
  /** Known a moment ago to have no enabled endpoint (a new order's store statement looks): no
   * look for endpoints. An endpoint enabled in that moment misses it as it would miss an event
   * whose look came just before it; the event is listed all the same. */
  unheard?: boolean;
};

/** The event as a partner receives it, by webhook and in the list. */
export type WireEvent = { _id: string; type: string; created_at: number; org_id: string | null; data: unknown };

export const wireEvent = (row: EventRow): WireEvent => ({
  _id: row.id,
  type: row.type,
  created_at: row.createdAt.getTime(),
  org_id: row.orgId,
  data: JSON.parse(row.data) as unknown,
});

/** Up to this many endpoints, an event's messages that need not wait their turn are written
 * already claimed and handed to the sender after the commit (no claim round); a larger fan-out
 * is claimed by the sender, a few at a time per partner. */
const DISPATCHED_FAN_OUT = 8;

/**
 * The event, as steps of the transaction making the change it tells: its row, and a message to
 * each of the partner's enabled endpoints that takes it. Once the transaction commits, the
 * endpoint sender gets them.
 */
export async function recordEvent(run: Run, services: Pick<Services, 'partnerDelivery'>, event: NewEvent): Promise<void> {
  const now = new Date();
  const row: EventRow = {
    id: newId('evt'),
    partnerId: event.partnerId,
    orgId: event.orgId,
    type: event.type,
    data: JSON.stringify(event.data),
    createdAt: now,
  };
  const keySuffix = event.orderId ? `:order:${event.orderId}` : null;
  // The endpoints are read before the event is written (neither depends on the other), so that
  // a change writing nothing before its event reads them ahead of its BEGIN on PostgreSQL and its
  // writes go as one statement (../../db/statements.ts, Run.defer).
  const endpoints = event.unheard ? [] : await takers(run, row, keySuffix, event.except ?? null);
  run.defer(tables.event.insert(row));
  if (!endpoints.length) return;
  const body = JSON.stringify(wireEvent(row));
  const headers = withTrace({ 'webhook-id': row.id })!;
  const dispatch = endpoints.length <= DISPATCHED_FAN_OUT;
  const messages: Message[] = endpoints.map((endpoint) => {
    // First under its key (or under none): nothing before it to wait for.
    const first = keySuffix === null || endpoint.last === null;
    const claimed = dispatch && first;
    return {
      ...endpointMessage(row, endpoint.id, body, headers, now),
      orderingKey: keySuffix === null ? null : `${endpoint.id}${keySuffix}`,
      orderingPosition: keySuffix === null ? null : Number(endpoint.last ?? 0) + 1,
      idempotencyKey: messageKey({ purpose: 'event', subjectId: row.id, which: [endpoint.id] }),
      subjectId: row.id,
      attempts: claimed ? 1 : 0,
      lockedUntil: claimed ? new Date(now.getTime() + LEASE_MS) : null,
      lastError: null,
      lastStatus: null,
      deliveredAt: null,
    };
  });
  run.defer(tables.outbox.insertMany(messages));
  run.after(() => {
    for (const message of messages) if (message.lockedUntil) services.partnerDelivery.dispatch(message);
    if (messages.some((message) => !message.lockedUntil)) services.partnerDelivery.wake();
  });
}

/** An outbox message taking an event to an endpoint (its ordering and key set by the caller). */
export function endpointMessage(
  event: Pick<EventRow, 'id' | 'partnerId' | 'orgId' | 'type'>,
  endpointId: string,
  body: string,
  headers: string,
  now: Date,
) {
  return {
    id: newId('msg'),
    partnerId: event.partnerId,
    orgId: event.orgId,
    kind: event.type,
    source: 'partner',
    onboardingId: null,
    operation: 'webhook',
    endpointId,
    body,
    headers,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    createdAt: now,
  };
}

/** A position in the list: the last event seen, as an opaque string. */
const cursorOf = (row: Pick<EventRow, 'createdAt' | 'id'>) => Buffer.from(`${row.createdAt.getTime()}.${row.id}`).toString('base64url');

function readCursor(cursor: string): { at: Date; id: string } {
  const [ms, id] = Buffer.from(cursor, 'base64url')
    .toString('utf8')
    .split(/\.(.*)/);
  const at = Number(ms);
  // A time no clock of ours wrote (beyond what a Date holds, or what either database keeps) is no
  // cursor of ours either: 400, not a 5xx from the database.
  if (!ms || !/^\d{1,15}$/.test(ms) || at > EPOCH_MS_RANGE.max || !id || !/^evt_[A-Za-z0-9_-]{1,64}$/.test(id))
    throw new Invalid('after is not a cursor this API gave');
  return { at: new Date(at), id };
}

export const EVENT_PAGE = { default: 20, max: 100 } as const;

/** The caller's events after a cursor, oldest first: an organization's token sees its
 * organization's only. The next cursor is the last event's, or the one given when none came. */
export async function listEvents(
  services: Services,
  auth: AuthInfo,
  query: { after?: string | null; types?: string[] | null; orgId?: string | null; limit?: number | null },
): Promise<{ events: WireEvent[]; nextCursor: string | null }> {
  const limit = pageSize(query.limit, { name: 'limit', ...EVENT_PAGE });
  const types = query.types ?? [];
  const unknown = types.filter((type) => !EVENT_TYPES.includes(type as EventType));
  if (unknown.length) throw new Invalid(`types: not event types: ${someOf(unknown)} (they are ${EVENT_TYPES.join(', ')})`);
  if (query.orgId) assertOrgInReach(auth, query.orgId);
  const rows = await eventsAfter(statementsOf(services.db), {
    partnerId: auth.partnerId,
    orgId: auth.orgId ?? query.orgId ?? null,
    types,
    after: query.after ? readCursor(query.after) : null,
    settled: new Date(Date.now() - SETTLE_MS),
    limit,
  });
  const last = rows.at(-1);
  return { events: rows.map(wireEvent), nextCursor: last ? cursorOf(last) : (query.after ?? null) };
}
