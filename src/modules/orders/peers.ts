// What an order's peers are sent, in their wire names: the POS (the order, and its changes when its
// registration takes them), the DSP (its outcome, how it moves at the POS and on the road, the
// merchant's cancellation: docs/dsp-channels.md) and the event provider of a merchant-delivered
// order (order.confirmed, then order.updated at each move of its status: docs/event-providers.md).
// Each is a message of the outbox, written with the change that makes it: retried,
// dead-lettered, redeliverable, with an Idempotency-Key fixed per message. One order's events to
// its DSP carry sequence 1, 2, 3… and go out one at a time in that order (the outbox's ordering
// key); so do its changes to its POS and to its event provider, each under a key of its own, so
// that one peer down holds up no other; other orders' events never wait behind them. The first
// is written claimed and sent at once after the commit, as is the order to the POS.
import type { Order as OrderRow } from '../../db/client.js';
import type { OutboxInput } from '../../delivery/outbox.js';
import { outgoingWebhook, providerCall, type JsonSchema, type OpenApiOperation } from '../../http/route-docs.js';
import { storedDriver, type Driver } from './driver.js';
import { DELIVERY_STATUSES, MERCHANT_DELIVERED, MOVES_SAID, ORDER_STATUSES } from './states.js';
import { AMOUNTS_ARE, orderAmounts, orderMoneyProperties, orderObjectSchema } from './wire.js';
import { dspEventDoc } from '../stores/peers.js';
import type { StockShortage } from './kitchen.js';
import { CANCELED_BY, cancellationWire, DSP_CANCEL_REASONS, MERCHANT_CANCEL_REASONS } from './cancellation.js';

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
  'confirmation_timeout',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];
/** Why an order will not be made; a POS's refusal may name the lines it has none of. */
export type Refusal = { reason: FailureReason; details: string; unavailable?: StockShortage[] };

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
export const COUNTS_AN_EVENT = { increment: ['eventSequence'] } as const;
/** The same, for a change told to the DSP and to the POS or the event provider: their count goes
 * up too, and is the change's position under their ordering keys. */
export const COUNTS_A_CHANGE = { increment: ['eventSequence', 'changeSequence'] } as const;

/**
 * The order's next event to its DSP. The change's own write counted the event (COUNTS_AN_EVENT,
 * or a refused order inserted with count 1): the count is the event's sequence, its position
 * under the order's ordering key and part of its idempotency key. An order's first event has
 * nothing to wait for: it is sent at once after the commit. Later ones wait their turn.
 */
export function dspEvent(order: Told, type: DspEventType, data: Record<string, unknown>, ordered = true): OutboxInput {
  const sequence = Number(order.eventSequence);
  return {
    kind: type,
    owner: order,
    to: { provider: order.dspSource, operation: 'events', onboardingId: order.dspOnboardingId },
    body: {
      type,
      store_id: order.dspStoreId,
      created_at: Date.now(),
      data: { order_id: order.id, dsp_order_id: order.dspOrderId, sequence, ...data },
    },
    subject: { purpose: 'dsp-event', subjectId: order.id, which: [sequence] },
    ...(ordered ? { ordering: { key: `order:${order.id}`, position: sequence } } : {}),
    now: sequence <= 1,
  };
}

/** The POS's id of the order in its answer to order.created: `order.pos_order_id`, else `order.id`. */
export function posOrderIdOf(answer: unknown): string | null {
  const order = (answer as { order?: { pos_order_id?: unknown; id?: unknown } } | undefined)?.order;
  const id = order?.pos_order_id ?? order?.id;
  return typeof id === 'string' && id.trim() ? id : null;
}

/** Why the POS did not take an order it was sent, or null when it did. A refusal (4xx) is the
 * POS's; anything else (no answer, 5xx, an answer without its order id until the attempts ran
 * out) is a POS that never took it. */
export function posRefusal(outcome: { delivered: boolean; status: number | null; error: string | null }): Refusal | null {
  if (outcome.delivered) return null;
  if (outcome.status !== null && outcome.status >= 400 && outcome.status < 500)
    return { reason: 'pos_rejected', details: `the POS refused the order: ${outcome.error ?? outcome.status}` };
  return { reason: 'pos_unreachable', details: `the POS did not take the order within the attempts: ${outcome.error ?? 'no answer'}` };
}

