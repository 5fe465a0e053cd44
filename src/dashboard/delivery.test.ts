// What the dashboard says of an order's delivery, case by case.
import { deliveryShown, driverText, vehicleText, type DeliveryOf } from './delivery.js';

const dana = { name: 'Dana Driver', vehicle: 'blue Toyota Prius (SBX-4821)' };
const order = (fulfillmentType: string, status: string, deliveryStatus = 'pending', driver: DeliveryOf['driver'] = null): DeliveryOf => ({
  fulfillmentType,
  status,
  deliveryStatus,
  driver,
  platform: 'Sandbox Eats',
});

const cases: [string, DeliveryOf, ReturnType<typeof deliveryShown>][] = [
  ['a pickup has no delivery', order('pickup', 'completed'), { delivery: '—', driver: null }],
  [
    'nor has an order without a fulfillment type',
    { ...order('pickup', 'in_progress'), fulfillmentType: null },
    { delivery: '—', driver: null },
  ],
  ['a delivery that failed before anyone cooked it has none', order('delivery', 'failed'), { delivery: '—', driver: null }],
  ['nor has a merchant delivery that failed', order('merchant_managed_delivery', 'failed', 'pending'), { delivery: '—', driver: null }],
  [
    'a merchant-delivered order waiting for a driver',
    order('merchant_managed_delivery', 'in_progress'),
    { delivery: 'Waiting for a driver', driver: null },
  ],
  [
    'a driver being found',
    order('merchant_managed_delivery', 'in_progress', 'pending_driver_confirmation'),
    { delivery: 'Finding a driver', driver: null },
  ],
  [
    'its event provider’s report, with the driver and their car',
    order('merchant_managed_delivery', 'ready_for_pickup', 'arrived_at_pickup', dana),
    { delivery: 'Driver at the restaurant', driver: 'Dana Driver · blue Toyota Prius (SBX-4821)' },
  ],
  [
    'on the way to the restaurant',
    order('merchant_managed_delivery', 'in_progress', 'enroute_to_pickup', dana),
    { delivery: 'Driver on the way to you', driver: 'Dana Driver · blue Toyota Prius (SBX-4821)' },
  ],
  [
    'at the door',
    order('merchant_managed_delivery', 'out_for_delivery', 'arrived_at_dropoff', dana),
    { delivery: "At the customer's door", driver: 'Dana Driver · blue Toyota Prius (SBX-4821)' },
  ],
  [
    'out for delivery by the POS’s word, with no report',
    order('merchant_managed_delivery', 'out_for_delivery'),
    { delivery: 'On the way to the customer', driver: null },
  ],
  [
    'out for delivery by its status though the last report was the pickup: the food has left',
    order('merchant_managed_delivery', 'out_for_delivery', 'arrived_at_pickup', dana),
    { delivery: 'On the way to the customer', driver: 'Dana Driver · blue Toyota Prius (SBX-4821)' },
  ],
  [
    'canceled on the way: not delivered, and no driver named',
    order('merchant_managed_delivery', 'merchant_canceled', 'enroute_to_pickup', dana),
    { delivery: 'Not delivered', driver: null },
  ],
  [
    'canceled by the platform on the way',
    order('merchant_managed_delivery', 'dsp_canceled', 'arrived_at_pickup', dana),
    { delivery: 'Not delivered', driver: null },
  ],
  ["a platform's courier's order, completed", order('delivery', 'completed'), { delivery: 'Delivered', driver: null }],
  [
    'completed: delivered, whatever step was last reported',
    order('merchant_managed_delivery', 'completed', 'arrived_at_dropoff', dana),
    { delivery: 'Delivered', driver: 'Dana Driver · blue Toyota Prius (SBX-4821)' },
  ],
  [
    "a platform's courier, out for delivery",
    order('delivery', 'out_for_delivery'),
    { delivery: 'On the way to the customer', driver: null },
  ],
  ["a platform's courier, before", order('delivery', 'in_progress'), { delivery: "Sandbox Eats's courier", driver: null }],
  ["a platform's courier, ready", order('delivery', 'ready_for_pickup'), { delivery: "Sandbox Eats's courier", driver: null }],
];

test.each(cases)('%s', (_case, given, expected) => expect(deliveryShown(given)).toEqual(expected));

test.each([
  [null, null],
  [{ name: 'Dana Driver' }, 'Dana Driver'],
  [{ name: 'Dana Driver', vehicle: null }, 'Dana Driver'],
  [dana, 'Dana Driver · blue Toyota Prius (SBX-4821)'],
])('the driver %j in words', (driver, expected) => expect(driverText(driver)).toBe(expected));

test.each([
  [null, null],
  [{}, null],
  [{ color: 'blue', make: 'Toyota', model: 'Prius', licensePlate: 'SBX-4821' }, 'blue Toyota Prius (SBX-4821)'],
  [{ make: 'Toyota', model: null }, 'Toyota'],
  [{ licensePlate: 'SBX-4821' }, '(SBX-4821)'],
])('the vehicle %j in words', (vehicle, expected) => expect(vehicleText(vehicle)).toBe(expected));
