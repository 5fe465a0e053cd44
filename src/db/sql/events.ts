// The statements of partner events (modules/events): the event row, its messages to the
// partner's webhook endpoints, the events list, endpoints and their attempts. Event,
// WebhookEndpoint, WebhookAttempt and IdempotencyKey are written by plain statements only.
import { placeholders, type Run, type Statements, type Step } from '../statements.js';

/** A partner's webhook endpoint, as stored. */
export type EndpointRow = {
  id: string;
  partnerId: string;
  orgId: string | null;
  url: string;
  description: string | null;
  eventTypes: string;
  secretEnc: string;
  /** JSON: the secrets rotations replaced, each signing until its `until` (modules/events/endpoints.ts, retired). */
  retiredSecrets: string;
  status: string;
  disabledReason: string | null;
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
};

export type EventRow = {
  id: string;
  partnerId: string;
  orgId: string | null;
  type: string;
  /** What it is about (the order, location, onboarding or delivery). */
  subjectId: string | null;
  data: string;
  createdAt: Date;
};

/** The enabled endpoints of a partner that take an event of this type and organization (all but
 * `except`), each with the last position under its ordering key `<endpoint id><keySuffix>`. */
export function takers(
  run: Run,
  event: Pick<EventRow, 'partnerId' | 'orgId' | 'type'>,
  keySuffix: string | null,
  except: string | null,
): Promise<{ id: string; last: number | null }[]> {
  return run({
    sql: `SELECT w."id", ${keySuffix === null ? 'NULL' : `(SELECT MAX(o."orderingPosition") FROM "OutboxMessage" o WHERE o."orderingKey" = w."id" || ?)`} AS "last"
      FROM "WebhookEndpoint" w WHERE w."partnerId" = ? AND w."status" = 'enabled' AND (w."orgId" IS NULL OR w."orgId" = ?)
      AND (w."eventTypes" = '' OR w."eventTypes" LIKE '%' || ? || '%') AND w."id" <> ?`,
    // The pattern is an expression, not a bare parameter: SQLite prepares a statement whose LIKE
    // has a bare parameter again at every run (its LIKE optimization depends on the value), which
    // cost 20 µs of the 23 this statement takes.
    args: [...(keySuffix === null ? [] : [keySuffix]), event.partnerId, event.orgId, `,${event.type},`, except ?? ''],
  });
}

/** A page of events after a cursor position, oldest first: those of the partner (of one
 * organization, of some types), written before `settled`. */
export function eventsAfter(
  sql: Statements,
  filter: {
    partnerId: string;
    orgId: string | null;
    types: string[];
    after: { at: Date; id: string } | null;
    settled: Date;
    limit: number;
  },
): Promise<EventRow[]> {
  const where = ['"partnerId" = ?', '"createdAt" <= ?'];
  const args: unknown[] = [filter.partnerId, filter.settled];
  if (filter.orgId !== null) {
    where.push('"orgId" = ?');
    args.push(filter.orgId);
  }
  if (filter.types.length) {
    where.push(`"type" IN (${placeholders(filter.types)})`);
    args.push(...filter.types);
  }
  if (filter.after) {
    where.push('("createdAt" > ? OR ("createdAt" = ? AND "id" > ?))');
    args.push(filter.after.at, filter.after.at, filter.after.id);
  }
  return sql.all<EventRow>(
    `SELECT "id", "partnerId", "orgId", "type", "subjectId", "data", "createdAt" FROM "Event" WHERE ${where.join(' AND ')} ORDER BY "createdAt", "id" LIMIT ${filter.limit}`,
    args,
  );
}

/** Messages to a disabled endpoint wait; enabled again, they go out. */
export const resumeEndpointMessages = (endpointId: string, now: Date): Step => ({
  sql: `UPDATE "OutboxMessage" SET "status" = 'pending', "nextAttemptAt" = ? WHERE "endpointId" = ? AND "status" = 'waiting'`,
  args: [now, endpointId],
});

/** An attempt failed: the endpoint's run of failures began now, unless it had begun before; and
 * an endpoint failing since before `disableBefore` is disabled. The endpoint's row as it is now. */
export const noteFailure = (endpointId: string, now: Date, disableBefore: Date, reason: string): Step[] => [
  { sql: 'UPDATE "WebhookEndpoint" SET "failingSince" = ? WHERE "id" = ? AND "failingSince" IS NULL', args: [now, endpointId] },
  {
    sql: `UPDATE "WebhookEndpoint" SET "status" = 'disabled', "disabledReason" = ?, "updatedAt" = ? WHERE "id" = ? AND "status" = 'enabled' AND "failingSince" <= ? RETURNING "id"`,
    args: [reason, now, endpointId, disableBefore],
  },
];

/** A rotation: the endpoint's secret and its retired ones, if its secret is still `current`. */
export const rotation = (
  endpointId: string,
  current: string,
  change: { secretEnc: string; retiredSecrets: string; updatedAt: Date },
): Step => ({
  sql: 'UPDATE "WebhookEndpoint" SET "secretEnc" = ?, "retiredSecrets" = ?, "updatedAt" = ? WHERE "id" = ? AND "secretEnc" = ? RETURNING "id"',
  args: [change.secretEnc, change.retiredSecrets, change.updatedAt, endpointId, current],
});

