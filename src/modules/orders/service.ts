// Orders end to end (docs/reference.md § Resources; docs/reference.md § Webhooks in): a DSP's order.created becomes
// one order, exactly once per (DSP, dsp_order_id), sent to the bound location's POS through the
// outbox; the POS's answer gives the pos_order_id or the refusal; an accepted
// merchant_managed_delivery order goes to the event provider as order.confirmed (signed), whose
// order.assign.driver brings the driver back. Every change is published to orderUpdated.
// The Order table is written here only, and only through plain statements (db/statements.ts):
// each write is conditional on the state it was decided from (./states.ts).
import type { Services } from '../../services.js';
import { isUniqueViolation, type Order as OrderRow } from '../../db/client.js';
import { AppError, Conflict, FeatureDisabled, Invalid, NotFound } from '../../common/errors.js';
import { enqueue, enqueueNow } from '../../delivery/outbox.js';
import { statementsOf, type Run } from '../../db/statements.js';
import { recordEvent } from '../events/service.js';
import { customerKeys, redactIfErased } from '../privacy/service.js';
import { toWire } from '../../http/rest-route.js';
import {
  allOf,
  confirmedBy,
  confirmedTo,
  driverIsNot,
  statusIn,
  storeBinding,
  type BoundLocation,
  type StoreBinding,
} from '../../db/sql/orders.js';
import type { AnswerChecks, OutcomeHandler } from '../../delivery/worker.js';
import type { WebhookHandler, WebhookList } from '../../webhooks/intake.js';
import { newId } from '../../common/ids.js';
import { requiredText } from '../../common/input.js';
import { confirmingEventProvider, findProvider } from '../../integrations/providers.js';
import { decide, ORDER_STATUSES, statusesWhere, type OrderEvent, type OrderStatus, type Verdict } from './states.js';
import { COUNTS_AN_EVENT, failed as failedData, statusEvent, tellDsp, type Refusal } from './channel.js';
import { intakeRefusal, storeRefusal } from './intake.js';
import { tables } from '../../db/tables.js';

export const DELIVERY_STATUSES = [
  'pending',
  'pending_driver_confirmation',
  'enroute_to_pickup',
  'arrived_at_pickup',
  'enroute_to_dropoff',
  'arrived_at_dropoff',
  'delivered',
] as const;
export const FULFILLMENT_TYPES = ['delivery', 'merchant_managed_delivery', 'pickup', 'curbside', 'drive_thru', 'dine_in'] as const;

/** Where an event takes the order, or the refusal the sender gets (./states.ts). */
function move(order: Pick<OrderRow, 'status'>, event: OrderEvent): Extract<Verdict, { to: unknown }>['to'] {
  const verdict = decide(order.status, event);
  if ('to' in verdict) return verdict.to;
  if (verdict.refused === 'not_modifiable') throw new FeatureDisabled('order is not modifiable');
  const to = event.kind === 'pos_update' ? event.status : event.kind;
  throw new Conflict(`an order cannot move from ${order.status} to ${to}`, 'invalid_transition');
}

/** The order as partner events carry it (the DSP's body, with its customer, is not in it). */
function orderData(order: Partial<OrderRow> & Pick<OrderRow, 'id' | 'createdAt' | 'updatedAt'>): Record<string, unknown> {
  return toWire({
    id: order.id,
    orgId: order.orgId ?? null,
    locationId: order.locationId ?? null,
    source: order.dspSource,
    dspStoreId: order.dspStoreId,
    dspOrderId: order.dspOrderId,
    posOrderId: order.posOrderId ?? null,
    status: order.status,
    deliveryStatus: order.deliveryStatus,
    fulfillmentType: order.fulfillmentType ?? null,
    failureReason: order.failureReason ?? null,
    failureDetails: order.failureDetails ?? null,
    driver: order.driver ? (JSON.parse(order.driver) as unknown) : null,
    createdAt: order.createdAt.getTime(),
    updatedAt: order.updatedAt.getTime(),
  }) as Record<string, unknown>;
}

/** The partner hears of the order's change (order.created, order.updated, order.failed), in the
 * change's transaction; an order of no partner (its store bound to nothing) tells no one. */
