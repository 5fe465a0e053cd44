// Menu assignment of a DSP store (docs/reference.md § Resources): a non-empty list replaces the
// assignment exactly; an empty list removes it, and every menu of the location is published.
import type { Services } from '../../services.js';
import { Invalid, NotFound, someOf } from '../../common/errors.js';
import type { AuthInfo } from '../../common/scopes.js';
import { findOrganization } from '../organizations/service.js';
import { requiredText } from '../../common/input.js';
import { statementsOf } from '../../db/statements.js';
import { fetchCatalog } from '../catalog/service.js';
import { tables } from '../../db/tables.js';

/** The menus (the POS's ids) a DSP store gets, replacing those it had. */
export async function assignMenus(
  services: Services,
  auth: AuthInfo,
  input: { orgId: string; storeId: string; menuIds: readonly string[] },
) {
  const org = await findOrganization(services, auth, requiredText(input.orgId, 'org_id'));
  const store = await services.db.store.findFirst({
    where: { id: requiredText(input.storeId, 'dsp_location_id'), orgId: org.id, status: 'APPROVED' },
    include: { location: true },
  });
  if (!store) throw new NotFound(`DSP connection ${input.storeId} not found`);
  const wanted = [...new Set(input.menuIds.map((id, i) => requiredText(id, `menu_provider_ids[${i}]`)))];
  if (wanted.length) {
    const known = new Set((await fetchCatalog(services, store.location)).menuIds);
    const unknown = wanted.filter((id) => !known.has(id));
    if (unknown.length) throw new Invalid(`not menus of this location's catalog: ${someOf(unknown)}`);
  }
  await statementsOf(services.db).write(
    tables.store.update(store.id, { assignedMenus: wanted.length ? JSON.stringify(wanted) : null, changeTime: new Date() }),
  );
  return { storeId: store.id, menuIds: wanted };
}
