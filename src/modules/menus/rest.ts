// REST row for menu assignment (docs/reference.md § Partner API).
import type { RestRoute } from '../../http/rest-route.js';

export const menuRoutes: RestRoute[] = [
  {
    method: 'PUT',
    path: '/v1/onboarding/menus',
    summary: "Choose the menus a DSP connection gets (empty: every menu of the location's catalog)",
    document: `mutation AssignMenus($input: AssignMenusInput!) { assignMenus(input: $input) { dspLocationId menuProviderIds } }`,
    from: { input: 'body' },
    status: 200,
  },
];
