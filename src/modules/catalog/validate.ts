// Catalog checks before publishing: the failures users of these platforms hit most. A catalog
// with any of them is not published; the POS is told why.
import type { Catalog, CatalogEntity } from './service.js';

const ids = (list: unknown): string[] => (Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : []);
const isPrice = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;
const isRate = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 100;
const label = (e: CatalogEntity) => (e.name ? `${e.provider_id} (${e.name})` : e.provider_id);

export function catalogProblems(catalog: Catalog): string[] {
  const problems: string[] = [];
  const groups = new Set(catalog.modifier_group.map((g) => g.provider_id));
  const items = new Set(catalog.item.map((i) => i.provider_id));
  const categories = new Map(catalog.category.map((c) => [c.provider_id, c]));

  for (const item of catalog.item) {
    for (const group of ids(item.modifier_group_ids))
      if (!groups.has(group)) problems.push(`item ${label(item)} refers to missing modifier group ${group}`);
    if (!isPrice(item.price)) problems.push(`item ${label(item)} has a price that is not a number: ${JSON.stringify(item.price)}`);
  }
  for (const modifier of catalog.modifier) {
    for (const group of ids(modifier.modifier_group_ids))
      if (!groups.has(group)) problems.push(`modifier ${label(modifier)} refers to missing modifier group ${group}`);
    if (!isPrice(modifier.price))
      problems.push(`modifier ${label(modifier)} has a price that is not a number: ${JSON.stringify(modifier.price)}`);
  }
  for (const menu of catalog.menu) {
    const menuItems = ids(menu.category_ids)
      .flatMap((c) => ids(categories.get(c)?.item_ids))
      .filter((i) => items.has(i));
    if (!menuItems.length) problems.push(`menu ${label(menu)} has no items`);
  }
  for (const tax of catalog.tax)
    if (!isRate(tax.rate)) problems.push(`tax ${label(tax)} has a rate out of range (0 to 100): ${JSON.stringify(tax.rate)}`);
  if (catalog.tax_rate !== undefined && !isRate(catalog.tax_rate))
    problems.push(`tax_rate is out of range (0 to 100): ${JSON.stringify(catalog.tax_rate)}`);
  return problems;
}

/** The part of a catalog that the given menus reach: what one DSP connection receives. */
export function catalogFor(catalog: Catalog, menuIds: string[]): Catalog {
  const wanted = new Set(menuIds);
  const menu = catalog.menu.filter((m) => wanted.has(m.provider_id));
  const categoryIds = new Set(menu.flatMap((m) => ids(m.category_ids)));
  const category = catalog.category.filter((c) => categoryIds.has(c.provider_id));
  const itemIds = new Set(category.flatMap((c) => ids(c.item_ids)));
  const item = catalog.item.filter((i) => itemIds.has(i.provider_id));
  // Modifier groups nest through modifiers: follow them until nothing new is reached.
  const groupIds = new Set(item.flatMap((i) => ids(i.modifier_group_ids)));
  const modifierIds = new Set<string>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const group of catalog.modifier_group.filter((g) => groupIds.has(g.provider_id))) {
      for (const m of ids(group.modifier_ids)) {
        if (modifierIds.has(m)) continue;
        modifierIds.add(m);
        grew = true;
      }
    }
    for (const modifier of catalog.modifier.filter((m) => modifierIds.has(m.provider_id))) {
      for (const g of ids(modifier.modifier_group_ids)) {
        if (groupIds.has(g)) continue;
        groupIds.add(g);
        grew = true;
      }
    }
  }
  const taxIds = new Set(item.flatMap((i) => ids(i.tax_ids)));
  const familyIds = new Set(item.map((i) => i.item_family_id).filter((f): f is string => typeof f === 'string'));
  return {
    ...catalog,
    menu,
    category,
    item,
    item_family: (catalog.item_family ?? []).filter((f) => familyIds.has(f.provider_id)),
    modifier_group: catalog.modifier_group.filter((g) => groupIds.has(g.provider_id)),
    modifier: catalog.modifier.filter((m) => modifierIds.has(m.provider_id)),
    tax: catalog.tax.filter((t) => taxIds.has(t.provider_id)),
  };
}
