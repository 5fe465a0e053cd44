// REST rows for organizations (CONTRACT.md section 1).
import { fromWire, toWire, type RestRoute } from '../../server/rest.js';

export const organizationRoutes: RestRoute[] = [
  {
    method: 'POST',
    path: '/v1/onboarding/org',
    document: /* GraphQL */ `
      mutation CreateOrganization($input: CreateOrganizationInput!) {
        createOrganization(input: $input) { orgId userId }
      }`,
    variables: (req) => ({ input: fromWire(req.body) }),
    result: (data) => toWire(data.createOrganization),
    status: 201,
  },
];
