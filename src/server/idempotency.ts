// Idempotency-Key on partner writes: every POST, PUT, PATCH and DELETE under /v1 (but the token
// call and the webhooks in), and every GraphQL mutation over HTTP. The first request under a key
// runs and its answer is kept for 24 hours, sealed; the same request again under that key (same
// partner, caller, method, path and body) gets that answer again with `Idempotent-Replayed: true`
// and changes nothing; another request under it is 422 `idempotency_key_reused`; one while the first still
// runs is 409 `idempotency_key_in_use`. The key's row is claimed by a unique insert, so two
// requests at once, on one instance or two, run once. 5xx and 429 answers are not kept: the
// request can be tried again under the same key. A request whose instance died mid-way holds its
// key for IN_FLIGHT_MS, after which a retry runs it.
import crypto from 'node:crypto';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import { takenBy } from './caller.js';
import { getOperationAST, parse } from 'graphql';
import type { Services } from '../services.js';
import { AppError, Conflict, Invalid } from '../common/errors.js';
import { statementsOf } from '../db/statements.js';
import { newId } from '../common/ids.js';
import type { AuthInfo } from '../common/scopes.js';
import { claimKey, dropKey, freeKept, heldKey, takeOver, type KeyRow } from '../db/sql/idempotency.js';
import { tables } from '../db/tables.js';

export const KEEP_MS = 24 * 3600 * 1000;
const IN_FLIGHT_MS = 60_000;
const MAX_KEY = 255;

declare module 'fastify' {
  interface FastifyRequest {
    /** The idempotency key row this request holds, until its answer is kept. */
    idempotencyKey: string | null;
  }
}

/** Whether the request is a partner write that takes a key. */
function takesKey(request: FastifyRequest): boolean {
  if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(request.method)) return false;
  const route = request.routeOptions.url ?? '';
  return route === '/graphql' ? isMutation(request.body) : route.startsWith('/v1/');
}

function isMutation(body: unknown): boolean {
  const { query, operationName } = (body ?? {}) as { query?: unknown; operationName?: unknown };
  if (typeof query !== 'string') return false;
  try {
    return getOperationAST(parse(query), typeof operationName === 'string' ? operationName : undefined)?.operation === 'mutation';
  } catch {
    // GraphQL refuses it, with its own error, and changes nothing.
    return false;
  }
}

/** Who asks, as far as it decides what a request may do: its organization (an organization
 * token, a dashboard session), its scopes and its dashboard user. A replay goes only to a caller
 * the first request's checks would have treated the same; a partner's token refreshed in between
 * is the same caller. */
const callerOf = (auth: AuthInfo) => [auth.orgId ?? '*', [...auth.scopes].sort().join(','), auth.dashboard?.userId ?? ''].join('|');

/** The request's fingerprint: its body and its caller (./callerOf). */
const hashOf = (body: unknown, auth: AuthInfo) =>
  crypto
    .createHash('sha256')
    .update(callerOf(auth))
    .update('\n')
    .update(JSON.stringify(body ?? null))
    .digest('hex');

/** What a request under a key does: run (holding the key), or answer from the row. */
type Claim = { run: string } | { replay: KeyRow };

