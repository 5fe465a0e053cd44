// How a route describes itself for the API reference (docs/reference.md § Partner API): the pieces a route's
// `config.openapi` is made of. The document itself is made in ../server/openapi.ts.
import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;
export type OpenApiOperation = Record<string, unknown>;
/** A plain route's description: its operation, or (for a route that serves several documented
 * paths, as the webhook intake does) the paths themselves. Made when the document is. */
export type RouteDoc = () => OpenApiOperation | { paths: Record<string, Record<string, OpenApiOperation>> };

declare module 'fastify' {
  interface FastifyContextConfig {
    openapi?: RouteDoc;
  }
}

/** docs/reference.md § Errors's error body, the answer to every refused call. */
export const ERROR_BODY: JsonSchema = {
  type: 'object',
  required: ['statusCode', 'error', 'code', 'message'],
  properties: {
    statusCode: { type: 'integer', description: 'The HTTP status again.' },
    error: { type: 'string', description: 'The status in words, or for the token call an RFC 6749 error code.' },
    code: {
      type: 'string',
      description: 'What went wrong, for code to branch on: invalid_request, unauthenticated, forbidden, not_found, rate_limited, …',
    },
    message: { type: 'string', description: 'What went wrong, for a person, in wire terms.' },
  },
};

export const errorRef = { $ref: '#/components/responses/Error' };
/** The refusals every authenticated call can give; `default` is any other refusal (405, 413, 415). */
export const REFUSALS = { '400': errorRef, '401': errorRef, '403': errorRef, '404': errorRef, '429': errorRef, default: errorRef } as const;
export const json = (schema: JsonSchema, description: string) => ({ description, content: { 'application/json': { schema } } });
/** A browser hop's answer: a redirect. */
export const redirect = (description: string) => ({ '302': { description, headers: { location: { schema: { type: 'string' } } } } });
const stringParameter = (name: string, where: 'path' | 'query', required: boolean, description: string) => ({
  name,
  in: where,
  required,
  description,
  schema: { type: 'string' },
});
export const pathParameter = (name: string, description: string) => stringParameter(name, 'path', true, description);
export const queryParameter = (name: string, description: string, required = false) =>
  stringParameter(name, 'query', required, description);

/** A zod schema as the JSON schema of what a caller sends. */
export function zodSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** An event the service POSTs to someone (OpenAPI 3.1 `webhooks`): its body's schema, the headers
 * it comes with, and what the receiver answers. */
export function outgoingWebhook(
  summary: string,
  description: string,
  body: JsonSchema,
  headers: Record<string, string>,
  taken = 'Taken. Anything else is sent again later with the same Idempotency-Key (a 4xx other than 408 and 429: not again).',
): OpenApiOperation {
  return {
    post: {
      summary,
      description,
      parameters: Object.entries(headers).map(([name, about]) => ({
        name,
        in: 'header',
        required: true,
        description: about,
        schema: { type: 'string' },
      })),
      requestBody: { required: true, content: { 'application/json': { schema: body } } },
      responses: {
        '2XX': { description: taken },
      },
    },
  };
}

/** What the service documents of what it sends others: the calls (OpenAPI 3.1 `webhooks`, by
 * name) and the schemas they share (`components.schemas`, such as the POS's catalog). */
export type Outgoing = { webhooks: Record<string, OpenApiOperation>; schemas: Record<string, JsonSchema> };

/** The security scheme of a call made with the merchant's token from the provider's own token answer. */
export const MERCHANT_TOKEN = 'merchantToken';

/**
 * A call the service makes on a provider's own API (the POS interface, in OpenAPI 3.1 `webhooks`):
 * its method, the headers it carries besides the merchant's token (`Authorization: Bearer`, the
 * scheme MERCHANT_TOKEN, unless `token` is false), its body, and what each answer means.
 */
export function providerCall(
  method: 'get' | 'post',
  summary: string,
  description: string,
  call: {
    headers?: Record<string, string>;
    body?: JsonSchema;
    answers: Record<string, { description: string; schema?: JsonSchema }>;
    token?: boolean;
  },
): OpenApiOperation {
  return {
    [method]: {
      summary,
      description,
      security: call.token === false ? [] : [{ [MERCHANT_TOKEN]: [] }],
      ...(call.headers
        ? {
            parameters: Object.entries(call.headers).map(([name, about]) => ({
              name,
              in: 'header',
              required: true,
              description: about,
              schema: { type: 'string' },
            })),
          }
        : {}),
      ...(call.body ? { requestBody: { required: true, content: { 'application/json': { schema: call.body } } } } : {}),
      responses: Object.fromEntries(
        Object.entries(call.answers).map(([status, answer]) => [
          status,
          answer.schema ? json(answer.schema, answer.description) : { description: answer.description },
        ]),
      ),
    },
  };
}
