// How the dashboard shows an order's delivery: in words, as far as anyone knows it. The merchant's
// own orders have their event provider's report; a delivery platform's courier reports nothing to
// us, so its orders show what their status says; an order that ended without being delivered
// shows that, not the step its driver had reached.

export type DeliveryOf = { fulfillmentType?: string | null; status: string; deliveryStatus: string; driverName: string | null };

/** Fulfillment types a driver delivers. */
const DRIVEN = new Set(['delivery', 'merchant_managed_delivery']);
const NOT_DELIVERED = new Set(['failed', 'merchant_canceled', 'dsp_canceled']);

/** The delivery in words ('–': no delivery), and the driver to name (null: none to name). */
export function deliveryShown(order: DeliveryOf): { delivery: string; driver: string | null } {
  if (!DRIVEN.has(order.fulfillmentType as string)) return { delivery: '–', driver: null };
  if (NOT_DELIVERED.has(order.status)) return { delivery: 'not delivered', driver: null };
  if (order.status === 'completed') return { delivery: 'delivered', driver: order.driverName };
  // Only an event provider reports a delivery status: a platform's courier leaves it pending.
  if (order.deliveryStatus !== 'pending') return { delivery: order.deliveryStatus.replace(/_/g, ' '), driver: order.driverName };
  if (order.status === 'out_for_delivery') return { delivery: 'out for delivery', driver: order.driverName };
  return { delivery: order.fulfillmentType === 'delivery' ? "the platform's courier" : 'pending', driver: order.driverName };
}