/** The answer checks of an order's messages: the POS's answer to order.created names its order. */
export const orderAnswerChecks = {
  'order.created': (answer: unknown) =>
    posOrderIdOf(answer) ? null : 'the POS took the order but its answer names no order id (order.pos_order_id or order.id)',
};

/** An order's prep time and when it is to be ready (epoch ms), when its kitchen quoted one. */
export const readiness = (order: Pick<OrderRow, 'prepTimeMinutes' | 'estimatedReadyAt'>) =>
  order.prepTimeMinutes === null
    ? {}
    : { prep_time_minutes: order.prepTimeMinutes, estimated_ready_time: order.estimatedReadyAt?.getTime() ?? null };

/** An order's accept, to its DSP: with the currency and amounts the POS took it at, and its prep
 * time and ready time when known; the POS's id of it unless its move came before its answer. */
export const accepted = (
  order: Pick<OrderRow, 'posOrderId' | 'status' | 'prepTimeMinutes' | 'estimatedReadyAt'>,
  sent: Record<string, unknown>,
) => ({
  ...(order.posOrderId === null ? {} : { pos_order_id: order.posOrderId }),
  status: order.status,
  ...readiness(order),
  ...orderAmounts(sent),
});

/** location.order.fail's data: with the lines the POS has none of, when it named them. */
export const failed = (refusal: Refusal) => ({
  failure_reason: refusal.reason,
  failure_details: refusal.details,
  ...(refusal.unavailable
    ? { unavailable_items: refusal.unavailable.map((u) => ({ service_id: u.serviceId, type: u.type, quantity: u.quantity })) }
    : {}),
});

/** A driver in the wire's names (SPEC's driver object, with its vehicle). */
export const driverWire = (driver: Driver) => ({
  name: driver.name,
  phone: driver.phone,
  source: driver.source,
  vehicle_info: driver.vehicleInfo && {
    make: driver.vehicleInfo.make,
    model: driver.vehicleInfo.model,
    color: driver.vehicleInfo.color,
    license_plate: driver.vehicleInfo.licensePlate,
  },
});

type Delivery = Pick<OrderRow, 'status' | 'deliveryStatus' | 'driver' | 'estimatedDropoffAt'>;

/** Where an order's delivery stands, in the wire's names: its statuses, its driver and when the
 * driver is expected at the customer, each when known. */
function deliveryWire(order: Delivery, driverField: 'driver' | 'driver_details') {
  const driver = storedDriver(order.driver);
  return {
    status: order.status,
    delivery_status: order.deliveryStatus,
    ...(driver ? { [driverField]: driverWire(driver) } : {}),
    ...(order.estimatedDropoffAt ? { estimated_dropoff_time: order.estimatedDropoffAt.getTime() } : {}),
  };
}

/** The event that tells the DSP how an order now stands, by its new status: a merchant's
 * cancellation is a cancel; every other move (ready, on its way, done, or failed after it was
 * taken), and every move of its delivery, a status change. Only of an order the restaurant
 * delivers does the DSP hear the delivery (its status, driver and ETA): the platform's own
 * deliveries and its customers' pickups are the platform's to tell. */
export function statusEvent(
  order: Delivery & Pick<OrderRow, 'fulfillmentType' | 'canceledBy' | 'cancelReason' | 'cancelDetails' | 'endedAt'>,
): { type: DspEventType; data: Record<string, unknown> } {
  if (order.status === 'merchant_canceled')
    return { type: 'location.order.cancel', data: { status: order.status, ...cancellationWire(order) } };
  const data = order.fulfillmentType === MERCHANT_DELIVERED ? deliveryWire(order, 'driver') : { status: order.status };
  return { type: 'location.order.notify_status_change', data };
}

type SentOrder = Pick<OrderRow, 'id' | 'dspOrderId' | 'dspSource' | 'status' | 'deliveryStatus' | 'body'> & { posOrderId?: string | null };

/** The order object of docs/reference.md § Resources as we send it on: what the DSP sent, with our id and state.
 * `sent` is the stored body parsed; a new order passes the object its body was made from. */
