// Every REST row and plain handler of the service, by module: what the HTTP server serves.
import type { RestRoute } from '../http/rest-route.js';
import type { PlainRoutes } from '../server/app.js';
import { authRoutes, tokenRoutes } from '../modules/auth/rest.js';
import { organizationRoutes } from '../modules/organizations/rest.js';
import { onboardingHops, onboardingRoutes } from '../modules/onboarding/rest.js';
import { locationRoutes } from '../modules/locations/rest.js';
import { menuRoutes } from '../modules/menus/rest.js';
import { storeRoutes } from '../modules/stores/rest.js';
import { eventRoutes } from '../modules/events/rest.js';
import { privacyRoutes } from '../modules/privacy/rest.js';
import { ssoHops, ssoRoutes } from '../modules/sso/rest.js';
import { webhookRoutes } from '../webhooks/intake.js';
import { flagRoutes } from '../modules/flags/rest.js';
import { ofrepRoutes } from '../modules/flags/ofrep.js';
import { webhooks } from './handlers.js';
import { dashboardPages } from '../server/dashboard.js';
import { dspEventDocs, eventProviderDocs, orderEventDocs, posOrderDocs } from '../modules/orders/peers.js';
import { partnerEventDocs } from '../modules/events/docs.js';
import { orderRoutes } from '../modules/orders/rest.js';
import { commissionRoutes, reportRoutes } from '../modules/reports/rest.js';
import { catalogSchemas, menusDocs, posCatalogDocs } from '../modules/catalog/peers.js';
import { posNoticeDocs } from '../modules/locations/peers.js';
import { storeEventDocs } from '../modules/stores/peers.js';
import { providerTokenDocs, providerTokenSchemas } from '../modules/onboarding/wire.js';
import type { Outgoing } from '../http/route-docs.js';

export const restRoutes: RestRoute[] = [
  ...authRoutes,
  ...organizationRoutes,
  ...onboardingRoutes,
  ...locationRoutes,
  ...menuRoutes,
  ...storeRoutes,
  ...ssoRoutes,
  ...flagRoutes,
  ...eventRoutes,
  ...orderRoutes,
  ...privacyRoutes,
  ...commissionRoutes,
];
export const plainRoutes: PlainRoutes[] = [
  tokenRoutes,
  onboardingHops,
  ssoHops,
  webhookRoutes(webhooks),
  ofrepRoutes,
  reportRoutes,
  dashboardPages,
];
/** What the service sends others, described in the OpenAPI document's `webhooks`, with the schemas
 * they share. */
export function outgoing(): Outgoing {
  const lists = [
    dspEventDocs(),
    storeEventDocs(),
    menusDocs(),
    eventProviderDocs(),
    partnerEventDocs(orderEventDocs()),
    posCatalogDocs(),
    posOrderDocs(),
    posNoticeDocs(),
    providerTokenDocs(),
  ];
  const names = lists.flatMap((list) => Object.keys(list));
  const twice = names.filter((name, i) => names.indexOf(name) !== i);
  if (twice.length) throw new Error(`webhooks named twice in the OpenAPI document: ${twice.join(', ')}`);
  return { webhooks: Object.assign({}, ...lists), schemas: { ...catalogSchemas(), ...providerTokenSchemas() } };
}
