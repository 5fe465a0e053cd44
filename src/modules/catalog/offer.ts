// What a DSP store offers: the items and modifiers of the menus it received from one catalog
// version, with their prices and modifier groups, and those menus with their hours (each item
// knowing the menus that hold it), as the order intake checks a cart against it
// (modules/orders/intake.ts). A catalog version never changes, so an offer is built once per
// version and menus, the first time an order needs it, and kept (a bounded number, per database
// client, on each instance): no order parses a catalog.
import type { Db } from '../../db/client.js';
import { statementsOf } from '../../db/statements.js';
import { catalogVersionBody } from '../../db/sql/catalog.js';
import { catalogFor, ids, readCatalog, type Catalog } from './validate.js';
import { keptPer } from '../../common/kept.js';
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
  const categories = new Map(part.category.map((c) => [c.provider_id, ids(c.item_ids)]));
  for (const menu of part.menu)
    for (const item of new Set(ids(menu.category_ids).flatMap((c) => categories.get(c) ?? [])))
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

/** Offers kept per database client: versions and menus a store last received, at most this many. */
const offersOf = keptPer<Db, string, Promise<Offer | null>>({ max: 200 });

/** The offer of a stored catalog version's menus, built once and kept (the most recently used). */
export function storedOffer(db: Db, versionId: string, menus: readonly string[] | null): Promise<Offer | null> {
  return offersOf(db).remember(`${versionId}|${menus ? JSON.stringify(menus) : '*'}`, async () => {
    const body = await catalogVersionBody(statementsOf(db), versionId);
    // Read again into the canonical shape: versions stored before it was one are read the same way.
    return body === undefined ? null : offerIn(readCatalog(JSON.parse(body)).catalog, menus);
  });
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

/** What a DSP store offers (offeredVersion). The order intake and the items taken off sale read
 * it this one way. */
export function storeOffer(
  db: Db,
  store: { published: string | null; assignedMenus: string | null },
  latestVersionId: string | null,
): Promise<Offer | null> {
  const offered = offeredVersion(store, latestVersionId);
  return offered ? storedOffer(db, offered.versionId, offered.menus) : Promise.resolve(null);
}