export function orderObject(order: SentOrder, sent = JSON.parse(order.body) as Record<string, unknown>): Record<string, unknown> {
  return {
    ...sent,
    ...orderAmounts(sent),
    id: order.id,
    dsp_order_id: order.dspOrderId,
    source: sent.source ?? order.dspSource,
    status: order.status,
    delivery_status: order.deliveryStatus,
    ...(order.posOrderId ? { pos_order_id: order.posOrderId } : {}),
  };
}

/** A new order as a POS that takes the markup as a line gets it (the markup line of
 * docs/pos-vendors.md's orders): its items at the catalog's prices, and one line more with the difference, so that
 * the lines still add up to its subtotal, and its subtotal and total as sent. */
export function withMarkupLine(
  object: Record<string, unknown>,
  items: unknown[],
  markup: number,
  platform: string,
): Record<string, unknown> {
  return { ...object, items: [...items, { service_id: 'markup', name: `${platform} markup`, quantity: 1, price: markup }] };
}

/** Where an order's POS location is: its registration, the onboarding whose token covers all of
 * the merchant's locations, and the POS's id of the location. */
export type PosLocation = { source: string; onboardingId: string; providerId: string };

/** The POS's orders operation, with the merchant's token, naming the location as the catalog call
 * does (X-Provider-Location-Id). */
const posDestination = (location: PosLocation) => ({
  provider: location.source,
  operation: 'orders' as const,
  onboardingId: location.onboardingId,
  headers: { 'x-provider-location-id': location.providerId },
});

/** A new order to its POS (order.created), sent at once after the commit. It names its POS
 * location in the body and in its destination's header. */
export function orderToPos(order: OrderRow, object: Record<string, unknown>, location: PosLocation): OutboxInput {
  return {
    kind: 'order.created',
    owner: order,
    to: posDestination(location),
    body: { type: 'order.created', object: { ...orderObject(order, object), location_id: location.providerId } },
    subject: { purpose: 'order.created', subjectId: order.id },
    now: true,
    // Its answer's handler starts from the order as it is sent (service.ts, orderSent).
    subjectRow: order,
  };
}

/** An order's change to its POS (order.updated: a DSP's cancellation, a move of its delivery), for
 * a POS whose registration takes order changes (docs/reference.md's order event is order.created
 * only): the order object with `order_id`, its location and the driver as `driver_details`. The
 * changes of one order reach the POS in order (the key `pos:<id>`, by the order's change count). */
export function changeToPos(order: OrderRow, location: PosLocation): OutboxInput {
  const position = Number(order.changeSequence);
  const object = {
    ...orderObject(order),
    order_id: order.id,
    location_id: location.providerId,
    ...deliveryWire(order, 'driver_details'),
    ...cancellationWire(order),
  };
  return {
    kind: 'order.updated',
    owner: order,
    to: posDestination(location),
    body: { type: 'order.updated', object },
    // A DSP's cancellation keeps the key it has always had.
    subject:
      order.status === 'dsp_canceled'
        ? { purpose: 'order.canceled', subjectId: order.id }
        : { purpose: 'order.updated', subjectId: order.id, which: [position] },
    ordering: { key: `pos:${order.id}`, position },
  };
}

/** Where an order's event provider delivers it: the provider, and the POS's id of the location
 * that `order.confirmed` named (what its webhooks must name too). */
export type Dispatch = { source: string; locationId: string };

/** A merchant-delivered order the POS took, to the event provider that delivers it: first under
 * the key `dispatch:<id>`, where its order.updated follow it. */
export function orderConfirmed(order: OrderRow, target: Dispatch): OutboxInput {
  return {
    kind: 'order.confirmed',
    owner: order,
    to: { provider: target.source, operation: 'events' },
    body: { location_id: target.locationId, reference_id: order.id, type: 'order.confirmed', order: orderObject(order) },
    subject: { purpose: 'order.confirmed', subjectId: order.id },
    ordering: { key: `dispatch:${order.id}`, position: Number(order.changeSequence) },
  };
}

/** A move of the order's status, to its event provider (order.updated), behind its
 * order.confirmed and the moves before it. */
