// The order state machine (docs/reference.md § Order states), in one place and pure: for each thing that can
// happen to an order, the statuses it may happen in and where it takes the order. The service
// (./service.ts) asks it before every change and writes the change conditional on the status it
// read, so two changes at once cannot both apply.

export const ORDER_STATUSES = [
  'in_progress',
  'ready_for_pickup',
  'out_for_delivery',
  'completed',
  'failed',
  'merchant_canceled',
  'dsp_canceled',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

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
/** Where a delivery is once a driver is assigned. */
export const DRIVER_ASSIGNED: DeliveryStatus = 'enroute_to_pickup';

export const FULFILLMENT_TYPES = ['delivery', 'merchant_managed_delivery', 'pickup', 'curbside', 'drive_thru', 'dine_in'] as const;
/** The fulfillment of an order the merchant delivers itself, through its event provider. */
export const MERCHANT_DELIVERED = 'merchant_managed_delivery';

/** Forward moves a POS may make; it may also say `failed`, or repeat the status the order has. */
const FORWARD: Readonly<Record<string, readonly OrderStatus[]>> = {
  in_progress: ['ready_for_pickup', 'out_for_delivery', 'completed', 'merchant_canceled'],
  ready_for_pickup: ['out_for_delivery', 'completed', 'merchant_canceled'],
  out_for_delivery: ['completed', 'merchant_canceled'],
};

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
  /** The event provider the order was confirmed to assigns (or changes) its driver. */
  | { kind: 'driverAssigned' };

export type Verdict =
  | { to: OrderStatus }
  /** The event applies but leaves the status as it is. */
  | { to: null }
  /** A final order: nothing changes it (409 feature_disabled, "order is not modifiable"). */
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
      return final ? { refused: 'notModifiable' } : { to: 'dsp_canceled' };
    case 'posTook':
      // Refused before and redelivered: the POS has it now, so it is open again.
      if (status === 'failed') return { to: 'in_progress' };
      return final ? { refused: 'notModifiable' } : { to: null };
    case 'posRefused':
      return final ? { refused: 'notModifiable' } : { to: 'failed' };
    case 'driverAssigned':
      return final ? { refused: 'notModifiable' } : { to: null };
  }
}

/** The statuses in which an event moves an order to `to` (null: applies without a move): what a
 * conditional write checks when it cannot read the status first. */
export function statusesWhere(event: OrderEvent, to: OrderStatus | null): OrderStatus[] {
  return ORDER_STATUSES.filter((status) => {
    const verdict = decide(status, event);
    return 'to' in verdict && verdict.to === to;
  });
}
