// REST row for menu assignment (CONTRACT.md section 1).
import { fromWire, toWire, type RestRoute } from '../../server/rest.js';

export const menuRoutes: RestRoute[] = [
  {
    method: 'PUT',
    path: '/v1/onboarding/menus',
    document: `mutation AssignMenus($input: AssignMenusInput!) { assignMenus(input: $input) { dspLocationId menuProviderIds } }`,
    variables: (req) => ({ input: fromWire(req.body) }),
    result: (data) => toWire(data.assignMenus),
    status: 200,
  },
];