export function changeToEventProvider(order: OrderRow, target: Dispatch): OutboxInput {
  const position = Number(order.changeSequence);
  return {
    kind: 'order.updated',
    owner: order,
    to: { provider: target.source, operation: 'events' },
    body: {
      location_id: target.locationId,
      reference_id: order.id,
      type: 'order.updated',
      order: { id: order.id, status: order.status, delivery_status: order.deliveryStatus, ...cancellationWire(order) },
    },
    subject: { purpose: 'dispatch', subjectId: order.id, which: [position] },
    ordering: { key: `dispatch:${order.id}`, position },
  };
}

/** A canceled order's cancellation, as the messages that tell it onward carry it. */
const CANCELLATION_PROPERTIES: Record<string, JsonSchema> = {
  canceled_by: { type: 'string', enum: [...CANCELED_BY], description: 'A canceled order: who canceled it.' },
  cancel_reason: {
    type: ['string', 'null'],
    enum: [...new Set([...MERCHANT_CANCEL_REASONS, ...DSP_CANCEL_REASONS]), null],
    description: `A canceled order: why, when its party said. The restaurant's: ${MERCHANT_CANCEL_REASONS.join(', ')}; the platform's: ${DSP_CANCEL_REASONS.join(', ')}.`,
  },
  cancel_details: { type: 'string', description: 'The restaurant’s sentence about its cancellation, when it gave one.' },
};

/** What an order event's data carries only at times (a delivery the restaurant makes, its driver). */
const OPTIONAL = new Set(['pos_order_id', 'delivery_status', 'driver', 'estimated_dropoff_time', 'cancel_reason', 'cancel_details']);

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
    'location.order.accept': [
      `The POS took the order, at the currency and amounts it carries (those the order gave). ${AMOUNTS_ARE}`,
      {
        pos_order_id: {
          type: 'string',
          description:
            'The POS’s id of the order. Absent when the POS moved the order before its answer was read: it took the order all the same, and this accept comes before the move.',
        },
        status: { type: 'string' },
        ...orderMoneyProperties(),
      },
    ],
    'location.order.fail': [
      'The order will not be made: refused at intake, by the POS, or the POS never took it.',
      {
        failure_reason: { type: 'string', enum: [...FAILURE_REASONS] },
        failure_details: { type: 'string', description: 'A sentence naming the first offending item or modifier.' },
      },
    ],
    'location.order.notify_status_change': [
      `The POS moved the order (${MOVES_SAID}), or, for an order the restaurant delivers (merchant_managed_delivery), its delivery status or driver changed.`,
      {
        status: { type: 'string', enum: [...ORDER_STATUSES] },
        delivery_status: {
          type: 'string',
          enum: [...DELIVERY_STATUSES],
          description: 'Only for an order the restaurant delivers (merchant_managed_delivery): where its delivery is.',
        },
        driver: { type: 'object', description: 'Only for an order the restaurant delivers, once a driver is assigned.' },
        estimated_dropoff_time: {
          type: 'integer',
          description: 'Only for an order the restaurant delivers: when the driver is expected at the customer, epoch ms, when known.',
        },
      },
    ],
    'location.order.cancel': [
      'The merchant canceled the order: who (canceled_by, merchant) and why, when its POS said.',
      {
        status: { type: 'string', const: 'merchant_canceled' },
        canceled_by: { type: 'string', enum: [...CANCELED_BY] },
        cancel_reason: { type: ['string', 'null'], enum: [...MERCHANT_CANCEL_REASONS, null], description: 'Null when the POS said none.' },
        cancel_details: { type: 'string', description: 'The restaurant’s sentence, when it gave one.' },
      },
    ],
  };
  const money = orderMoneyProperties();
  return Object.fromEntries(
    DSP_EVENT_TYPES.map((type) => {
      const [when, fields] = more[type];
      const data = {
        type: 'object',
        required: ['order_id', 'dsp_order_id', 'sequence', ...Object.keys(fields).filter((f) => !OPTIONAL.has(f) && !(f in money))],
        properties: { ...common, ...fields },
      };
      return [type, dspEventDoc(type, when, data, 'dsp-event:<order id>:<sequence>')];
    }),
  );
}

/** What an event provider receives (docs/event-providers.md), as the OpenAPI document's `webhooks`
 * describe it. Named apart from the partner events of the same type. */
