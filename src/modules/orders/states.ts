// The order state machine (docs/reference.md § Order states), in one place and pure: for each thing that can
// happen to an order, the statuses it may happen in and where it takes the order. The service
// (./service.ts) asks it before every change and writes the change conditional on the status it
// read, so two changes at once cannot both apply.

/** An order's way when all goes well: new, then as its POS moves it. */
const ON_ITS_WAY = ['in_progress', 'ready_for_pickup', 'out_for_delivery', 'completed'] as const;
/** The ends it may come to otherwise. */
const OTHER_ENDS = ['failed', 'merchant_canceled', 'dsp_canceled'] as const;
/** Its POS said it would decide later (async acceptance): held until it does, or its deadline. */
export const AWAITING = 'awaiting_confirmation';
export const ORDER_STATUSES = [...ON_ITS_WAY, AWAITING, ...OTHER_ENDS] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** The statuses in words, for the descriptions that list them (GraphQL's, the guides' tables are
 * checked against the same lists by ./states.test.ts). */
export const STATUSES_SAID = `${ON_ITS_WAY.join(', ')}; ${AWAITING} (its POS decides later); or ${OTHER_ENDS.join(', ')}`;
/** The moves forward a POS reports, in words. */
export const MOVES_SAID = ON_ITS_WAY.slice(1).join(', ');
/** What a POS's order.updated may say: a move forward, or an end of its own. */
export const POS_STATUSES: readonly OrderStatus[] = [...ON_ITS_WAY.slice(1), 'failed', 'merchant_canceled'];

export const FINAL_STATUSES: ReadonlySet<string> = new Set<OrderStatus>(['completed', 'failed', 'merchant_canceled', 'dsp_canceled']);

/** A new order's status, until the POS moves it. */
export const NEW: OrderStatus = 'in_progress';

