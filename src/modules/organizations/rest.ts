// REST rows for organizations (docs/reference.md § Partner API).
import type { RestRoute } from '../../http/rest-route.js';

export const organizationRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/v1/onboarding/org',
    summary: 'Create an organization (a merchant) and its first user',
    document: /* GraphQL */ `
      mutation CreateOrganization($input: CreateOrganizationInput!) {
        createOrganization(input: $input) { orgId userId }
      }`,
    from: { input: 'body' },
    status: 201,
  },
  {
    method: 'PUT',
    path: '/v1/onboarding/org/:id/event-provider',
    summary: "Name the event provider that delivers the organization's merchant-delivered orders (source: null, the deployment's)",
    document: /* GraphQL */ `
      mutation SetEventProvider($input: SetEventProviderInput!) {
        setEventProvider(input: $input) { orgId eventProvider }
      }`,
    from: { 'input.orgId': 'path.id', 'input.source': 'body.source' },
    status: 200,
  },
];
