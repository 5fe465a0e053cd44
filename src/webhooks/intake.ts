// Webhooks into the service (docs/reference.md § Webhooks in). The signature is checked over the raw bytes
// before anything is parsed or stored; an accepted webhook is stored (deduplicated by the
// sender's id header or the body's hash) before the 2xx; it is applied afterwards, from the
// stored record, by the inbox processor.
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { Invalid, NotFound, Unauthenticated } from '../common/errors.js';
import { isUniqueViolation } from '../db/client.js';
import { statementsOf } from '../db/statements.js';
import { answeredSince, sameBytesSince } from '../db/sql/webhooks.js';
import { findProvider, type ProviderKind } from '../integrations/providers.js';
import { STANDARD_WEBHOOK_TOLERANCE_S, verifySignature, verifyStandardWebhook } from '../common/signatures.js';
import { assertCleanInput } from '../common/input.js';
import { newId } from '../common/ids.js';
import { errorRef, json, pathParameter, type JsonSchema, type OpenApiOperation } from '../http/route-docs.js';
import { tables } from '../db/tables.js';

/** The path segment of each sender kind. */
export const CHANNELS = { pos: 'pos', dsp: 'dsp', 'event-providers': 'event_provider' } as const satisfies Record<string, ProviderKind>;
export type Channel = keyof typeof CHANNELS;

export type WebhookEvent = { id: string; source: string; type: string; object: Record<string, unknown> };
export type WebhookHandler = {
  /** Its `object`, as the OpenAPI document shows it (without: any object). */
  object?: JsonSchema;
  /** Optional check before the webhook is accepted: throwing refuses it (nothing is stored). */
  precheck?: (services: Services, event: Omit<WebhookEvent, 'id'>) => Promise<void>;
  /** Applies a stored webhook; throwing makes the processor retry it later. */
  apply?: (services: Services, event: WebhookEvent) => Promise<void>;
  /** Instead of apply: handles it before answering, writing what it accepts durably itself,
   * for senders who must learn the outcome (an order refused, a change to a closed order). */
  accept?: (services: Services, event: Omit<WebhookEvent, 'id'>) => Promise<{ status: number; body: unknown }>;
};

/** What each module handles, by path and event type (its own list, e.g. orders' `orderWebhooks`). */
export type WebhookList = Partial<Record<Channel, Record<string, WebhookHandler>>>;
/** Every handler of the service, by path and event type: built once by the composition root. */
export type WebhookHandlers = Record<Channel, ReadonlyMap<string, WebhookHandler>>;

/** The modules' lists as one registry; an event type handled twice on one path is a wiring mistake. */
export function webhookRegistry(...lists: WebhookList[]): WebhookHandlers {
  const registry: Record<Channel, Map<string, WebhookHandler>> = { pos: new Map(), dsp: new Map(), 'event-providers': new Map() };
  for (const list of lists) {
    for (const [channel, handlers] of Object.entries(list) as [Channel, Record<string, WebhookHandler>][]) {
      for (const [type, handler] of Object.entries(handlers)) {
        if (registry[channel].has(type)) throw new Error(`two handlers for ${channel} ${type}`);
        registry[channel].set(type, handler);
      }
    }
  }
  return registry;
}

const ID_HEADERS = ['webhook-id', 'x-webhook-id', 'idempotency-key'] as const;
/** The longest webhook id taken (it is the dedupe key, indexed): as the Idempotency-Key of partners. */
const MAX_ID_HEADER = 255;
/** How long the same bytes without an id are taken as a sender's retry of one webhook. */
export const REPEAT_WINDOW_MS = 10_000;

/** How long an event provider's webhook signed by its body alone is kept by its digest: the
 * same bytes again within it are a replay. A POS's and a DSP's are not: their identical bytes
 * can be a new event (a catalog changed again, a store paused again), and their rules make a
 * replay harmless; an event provider's (a driver assigned, a step reached) are never sent twice
 * on purpose, and a replayed driver would put an old one back. */
export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;
const REPLAYS_REFUSED: ReadonlySet<Channel> = new Set(['event-providers']);

const SENDERS: Record<Channel, string> = { pos: 'a POS', dsp: 'a DSP', 'event-providers': 'an event provider' };

/**
 * A webhook's signature, checked over its exact bytes: Standard Webhooks when its signature
 * header is there (its id, signed, is then the dedupe key), docs/reference.md's
 * Service-Webhook-Signature otherwise. A missing or wrong one throws the 401 the sender gets.
 * The conformance kit answers a provider's webhooks by it too (src/certify/).
 */
export function checkSignature(raw: Buffer, header: (name: string) => string | undefined, secret: string): { signedId?: string } {
  if (header('webhook-signature') !== undefined) {
    const standard = { id: header('webhook-id'), timestamp: header('webhook-timestamp'), signature: header('webhook-signature') };
    const verdict = verifyStandardWebhook(raw, standard, secret);
    if (verdict === 'stale')
      throw new Unauthenticated(
        `the webhook-timestamp is more than ${STANDARD_WEBHOOK_TOLERANCE_S / 60} minutes from now`,
        'invalid_signature',
      );
    if (verdict !== 'valid')
      throw new Unauthenticated(
        'webhook-id, webhook-timestamp and webhook-signature are missing or do not match the body',
        'invalid_signature',
      );
    return { signedId: standard.id };
  }
  if (!verifySignature(raw, header('service-webhook-signature'), secret))
    throw new Unauthenticated('the Service-Webhook-Signature header is missing or does not match the body', 'invalid_signature');
  return {};
}