/** The endpoint, held until the transaction ends (a delete waits for it); no row if it is gone. */
export const holdEndpoint = (endpointId: string): Step => ({
  sql: 'UPDATE "WebhookEndpoint" SET "updatedAt" = "updatedAt" WHERE "id" = ? RETURNING "id"',
  args: [endpointId],
});

/** An attempt succeeded: the endpoint's run of failures, if any, is over. */
export const noteSuccess = (endpointId: string): Step => ({
  sql: 'UPDATE "WebhookEndpoint" SET "failingSince" = NULL WHERE "id" = ? AND "failingSince" IS NOT NULL',
  args: [endpointId],
});

/** What an endpoint takes: its partner's events of its organization and of these types. */
export type EndpointFilter = { partnerId: string; orgId: string | null; types: readonly string[] };

function endpointEvents(endpoint: EndpointFilter): { where: string[]; args: unknown[] } {
  const where = ['"partnerId" = ?', `"type" IN (${placeholders([...endpoint.types])})`];
  const args: unknown[] = [endpoint.partnerId, ...endpoint.types];
  if (endpoint.orgId) {
    where.push('"orgId" = ?');
    args.push(endpoint.orgId);
  }
  return { where, args };
}

/** One event the endpoint's partner may have again, by id (a resend of it). */
export function endpointEvent(sql: Statements, endpoint: EndpointFilter, eventId: string): Promise<EventRow[]> {
  const { where, args } = endpointEvents(endpoint);
  return sql.all<EventRow>(
    `SELECT "id", "partnerId", "orgId", "type", "subjectId", "data", "createdAt" FROM "Event" WHERE ${where.join(' AND ')} AND "id" = ?`,
    [...args, eventId],
  );
}

/** Events the endpoint takes written at or after `since`, after a position, oldest first. */
export function eventsToResend(
  sql: Statements,
  endpoint: EndpointFilter,
  since: Date,
  after: { at: Date; id: string } | null,
  limit: number,
): Promise<EventRow[]> {
  const { where, args } = endpointEvents(endpoint);
  where.push('"createdAt" >= ?');
  args.push(since);
  if (after) {
    where.push('("createdAt" > ? OR ("createdAt" = ? AND "id" > ?))');
    args.push(after.at, after.at, after.id);
  }
  return sql.all<EventRow>(
    `SELECT "id", "partnerId", "orgId", "type", "subjectId", "data", "createdAt" FROM "Event" WHERE ${where.join(' AND ')} ORDER BY "createdAt", "id" LIMIT ${limit}`,
    args,
  );
}

/** How many events a resend from `since` would send, counted up to `limit`. */
export async function countToResend(sql: Statements, endpoint: EndpointFilter, since: Date, limit: number): Promise<number> {
  const { where, args } = endpointEvents(endpoint);
  const [row] = await sql.all<{ n: number }>(
    `SELECT COUNT(*) AS "n" FROM (SELECT 1 FROM "Event" WHERE ${where.join(' AND ')} AND "createdAt" >= ? LIMIT ${limit}) AS "matching"`,
    [...args, since],
  );
  return Number(row?.n ?? 0);
}

/** Resends of a partner still under way (their next step waits in the outbox), in a transaction. */
export async function resendsUnderWay(run: Run, partnerId: string, stepKind: string): Promise<number> {
  const [row] = await run<{ n: number }>({
    sql: `SELECT COUNT(*) AS "n" FROM "OutboxMessage" WHERE "partnerId" = ? AND "kind" = ? AND "status" IN ('pending', 'waiting')`,
    args: [partnerId, stepKind],
  });
  return Number(row?.n ?? 0);
}

/** Holds the partner's endpoints until the transaction ends (PostgreSQL's row locks; SQLite's
 * writer is one at a time already): what the transaction counts next, no other can count too. */
export const lockPartnerEndpoints = (partnerId: string): Step => ({
  sql: 'UPDATE "WebhookEndpoint" SET "updatedAt" = "updatedAt" WHERE "partnerId" = ?',
  args: [partnerId],
});

/** A partner's endpoint by id (any partner's, when `partnerId` is null: the sender's look-up). */
export const endpointById = (id: string, partnerId: string | null): Step =>
  partnerId === null
    ? { sql: 'SELECT * FROM "WebhookEndpoint" WHERE "id" = ?', args: [id] }
    : { sql: 'SELECT * FROM "WebhookEndpoint" WHERE "id" = ? AND "partnerId" = ?', args: [id, partnerId] };

/** A partner's endpoints, oldest first. */
export const endpointsOf = (partnerId: string): Step => ({
  sql: 'SELECT * FROM "WebhookEndpoint" WHERE "partnerId" = ? ORDER BY "createdAt", "id"',
  args: [partnerId],
});

export const deleteEndpoint = (id: string): Step => ({ sql: 'DELETE FROM "WebhookEndpoint" WHERE "id" = ?', args: [id] });

/** An endpoint's latest attempts, newest first. */
export const latestAttempts = (endpointId: string, limit: number): Step => ({
  sql: `SELECT "eventId", "attemptedAt", "statusCode", "durationMs", "error" FROM "WebhookAttempt" WHERE "endpointId" = ? ORDER BY "attemptedAt" DESC, "id" DESC LIMIT ${limit}`,
  args: [endpointId],
});

/** A subject's records (an order's history), oldest first. */
export const recordsOf = (subjectId: string): Step => ({
  sql: 'SELECT "type", "data", "createdAt" FROM "Event" WHERE "subjectId" = ? ORDER BY "createdAt", "id"',
  args: [subjectId],
});
