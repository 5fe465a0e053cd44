// POS catalogs (docs/reference.md § Resources): fetched for a location with X-Provider-Location-Id, and read
// into the canonical shape of ./validate.ts.
import type { Services } from '../../services.js';
import { UpstreamFailed } from '../../common/errors.js';
import { callForOnboarding, describeFailure } from '../../integrations/provider-client.js';
import { readCatalog, type Catalog } from './validate.js';

export type { Catalog, CatalogEntity } from './validate.js';

/** A location's catalog as its POS answers it now, read: the canonical catalog and what is wrong
 * with it. A POS that does not answer 2xx is an upstream failure (the caller retries); a 2xx
 * whatever its body is a catalog, perhaps one that breaks every rule. */
export async function fetchCatalog(
  services: Services,
  location: { source: string; onboardingId: string; providerId: string },
): Promise<{ catalog: Catalog; problems: string[] }> {
  const response = await callForOnboarding(services, location.source, location.onboardingId, 'catalog', {
    headers: { 'x-provider-location-id': location.providerId },
  });
  if (response.status < 200 || response.status >= 300) {
    throw new UpstreamFailed(`${location.source} did not return the catalog of ${location.providerId}: ${describeFailure(response)}`);
  }
  return readCatalog(response.body);
}

export const menuIds = (catalog: Catalog): string[] => catalog.menu.map((m) => m.provider_id);
