// A partner's webhook endpoints: made, listed, changed, deleted; their secret rotated (the old
// one keeps signing beside the new for a day, so the partner can deploy the new one in between);
// their attempts; events sent again. Only a partner login manages them; an endpoint with an
// organization gets that organization's events only.
import { pageSize } from '../../common/pages.js';
import crypto from 'node:crypto';
import type { Services } from '../../services.js';
import type { AuthInfo } from '../../common/scopes.js';
import { Conflict, Invalid, NotFound, TooMany, someOf } from '../../common/errors.js';
import { newId } from '../../common/ids.js';
import { epochMs, requiredText } from '../../common/input.js';
import { statementsOf } from '../../db/statements.js';
import {
  type EndpointFilter,
  type EndpointRow,
  deleteEndpoint as deleteEndpointRow,
  endpointById,
  endpointEvent,
  endpointsOf,
  latestAttempts,
  resumeEndpointMessages,
  rotation,
} from '../../db/sql/events.js';
import { nextSlice, resent, RESEND_STEP, startResend } from './resends.js';
import type { EndpointRules } from '../../delivery/endpoint-transport.js';
import { enqueue } from '../../delivery/outbox.js';
import { assertPartnerWide } from '../access/index.js';
import { findOrganization } from '../organizations/service.js';
import { checkEndpointUrl, guardedLookup, refusedLiteral, systemResolver, type AddressPolicy } from './address.js';
import { EVENT_KEEP_DAYS } from '../../changes/record.js';
import { EVENT_TYPES, type EventType } from '../../changes/types.js';
import { tables } from '../../db/tables.js';

/** How long an endpoint's attempts are kept (its attempts list), in days. */
export const ATTEMPT_KEEP_DAYS = 30;
/** How long the secret before a rotation keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;
export const ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number];

/** An endpoint as partners see it: never its secret, which only the answers that make one show. */
export type ShownEndpoint = {
  id: string;
  url: string;
  eventTypes: string[];
  orgId: string | null;
  description: string | null;
  status: string;
  disabledReason: string | null;
  createdAt: number;
  secret?: string;
};

const shown = (row: EndpointRow, secret?: string): ShownEndpoint => ({
  id: row.id,
  url: row.url,
  eventTypes: row.eventTypes.split(',').filter(Boolean),
  orgId: row.orgId,
  description: row.description,
  status: row.status,
  disabledReason: row.disabledReason,
  createdAt: row.createdAt.getTime(),
  ...(secret ? { secret } : {}),
});

/** A Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. */
const newSecret = () => `whsec_${crypto.randomBytes(32).toString('base64')}`;

export const addressPolicy = (services: Pick<Services, 'config'>): AddressPolicy => ({
  allowLoopback: services.config.sandbox,
  allowPrivate: services.config.webhooks.allowPrivate,
});

/** How the outbox's endpoint transport calls an endpoint, by this module's rules: the addresses
 * it may reach, the secrets that sign, and a resend's step (queues the next of its events). */
export function endpointRules(services: Services): EndpointRules {
  const policy = addressPolicy(services);
  return {
    refused: (url) => refusedLiteral(url, policy),
    lookup: guardedLookup(services.resolveHost ?? systemResolver, policy),
    signing: (endpoint) => [endpoint.secretEnc, ...retired(endpoint).map((secret) => secret.sealed)],
    steps: { [RESEND_STEP]: (message, endpoint) => nextSlice(services, message, takes(endpoint)) },
  };
}

const checkUrl = (services: Services, url: unknown) =>
  checkEndpointUrl(requiredText(url, 'url'), addressPolicy(services), services.resolveHost ?? systemResolver);

/** What an endpoint takes: its partner's announced events, of its organization and its types. */
export const takes = (endpoint: EndpointRow): EndpointFilter & { id: string } => {
  const types = endpoint.eventTypes.split(',').filter(Boolean);
  return { id: endpoint.id, partnerId: endpoint.partnerId, orgId: endpoint.orgId, types: types.length ? types : EVENT_TYPES };
};

