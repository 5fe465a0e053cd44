// How the dashboard shows an order's delivery: in words, as far as anyone knows it. The merchant's
// own orders have their event provider's report (the delivery leg's steps, the driver and their
// vehicle); a delivery platform's courier reports nothing to us, so its orders show what their
// status says; an order that ended without being delivered shows that, not the step its driver
// had reached; a pickup, or an order that failed before anyone cooked it, has no delivery ("—").

export type DeliveryOf = {
  fulfillmentType?: string | null;
  status: string;
  deliveryStatus: string;
  driver: { name: string; vehicle?: string | null } | null;
  /** The order's delivery platform, by name: its courier carries a `delivery`. */
  platform: string;
};

/** The delivery leg's steps, in their order, as a manager says them. */
export const DELIVERY_STEPS: [step: string, words: string][] = [
  ['pending', 'Waiting for a driver'],
  ['pending_driver_confirmation', 'Finding a driver'],
  ['enroute_to_pickup', 'Driver on the way to you'],
  ['arrived_at_pickup', 'Driver at the restaurant'],
  ['enroute_to_dropoff', 'On the way to the customer'],
  ['arrived_at_dropoff', "At the customer's door"],
  ['delivered', 'Delivered'],
];
const STEP = new Map(DELIVERY_STEPS.map(([step], at) => [step, at]));
/** Out for delivery by its status: the food has left, whatever step was last reported. */
const ON_THE_ROAD = STEP.get('enroute_to_dropoff')!;

/** Fulfillment types a driver delivers. */
const DRIVEN = new Set(['delivery', 'merchant_managed_delivery']);
const CANCELED = new Set(['merchant_canceled', 'dsp_canceled']);

/** "Dana Driver · blue Toyota Prius (SBX-4821)". */
export const driverText = (driver: DeliveryOf['driver']): string | null =>
  driver ? `${driver.name}${driver.vehicle ? ` · ${driver.vehicle}` : ''}` : null;

/** A vehicle in words: "blue Toyota Prius (SBX-4821)". */
export function vehicleText(
  vehicle: { color?: string | null; make?: string | null; model?: string | null; licensePlate?: string | null } | null | undefined,
): string | null {
  if (!vehicle) return null;
  const car = [vehicle.color, vehicle.make, vehicle.model].filter(Boolean).join(' ');
  const plate = vehicle.licensePlate ? `(${vehicle.licensePlate})` : '';
  return [car, plate].filter(Boolean).join(' ') || null;
}

/** The delivery in words ('—': no delivery), and the driver to name (null: none to name). */
export function deliveryShown(order: DeliveryOf): { delivery: string; driver: string | null } {
  if (!DRIVEN.has(order.fulfillmentType as string) || order.status === 'failed') return { delivery: '—', driver: null };
  if (CANCELED.has(order.status)) return { delivery: 'Not delivered', driver: null };
  const driver = driverText(order.driver);
  if (order.status === 'completed') return { delivery: 'Delivered', driver };
  // Only an event provider reports a step; the order's own status may say it is further along.
  const reported = STEP.get(order.deliveryStatus) ?? 0;
  const step = Math.max(reported, order.status === 'out_for_delivery' ? ON_THE_ROAD : 0);
  if (step > 0) return { delivery: DELIVERY_STEPS[step]![1], driver };
  if (order.fulfillmentType === 'delivery') return { delivery: `${order.platform}'s courier`, driver };
  return { delivery: DELIVERY_STEPS[0]![1], driver };
}