async function tellPartner(
  run: Run,
  services: Services,
  order: Parameters<typeof orderData>[0],
  { type, unheard }: { type?: 'order.created'; unheard?: boolean } = {},
): Promise<void> {
  if (!order.partnerId) return;
  await recordEvent(run, services, {
    type: type ?? (order.status === 'failed' ? 'order.failed' : 'order.updated'),
    partnerId: order.partnerId,
    orgId: order.orgId ?? null,
    orderId: order.id,
    data: orderData(order),
    unheard,
  });
}

/** Tells subscribers how the order is now (`orderUpdated`): the row this change wrote. */
function publish(services: Services, order: OrderRow): void {
  if (!order.orgId) return;
  services.pubsub.publish('orderUpdated', order.orgId, {
    ...order,
    createdAt: order.createdAt.getTime(),
    updatedAt: order.updatedAt.getTime(),
  });
}

type SentOrder = Pick<OrderRow, 'id' | 'dspOrderId' | 'dspSource' | 'status' | 'deliveryStatus' | 'body'> & { posOrderId?: string | null };

/** The order object of docs/reference.md § Resources as we send it on: what the DSP sent, with our id and state.
 * `sent` is the stored body parsed; a new order passes the object its body was made from. */
export function orderObject(order: SentOrder, sent = JSON.parse(order.body) as Record<string, unknown>): Record<string, unknown> {
  return {
    ...sent,
    id: order.id,
    dsp_order_id: order.dspOrderId,
    source: sent.source ?? order.dspSource,
    status: order.status,
    delivery_status: order.deliveryStatus,
    ...(order.posOrderId ? { pos_order_id: order.posOrderId } : {}),
  };
}

/** order.created from a DSP: one order per (DSP, dsp_order_id), however often and however
 * concurrently it is sent. Checked before the POS sees it (./intake.ts): an order that fails is
 * stored failed with its reason, not sent, and its DSP is told (location.order.fail). */
async function acceptOrder(services: Services, source: string, object: Record<string, unknown>) {
  const dspOrderId = requiredText(object.dsp_order_id ?? object.id, 'object.dsp_order_id');
  const storeId = requiredText(object.dsp_store_id, 'object.dsp_store_id');
  if (object.fulfillment_type !== undefined && !FULFILLMENT_TYPES.includes(object.fulfillment_type as never)) {
    throw new Invalid(`object.fulfillment_type must be one of ${FULFILLMENT_TYPES.join(', ')}`);
  }
  if (object.items !== undefined && !Array.isArray(object.items)) throw new Invalid('object.items must be an array');
  const { db } = services;
  const sql = statementsOf(db);
  // The connection that holds the store, else the last one that did (its location was deleted).
  // No look-up for a repeat first: the unique (DSP, dsp_order_id) refuses it below, which also
  // covers two copies arriving at the same moment, and a first copy costs one query less.
  const binding = await storeBinding(sql, source, storeId);
  const unbound = storeRefusal(binding, storeId);
  const location = unbound ? null : (binding as BoundLocation);
  const refusal = unbound ?? (await intakeRefusal(services, binding as StoreBinding & BoundLocation, object));
  const id = newId('ord');
  const now = new Date();
  const row = {
    id,
    partnerId: location?.partnerId ?? null,
    orgId: location?.orgId ?? null,
    locationId: location?.id ?? null,
    dspSource: source,
    dspStoreId: storeId,
    dspOrderId,
    dspOnboardingId: location ? binding!.dspOnboardingId : null,
    fulfillmentType: (object.fulfillment_type as string | undefined) ?? null,
    body: JSON.stringify(object),
    ...customerKeys(object),
    status: 'in_progress',
    deliveryStatus: 'pending',
    createdAt: now,
    updatedAt: now,
  };
  try {
    if (refusal) {
      // Refused, and kept: the operator sees what was refused and why, and the DSP is told.
      const failed = { ...row, status: 'failed', failureReason: refusal.reason, failureDetails: refusal.details, eventSequence: 1 };
      await sql.transaction(async (run) => {
        await tellPartner(run, services, failed, { unheard: !binding?.partnerListens });
        run.defer(tables.order.insert(failed));
        await tellDsp(run, services, failed, 'location.order.fail', failedData(refusal));
      });
      publish(services, {
        ...failed,
        posOrderId: null,
        driver: null,
        eventProvider: null,
        redactedAt: null,
        erasureRequestedAt: null,
      });
      // A store nobody bound (or whose location is gone) is the DSP's mistake: 422, as ever.
      if (unbound) throw new AppError(422, 'store_not_bound', `DSP store ${storeId} is not bound to a location: ${unbound.details}`);
      return { status: 201, body: { order_id: id, status: 'failed', failure_reason: refusal.reason } };
    }
    // The order and its message in one transaction; the order object sent on is built from the
    // row as it is stored. The message is written claimed and sent at once after the commit.
    // One POS token covers all of a merchant's locations: the order names its POS location in
    // the body and, as the catalog call does, in X-Provider-Location-Id. The partner's event
    // first: its read of the partner's endpoints comes before every write, which then go to
    // PostgreSQL as one statement (Run.defer).
    await sql.transaction(async (run) => {
      await tellPartner(run, services, row, { type: 'order.created', unheard: !binding!.partnerListens });
      run.defer(tables.order.insert(row));
      await enqueueNow(run, services, {
        kind: 'order.created',
        owner: row,
        source: location!.source,
        onboardingId: location!.onboardingId,
        operation: 'orders',
        body: { type: 'order.created', object: { ...orderObject(row, object), location_id: location!.providerId } },
        headers: { 'x-provider-location-id': location!.providerId },
        subject: { purpose: 'order.created', subjectId: id },
      });
    });
    publish(services, {
      ...row,
      posOrderId: null,
      failureReason: null,
      failureDetails: null,
      driver: null,
      eventProvider: null,
      eventSequence: 0,
      redactedAt: null,
      erasureRequestedAt: null,
    });
    return { status: 201, body: { order_id: row.id, status: row.status } };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // The same order arrived before, or at the same moment through another request: that one won.
    const winner = await db.order.findUniqueOrThrow({ where: { dspSource_dspOrderId: { dspSource: source, dspOrderId } } });
    return { status: 200, body: { order_id: winner.id, status: winner.status, duplicate: true } };
  }
}

