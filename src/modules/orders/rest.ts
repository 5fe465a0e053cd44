// REST rows for orders: one order, as its partner events carry it, with its customer (as far as
// the caller may see) and its timeline.
import type { RestRoute } from '../../http/rest-route.js';

export const orderRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/v1/orders/:id',
    summary:
      'An order of your organization: `event_data` as its events carry it (its money whole, its cancellation), its customer and its timeline',
    document: `query Order($id: ID!) { order(id: $id) {
      eventData
      customer { name phone maskedPhoneCode loyaltyId }
      timeline { at what status deliveryStatus failureReason driverName note }
    } }`,
    from: { id: 'path.id' },
    verbatim: ['eventData'],
    status: 200,
  },
];
