// What the dashboard says of an order's delivery, case by case.
import { deliveryShown, type DeliveryOf } from './delivery.js';

const order = (fulfillmentType: string, status: string, deliveryStatus = 'pending', driverName: string | null = null): DeliveryOf => ({
  fulfillmentType,
  status,
  deliveryStatus,
  driverName,
});

const cases: [string, DeliveryOf, ReturnType<typeof deliveryShown>][] = [
  ['a pickup has no delivery', order('pickup', 'completed'), { delivery: '–', driver: null }],
  [
    'a merchant-delivered order waiting for a driver',
    order('merchant_managed_delivery', 'in_progress'),
    { delivery: 'pending', driver: null },
  ],
  [
    'its event provider’s report, with the driver',
    order('merchant_managed_delivery', 'ready_for_pickup', 'arrived_at_pickup', 'Dana Driver'),
    { delivery: 'arrived at pickup', driver: 'Dana Driver' },
  ],
  [
    'out for delivery by the POS’s word, with no report',
    order('merchant_managed_delivery', 'out_for_delivery'),
    { delivery: 'out for delivery', driver: null },
  ],
  [
    'canceled on the way: not delivered, and no driver named',
    order('merchant_managed_delivery', 'merchant_canceled', 'enroute_to_pickup', 'Dana Driver'),
    { delivery: 'not delivered', driver: null },
  ],
  ['failed: not delivered', order('delivery', 'failed'), { delivery: 'not delivered', driver: null }],
  [
    'canceled by the platform on the way',
    order('merchant_managed_delivery', 'dsp_canceled', 'arrived_at_pickup', 'Dana Driver'),
    { delivery: 'not delivered', driver: null },
  ],
  ["a platform's courier's order, completed", order('delivery', 'completed'), { delivery: 'delivered', driver: null }],
  [
    'completed: delivered, whatever step was last reported',
    order('merchant_managed_delivery', 'completed', 'delivered', 'Dana Driver'),
    { delivery: 'delivered', driver: 'Dana Driver' },
  ],
  ["a platform's courier, out for delivery", order('delivery', 'out_for_delivery'), { delivery: 'out for delivery', driver: null }],
  ["a platform's courier, before", order('delivery', 'in_progress'), { delivery: "the platform's courier", driver: null }],
];

test.each(cases)('%s', (_case, given, expected) => expect(deliveryShown(given)).toEqual(expected));