/** Event types stored between commas (",a,b,"), every one a known type; none: all. */
function storedTypes(types: readonly string[] | null | undefined): string {
  if (!types?.length) return '';
  const unknown = types.filter((type) => !EVENT_TYPES.includes(type as EventType));
  if (unknown.length) throw new Invalid(`event_types: not event types: ${someOf(unknown)} (they are ${EVENT_TYPES.join(', ')})`);
  return `,${[...new Set(types)].join(',')},`;
}

const description = (text: string | null | undefined) => {
  if (text != null && text.length > 500) throw new Invalid('description must be at most 500 characters');
  return text ?? null;
};

export async function createEndpoint(
  services: Services,
  auth: AuthInfo,
  input: { url: string; eventTypes?: string[] | null; orgId?: string | null; description?: string | null },
): Promise<ShownEndpoint> {
  assertPartnerWide(auth, 'manage webhook endpoints');
  // Whose organization first: another tenant's is not found, whatever the URL.
  const orgId = input.orgId ? (await findOrganization(services, auth, input.orgId)).id : null;
  const url = await checkUrl(services, input.url);
  const secret = newSecret();
  const now = new Date();
  const row: EndpointRow = {
    id: newId('we'),
    partnerId: auth.partnerId,
    orgId,
    url,
    description: description(input.description),
    eventTypes: storedTypes(input.eventTypes),
    secretEnc: services.sealer.seal(secret),
    retiredSecrets: '[]',
    status: 'enabled',
    disabledReason: null,
    failingSince: null,
    createdAt: now,
    updatedAt: now,
  };
  await statementsOf(services.db).write(tables.endpoint.insert(row));
  return shown(row, secret);
}

/** The caller's endpoint, or 404 (another partner's is not revealed). */
export async function findEndpoint(services: Pick<Services, 'db'>, auth: AuthInfo, id: string): Promise<EndpointRow> {
  assertPartnerWide(auth, 'manage webhook endpoints');
  const [row] = await statementsOf(services.db).read<EndpointRow>(endpointById(id, auth.partnerId));
  if (!row) throw new NotFound(`webhook endpoint ${id} not found`);
  return row;
}

export const readEndpoint = async (services: Services, auth: AuthInfo, id: string) => shown(await findEndpoint(services, auth, id));

export async function listEndpoints(services: Services, auth: AuthInfo): Promise<ShownEndpoint[]> {
  assertPartnerWide(auth, 'manage webhook endpoints');
  const rows = await statementsOf(services.db).read<EndpointRow>(endpointsOf(auth.partnerId));
  return rows.map((row) => shown(row));
}

/** A change of url, types, description or status; enabled again, its waiting messages go out
 * and its run of failures starts over. */
export async function updateEndpoint(
  services: Services,
  auth: AuthInfo,
  input: { id: string; url?: string | null; eventTypes?: string[] | null; description?: string | null; status?: string | null },
): Promise<ShownEndpoint> {
  const row = await findEndpoint(services, auth, input.id);
  if (input.status != null && !ENDPOINT_STATUSES.includes(input.status as EndpointStatus))
    throw new Invalid(`status must be one of ${ENDPOINT_STATUSES.join(', ')}`);
  const now = new Date();
  const change: Partial<EndpointRow> = {
    ...(input.url != null ? { url: await checkUrl(services, input.url) } : {}),
    ...(input.eventTypes != null ? { eventTypes: storedTypes(input.eventTypes) } : {}),
    ...(input.description !== undefined ? { description: description(input.description) } : {}),
    ...(input.status === 'enabled' ? { status: 'enabled', disabledReason: null, failingSince: null } : {}),
    ...(input.status === 'disabled' ? { status: 'disabled', disabledReason: 'disabled by the partner' } : {}),
    updatedAt: now,
  };
  const enabledAgain = input.status === 'enabled' && row.status !== 'enabled';
  await statementsOf(services.db).transaction(async (run) => {
    await run(tables.endpoint.update(row.id, change));
    if (enabledAgain) {
      await run(resumeEndpointMessages(row.id, now));
      run.after(() => services.delivery.wake());
    }
  });
  return shown({ ...row, ...change });
}

