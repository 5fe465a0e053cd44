// REST rows for partner events and webhook endpoints.
import type { RestRoute } from '../../http/rest-route.js';

const ENDPOINT = 'id url eventTypes orgId description status disabledReason createdAt';
const byId = { id: 'path.id' } as const;

export const eventRoutes: RestRoute[] = [
  {
    method: 'GET',
    path: '/v1/events',
    summary: 'Your events, oldest first after the cursor (`after`: the next_cursor of the page before)',
    document: `query Events($after: String, $types: [String!], $orgId: ID, $limit: Int) {
      events(after: $after, types: $types, orgId: $orgId, limit: $limit) { events { id type createdAt orgId data } nextCursor }
    }`,
    from: { after: 'query.after', types: 'query.types', orgId: 'query.org_id', limit: 'query.limit' },
    verbatim: ['data'],
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/webhook-endpoints',
    summary: 'A new webhook endpoint, with its signing secret (shown this once)',
    document: `mutation CreateWebhookEndpoint($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { ${ENDPOINT} secret } }`,
    from: { input: 'body' },
    status: 201,
  },
  {
    method: 'GET',
    path: '/v1/webhook-endpoints',
    summary: 'Your webhook endpoints',
    document: `query WebhookEndpoints { webhookEndpoints { endpoints { ${ENDPOINT} } } }`,
    from: {},
    status: 200,
  },
  {
    method: 'GET',
    path: '/v1/webhook-endpoints/:id',
    summary: 'A webhook endpoint',
    document: `query WebhookEndpoint($id: ID!) { webhookEndpoint(id: $id) { ${ENDPOINT} } }`,
    from: byId,
    status: 200,
  },
  {
    method: 'PATCH',
    path: '/v1/webhook-endpoints/:id',
    summary: 'Change a webhook endpoint: url, event_types, description, status (enabled sends what waited)',
    document: `mutation UpdateWebhookEndpoint($input: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(input: $input) { ${ENDPOINT} } }`,
    from: { input: 'body', 'input.id': 'path.id' },
    status: 200,
  },
  {
    method: 'DELETE',
    path: '/v1/webhook-endpoints/:id',
    summary: 'Delete a webhook endpoint',
    document: `mutation DeleteWebhookEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) { id } }`,
    from: byId,
    status: 204,
  },
  {
    method: 'POST',
    path: '/v1/webhook-endpoints/:id/rotate-secret',
    summary: 'A new signing secret; the old one keeps signing beside it for 24 h',
    document: `mutation RotateWebhookEndpointSecret($id: ID!) { rotateWebhookEndpointSecret(id: $id) { secret } }`,
    from: byId,
    status: 200,
  },
  {
    method: 'GET',
    path: '/v1/webhook-endpoints/:id/attempts',
    summary: "The endpoint's latest calls, newest first",
    document: `query WebhookAttempts($endpointId: ID!, $limit: Int) {
      webhookAttempts(endpointId: $endpointId, limit: $limit) { attempts { eventId at statusCode durationMs error } }
    }`,
    from: { endpointId: 'path.id', limit: 'query.limit' },
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/webhook-endpoints/:id/resend',
    summary: 'Send one event (`event_id`), or every event since a time (`since`, epoch ms), to the endpoint again',
    document: `mutation ResendWebhookEvents($input: ResendWebhookEventsInput!) { resendWebhookEvents(input: $input) { queued } }`,
    from: { input: 'body', 'input.endpointId': 'path.id' },
    status: 202,
  },
];