/** Where a merchant-delivered order is confirmed: the registered event provider, and the POS's
 * id of the order's location, as the order sent to the POS named it (`location_id`). */
async function confirmationTarget(
  services: Services,
  orderId: string,
  sent: { location_id?: unknown },
): Promise<{ source: string; locationId: string } | null> {
  const source = await confirmingEventProvider(services);
  if (!source) return null;
  if (typeof sent.location_id === 'string') return { source, locationId: sent.location_id };
  // A message written before orders named their POS location.
  const order = await services.db.order.findUnique({ where: { id: orderId }, select: { locationId: true } });
  const location = order?.locationId
    ? await services.db.location.findUnique({ where: { id: order.locationId }, select: { providerId: true } })
    : null;
  return location ? { source, locationId: location.providerId } : null;
}

/** The conditional writes of the POS's answer to a sent order (./states.ts), worked out once:
 * the status each sets (null: keeps it) and the statuses it applies in, tried in turn. */
const answerMoves = (event: OrderEvent, targets: (OrderStatus | null)[]) =>
  targets.map((to) => ({ to, where: statusIn(statusesWhere(event, to)) }));
const WHEN_TAKEN = answerMoves({ kind: 'pos_took' }, [null, 'in_progress']);
const WHEN_REFUSED = answerMoves({ kind: 'pos_refused' }, ['failed']);

/** How the POS answered order.created: its order id, or its refusal. An accepted
 * merchant_managed_delivery order goes on to the event provider as order.confirmed. */
