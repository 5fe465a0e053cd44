// REST rows for customers' erasure requests.
import type { RestRoute } from '../../http/rest-route.js';

export const privacyRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/v1/privacy/erasures',
    summary: "Erase a customer's data (by phone or provider_loyalty_id) from the organization's orders",
    document: `mutation RequestErasure($input: RequestErasureInput!) { requestErasure(input: $input) { ordersRedacted ordersPending } }`,
    from: { input: 'body' },
    status: 200,
  },
];
