// The order webhooks of DSPs, POS systems and event providers (docs/reference.md § Webhooks in):
// their payloads read in the peers' wire names and handed to ./service.ts in the domain's, and
// its answers written back in the wire's.
import type { WebhookHandler, WebhookList } from '../../webhooks/intake.js';
import { AppError, Invalid } from '../../common/errors.js';
import { isPlainObject, RECENT_EPOCH_MS, recentEpochMs, requiredText, displayName } from '../../common/input.js';
import type { Order as OrderRow } from '../../db/client.js';
import { DSP_CANCEL_REASONS, MERCHANT_CANCEL_REASONS, readCancellation } from './cancellation.js';
import { POS_STATUSES, FULFILLMENT_TYPES, DELIVERY_STATUSES, type DeliveryStatus, type OrderStatus } from './states.js';
import { assertOrderMoney, orderMoney, orderObjectSchema, readDiscounts } from './wire.js';
import { acceptOrder, cancelOrder, changeStatus, reportDelivery, type DeliveryUpdate, type Incoming } from './service.js';
import type { Driver, VehicleInfo } from './driver.js';
import type { JsonSchema } from '../../http/route-docs.js';
import { decideOrder, type Decision } from './decisions.js';
import { POS_VALIDATION_SCHEMA, PREP_MINUTES } from './kitchen.js';
import { readiness } from './peers.js';

/** A DSP's order, as the service reads it: the ids that make it one order, and the object kept
 * whole (its cart is checked as sent, ./intake.ts, and it goes on to the POS as sent). Money that
 * is not money refuses it whole (./wire.ts). The conformance kit reads a DSP's order so too. */
export function incoming(object: Record<string, unknown>): Incoming {
  if (object.fulfillment_type !== undefined && !FULFILLMENT_TYPES.includes(object.fulfillment_type as never))
    throw new Invalid(`object.fulfillment_type must be one of ${FULFILLMENT_TYPES.join(', ')}`);
  if (object.items !== undefined && !Array.isArray(object.items)) throw new Invalid('object.items must be an array');
  assertOrderMoney(object);
  const discounts = readDiscounts(object);
  return {
    dspOrderId: requiredText(object.dsp_order_id ?? object.id, 'object.dsp_order_id'),
    dspStoreId: requiredText(object.dsp_store_id, 'object.dsp_store_id'),
    fulfillmentType: (object.fulfillment_type as string | undefined) ?? null,
    money: orderMoney(object, discounts),
    object,
  };
}

const orderCreated: WebhookHandler = {
  object: orderObjectSchema(),
  accept: async (services, event) => {
    const order = await acceptOrder(services, event.source, incoming(event.object));
    if ('duplicateOf' in order)
      return { status: 200, body: { order_id: order.duplicateOf.id, status: order.duplicateOf.status, duplicate: true } };
    // A store nobody bound (or whose location is gone) is the DSP's mistake: 422, as ever; the
    // order is kept, so the operator sees what was refused and why, and the DSP is told.
    if (order.unbound)
      throw new AppError(
        422,
        'store_not_bound',
        `${order.failureDetails}; a partner binds the store to a location before its orders are taken`,
      );
    return {
      status: 201,
      body: { order_id: order.id, status: order.status, ...(order.failureReason ? { failure_reason: order.failureReason } : {}) },
    };
  },
};

const orderCanceled: WebhookHandler = {
  object: {
    type: 'object',
    description:
      'Your customer canceled the order. Sent again (the same Idempotency-Key, or the same cancellation later), it changes nothing and is answered 200 with duplicate: true.',
    required: ['dsp_order_id', 'dsp_store_id'],
    properties: {
      dsp_order_id: { type: 'string', description: 'Your id of the order, as its order.created gave it.' },
      dsp_store_id: { type: 'string', description: 'The store the order was placed at.' },
      cancel_reason: {
        type: 'string',
        enum: [...DSP_CANCEL_REASONS],
        description: 'Why, told onward to the restaurant and the partner (canceled_by: dsp).',
      },
    },
  },
  accept: async (services, event) => {
    const order = await cancelOrder(
      services,
      event.source,
      requiredText(event.object.dsp_order_id, 'object.dsp_order_id'),
      requiredText(event.object.dsp_store_id, 'object.dsp_store_id'),
      readCancellation('dsp', event.object),
    );
    return { status: 200, body: { order_id: order.id, status: order.status, ...(order.duplicate ? { duplicate: true } : {}) } };
  },
};

