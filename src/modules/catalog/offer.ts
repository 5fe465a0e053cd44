// What a DSP store offers: the items and modifiers of the menus it received from one catalog
// version, with their prices and modifier groups, and those menus with their hours (each item
// knowing the menus that hold it), as the order intake checks a cart against it
// (modules/orders/intake.ts). Pure: an offer is built once per version and menus, the first time
// an order needs it, and kept (./stored.ts), so no order parses a catalog.
import { catalogFor, ids, type Catalog } from './validate.js';
import { readWeek, type MenuHours } from './hours.js';
import { isAmount } from '../../common/money.js';

/** An item or modifier offered: its price, its modifier groups and (items) the menus holding it. */
export type Offered = { price: number; groups: string[]; menus: string[] };
export type Offer = {
  menus: ReadonlyMap<string, MenuHours>;
  items: ReadonlyMap<string, Offered>;
  modifiers: ReadonlyMap<string, Offered>;
  groups: ReadonlyMap<string, { min: number; max: number; modifiers: ReadonlySet<string> }>;
};

const count = (value: unknown, otherwise: number) => (Number.isInteger(value) && (value as number) >= 0 ? (value as number) : otherwise);
/** A price in the currency's smallest unit; none (an invalid catalog's) is 0, so that no order is refused for it. */
const price = (value: unknown) => (isAmount(value) ? value : 0);

/** The offer of a catalog's menus (all of them when `menus` is null). */
export function offerIn(catalog: Catalog, menus: readonly string[] | null): Offer {
  const part = catalogFor(catalog, menus ?? catalog.menu.map((m) => m.provider_id));
  const holding = new Map<string, string[]>();
  const categories = new Map(part.category.map((c) => [c.provider_id, c]));
  for (const menu of part.menu)
    for (const item of new Set(ids(menu.category_ids).flatMap((c) => ids(categories.get(c)?.item_ids))))
      holding.set(item, [...(holding.get(item) ?? []), menu.provider_id]);
  const offered = (list: Catalog['item']) =>
    new Map(
      list.map(
        (e) =>
          [e.provider_id, { price: price(e.price), groups: ids(e.modifier_group_ids), menus: holding.get(e.provider_id) ?? [] }] as const,
      ),
    );
  return {
    // A schedule it cannot read is never published; read at all, its readable days count.
    menus: new Map(
      part.menu.map((m) => [
        m.provider_id,
        { name: typeof m.name === 'string' ? m.name : m.provider_id, week: m.schedule == null ? null : readWeek(m.schedule).week },
      ]),
    ),
    items: offered(part.item),
    modifiers: offered(part.modifier),
    groups: new Map(
      part.modifier_group.map((g) => [
        g.provider_id,
        {
          min: count(g.min_selections, 0),
          max: count(g.max_selections, Number.POSITIVE_INFINITY),
          modifiers: new Set(ids(g.modifier_ids)),
        },
      ]),
    ),
  };
}

/** Which catalog version and menus a DSP store is judged by: those it last received (`published`:
 * the version's id, a space, its menus as JSON), else its location's latest catalog version with
 * the store's assigned menus (null: all). Null: no catalog yet. */
export function offeredVersion(
  store: { published: string | null; assignedMenus: string | null },
  latestVersionId: string | null,
): { versionId: string; menus: string[] | null } | null {
  if (store.published) {
    const space = store.published.indexOf(' ');
    return { versionId: store.published.slice(0, space), menus: JSON.parse(store.published.slice(space + 1)) as string[] };
  }
  if (!latestVersionId) return null;
  return { versionId: latestVersionId, menus: store.assignedMenus ? (JSON.parse(store.assignedMenus) as string[]) : null };
}