export const DELIVERY_STATUSES = [
  'pending',
  'pending_driver_confirmation',
  'enroute_to_pickup',
  'arrived_at_pickup',
  'enroute_to_dropoff',
  'arrived_at_dropoff',
  'delivered',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
/** Where a delivery is once a driver is assigned, unless it is further along already. */
export const DRIVER_ASSIGNED: DeliveryStatus = 'enroute_to_pickup';
/** From here on the driver has the food: the order is out for delivery. */
const ON_THE_ROAD: DeliveryStatus = 'enroute_to_dropoff';
/** The delivery's end: the order is completed. */
const DELIVERED: DeliveryStatus = 'delivered';

export const FULFILLMENT_TYPES = ['delivery', 'merchant_managed_delivery', 'pickup', 'curbside', 'drive_thru', 'dine_in'] as const;
/** The fulfillment of an order the merchant delivers itself, through its event provider. */
export const MERCHANT_DELIVERED = 'merchant_managed_delivery';

/** Forward moves a POS may make; it may also say `failed`, or repeat the status the order has. */
const FORWARD: Readonly<Record<string, readonly OrderStatus[]>> = {
  in_progress: ['ready_for_pickup', 'out_for_delivery', 'completed', 'merchant_canceled'],
  ready_for_pickup: ['out_for_delivery', 'completed', 'merchant_canceled'],
  out_for_delivery: ['completed', 'merchant_canceled'],
  // Held for its POS's decision: a POS that moves the order on has decided, it took it (the DSP
  // hears the accept first: takesFirst). Cancelling an order it never decided on is refusing
  // it, which is order.rejected.
  [AWAITING]: ['ready_for_pickup', 'out_for_delivery', 'completed'],
};

/** The statuses of an order taken and not ended, which its POS moves on from. */
export const OPEN: readonly OrderStatus[] = ['in_progress', 'ready_for_pickup', 'out_for_delivery'];

/** The order's row as far as its taking shows: its status, and how many events its DSP was told. */
type Telling = { status: string; eventSequence: number | bigint };

/** Whether its POS's taking of the order is recorded: an open order whose DSP was told of it (an
 * open order's first event is its accept). An order in progress its DSP heard nothing of waits
 * for its POS's answer to be read. */
export const taken = (order: Telling) => OPEN.includes(order.status as OrderStatus) && Number(order.eventSequence) > 0;

/** Whether its POS failed the order itself (its order.updated to `failed` records no reason, as the
 * service's refusals and a POS out of reach do): an answer read after that does not open it again.
 * The same as db/sql/orders.ts's notFailedByItsPos, negated, for an order in hand. */
export const failedByItsPos = (order: { status: string; failureReason: string | null }) =>
  order.status === 'failed' && order.failureReason === null;

/**
 * Whether a POS's move of an order (to `to`, which decide allows) records its taking first: its
 * DSP then hears the accept, then the move, in that order. A POS that answers and moves the order
 * at once can have its move read before its answer; it has the order all the same. So has a POS
 * that moves on an order held for its decision (async acceptance): users expect the order it is
 * making to have been accepted. A POS failing an order it never decided on refuses it: no taking.
 */
export function takesFirst(order: Telling, to: OrderStatus): boolean {
  if (order.status === AWAITING) return to !== 'failed';
  return order.status === NEW && !taken(order);
}

/** What can happen to an order. */
export type OrderEvent =
  /** The POS says the order's status (its order.updated webhook). */
  | { kind: 'posUpdate'; status: OrderStatus }
  /** The DSP cancels the order (its order.canceled webhook). */
  | { kind: 'dspCancel' }
  /** The POS took the order we sent it (perhaps on a redelivery after refusing it). */
  | { kind: 'posTook' }
  /** The POS refused the order we sent it, or never answered. */
  | { kind: 'posRefused' }
  /** The POS answered that it decides later (async acceptance). */
  | { kind: 'posDefers' }
  /** The POS's later decision (order.accepted, order.rejected), or its deadline passing. */
  | { kind: 'posDecides'; accepted: boolean }
  | { kind: 'decisionOverdue' };

export type Verdict =
  | { to: OrderStatus }
  /** The event applies but leaves the status as it is. */
  | { to: null }
  /** A final order: nothing changes it (409 feature_disabled, naming the status it ended in). */
  | { refused: 'notModifiable' }
  /** An open order that cannot go there (409 invalid_transition). */
  | { refused: 'invalidTransition' };

/** Where an event takes an order in this status, or why it may not. */
export function decide(status: string, event: OrderEvent): Verdict {
  const final = FINAL_STATUSES.has(status);
  switch (event.kind) {
    case 'posUpdate':
      if (final) return { refused: 'notModifiable' };
      if (event.status === status) return { to: null };
      return FORWARD[status]?.includes(event.status) || event.status === 'failed' ? { to: event.status } : { refused: 'invalidTransition' };
    case 'dspCancel':
      // The DSP's own cancellation again (its retry after a lost answer): it applies, and moves nothing.
      if (status === 'dsp_canceled') return { to: null };
      return final ? { refused: 'notModifiable' } : { to: 'dsp_canceled' };
    case 'posTook':
    case 'posRefused':
      // An order held for the POS's decision is decided by its webhook (posDecides), not by another answer.
      if (status === AWAITING) return { refused: 'invalidTransition' };
      if (event.kind === 'posRefused') return final ? { refused: 'notModifiable' } : { to: 'failed' };
      // Refused before and redelivered: the POS has it now, so it is open again.
      if (status === 'failed') return { to: 'in_progress' };
      return final ? { refused: 'notModifiable' } : { to: null };
    case 'posDefers':
      // As posTook: a refused order redelivered and now held opens again.
      return final && status !== 'failed' ? { refused: 'notModifiable' } : { to: AWAITING };
    case 'posDecides':
    case 'decisionOverdue':
      if (status !== AWAITING) return final ? { refused: 'notModifiable' } : { refused: 'invalidTransition' };
      return { to: event.kind === 'posDecides' && event.accepted ? NEW : 'failed' };
  }
}

/** The delivery status an order keeps when it moves to `to`: a merchant-delivered order that is
 * completed (by its POS, or by its delivery) is delivered; nothing more will be heard of it. */
export function deliveryOnMove(order: { fulfillmentType: string | null; deliveryStatus: string }, to: OrderStatus | null): string {
  return to === 'completed' && order.fulfillmentType === MERCHANT_DELIVERED ? DELIVERED : order.deliveryStatus;
}

/** What the order's event provider reports: a delivery status (order.delivery_status.updated),
 * or a driver (order.assign.driver), which puts the delivery at DRIVER_ASSIGNED at least. */
export type DeliveryReport =
  | { kind: 'deliveryStatus'; deliveryStatus: DeliveryStatus }
  | { kind: 'driverAssigned'; driverChanged: boolean };

export type DeliveryVerdict =
  /** The delivery moves there (or keeps its status and takes the new driver); the order's status
   * with it (null: keeps it). */
  | { deliveryStatus: DeliveryStatus; to: OrderStatus | null }
  /** What the order has already: answered as taken, and nothing changes. */
  | { unchanged: true }
  | { refused: 'notModifiable' | 'invalidTransition' };

const rank = (status: string) => DELIVERY_STATUSES.indexOf(status as DeliveryStatus);

/** Where a report takes an order's delivery: forward only along DELIVERY_STATUSES (skipping
 * steps is allowed, going back is not), and the order with it: out for delivery once the driver
 * has the food, completed once it is delivered. What the order has already (its step, or its
 * driver) changes nothing, even once it is final: a provider's retry of its last report is
 * answered as the report was. Anything else on a final order is refused. */
export function decideDelivery(order: { status: string; deliveryStatus: string }, report: DeliveryReport): DeliveryVerdict {
  const now = rank(order.deliveryStatus);
  const next = report.kind === 'driverAssigned' ? DELIVERY_STATUSES[Math.max(now, rank(DRIVER_ASSIGNED))]! : report.deliveryStatus;
  if (next === order.deliveryStatus && (report.kind === 'deliveryStatus' || !report.driverChanged)) return { unchanged: true };
  if (FINAL_STATUSES.has(order.status)) return { refused: 'notModifiable' };
  if (rank(next) < now) return { refused: 'invalidTransition' };
  if (next === DELIVERED) return { deliveryStatus: next, to: 'completed' };
  const onTheRoad = rank(next) >= rank(ON_THE_ROAD) && order.status !== 'out_for_delivery';
  return { deliveryStatus: next, to: onTheRoad ? 'out_for_delivery' : null };
}

/** The statuses in which an event moves an order to `to` (null: applies without a move): what a
 * conditional write checks when it cannot read the status first. */
export function statusesWhere(event: OrderEvent, to: OrderStatus | null): OrderStatus[] {
  return ORDER_STATUSES.filter((status) => {
    const verdict = decide(status, event);
    return 'to' in verdict && verdict.to === to;
  });
}
