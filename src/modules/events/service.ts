// Partner events (docs/api-guide.md, "Hearing back"): every change a partner would want to know
// of is recorded by the kernel (src/changes), listed here oldest first after a cursor, and sent to
// the partner's webhook endpoints through the outbox (delivery/endpoint-transport.ts). One order's
// events reach an endpoint in the order they happened (the outbox's ordering key, per endpoint and order).
import { pageSize } from '../../common/pages.js';
import type { Services } from '../../services.js';
import type { AuthInfo } from '../../common/scopes.js';
import { Invalid, someOf } from '../../common/errors.js';
import { EPOCH_MS_RANGE } from '../../common/input.js';
import { statementsOf } from '../../db/statements.js';
import { eventsAfter, type EventRow } from '../../db/sql/events.js';
import { assertOrgInReach } from '../access/index.js';
import { EVENT_TYPES, wireEvent, type EventType, type WireEvent } from '../../changes/types.js';

/** Events are listed once they are this old: a transaction that wrote an event a moment before
 * another's may commit after it, and a cursor past the later one must not skip the earlier. */
export const SETTLE_MS = 1000;

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
    // Quiet records (an order's history) are no partner's: the announced types when none are asked.
    types: types.length ? types : [...EVENT_TYPES],
    after: query.after ? readCursor(query.after) : null,
    settled: new Date(Date.now() - SETTLE_MS),
    limit,
  });
  const last = rows.at(-1);
  return { events: rows.map(wireEvent), nextCursor: last ? cursorOf(last) : (query.after ?? null) };
}