/** A webhook's body read as `{type, object}`, of one of the `types` its path takes: 400 (with
 * `unsupported_event` for another type) otherwise. Shared with the conformance kit. */
export function webhookEnvelope(raw: Buffer, types: readonly string[]): { type: string; object: Record<string, unknown> } {
  let parsed: { type?: unknown; object?: unknown };
  try {
    parsed = JSON.parse(raw.toString('utf8')) as typeof parsed;
  } catch {
    throw new Invalid('the body is not valid JSON');
  }
  if (!parsed || typeof parsed !== 'object') throw new Invalid('the body must be a JSON object');
  assertCleanInput(parsed, 'the body');
  const type = typeof parsed.type === 'string' ? parsed.type : '';
  if (!types.includes(type))
    throw new Invalid(`unsupported event type ${JSON.stringify(parsed.type)}; this path takes ${types.join(', ')}`, 'unsupported_event');
  if (!parsed.object || typeof parsed.object !== 'object' || Array.isArray(parsed.object))
    throw new Invalid('object must be a JSON object');
  return { type, object: parsed.object as Record<string, unknown> };
}

const replayDigest = (source: string, raw: Buffer) => crypto.createHash('sha256').update(source).update('\0').update(raw).digest('hex');

/** A webhook's answer, kept for its replays; a copy racing it keeps the first. */
async function keepAnswer(services: Services, digest: string, answer: { status: number; body: unknown }): Promise<void> {
  try {
    await statementsOf(services.db).write(
      tables.webhookReplay.insert({ id: digest, answer: JSON.stringify(answer), createdAt: new Date() }),
    );
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
}

/** The three documented paths of the one intake route, with the event types each path takes. */
function webhookDocs(webhookHandlers: WebhookHandlers): { paths: Record<string, Record<string, OpenApiOperation>> } {
  const receipt = {
    type: 'object',
    properties: {
      received: { type: 'boolean' },
      duplicate: { type: 'boolean', description: 'This webhook (by its id header, or its bytes) was taken before.' },
      id: { type: 'string', description: 'The stored webhook.' },
      order_id: { type: 'string', description: 'Order events: the order.' },
      status: { type: 'string', description: 'Order events: its status now.' },
      delivery_status: { type: 'string', description: "An event provider's reports: the order's delivery status now." },
    },
  };
  // One shape per event type, told apart by `type`.
  const body = (channel: Channel): JsonSchema => ({
    oneOf: [...webhookHandlers[channel]].map(([type, handler]) => ({
      title: type,
      type: 'object',
      required: ['type', 'object'],
      properties: { type: { type: 'string', const: type }, object: handler.object ?? { type: 'object' } },
    })),
  });
  const header = (name: string, description: string) => ({ name, in: 'header', required: false, description, schema: { type: 'string' } });
  const operation = (channel: Channel): OpenApiOperation => ({
    operationId: `webhook_${channel.replace('-', '_')}`,
    summary: `A signed webhook from ${SENDERS[channel]}`,
    description:
      "Signed with the sender's webhook secret: HMAC-SHA256 over the exact bytes in `Service-Webhook-Signature` (hex or base64), " +
      'or Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). Stored before the 2xx; a repeat (the same id, or without an id the same bytes within 10 s) is answered 200 and changes nothing.' +
      (REPLAYS_REFUSED.has(channel)
        ? ' Signed with Service-Webhook-Signature, the very same bytes again within 24 h, under any id, are a replay: answered 200 with the answer the first got, and applied no more.'
        : ''),
    tags: ['webhooks'],
    parameters: [
      pathParameter('source', "The sender's registration slug."),
      header('Service-Webhook-Signature', 'HMAC-SHA256 of the body.'),
      header('webhook-id', 'Standard Webhooks: the event id, also the dedupe key.'),
      header('webhook-timestamp', 'Standard Webhooks: seconds since the epoch, within 5 minutes of now.'),
      header('webhook-signature', 'Standard Webhooks: v1,<base64 HMAC-SHA256 of id.timestamp.body>.'),
      header('Idempotency-Key', 'Without Standard Webhooks: the dedupe key (without one, the same bytes again within 10 s are a repeat).'),
    ],
    requestBody: { required: true, content: { 'application/json': { schema: body(channel) } } },
    responses: {
      '200': json(receipt, "Taken before (a duplicate), or applied at once (an order update, an event provider's report)."),
      '201': json(receipt, 'An order, taken.'),
      '202': json(receipt, 'Stored; it is applied shortly.'),
      '400': errorRef,
      '401': errorRef,
      '404': errorRef,
      '409': errorRef,
      '429': errorRef,
      default: errorRef,
    },
  });
  return {
    paths: Object.fromEntries(
      (Object.keys(CHANNELS) as Channel[]).map((channel) => [`/v1/webhooks/${channel}/{source}`, { post: operation(channel) }]),
    ),
  };
}

/** The intake's route, for the handlers given. */
export const webhookRoutes =
  (webhookHandlers: WebhookHandlers) =>
  (app: FastifyInstance, services: Services): void => {
    void app.register(async (scope) => {
      // Raw bytes: the signature covers them exactly as sent.
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      scope.addHook('onResponse', async (request, reply) => {
        const status = reply.statusCode;
        const outcome = status === 201 || status === 202 ? 'accepted' : status === 200 ? 'duplicate' : 'refused';
        const channel = (request.params as { channel?: string }).channel ?? '';
        services.metrics.webhooksReceived.inc({ channel: channel in CHANNELS ? channel : 'unknown', outcome });
      });

      scope.post<{ Params: { channel: string; source: string } }>(
        '/v1/webhooks/:channel/:source',
        { config: { openapi: () => webhookDocs(webhookHandlers) } },
        async (request, reply) => {
          const { channel, source } = request.params;
          request.operation = `webhook ${channel}`;
          if (!(channel in CHANNELS)) throw new NotFound(`no webhook path for ${channel}`);
          const provider = await findProvider(services, source);
          if (!provider || provider.kind !== CHANNELS[channel as Channel] || !provider.webhookSecret)
            throw new NotFound(`no ${channel} provider registered as ${source}`);
          const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const header = (name: string) => (typeof request.headers[name] === 'string' ? (request.headers[name] as string) : undefined);
          // The signature first: only a verified sender's webhooks count against its allowance,
          // so nobody can spend a real provider's by sending unsigned ones. A missing or wrong
          // signature counts against the sending address instead, separately.
          let signedId: string | undefined;
          try {
            ({ signedId } = checkSignature(raw, header, provider.webhookSecret));
          } catch (error) {
            await services.limits.badSignature(request.ip);
            throw error;
          }
          await services.limits.webhook(`${channel}:${source}`);
          if (ID_HEADERS.some((name) => (header(name)?.length ?? 0) > MAX_ID_HEADER))
            throw new Invalid(`the webhook's id (${ID_HEADERS.join(', ')}) is longer than ${MAX_ID_HEADER} characters`);

          const handlers = webhookHandlers[channel as Channel];
          const { type, object } = webhookEnvelope(raw, [...handlers.keys()]);
          const handler = handlers.get(type)!;
          await handler.precheck?.(services, { source, type, object });
          if (handler.accept) {
            // Standard Webhooks carry a signed id and timestamp (their replays are refused above);
            // a body alone signs no moment, so its bytes are kept instead.
            const digest = !signedId && REPLAYS_REFUSED.has(channel as Channel) ? replayDigest(source, raw) : undefined;
            if (digest) {
              const before = await answeredSince(statementsOf(services.db), digest, new Date(Date.now() - REPLAY_WINDOW_MS));
              if (before) return reply.status(200).send((JSON.parse(before.answer) as { body: unknown }).body);
            }
            const answer = await handler.accept(services, { source, type, object });
            if (digest && answer.status < 300) await keepAnswer(services, digest, answer);
            return reply.status(answer.status).send(answer.body);
          }

          // A repeat is a webhook carrying the id of one taken before, or, without an id, the very
          // same bytes within REPEAT_WINDOW_MS: a POS's catalog.updated is the same body each time
          // its catalog changes, and each such change must be fetched (a replay of an unchanged
          // catalog publishes nothing, modules/catalog/sync.ts).
          const idHeader =
            signedId ?? ID_HEADERS.map((h) => request.headers[h]).find((v): v is string => typeof v === 'string' && v.length > 0);

          const bodyHash = crypto.createHash('sha256').update(raw).digest('hex');
          const id = newId('whk');
          const now = new Date();
          if (!idHeader) {
            const repeated = await sameBytesSince(statementsOf(services.db), source, bodyHash, new Date(now.getTime() - REPEAT_WINDOW_MS));
            if (repeated) return reply.status(200).send({ received: true, duplicate: true, id: repeated.id });
          }
          const dedupeKey = idHeader ? `id:${idHeader}` : `bytes:${id}`;
          const row = {
            id,
            channel,
            source,
            dedupeKey,
            bodyHash,
            type,
            body: raw.toString('utf8'),
            status: 'pending',
            attempts: 0,
            nextAttemptAt: now,
            createdAt: now,
          };
          try {
            await statementsOf(services.db).write(tables.webhook.insert(row));
          } catch (error) {
            if (!isUniqueViolation(error)) throw error;
            const first = await services.db.webhookEvent.findUnique({ where: { source_dedupeKey: { source, dedupeKey } } });
            return reply.status(200).send({ received: true, duplicate: true, id: first?.id });
          }
          services.inbox.wake();
          return reply.status(202).send({ received: true, id });
        },
      );
    });
  };
