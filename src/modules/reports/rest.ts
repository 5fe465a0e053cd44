// REST for the end of day (docs/reference.md § Partner API): the commission as a row, and
// GET /v1/reports/daily as a plain handler, since it answers JSON or, asked for with
// `Accept: text/csv`, CSV (./csv.ts) from the same statements.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RestRoute } from '../../http/rest-route.js';
import { toWire, snake } from '../../http/rest-route.js';
import type { Services } from '../../services.js';
import { Forbidden, Invalid, Unauthenticated } from '../../common/errors.js';
import { errorRef, queryParameter, type JsonSchema } from '../../http/route-docs.js';
import { SUMMED } from '../../db/sql/reports.js';
import { dailyStatements, dailyStatementsWithOrders, type StatementsAsked } from './service.js';
import { statementsCsv } from './csv.js';
import { MAX_DAYS } from './days.js';

export const commissionRoutes: RestRoute[] = [
  {
    method: 'PUT',
    path: '/v1/organizations/:id/platforms/:source',
    summary:
      "Set what a delivery platform keeps of the organization's orders (commission_percent, 0 to 100): the daily statements' expected payout takes it off",
    document: /* GraphQL */ `
      mutation SetPlatformCommission($input: SetPlatformCommissionInput!) {
        setPlatformCommission(input: $input) { orgId source commissionPercent }
      }`,
    from: { 'input.orgId': 'path.id', 'input.source': 'path.source', 'input.commissionPercent': 'body.commission_percent' },
    status: 200,
  },
];

const CSV = 'text/csv';

const integer = { type: 'integer' };
const byReason = {
  type: 'array',
  // A reason the order did not record is null: not required, since a required field is never null.
  items: { type: 'object', required: ['orders'], properties: { reason: { type: ['string', 'null'] }, orders: integer } },
};
const figures = (names: readonly string[]): JsonSchema => ({
  type: 'object',
  required: names.map(snake),
  properties: Object.fromEntries(names.map((name) => [snake(name), integer])),
});
const line: JsonSchema = {
  type: 'object',
  // source is null in a total (currency too, with no orders): not required, as no nullable field is.
  required: ['taken', 'awaiting', 'failed', 'canceled_by_merchant', 'canceled_by_dsp', 'amounts', 'payout'],
  properties: {
    source: { type: ['string', 'null'], description: "The platform (a DSP's source); null in a total." },
    currency: { type: ['string', 'null'], description: 'Lower-case ISO 4217.' },
    taken: integer,
    awaiting: integer,
    failed: integer,
    failed_by_reason: byReason,
    canceled_by_merchant: integer,
    canceled_by_merchant_by_reason: byReason,
    canceled_by_dsp: integer,
    canceled_by_dsp_by_reason: byReason,
    amounts: { ...figures(SUMMED), description: "The taken orders summed, in the currency's smallest unit." },
    payout: {
      oneOf: [
        { type: 'null' },
        {
          ...figures(['subtotal', 'tax', 'restaurantTip', 'discountMerchant', 'commission', 'payout']),
          properties: {
            ...figures(['subtotal', 'tax', 'restaurantTip', 'discountMerchant', 'commission', 'payout']).properties!,
            commission_percent: { type: 'number' },
          },
        },
      ],
    },
  },
};
const STATEMENTS: JsonSchema = {
  type: 'object',
  required: ['org_id', 'location_id', 'from', 'to', 'statements'],
  properties: {
    org_id: { type: 'string' },
    location_id: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    statements: {
      type: 'array',
      items: {
        type: 'object',
        required: ['date', 'location_id', 'time_zone', 'starts_at', 'ends_at', 'hours', 'platforms', 'totals'],
        properties: {
          date: { type: 'string' },
          location_id: { type: 'string' },
          time_zone: { type: 'string' },
          starts_at: { ...integer, description: 'Epoch milliseconds.' },
          ends_at: { ...integer, description: 'Epoch milliseconds: the next day’s start.' },
          hours: { type: 'number', description: '24; 23 or 25 on a day the clocks change.' },
          platforms: { type: 'array', items: line },
          totals: { type: 'array', items: line },
        },
      },
    },
  },
};

const reportDoc = () => ({
  operationId: 'dailyReport',
  summary: "A location's end of day: each platform's orders counted and summed, one statement per local day (1 to 31)",
  tags: ['reports'],
  security: [{ bearer: [] }],
  parameters: [
    queryParameter('org_id', 'The organization.', true),
    queryParameter('location_id', 'Its location.', true),
    queryParameter('from', "The first local day, YYYY-MM-DD (the location's time zone).", true),
    queryParameter('to', `The last, YYYY-MM-DD: at most ${MAX_DAYS} days from the first, not in the future.`, true),
  ],
  responses: {
    '200': {
      description:
        "The statements. With `Accept: text/csv`, RFC 4180 CSV: a header, one row per order (amounts only for the taken ones), then each day's per-platform totals and its total.",
      content: {
        'application/json': { schema: STATEMENTS },
        [CSV]: { schema: { type: 'string' } },
      },
    },
    '400': errorRef,
    '401': errorRef,
    '403': errorRef,
    '404': errorRef,
    '429': errorRef,
    default: errorRef,
  },
});

/** Whether the caller asked for CSV before JSON. */
function wantsCsv(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  const types = accept.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase());
  const csv = types.indexOf(CSV);
  const jsonAt = types.indexOf('application/json');
  return csv !== -1 && (jsonAt === -1 || csv < jsonAt);
}

type ReportQuery = Record<string, string | string[] | undefined>;

/** The query's one value of a parameter; a parameter given twice is a 400 naming it. */
function one(query: ReportQuery, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) throw new Invalid(`${name} is given ${value.length} times: give it once`);
  return value;
}

function askedOf(query: ReportQuery): StatementsAsked {
  const orgId = one(query, 'org_id');
  const locationId = one(query, 'location_id');
  if (!orgId) throw new Invalid('org_id is required');
  if (!locationId) throw new Invalid('location_id is required');
  return { orgId, locationId, from: one(query, 'from'), to: one(query, 'to') };
}

export function reportRoutes(app: FastifyInstance, services: Services): void {
  // A token's caller, or the dashboard's session (its "Download CSV" link).
  app.get<{ Querystring: ReportQuery }>(
    '/v1/reports/daily',
    { config: { openapi: reportDoc, caller: 'token-or-session' } },
    async (request, reply) => {
      request.operation = 'daily report';
      const auth = request.caller?.auth;
      if (!auth) throw request.caller?.authError ?? new Unauthenticated();
      if (!auth.scopes.includes('user'))
        throw new Forbidden('the token does not carry the user scope this operation needs', 'insufficient_scope');
      const asked = askedOf(request.query);
      if (!wantsCsv(request)) {
        const statements = await dailyStatements(services, auth, asked);
        return toWire({ orgId: asked.orgId, locationId: asked.locationId, from: asked.from, to: asked.to, statements });
      }
      const { statements, orders, timeZone } = await dailyStatementsWithOrders(services, auth, asked);
      return reply
        .type(`${CSV}; charset=utf-8; header=present`)
        .header('content-disposition', `attachment; filename="end-of-day-${asked.locationId}-${asked.from}-to-${asked.to}.csv"`)
        .send(statementsCsv(statements, orders, timeZone));
    },
  );
}
