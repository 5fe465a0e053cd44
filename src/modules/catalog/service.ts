// POS catalogs (SPEC.md 2.10, 4.2): fetched for a location with X-Provider-Location-Id.
import type { Services } from '../../services.js';
import { UpstreamFailed } from '../../errors.js';
import { callForOnboarding, describeFailure } from '../../integrations/provider-client.js';

/** The catalog response of SPEC.md 2.10. Every entity carries the POS's `provider_id`. */
export type Catalog = {
  default_language?: string;
  currency?: string;
  category: CatalogEntity[];
  item_family?: CatalogEntity[];
  item: CatalogEntity[];
  modifier_group: CatalogEntity[];
  modifier: CatalogEntity[];
  menu: CatalogEntity[];
  tax: CatalogEntity[];
  tax_rate?: number;
  holidays?: unknown[];
};
export type CatalogEntity = { provider_id: string; name?: string } & Record<string, unknown>;

export async function fetchCatalog(
  services: Services,
  location: { source: string; onboardingId: string; providerId: string },
): Promise<Catalog> {
  const response = await callForOnboarding(services, location.source, location.onboardingId, 'catalog', {
    headers: { 'x-provider-location-id': location.providerId },
  });
  const body = response.body as Catalog | undefined;
  if (response.status !== 200 || !body || !Array.isArray(body.menu)) {
    throw new UpstreamFailed(`${location.source} did not return the catalog of ${location.providerId}: ${describeFailure(response)}`);
  }
  return body;
}

export const menuIds = (catalog: Catalog): string[] => catalog.menu.map((m) => m.provider_id);