export function eventProviderDocs(): Record<string, OpenApiOperation> {
  const envelope = (type: string, order: JsonSchema): JsonSchema => ({
    type: 'object',
    required: ['location_id', 'reference_id', 'type', 'order'],
    properties: {
      location_id: { type: 'string', description: 'The POS location (its provider_id): name it in your webhooks about this order.' },
      reference_id: { type: 'string', description: 'Our id of the order: the order_id of your webhooks about it.' },
      type: { type: 'string', const: type },
      order,
    },
  });
  const headers = {
    'X-Service-Signature': 'HMAC-SHA256 of the exact body with your webhook secret, lower-case hex: refuse a call without it (4xx).',
    'Idempotency-Key': 'The same for this message however often it is sent (order.confirmed:<id>, dispatch:<id>:<n>): drop a repeat by it.',
  };
  const taken =
    'Taken (SPEC: 201 with a JSON string; any 2xx is taken). Anything else is sent again later with the same Idempotency-Key (a 4xx other than 408 and 429: not again); the order’s later messages wait behind it.';
  const status = { type: 'string', enum: [...ORDER_STATUSES] };
  return {
    'event-provider order.confirmed': outgoingWebhook(
      'To an event provider: order.confirmed',
      'A merchant-delivered order the POS took, for you to deliver. POST {event provider base_url}/v1/events. Answer, then report the delivery: order.assign.driver and order.delivery_status.updated to /v1/webhooks/event-providers/{source}.',
      envelope('order.confirmed', {
        type: 'object',
        required: ['id', 'status', 'delivery_status'],
        description: `The order object: what the delivery platform sent, with our id, status and delivery status. ${AMOUNTS_ARE}`,
        properties: {
          ...orderMoneyProperties(),
          id: { type: 'string' },
          status,
          delivery_status: { type: 'string', enum: [...DELIVERY_STATUSES] },
          fulfillment_type: { type: 'string', const: 'merchant_managed_delivery' },
          delivery_address: { type: 'object' },
          customer: { type: 'object' },
          items: { type: 'array', items: { type: 'object' } },
        },
      }),
      headers,
      taken,
    ),
    'event-provider order.updated': outgoingWebhook(
      'To an event provider: order.updated',
      'The order’s status moved after order.confirmed (ready_for_pickup, out_for_delivery, completed, merchant_canceled, dsp_canceled, failed): each move once, in order, behind the order.confirmed. A canceled or failed order is not to be delivered. POST {event provider base_url}/v1/events.',
      envelope('order.updated', {
        type: 'object',
        required: ['id', 'status', 'delivery_status'],
        properties: {
          id: { type: 'string' },
          status,
          delivery_status: { type: 'string', enum: [...DELIVERY_STATUSES] },
          ...CANCELLATION_PROPERTIES,
        },
      }),
      headers,
      taken,
    ),
  };
}

/** What a POS's order endpoint gets (docs/pos-vendors.md, "Orders"), as the OpenAPI document's
 * `webhooks` describe it: order.created for every order, order.updated for a POS that takes them. */