const orderUpdated: WebhookHandler = {
  object: {
    type: 'object',
    description:
      'Your order moved, or ended: a cancellation may say why (told onward to the platform and the partner, canceled_by: merchant).',
    required: ['order_id', 'status'],
    properties: {
      order_id: { type: 'string', description: 'Our id of the order (the id of its order.created).' },
      status: { type: 'string', enum: [...POS_STATUSES] },
      cancel_reason: { type: 'string', enum: [...MERCHANT_CANCEL_REASONS], description: 'With merchant_canceled: why.' },
      cancel_details: { type: 'string', description: 'With merchant_canceled: a sentence about it (e.g. with other).' },
    },
  },
  accept: async (services, event) => {
    const orderId = requiredText(event.object.order_id, 'object.order_id');
    const status = requiredText(event.object.status, 'object.status');
    if (!POS_STATUSES.includes(status as never)) throw new Invalid(`object.status must be one of ${POS_STATUSES.join(', ')}`);
    const cancellation = status === 'merchant_canceled' ? readCancellation('merchant', event.object) : null;
    await changeStatus(services, event.source, orderId, status as OrderStatus, cancellation);
    return { status: 200, body: { order_id: orderId, status } };
  },
};

/** Optional text: absent or null is null; anything but text is 400 naming the field. */
function optionalText(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new Invalid(`${field} must be a string`);
  return value.trim() || null;
}

/** A driver as an event provider sends it (docs/reference.md § Resources: `name`, `phone`
 * `{number, code}` (or the number as text), `source`, and `vehicle_info`). */
function driverOf(value: unknown): Driver {
  if (!isPlainObject(value)) throw new Invalid('object.driver must be an object with a name');
  const phone = value.phone;
  let read: Driver['phone'] = null;
  if (typeof phone === 'string') read = { number: requiredText(phone, 'object.driver.phone'), code: null };
  else if (isPlainObject(phone))
    read = { number: requiredText(phone.number, 'object.driver.phone.number'), code: optionalText(phone.code, 'object.driver.phone.code') };
  else if (phone !== undefined && phone !== null) throw new Invalid('object.driver.phone must be {number, code} or a string');
  return {
    name: displayName(value.name, 'object.driver.name'),
    phone: read,
    source: optionalText(value.source, 'object.driver.source'),
    vehicleInfo: vehicleOf(value.vehicle_info),
  };
}

function vehicleOf(value: unknown): VehicleInfo | null {
  if (value === undefined || value === null) return null;
  if (!isPlainObject(value)) throw new Invalid('object.driver.vehicle_info must be an object');
  const field = (name: string) => optionalText(value[name], `object.driver.vehicle_info.${name}`);
  return { make: field('make'), model: field('model'), color: field('color'), licensePlate: field('license_plate') };
}

const text = { type: 'string' };
const nullableText = { type: ['string', 'null'] };
/** A driver as an event provider sends it, for the OpenAPI document (and docs/event-providers.md). */
export const DRIVER_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: text,
    phone: {
      description: 'The number and its country calling code; the number alone as a string is taken too.',
      oneOf: [{ type: 'object', required: ['number'], properties: { number: text, code: nullableText } }, text],
    },
    source: { ...nullableText, description: 'Your fleet, or the driver company.' },
    vehicle_info: {
      type: ['object', 'null'],
      properties: { make: nullableText, model: nullableText, color: nullableText, license_plate: nullableText },
    },
  },
};
const REPORT_ADDRESS = {
  location_id: { type: 'string', description: 'The `location_id` the order.confirmed carried (the POS location).' },
  order_id: { type: 'string', description: 'The `reference_id` of the order.confirmed: our id of the order.' },
};

/** A delivery report's order and location: what every event provider webhook names. */
const addressed = (object: Record<string, unknown>) => ({
  orderId: requiredText(object.order_id, 'object.order_id'),
  locationId: requiredText(object.location_id, 'object.location_id'),
});

/** The event types an event provider reports a delivery with. */
export const DELIVERY_REPORTS = ['order.assign.driver', 'order.delivery_status.updated'] as const;

/** An event provider's webhook read into the report it makes (400 naming the field): the driver
 * it assigns, or the step the delivery reached, with a driver and an ETA when it says. The
 * conformance kit reads a provider's webhooks with it too. */
export function deliveryReport(type: (typeof DELIVERY_REPORTS)[number], object: Record<string, unknown>): DeliveryUpdate {
  const target = addressed(object);
  if (type === 'order.assign.driver') return { ...target, driver: driverOf(object.driver), deliveryStatus: null, estimatedDropoffAt: null };
  const status = requiredText(object.delivery_status, 'object.delivery_status');
  if (!DELIVERY_STATUSES.includes(status as never))
    throw new Invalid(`object.delivery_status must be one of ${DELIVERY_STATUSES.join(', ')}`);
  const eta = object.estimated_dropoff_time;
  return {
    ...target,
    driver: object.driver === undefined || object.driver === null ? null : driverOf(object.driver),
    deliveryStatus: status as DeliveryStatus,
    estimatedDropoffAt: eta === undefined || eta === null ? null : new Date(recentEpochMs(eta, 'object.estimated_dropoff_time')),
  };
}