const orderSent: OutcomeHandler = async (message, outcome, services) => {
  const orderId = message.subjectId!;
  const sent = (JSON.parse(message.body) as { object: { fulfillment_type?: unknown; location_id?: unknown } }).object;
  const confirmation =
    outcome.delivered && sent.fulfillment_type === 'merchant_managed_delivery' ? await confirmationTarget(services, orderId, sent) : null;
  // A refusal (4xx) is the POS's; anything else (no answer, 5xx, an answer without its order id
  // until the attempts ran out) is a POS that never took it.
  const refusal: Refusal | null = outcome.delivered
    ? null
    : outcome.status !== null && outcome.status >= 400 && outcome.status < 500
      ? { reason: 'pos_rejected', details: `the POS refused the order: ${outcome.error ?? outcome.status}` }
      : { reason: 'pos_unreachable', details: `the POS did not take the order within the attempts: ${outcome.error ?? 'no answer'}` };
  const change = refusal
    ? { failureReason: refusal.reason, failureDetails: refusal.details }
    : {
        posOrderId: posOrderIdOf(outcome.body),
        // Only the provider the order goes to may assign its driver (driverAssigned, below).
        ...(confirmation ? { eventProvider: confirmation.source } : {}),
      };
  return async (run) => {
    // Each move the event makes, written only where the order's status still allows it (./states.ts):
    // an order canceled meanwhile keeps its status; one refused before and taken now opens again.
    let updated: OrderRow | undefined;
    let moved: OrderStatus | null = null;
    for (const { to, where } of outcome.delivered ? WHEN_TAKEN : WHEN_REFUSED) {
      moved = to;
      const values = {
        ...change,
        ...(to ? { status: to } : {}),
        ...(to === 'in_progress' ? { failureReason: null, failureDetails: null } : {}),
        updatedAt: new Date(),
      };
      [updated] = await run<OrderRow>(tables.order.update(orderId, values, { and: where, returning: true, ...COUNTS_AN_EVENT }));
      if (updated) break;
    }
    if (!updated) return;
    // The partner hears of a refusal, and of an order refused before and taken now (a status
    // move); the POS taking a new order moves nothing.
    if (moved) await tellPartner(run, services, updated);
    // The DSP hears the outcome: accepted (after a refusal too, when a redelivery was taken), or failed.
    if (refusal) await tellDsp(run, services, updated, 'location.order.fail', failedData(refusal));
    else await tellDsp(run, services, updated, 'location.order.accept', { pos_order_id: updated.posOrderId, status: updated.status });
    if (confirmation) {
      await enqueue(run, services, {
        kind: 'order.confirmed',
        owner: updated,
        source: confirmation.source,
        operation: 'events',
        body: { location_id: confirmation.locationId, reference_id: updated.id, type: 'order.confirmed', order: orderObject(updated) },
        subject: { purpose: 'order.confirmed', subjectId: updated.id },
      });
    }
    await redactIfErased(run, services, updated);
    return () => publish(services, updated);
  };
};

/** The POS's id of the order in its answer to order.created: `order.pos_order_id`, else `order.id`. */
function posOrderIdOf(answer: unknown): string | null {
  const order = (answer as { order?: { pos_order_id?: unknown; id?: unknown } } | undefined)?.order;
  const id = order?.pos_order_id ?? order?.id;
  return typeof id === 'string' && id.trim() ? id : null;
}

const orderCreated: WebhookHandler = { accept: (services, event) => acceptOrder(services, event.source, event.object) };

const orderCanceled: WebhookHandler = {
  accept: async (services, event) => {
    const dspOrderId = requiredText(event.object.dsp_order_id, 'object.dsp_order_id');
    const order = await services.db.order.findUnique({ where: { dspSource_dspOrderId: { dspSource: event.source, dspOrderId } } });
    if (!order) throw new NotFound(`order ${dspOrderId} not found`);
    const to = move(order, { kind: 'dsp_cancel' })!;
    const location = order.locationId ? await services.db.location.findUnique({ where: { id: order.locationId } }) : null;
    // docs/reference.md's order event is order.created only: the POS hears of the change only when its
    // registration says it takes order.updated.
    const tellPos = location && (await findProvider(services, location.source))?.orderUpdates;
    // Conditional on the status we read, as a POS update is: two changes at once cannot both move it.
    const updated = await statementsOf(services.db).transaction(async (run) => {
      const [changed] = await run<OrderRow>(
        tables.order.update(order.id, { status: to, updatedAt: new Date() }, { and: statusIn([order.status]), returning: true }),
      );
      if (!changed) throw new Conflict('the order changed meanwhile; send the cancellation again', 'invalid_transition');
      await tellPartner(run, services, changed);
      if (location && tellPos) {
        await enqueue(run, services, {
          kind: 'order.updated',
          owner: order,
          source: location.source,
          onboardingId: location.onboardingId,
          operation: 'orders',
          body: { type: 'order.updated', object: { ...orderObject(changed), location_id: location.providerId } },
          headers: { 'x-provider-location-id': location.providerId },
          subject: { purpose: 'order.canceled', subjectId: order.id },
        });
      }
      await redactIfErased(run, services, changed);
      return changed;
    });
    publish(services, updated);
    return { status: 200, body: { order_id: order.id, status: updated.status } };
  },
};

