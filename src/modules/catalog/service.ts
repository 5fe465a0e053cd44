// POS catalogs (docs/reference.md § Resources): fetched for a location with X-Provider-Location-Id,
// at most CATALOG_MAX_BYTES of it, and read into the canonical shape of ./validate.ts where its
// size says (./thread.ts).
import type { Services } from '../../services.js';
import { UpstreamFailed } from '../../common/errors.js';
import { callForOnboarding, describeFailure } from '../../integrations/provider-client.js';
import { onCatalog } from './thread.js';
import type { ReadCatalog } from './reading.js';

export type { Catalog, CatalogEntity } from './validate.js';

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** A location's catalog as its POS answers it now, read: the canonical body, what is wrong with
 * it and its menus. A POS that does not answer 2xx is an upstream failure (the caller retries); a
 * 2xx whatever its body is a catalog, perhaps one that breaks every rule, or one too large to read
 * (refused unread, the POS told why as for any invalid catalog). */
export async function fetchCatalog(
  services: Services,
  location: { source: string; onboardingId: string; providerId: string },
): Promise<ReadCatalog> {
  const limit = services.config.catalogMaxBytes;
  const response = await callForOnboarding(services, location.source, location.onboardingId, 'catalog', {
    headers: { 'x-provider-location-id': location.providerId },
    maxBytes: limit,
    raw: true,
  });
  if (response.status < 200 || response.status >= 300) {
    throw new UpstreamFailed(`${location.source} did not return the catalog of ${location.providerId}: ${describeFailure(response)}`);
  }
  if (response.cut) {
    const refused = await onCatalog('read', '{}');
    return { ...refused, problems: [`the catalog is larger than ${megabytes(limit)}, the most a catalog may be (CATALOG_MAX_BYTES)`] };
  }
  return onCatalog('read', response.text);
}
