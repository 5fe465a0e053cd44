// What the DSP hears back about an order (docs/dsp-channels.md): its outcome (accepted, or failed
// with a reason), how it moves at the POS and on the road, and the merchant's cancellation. Each
// event is written in the transaction of the change it tells, and goes through the outbox like
// every message: retried, dead-lettered, redeliverable, signed (X-Service-Signature), with an
// Idempotency-Key fixed per event and the DSP onboarding's token when the store is bound. One
// order's events carry sequence 1, 2, 3… and go out one at a time in that order (the outbox's
// ordering key); other orders' events never wait behind them.
import type { Services } from '../../services.js';
import type { Order as OrderRow } from '../../db/client.js';
import type { Run } from '../../db/statements.js';
import { enqueue, enqueueNow, type OutboxInput } from '../../delivery/outbox.js';
import { outgoingWebhook, type OpenApiOperation } from '../../http/route-docs.js';

/** Why an order will not be made, as the DSP is told (location.order.fail). */
export const FAILURE_REASONS = [
  'location_not_found',
  'restaurant_not_accepting_orders',
  'item_not_found',
  'item_unavailable',
  'price_mismatch',
  'invalid_cart',
  'pos_rejected',
  'pos_unreachable',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];
export type Refusal = { reason: FailureReason; details: string };

export const DSP_EVENT_TYPES = [
  'location.order.accept',
  'location.order.fail',
  'location.order.notify_status_change',
  'location.order.cancel',
] as const;
export type DspEventType = (typeof DSP_EVENT_TYPES)[number];

/** The order fields an event is addressed and told by, as the change that tells it left them. */
export type Told = Pick<
  OrderRow,
  'id' | 'dspOrderId' | 'dspSource' | 'dspStoreId' | 'dspOnboardingId' | 'partnerId' | 'orgId' | 'eventSequence'
>;

/** What a write that is told to the DSP adds to its update of the order: the order's event count
 * goes up by one in that same statement, and the count it returns is the event's sequence. */
export const COUNTS_AN_EVENT = { increment: 'eventSequence' } as const;

/**
 * The order's next event to its DSP, as steps of the transaction making the change it tells. The
 * change's own write counted the event (COUNTS_AN_EVENT, or a refused order inserted with count
 * 1): the count is the event's sequence, its position under the order's ordering key and part of
 * its idempotency key. An order's first event has nothing to wait for: it is written already
 * claimed and sent once the transaction commits (no claim round, as for a new order's message to
 * the POS). Later ones wait their turn in the outbox.
 */
export async function tellDsp(
  run: Run,
  services: Pick<Services, 'config' | 'delivery'>,
  order: Told,
  type: DspEventType,
  data: Record<string, unknown>,
): Promise<void> {
  const sequence = Number(order.eventSequence);
  const event: OutboxInput = {
    kind: type,
    owner: order,
    source: order.dspSource,
    onboardingId: order.dspOnboardingId,
    operation: 'events',
    body: {
      type,
      store_id: order.dspStoreId,
      created_at: Date.now(),
      data: { order_id: order.id, dsp_order_id: order.dspOrderId, sequence, ...data },
    },
    subject: { purpose: 'dsp-event', subjectId: order.id, which: [sequence] },
    ...(services.config.outbox.ordered ? { ordering: { key: `order:${order.id}`, position: sequence } } : {}),
  };
  // The first has nothing to wait for: written claimed, sent at once after the commit.
  await (sequence > 1 ? enqueue(run, services, event) : enqueueNow(run, services, event));
}

/** location.order.fail's data. */
export const failed = (refusal: Refusal) => ({ failure_reason: refusal.reason, failure_details: refusal.details });

/** The event that tells the DSP how an order the POS had moved now stands, by its new status:
 * a merchant's cancellation is a cancel; every other move (ready, on its way, done, or failed
 * after it was taken) a status change. */
export function statusEvent(order: Pick<OrderRow, 'status' | 'deliveryStatus' | 'driver'>): {
  type: DspEventType;
  data: Record<string, unknown>;
} {
  if (order.status === 'merchant_canceled') return { type: 'location.order.cancel', data: { status: order.status } };
  return {
    type: 'location.order.notify_status_change',
    data: {
      status: order.status,
      delivery_status: order.deliveryStatus,
      ...(order.driver ? { driver: JSON.parse(order.driver) as unknown } : {}),
    },
  };
}

/** The DSP events as the OpenAPI document's `webhooks` describe them (what a DSP receives). */
export function dspEventDocs(): Record<string, OpenApiOperation> {
  const common = {
    order_id: { type: 'string', description: 'Our id of the order.' },
    dsp_order_id: { type: 'string', description: "The DSP's id of the order." },
    sequence: {
      type: 'integer',
      minimum: 1,
      description: '1, 2, 3… per order, in the order of the changes: the DSP gets them in this order.',
    },
  };
  const more: Record<DspEventType, [string, Record<string, unknown>]> = {
    'location.order.accept': ['The POS took the order.', { pos_order_id: { type: 'string' }, status: { type: 'string' } }],
    'location.order.fail': [
      'The order will not be made: refused at intake, by the POS, or the POS never took it.',
      {
        failure_reason: { type: 'string', enum: [...FAILURE_REASONS] },
        failure_details: { type: 'string', description: 'A sentence naming the first offending item or modifier.' },
      },
    ],
    'location.order.notify_status_change': [
      'The POS moved the order (ready_for_pickup, out_for_delivery, completed), or its delivery status or driver changed.',
      { status: { type: 'string' }, delivery_status: { type: 'string' }, driver: { type: 'object', description: 'When known.' } },
    ],
    'location.order.cancel': ['The merchant canceled the order.', { status: { type: 'string', const: 'merchant_canceled' } }],
  };
  const headers = {
    'X-Service-Signature': "HMAC-SHA256 of the body with the DSP's webhook secret, lower-case hex.",
    'Idempotency-Key': 'The same for this event however often it is sent: drop a repeat by it.',
  };
  return Object.fromEntries(
    DSP_EVENT_TYPES.map((type) => {
      const [when, fields] = more[type];
      const data = {
        type: 'object',
        required: ['order_id', 'dsp_order_id', 'sequence', ...Object.keys(fields).filter((f) => f !== 'driver')],
        properties: { ...common, ...fields },
      };
      const body = {
        type: 'object',
        required: ['type', 'store_id', 'created_at', 'data'],
        properties: {
          type: { type: 'string', const: type },
          store_id: { type: 'string', description: "The DSP's own store id." },
          created_at: { type: 'integer', description: 'Epoch milliseconds of the change.' },
          data,
        },
      };
      return [
        type,
        outgoingWebhook(
          `To a DSP: ${type}`,
          `${when} POST {dsp base_url}/v1/events, with the store's onboarding token as a bearer token when the store is bound.`,
          body,
          headers,
        ),
      ];
    }),
  );
}
