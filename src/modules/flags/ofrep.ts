// The partner's flags over the OpenFeature Remote Evaluation Protocol (docs/reference.md § Partner API), so that
// any OpenFeature SDK's OFREP provider evaluates them: POST /ofrep/v1/evaluate/flags/{key} and the
// bulk POST /ofrep/v1/evaluate/flags, with the partner's bearer token. `context.targetingKey` is
// the context's key and `context.kind` its kind (default user). Answers and errors are OFREP's.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../services.js';
import { AppError, NotFound, Unauthenticated } from '../../common/errors.js';
import { assertPartnerWide } from '../access/index.js';
import { evaluateFlag, type Evaluation, type Reason } from './service.js';
import { errorRef, json, pathParameter } from '../../http/route-docs.js';

/** OFREP's reasons for ours. */
const REASONS: Record<Reason, string> = {
  OFF: 'DISABLED',
  TARGET_MATCH: 'TARGETING_MATCH',
  SEGMENT_MATCH: 'TARGETING_MATCH',
  FALLTHROUGH: 'DEFAULT',
};

type Failure = {
  errorCode: 'PARSE_ERROR' | 'TARGETING_KEY_MISSING' | 'INVALID_CONTEXT' | 'FLAG_NOT_FOUND' | 'GENERAL';
  errorDetails: string;
};

/** The evaluation context of a request body, or what is wrong with it. */
function contextOf(body: unknown): { key: string; kind: unknown } | Failure {
  const context = (body as { context?: unknown } | null)?.context;
  if (context === undefined) return { errorCode: 'TARGETING_KEY_MISSING', errorDetails: 'context.targetingKey is required' };
  if (!context || typeof context !== 'object' || Array.isArray(context))
    return { errorCode: 'PARSE_ERROR', errorDetails: 'context must be an object' };
  const { targetingKey, kind } = context as { targetingKey?: unknown; kind?: unknown };
  if (targetingKey === undefined || targetingKey === '')
    return { errorCode: 'TARGETING_KEY_MISSING', errorDetails: 'context.targetingKey is required' };
  return { key: targetingKey as string, kind };
}

const success = (key: string, e: Evaluation) => ({
  key,
  value: e.value,
  reason: REASONS[e.reason],
  variant: String(e.variation),
  metadata: {},
});

/** One flag for one context: OFREP's success, or its failure with the status it goes with. */
async function evaluate(services: Services, partnerId: string, key: string, body: unknown) {
  const context = contextOf(body);
  if ('errorCode' in context) return { status: 400, body: { key, ...context } };
  try {
    return { status: 200, body: success(key, await evaluateFlag(services.db, partnerId, key, { key: context.key, kind: context.kind })) };
  } catch (error) {
    if (error instanceof NotFound) return { status: 404, body: { key, errorCode: 'FLAG_NOT_FOUND', errorDetails: error.message } };
    if (error instanceof AppError && error.statusCode === 400)
      return { status: 400, body: { key, errorCode: 'INVALID_CONTEXT', errorDetails: error.message } };
    throw error;
  }
}

const OFREP_REQUEST = {
  type: 'object',
  required: ['context'],
  properties: {
    context: {
      type: 'object',
      required: ['targetingKey'],
      properties: {
        targetingKey: { type: 'string', description: "The context's key." },
        kind: { type: 'string', description: 'Its kind; user when left out.' },
      },
    },
  },
};
const OFREP_SUCCESS = {
  type: 'object',
  required: ['key', 'value', 'reason', 'variant'],
  properties: {
    key: { type: 'string' },
    value: {},
    reason: { type: 'string', enum: [...new Set(Object.values(REASONS))] },
    variant: { type: 'string' },
    metadata: { type: 'object' },
  },
};
const OFREP_FAILURE = {
  type: 'object',
  required: ['errorCode'],
  properties: { key: { type: 'string' }, errorCode: { type: 'string' }, errorDetails: { type: 'string' } },
};
const ofrepDoc = (bulk: boolean) => () => ({
  operationId: bulk ? 'ofrepEvaluateFlags' : 'ofrepEvaluateFlag',
  summary: bulk ? 'Evaluate every flag of the partner for a context (OFREP bulk)' : 'Evaluate one flag for a context (OFREP)',
  tags: ['ofrep'],
  security: [{ bearer: [] }],
  ...(bulk ? {} : { parameters: [pathParameter('key', 'The flag.')] }),
  requestBody: { required: true, content: { 'application/json': { schema: OFREP_REQUEST } } },
  responses: {
    '200': json(
      bulk
        ? {
            type: 'object',
            required: ['flags'],
            properties: { flags: { type: 'array', items: { anyOf: [OFREP_SUCCESS, OFREP_FAILURE] } } },
          }
        : OFREP_SUCCESS,
      'Evaluated.',
    ),
    '400': json(OFREP_FAILURE, "The context is unusable: OFREP's error codes."),
    '401': errorRef,
    '403': errorRef,
    ...(bulk ? {} : { '404': json(OFREP_FAILURE, 'FLAG_NOT_FOUND.') }),
    '429': errorRef,
    default: errorRef,
  },
});

export function ofrepRoutes(app: FastifyInstance, services: Services): void {
  /** The partner of the bearer token (401 without one; counted like any API request when it was
   * worked out, server/caller.ts). */
  const partnerOf = async (request: FastifyRequest) => {
    const auth = request.caller?.auth;
    if (!auth) throw request.caller?.authError ?? new Unauthenticated();
    assertPartnerWide(auth, "evaluate the partner's flags");
    return auth.partnerId;
  };

  app.post<{ Params: { key: string } }>(
    '/ofrep/v1/evaluate/flags/:key',
    { config: { openapi: ofrepDoc(false), caller: 'token' } },
    async (request, reply) => {
      request.operation = 'ofrep evaluate';
      const answer = await evaluate(services, await partnerOf(request), request.params.key, request.body);
      return reply.status(answer.status).send(answer.body);
    },
  );

  app.post('/ofrep/v1/evaluate/flags', { config: { openapi: ofrepDoc(true), caller: 'token' } }, async (request, reply) => {
    request.operation = 'ofrep bulk evaluate';
    const partnerId = await partnerOf(request);
    const context = contextOf(request.body);
    if ('errorCode' in context) return reply.status(400).send(context);
    const flags = await services.db.flag.findMany({ where: { partnerId }, select: { key: true }, orderBy: { key: 'asc' } });
    return { flags: await Promise.all(flags.map(async ({ key }) => (await evaluate(services, partnerId, key, request.body)).body)) };
  });
}
