// Every REST row and plain handler, by module.
import type { RestRoute } from './rest.js';
import type { PlainRoutes } from './app.js';
import { authRoutes, tokenRoutes } from '../modules/auth/rest.js';
import { organizationRoutes } from '../modules/organizations/rest.js';

export const restRoutes: RestRoute[] = [...authRoutes, ...organizationRoutes];
export const plainRoutes: PlainRoutes[] = [tokenRoutes];