export async function deleteEndpoint(services: Services, auth: AuthInfo, id: string): Promise<void> {
  const row = await findEndpoint(services, auth, id);
  // Its messages still to send die with it (the sender finds no endpoint for them).
  await statementsOf(services.db).write(deleteEndpointRow(row.id));
}

/** A secret a rotation replaced, sealed, and when it stops signing (epoch ms). */
export type RetiredSecret = { sealed: string; until: number };
/** Replaced secrets signing at once, at most: more rotations in a day wait (429). */
export const MOST_RETIRED = 10;

/** The replaced secrets of an endpoint that still sign at `now`. */
export const retired = (row: Pick<EndpointRow, 'retiredSecrets'>, now = Date.now()): RetiredSecret[] =>
  (JSON.parse(row.retiredSecrets) as RetiredSecret[]).filter((secret) => secret.until > now);

/** A new secret; every one before it keeps signing beside it for ROTATION_OVERLAP_MS from its
 * replacement, however many rotations follow (at most MOST_RETIRED at once). Conditional on the
 * secret it replaces: of two rotations at once, the later replaces the earlier's secret, and both
 * secrets they answered sign. */
export async function rotateSecret(services: Services, auth: AuthInfo, id: string): Promise<string> {
  const sql = statementsOf(services.db);
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await findEndpoint(services, auth, id);
    const now = Date.now();
    const still = retired(row, now);
    if (still.length >= MOST_RETIRED) {
      const wait = Math.ceil((Math.min(...still.map((secret) => secret.until)) - now) / 1000);
      throw new TooMany(`at most ${MOST_RETIRED} replaced secrets sign at once; the oldest stops in ${wait} s`, wait);
    }
    const secret = newSecret();
    const [rotated] = await sql.write(
      rotation(row.id, row.secretEnc, {
        secretEnc: services.sealer.seal(secret),
        retiredSecrets: JSON.stringify([...still, { sealed: row.secretEnc, until: now + ROTATION_OVERLAP_MS }]),
        updatedAt: new Date(now),
      }),
    );
    if (rotated) return secret;
  }
  throw new Conflict('the secret is being rotated by another request at this moment: try again', 'conflict');
}

export type ShownAttempt = { eventId: string; at: number; statusCode: number | null; durationMs: number; error: string | null };

/** The endpoint's latest attempts, newest first. */
export async function endpointAttempts(services: Services, auth: AuthInfo, id: string, asked?: number | null): Promise<ShownAttempt[]> {
  const limit = pageSize(asked, { name: 'limit', default: 20, max: 100 });
  const row = await findEndpoint(services, auth, id);
  const rows = await statementsOf(services.db).read<Omit<ShownAttempt, 'at'> & { attemptedAt: Date }>(latestAttempts(row.id, limit));
  return rows.map(({ attemptedAt, ...a }) => ({ ...a, at: attemptedAt.getTime() }));
}

/** One event, or every event since a time that the endpoint takes, sent to it again (with the
 * same webhook-id), oldest first (./resends.ts). The number of events queued. */
export async function resend(
  services: Services,
  auth: AuthInfo,
  input: { id: string; eventId?: string | null; sinceMs?: number | null },
): Promise<number> {
  const endpoint = await findEndpoint(services, auth, input.id);
  if ((input.eventId == null) === (input.sinceMs == null)) throw new Invalid('give event_id or since, not both');
  if (input.eventId == null) {
    const since = epochMs(input.sinceMs, 'since');
    return startResend(services, takes(endpoint), new Date(Math.max(since, Date.now() - EVENT_KEEP_DAYS * 24 * 3600 * 1000)));
  }
  const eventId = requiredText(input.eventId, 'event_id');
  const sql = statementsOf(services.db);
  // By its id, any event of the partner's (of the endpoint's organization), whatever the types.
  const [event] = await endpointEvent(sql, { ...takes(endpoint), types: EVENT_TYPES }, eventId);
  if (!event) throw new NotFound(`event ${eventId} not found`);
  await sql.transaction(async (run) => enqueue(run, services, resent(event, endpoint.id)));
  return 1;
}
