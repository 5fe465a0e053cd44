// The whole GraphQL schema: every module registers its types on the builder.
import { builder } from '../graphql/builder.js';
import '../modules/auth/types.js';
import '../modules/organizations/types.js';
import '../modules/onboarding/types.js';
import '../modules/locations/types.js';
import '../modules/menus/types.js';
import '../modules/sso/types.js';
import '../modules/catalog/types.js';
import '../modules/flags/types.js';
import '../modules/orders/types.js';
import '../modules/stores/types.js';
import '../modules/events/types.js';
import '../modules/deliveries/types.js';
import '../modules/privacy/types.js';
import '../modules/reports/types.js';

export const schema = builder.toSchema({ sortSchema: true });