export function posOrderDocs(): Record<string, OpenApiOperation> {
  const sent = orderObjectSchema();
  const properties = sent.properties as Record<string, JsonSchema>;
  const object = (more: Record<string, JsonSchema>, required: string[]): JsonSchema => ({
    ...sent,
    description: `The order object as its delivery platform sent it, with our id, status and delivery status and your location. ${AMOUNTS_ARE} Prices are no lower than your catalog's.`,
    required: [...new Set([...(sent.required as string[]), 'id', 'location_id', 'status', 'delivery_status', ...required])],
    properties: {
      ...properties,
      id: { type: 'string', description: 'Our id of the order: the order_id of your order.updated webhooks.' },
      location_id: { type: 'string', description: 'Your location (its provider_id) the order is for.' },
      status: { type: 'string', enum: [...ORDER_STATUSES] },
      delivery_status: { type: 'string', enum: [...DELIVERY_STATUSES] },
      ...more,
    },
  });
  const event = (type: string, order: JsonSchema) => ({
    type: 'object',
    required: ['type', 'object'],
    properties: { type: { type: 'string', const: type }, object: order },
  });
  const headers = (key: string) => ({
    'X-Provider-Location-Id': 'Your location the order is for: its location_id again.',
    'Idempotency-Key': `${key}: the same however often this message is sent (after a timeout, a 5xx, a restart). Drop a repeat by it and answer as the first time.`,
  });
  const refused = { description: 'Refused: the order fails (pos_rejected) and its platform is told. Other answers are retried.' };
  return {
    'pos order.created': providerCall(
      'post',
      'To a POS: a new order',
      'POST {pos base_url}/v1/orders, once the order passed its checks against the menus its store received.',
      {
        headers: headers('order.created:<order id>'),
        body: event('order.created', object({}, [])),
        answers: {
          '2XX': {
            description: 'Taken: your id of the order in order.pos_order_id (or order.id). A 2xx naming neither is retried, then dead.',
            schema: {
              type: 'object',
              required: ['order'],
              properties: {
                order: {
                  type: 'object',
                  properties: { pos_order_id: { type: 'string' }, id: { type: 'string' } },
                  anyOf: [{ required: ['pos_order_id'] }, { required: ['id'] }],
                },
              },
            },
          },
          '4XX': refused,
        },
      },
    ),
    'pos order.updated': providerCall(
      'post',
      'To a POS: an order moved',
      'POST {pos base_url}/v1/orders, only to a POS registered with --order-updates: the platform canceled the order (status dsp_canceled, Idempotency-Key order.canceled:<id>), or its merchant-delivered order took a step of its delivery (order.updated:<id>:<n>, n the order’s count of changes, growing but not by one per message). One order’s in the order they happened.',
      {
        headers: headers('order.updated:<order id>:<n>, or order.canceled:<order id>'),
        body: event(
          'order.updated',
          object(
            {
              order_id: { type: 'string', description: 'Our id again.' },
              driver_details: { type: 'object', description: 'Once a driver is assigned: {source, name, phone, vehicle_info}.' },
              estimated_dropoff_time: { type: 'integer', description: 'Epoch milliseconds, when known.' },
              ...CANCELLATION_PROPERTIES,
            },
            ['order_id'],
          ),
        ),
        answers: {
          '2XX': { description: 'Taken.' },
          '4XX': {
            description:
              'Not taken: the message is dead (the partner hears delivery.dead, an operator sees it); the order does not change. An order you never got: answer 2xx.',
          },
        },
      },
    ),
  };
}

/** The order as partners hear of it in its events: its currency and amounts, not the rest of the
 * DSP's body (its customer is read from the order). `sent` is the stored body parsed; a new order
 * passes the object its body was made from. */
export function orderEventData(order: OrderRow, sent = JSON.parse(order.body) as Record<string, unknown>): Record<string, unknown> {
  return {
    _id: order.id,
    org_id: order.orgId,
    location_id: order.locationId,
    source: order.dspSource,
    dsp_store_id: order.dspStoreId,
    dsp_order_id: order.dspOrderId,
    pos_order_id: order.posOrderId,
    status: order.status,
    delivery_status: order.deliveryStatus,
    fulfillment_type: order.fulfillmentType,
    failure_reason: order.failureReason,
    failure_details: order.failureDetails,
    // A new order has none: nothing of the driver's is read on the order's path.
    driver: order.driver ? driverWire(storedDriver(order.driver)!) : null,
    estimated_dropoff_time: order.estimatedDropoffAt?.getTime() ?? null,
    prep_time_minutes: order.prepTimeMinutes,
    estimated_ready_time: order.estimatedReadyAt?.getTime() ?? null,
    ...orderAmounts(sent),
    markup: Number(order.markup),
    ...cancellationWire(order),
    created_at: order.createdAt.getTime(),
    updated_at: order.updatedAt.getTime(),
  };
}

/** What the partners' order events carry of the order besides its ids and states (modules/events/docs.ts):
 * its money whole, its markup, and a canceled order's cancellation. */
export const orderEventDocs = () => ({
  properties: {
    ...orderMoneyProperties(),
    markup: {
      type: 'integer',
      minimum: 0,
      description: 'What the platform priced the items above the catalog, prices times quantities (0: none, or no catalog).',
    },
    ...CANCELLATION_PROPERTIES,
  },
  said: AMOUNTS_ARE,
});