const orderUpdated: WebhookHandler = {
  accept: async (services, event) => {
    const orderId = requiredText(event.object.order_id, 'object.order_id');
    const status = requiredText(event.object.status, 'object.status');
    if (!ORDER_STATUSES.includes(status as never)) throw new Invalid(`object.status must be one of ${ORDER_STATUSES.join(', ')}`);
    const order = await services.db.order.findUnique({ where: { id: orderId } });
    const location = order?.locationId ? await services.db.location.findUnique({ where: { id: order.locationId } }) : null;
    if (!order || location?.source !== event.source) throw new NotFound(`order ${orderId} not found`);
    const to = move(order, { kind: 'pos_update', status: status as OrderStatus });
    // Conditional on the status we read: two updates at once cannot both move the order. A move
    // is told to the DSP in the same transaction (a status the order has already is no move).
    const moved = await statementsOf(services.db).transaction(async (run) => {
      const [changed] = await run<OrderRow>(
        tables.order.update(
          order.id,
          { status, updatedAt: new Date() },
          { and: statusIn([order.status]), returning: true, ...(to ? COUNTS_AN_EVENT : {}) },
        ),
      );
      if (!changed) throw new Conflict('the order changed meanwhile; send the update again', 'invalid_transition');
      if (to) await tellPartner(run, services, changed);
      const told = to ? statusEvent(changed) : null;
      if (told) await tellDsp(run, services, changed, told.type, told.data);
      await redactIfErased(run, services, changed);
      return changed;
    });
    publish(services, moved);
    return { status: 200, body: { order_id: order.id, status } };
  },
};

/** Where a driver may be assigned: open orders (./states.ts). */
const WHILE_DRIVER_ASSIGNABLE = statusIn(statusesWhere({ kind: 'driver_assigned' }, null));

/** order.assign.driver: only from the event provider the order was confirmed to (a
 * merchant_managed_delivery order), while the order is open. Any other provider's, for an order
 * it never had, is 404 as an order that does not exist; a final order is 409 feature_disabled. */
const driverAssigned: WebhookHandler = {
  precheck: async (services, event) => {
    const orderId = requiredText(event.object.order_id, 'object.order_id');
    if (!event.object.driver || typeof event.object.driver !== 'object' || Array.isArray(event.object.driver))
      throw new Invalid('object.driver is required');
    const order = await confirmedTo(statementsOf(services.db), orderId, event.source);
    if (!order) throw new NotFound(`order ${orderId} not found`);
    move(order, { kind: 'driver_assigned' });
  },
  apply: async (services, event) => {
    const sql = statementsOf(services.db);
    const driver = JSON.stringify(event.object.driver);
    const assigned = { driver, deliveryStatus: 'enroute_to_pickup', updatedAt: new Date() };
    // The same driver again (a replay, or the provider retrying) changes nothing: the order may
    // have moved on since, and its delivery status must not go back (docs/reference.md § Webhooks in). Applied
    // later than the precheck, so conditional on it still holding: same provider, order open.
    const order = await sql.transaction(async (run) => {
      const [changed] = await run<OrderRow>(
        tables.order.update(String(event.object.order_id), assigned, {
          and: allOf(driverIsNot(driver), confirmedBy(event.source), WHILE_DRIVER_ASSIGNABLE),
          returning: true,
          ...COUNTS_AN_EVENT,
        }),
      );
      // The partner, and the DSP's customer, learn of the driver.
      if (changed) {
        await tellPartner(run, services, changed);
        await tellDsp(run, services, changed, 'location.order.notify_status_change', statusEvent(changed).data);
      }
      return changed;
    });
    if (!order) return;
    publish(services, order);
  },
};

export { publish as publishOrder };

/** The webhooks and delivery outcomes this module handles (the composition root assembles them). */
export const orderWebhooks: WebhookList = {
  dsp: { 'order.created': orderCreated, 'order.canceled': orderCanceled },
  pos: { 'order.updated': orderUpdated },
  'event-providers': { 'order.assign.driver': driverAssigned },
};
export const orderOutcomes: Record<string, OutcomeHandler> = { 'order.created': orderSent };
export const orderAnswerChecks: AnswerChecks = {
  'order.created': (answer) =>
    posOrderIdOf(answer) ? null : 'the POS took the order but its answer names no order id (order.pos_order_id or order.id)',
};