/** What an event provider's webhook is answered: the order as the report left it. */
export const reported = (order: Pick<OrderRow, 'id' | 'status' | 'deliveryStatus'>) => ({
  status: 200,
  body: { order_id: order.id, status: order.status, delivery_status: order.deliveryStatus },
});

const applied: WebhookHandler['accept'] = async (services, event) =>
  reported(await reportDelivery(services, event.source, deliveryReport(event.type as (typeof DELIVERY_REPORTS)[number], event.object)));

const driverAssigned: WebhookHandler = {
  object: {
    type: 'object',
    description: 'A driver for the order: the delivery goes to enroute_to_pickup, unless it is further along.',
    required: ['location_id', 'order_id', 'driver'],
    properties: { ...REPORT_ADDRESS, driver: DRIVER_SCHEMA },
  },
  accept: applied,
};

const deliveryStatusUpdated: WebhookHandler = {
  object: {
    type: 'object',
    description:
      'The delivery moved (forward only): enroute_to_dropoff and arrived_at_dropoff put the order out_for_delivery, delivered completes it. The step the order has already changes nothing, its driver and ETA included.',
    required: ['location_id', 'order_id', 'delivery_status'],
    properties: {
      ...REPORT_ADDRESS,
      delivery_status: { type: 'string', enum: [...DELIVERY_STATUSES] },
      driver: { ...DRIVER_SCHEMA, description: 'A driver, when it changes with this step (order.assign.driver changes it between steps).' },
      estimated_dropoff_time: {
        type: 'integer',
        minimum: RECENT_EPOCH_MS,
        description: 'When you expect the driver at the customer, epoch milliseconds (not seconds), taken with a step forward.',
      },
    },
  },
  accept: applied,
};

/** A POS's decision on an order it said it would decide later (./decisions.ts): answered with
 * the order as the decision left it; a repeat with `duplicate: true`. */
const decided: WebhookHandler['accept'] = async (services, event) => {
  const orderId = requiredText(event.object.order_id, 'object.order_id');
  const decision: Decision =
    event.type === 'order.accepted'
      ? { accepted: true, order: event.object }
      : {
          accepted: false,
          reason: typeof event.object.reason === 'string' && event.object.reason.trim() ? event.object.reason.trim() : 'no reason given',
          posValidation: event.object.posValidation,
        };
  const { order, duplicate } = await decideOrder(services, event.source, orderId, decision);
  return {
    status: 200,
    body: {
      order_id: order.id,
      status: order.status,
      ...(order.failureReason ? { failure_reason: order.failureReason } : {}),
      ...readiness(order),
      ...(duplicate ? { duplicate: true } : {}),
    },
  };
};

const POS_ORDER_ID = { type: 'string', description: 'Our id of the order (the id of its order.created).' };
const orderAccepted: WebhookHandler = {
  object: {
    type: 'object',
    description:
      'Your decision on an order you answered with async_acceptance: true: you take it. Within POS_CONFIRMATION_TIMEOUT_MS (60 s) of your answer; after it, or on an order you answered at once, 409 invalid_transition. The same decision again: 200 with duplicate: true.',
    required: ['order_id'],
    properties: {
      order_id: POS_ORDER_ID,
      prep_time_minutes: {
        type: 'integer',
        minimum: PREP_MINUTES.min,
        maximum: PREP_MINUTES.max,
        description: 'Whole minutes until it is ready; out of range it is ignored (logged) and the order taken.',
      },
    },
  },
  accept: decided,
};
const orderRejected: WebhookHandler = {
  object: {
    type: 'object',
    description:
      'Your decision on an order you answered with async_acceptance: true: you refuse it. It fails item_unavailable when posValidation.stockValidation names lines of it, price_mismatch when orderTotalsValidation gives the totals, else pos_rejected with your reason.',
    required: ['order_id', 'reason'],
    properties: { order_id: POS_ORDER_ID, reason: { type: 'string' }, posValidation: POS_VALIDATION_SCHEMA },
  },
  accept: decided,
};

/** The webhooks this module handles (the composition root assembles them). */
export const orderWebhooks: WebhookList = {
  dsp: { 'order.created': orderCreated, 'order.canceled': orderCanceled },
  pos: { 'order.updated': orderUpdated, 'order.accepted': orderAccepted, 'order.rejected': orderRejected },
  'event-providers': { 'order.assign.driver': driverAssigned, 'order.delivery_status.updated': deliveryStatusUpdated },
};
