// The order webhooks of DSPs, POS systems and event providers (docs/reference.md § Webhooks in):
// their payloads read in the peers' wire names and handed to ./service.ts in the domain's, and
// its answers written back in the wire's.
import type { WebhookHandler, WebhookList } from '../../webhooks/intake.js';
import { AppError, Invalid } from '../../common/errors.js';
import { requiredText } from '../../common/input.js';
import { ORDER_STATUSES, FULFILLMENT_TYPES, type OrderStatus } from './states.js';
import { assertOrderMoney, orderObjectSchema } from './wire.js';
import { acceptOrder, assignDriver, canAssignDriver, cancelOrder, changeStatus, type Incoming } from './service.js';

/** A DSP's order, as the service reads it: the ids that make it one order, and the object kept
 * whole (its cart is checked as sent, ./intake.ts, and it goes on to the POS as sent). Money that
 * is not money refuses it whole (./wire.ts). */
function incoming(object: Record<string, unknown>): Incoming {
  if (object.fulfillment_type !== undefined && !FULFILLMENT_TYPES.includes(object.fulfillment_type as never))
    throw new Invalid(`object.fulfillment_type must be one of ${FULFILLMENT_TYPES.join(', ')}`);
  if (object.items !== undefined && !Array.isArray(object.items)) throw new Invalid('object.items must be an array');
  assertOrderMoney(object);
  return {
    dspOrderId: requiredText(object.dsp_order_id ?? object.id, 'object.dsp_order_id'),
    dspStoreId: requiredText(object.dsp_store_id, 'object.dsp_store_id'),
    fulfillmentType: (object.fulfillment_type as string | undefined) ?? null,
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
      throw new AppError(422, 'store_not_bound', `DSP store ${order.dspStoreId} is not bound to a location: ${order.failureDetails}`);
    return {
      status: 201,
      body: { order_id: order.id, status: order.status, ...(order.failureReason ? { failure_reason: order.failureReason } : {}) },
    };
  },
};

const orderCanceled: WebhookHandler = {
  accept: async (services, event) => {
    const order = await cancelOrder(services, event.source, requiredText(event.object.dsp_order_id, 'object.dsp_order_id'));
    return { status: 200, body: { order_id: order.id, status: order.status } };
  },
};

const orderUpdated: WebhookHandler = {
  accept: async (services, event) => {
    const orderId = requiredText(event.object.order_id, 'object.order_id');
    const status = requiredText(event.object.status, 'object.status');
    if (!ORDER_STATUSES.includes(status as never)) throw new Invalid(`object.status must be one of ${ORDER_STATUSES.join(', ')}`);
    await changeStatus(services, event.source, orderId, status as OrderStatus);
    return { status: 200, body: { order_id: orderId, status } };
  },
};

/** The driver an event provider assigns, as it sent it. */
const driverOf = (object: Record<string, unknown>): Record<string, unknown> => {
  if (!object.driver || typeof object.driver !== 'object' || Array.isArray(object.driver)) throw new Invalid('object.driver is required');
  return object.driver as Record<string, unknown>;
};

const driverAssigned: WebhookHandler = {
  precheck: async (services, event) => {
    driverOf(event.object);
    await canAssignDriver(services, event.source, requiredText(event.object.order_id, 'object.order_id'));
  },
  apply: (services, event) => assignDriver(services, event.source, String(event.object.order_id), driverOf(event.object)),
};

/** The webhooks this module handles (the composition root assembles them). */
export const orderWebhooks: WebhookList = {
  dsp: { 'order.created': orderCreated, 'order.canceled': orderCanceled },
  pos: { 'order.updated': orderUpdated },
  'event-providers': { 'order.assign.driver': driverAssigned },
};