async function claim(
  services: Services,
  partnerId: string,
  key: string,
  request: { method: string; path: string; bodyHash: string },
): Promise<Claim> {
  const sql = statementsOf(services.db);
  for (let attempt = 0; attempt < 3; attempt++) {
    const now = new Date();
    const id = newId('idk');
    const row = { id, partnerId, key, ...request, state: 'in_flight', lockedUntil: new Date(now.getTime() + IN_FLIGHT_MS), createdAt: now };
    const [inserted] = await sql.write(claimKey(row));
    if (inserted) return { run: id };
    const [held] = await sql.read<KeyRow>(heldKey(partnerId, key));
    if (!held) continue;
    if (held.createdAt.getTime() < now.getTime() - KEEP_MS) {
      // Kept long enough: the key is free again.
      await sql.write(freeKept(held.id, new Date(now.getTime() - KEEP_MS)));
      continue;
    }
    // The first request is not described: its path names ids of an organization this caller may
    // not reach (an organization token reusing its partner's key).
    if (held.method !== request.method || held.path !== request.path || held.bodyHash !== request.bodyHash)
      throw new AppError(
        422,
        'idempotency_key_reused',
        'this Idempotency-Key was used for another request (another method, path, body or caller): use a new key for a new request',
      );
    if (held.state === 'done') return { replay: held };
    const [taken] =
      held.lockedUntil && held.lockedUntil < now ? await sql.write(takeOver(held.id, new Date(now.getTime() + IN_FLIGHT_MS), now)) : [];
    if (taken) return { run: held.id };
    throw new Conflict('a request under this Idempotency-Key is still running: try again once it has answered', 'idempotency_key_in_use');
  }
  throw new Conflict('this Idempotency-Key is changing hands: try again', 'idempotency_key_in_use');
}

/** A kept answer, opened. One kept by a version that did not seal (for its last 24 hours after
 * an upgrade) is JSON, which never starts as a sealed value does. */
const opened = (services: Services, kept: string) => (kept.startsWith('v1.') ? services.sealer.open(kept) : kept);

export function idempotencyKeys(app: FastifyInstance, services: Services): void {
  app.decorateRequest('idempotencyKey', null);
  // The routes that take a caller (./caller.ts) are the partner's: those of them that write take a key.
  const partners = (config: FastifyContextConfig | undefined) => !!config?.caller;
  takenBy(app, partners, 'preHandler', async (request, reply) => {
    const key = request.headers['idempotency-key'];
    if (key === undefined || !takesKey(request)) return;
    if (typeof key !== 'string' || key.length < 1 || key.length > MAX_KEY)
      throw new Invalid(`the Idempotency-Key header must be 1 to ${MAX_KEY} characters`);
    // Without a valid token the route refuses the request (401), key or not. The caller was worked
    // out before (./caller.ts).
    const auth = request.caller?.auth;
    if (!auth) return;
    const claimed = await claim(services, auth.partnerId, key, {
      method: request.method,
      path: request.url,
      bodyHash: hashOf(request.body, auth),
    });
    if ('run' in claimed) {
      request.idempotencyKey = claimed.run;
      return;
    }
    const { replay } = claimed;
    const headers = replay.responseHeaders ? (JSON.parse(replay.responseHeaders) as Record<string, string>) : {};
    return reply
      .status(replay.responseStatus!)
      .headers(headers)
      .header('idempotent-replayed', 'true')
      .send(replay.responseBody === null ? undefined : opened(services, replay.responseBody));
  });
  takenBy(app, partners, 'onSend', async (request, reply, payload) => {
    const id = request.idempotencyKey;
    if (!id) return payload;
    request.idempotencyKey = null;
    const sql = statementsOf(services.db);
    const status = reply.statusCode;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : payload == null ? '' : null;
    if (status >= 500 || status === 429 || body === null) {
      // Not an answer to keep: the same request may run again under the key.
      await sql.write(dropKey(id));
      return payload;
    }
    const type = reply.getHeader('content-type');
    try {
      await sql.write(
        tables.idempotencyKey.update(id, {
          state: 'done',
          lockedUntil: null,
          responseStatus: status,
          responseHeaders: JSON.stringify(type ? { 'content-type': String(type) } : {}),
          // Sealed, as every secret we keep: answers hold tokens and webhook secrets, which would
          // otherwise sit readable in the database, its dumps and its backups for a day.
          responseBody: services.sealer.seal(body),
        }),
      );
    } catch (error) {
      // The answer stands; the key stays held until IN_FLIGHT_MS, and then runs again.
      request.log.warn({ err: error }, 'the answer under an Idempotency-Key could not be kept');
    }
    return payload;
  });
}
