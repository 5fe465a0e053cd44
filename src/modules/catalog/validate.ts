// A POS catalog as the service reads it (docs/pos-vendors.md, "3. The catalog"): what a POS sends is
// read once into one canonical shape, and every rule it breaks is named, element by element. A
// catalog with any problem, or with no menu, is not published: the POS is told the first
// problem, the partner sees them all. Reading is linear in the catalog's size (a cycle between
// modifier groups is found by one walk), so a catalog of any size is judged in bounded time.
// Prices are whole numbers of the currency's smallest unit (common/money.ts).
import { amountRule, currencyRule, isAmount, isCurrency } from '../../common/money.js';
import { isPlainObject } from '../../common/input.js';
import { rangeText, readRanges, readWeek, weekText } from './hours.js';
import { isHolidayDate } from './holidays.js';

/** The catalog response of docs/reference.md § Resources. Every entity carries the POS's `provider_id`. */
export type Catalog = {
  default_language?: string;
  currency?: string;
  category: CatalogEntity[];
  item_family: CatalogEntity[];
  item: CatalogEntity[];
  modifier_group: CatalogEntity[];
  modifier: CatalogEntity[];
  menu: CatalogEntity[];
  tax: CatalogEntity[];
  tax_rate?: number;
  holidays?: unknown[];
};
export type CatalogEntity = { provider_id: string; name?: string } & Record<string, unknown>;

/** The catalog's element lists (docs/reference.md § Resources), in the order problems are reported. */
const LISTS = ['menu', 'category', 'item', 'item_family', 'modifier_group', 'modifier', 'tax'] as const;
type ListName = (typeof LISTS)[number];
/** How an element of each list is named in a problem. */
const NOUN: Record<ListName, string> = {
  menu: 'menu',
  category: 'category',
  item: 'item',
  item_family: 'item family',
  modifier_group: 'modifier group',
  modifier: 'modifier',
  tax: 'tax',
};

/** The most elements each list may hold (and `holidays` the most holidays): a catalog past any of
 * them is refused whole, unread, so that one merchant's catalog cannot hold the service for
 * everyone (a catalog's bytes are bounded before it is read: CATALOG_MAX_BYTES). */
export const MOST_ELEMENTS: Readonly<Record<ListName | 'holidays', number>> = {
  menu: 100,
  category: 2_000,
  item: 50_000,
  item_family: 5_000,
  modifier_group: 20_000,
  modifier: 100_000,
  tax: 200,
  holidays: 1_000,
};

/** A catalog with none of its lists: what a catalog refused unread is stored as. */
const EMPTY = (): Catalog => ({ category: [], item_family: [], item: [], modifier_group: [], modifier: [], menu: [], tax: [] });

/** The lists of the catalog answer that hold more than they may, each as its problem. */
function overLimits(body: Record<string, unknown>): string[] {
  return (Object.keys(MOST_ELEMENTS) as (keyof typeof MOST_ELEMENTS)[]).flatMap((list) => {
    const given = body[list];
    const most = MOST_ELEMENTS[list];
    return Array.isArray(given) && given.length > most
      ? [`${list} holds ${given.length.toLocaleString('en-US')} elements; a catalog holds at most ${most.toLocaleString('en-US')}`]
      : [];
  });
}

/** The problems kept and shown: the first of them names what the POS must fix first. */
export const MAX_PROBLEMS = 50;

/** The ids a list names: its text elements (none when it is not a list). */
export const ids = (list: unknown): string[] => (Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : []);
const isRate = (value: unknown) => typeof value === 'number' && value >= 0 && value <= 100;
const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;
const shown = (value: unknown) => (JSON.stringify(value) ?? String(value)).slice(0, 60);

/** An element as a problem names it: its kind, provider_id and name. */
const label = (list: ListName, e: CatalogEntity) => `${NOUN[list]} ${e.provider_id}${typeof e.name === 'string' ? ` (${e.name})` : ''}`;

/**
 * Reads a POS's catalog answer into the canonical catalog: every list present, every element
 * an object with a provider_id, and each category's `item_ids` holding its items whichever way
 * the POS linked them (a category's `item_ids`, or an item's `category_id` or `category_ids`).
 * Elements without a provider_id are left out of it and named among the problems.
 */
export function readCatalog(raw: unknown): { catalog: Catalog; problems: string[] } {
  const problems: string[] = [];
  const problem = (text: string) => {
    if (problems.length <= MAX_PROBLEMS) problems.push(text);
  };
  const body = isPlainObject(raw) ? raw : {};
  if (!isPlainObject(raw)) problem('the catalog answer is not a JSON object');
  const over = overLimits(body);
  if (over.length) return { catalog: EMPTY(), problems: over };
  // Optional (the catalog of docs/reference.md § Resources may leave it out): without it, the
  // location has no currency its orders are held to.
  if (body.currency !== undefined && !isCurrency(body.currency)) problem(`currency ${currencyRule(body.currency)}`);
  const currency = isCurrency(body.currency) ? body.currency : null;

  const lists = {} as Record<ListName, CatalogEntity[]>;
  for (const list of LISTS) {
    const given = body[list];
    if (given !== undefined && !Array.isArray(given)) problem(`${list} must be an array, not ${shown(given)}`);
    const seen = new Set<string>();
    lists[list] = [];
    (Array.isArray(given) ? given : []).forEach((element: unknown, index) => {
      if (!isPlainObject(element) || typeof element.provider_id !== 'string' || !element.provider_id.trim()) {
        problem(`${list}[${index}] has no provider_id`);
        return;
      }
      if (seen.has(element.provider_id)) {
        problem(`${label(list, element as CatalogEntity)} appears twice in ${list}`);
        return;
      }
      seen.add(element.provider_id);
      lists[list].push(element as CatalogEntity);
    });
  }

  const byId = (list: ListName) => new Map(lists[list].map((e) => [e.provider_id, e]));
  const categories = byId('category');
  const items = byId('item');
  const groups = byId('modifier_group');
  const modifiers = byId('modifier');

  // Categories list their items, or items name their categories: both become item_ids.
  const itemIdsOf = new Map(lists.category.map((c) => [c.provider_id, new Set(ids(c.item_ids))]));
  for (const item of lists.item) {
    const named = [...(typeof item.category_id === 'string' ? [item.category_id] : []), ...ids(item.category_ids)];
    for (const categoryId of named) {
      const members = itemIdsOf.get(categoryId);
      if (members) members.add(item.provider_id);
      else problem(`${label('item', item)} names missing category ${categoryId}`);
    }
  }
  const category = lists.category.map((c) => ({ ...c, item_ids: [...itemIdsOf.get(c.provider_id)!] }));

  // Opening hours are kept written one way ("09:00-16:00", the days in order), as DSPs receive them.
  const menu = lists.menu.map((m) => {
    if (m.schedule === undefined || m.schedule === null) return m;
    const { week, problems: wrong } = readWeek(m.schedule);
    for (const text of wrong) problem(`${label('menu', m)}: ${text}`);
    return wrong.length ? m : { ...m, schedule: weekText(week) };
  });
  if (body.holidays !== undefined && body.holidays !== null && !Array.isArray(body.holidays))
    problem(`holidays must be an array, not ${shown(body.holidays)}`);
  const holidays = Array.isArray(body.holidays)
    ? body.holidays.map((holiday: unknown, index) => readHoliday(holiday, index, problem))
    : body.holidays;

  for (const menu of lists.menu) {
    if (!Array.isArray(menu.category_ids)) problem(`${label('menu', menu)} lists no category_ids`);
    for (const categoryId of ids(menu.category_ids))
      if (!categories.has(categoryId)) problem(`${label('menu', menu)} names missing category ${categoryId}`);
    const reached = ids(menu.category_ids).some((c) => categories.has(c) && [...itemIdsOf.get(c)!].some((i) => items.has(i)));
    if (Array.isArray(menu.category_ids) && !reached) problem(`${label('menu', menu)} has no items`);
  }
  for (const c of category)
    for (const itemId of c.item_ids) if (!items.has(itemId)) problem(`${label('category', c)} lists missing item ${itemId}`);
  for (const item of lists.item) {
    if (!isAmount(item.price)) problem(`${label('item', item)}: price ${amountRule(item.price, currency)}`);
    for (const groupId of ids(item.modifier_group_ids))
      if (!groups.has(groupId)) problem(`${label('item', item)} refers to missing modifier group ${groupId}`);
  }
  for (const group of lists.modifier_group) {
    if (!Array.isArray(group.modifier_ids)) problem(`${label('modifier_group', group)} lists no modifier_ids`);
    for (const modifierId of ids(group.modifier_ids))
      if (!modifiers.has(modifierId)) problem(`${label('modifier_group', group)} lists missing modifier ${modifierId}`);
    const { min_selections: min, max_selections: max } = group;
    if (min !== undefined && !isCount(min))
      problem(`${label('modifier_group', group)}: min_selections must be a whole number, not ${shown(min)}`);
    if (max !== undefined && !isCount(max))
      problem(`${label('modifier_group', group)}: max_selections must be a whole number, not ${shown(max)}`);
    if (isCount(min) && isCount(max) && min > max)
      problem(`${label('modifier_group', group)}: min_selections ${min} is above max_selections ${max}`);
  }
  for (const modifier of lists.modifier) {
    if (!isAmount(modifier.price)) problem(`${label('modifier', modifier)}: price ${amountRule(modifier.price, currency)}`);
    for (const groupId of ids(modifier.modifier_group_ids))
      if (!groups.has(groupId)) problem(`${label('modifier', modifier)} refers to missing modifier group ${groupId}`);
  }
  const cycle = groupCycle(lists.modifier_group, modifiers);
  if (cycle) problem(`modifier group ${cycle[0]} is nested inside itself (${cycle.join(' → ')})`);
  for (const tax of lists.tax) if (!isRate(tax.rate)) problem(`${label('tax', tax)}: rate must be from 0 to 100, not ${shown(tax.rate)}`);
  if (body.tax_rate !== undefined && !isRate(body.tax_rate)) problem(`tax_rate must be from 0 to 100, not ${shown(body.tax_rate)}`);
  if (!lists.menu.length) problem('the catalog has no menu');

  const catalog: Catalog = { ...body, ...lists, menu, category, ...(holidays === undefined ? {} : { holidays }) } as Catalog;
  return { catalog, problems };
}

/** A holiday as read: its date a day of the calendar written YYYY-MM-DD (a date it cannot read is
 * a problem, never a day silently dropped), its `hours` read and written one way; each problem
 * named by its index and name. */
function readHoliday(holiday: unknown, index: number, problem: (text: string) => void): unknown {
  const named = `holidays[${index}]${isPlainObject(holiday) && typeof holiday.name === 'string' ? ` (${holiday.name})` : ''}`;
  if (!isPlainObject(holiday)) {
    problem(`${named} must be an object {date, name, closed, hours?}, not ${shown(holiday)}`);
    return holiday;
  }
  if (!isHolidayDate(holiday.date))
    problem(`${named}: date must be a day of the calendar written YYYY-MM-DD (2026-12-24), not ${shown(holiday.date)}`);
  if (holiday.hours === undefined || holiday.hours === null) return holiday;
  const { ranges, problems } = readRanges(holiday.hours, 'hours');
  for (const text of problems) problem(`${named}: ${text}`);
  return problems.length ? holiday : { ...holiday, hours: ranges.map(rangeText) };
}

/** A modifier group reached again through its own modifiers (group → modifier → group …), as
 * the path that closes the loop, or null. One iterative depth-first walk over every group. */
function groupCycle(groups: CatalogEntity[], modifiers: Map<string, CatalogEntity>): string[] | null {
  const next = (groupId: string, byGroup: Map<string, CatalogEntity>) =>
    ids(byGroup.get(groupId)?.modifier_ids).flatMap((m) => ids(modifiers.get(m)?.modifier_group_ids).map((g) => ({ via: m, to: g })));
  const byGroup = new Map(groups.map((g) => [g.provider_id, g]));
  const state = new Map<string, 'open' | 'done'>();
  for (const start of groups) {
    if (state.has(start.provider_id)) continue;
    const path: { group: string; edges: { via: string; to: string }[] }[] = [];
    const enter = (group: string) => {
      state.set(group, 'open');
      path.push({ group, edges: next(group, byGroup) });
    };
    enter(start.provider_id);
    while (path.length) {
      const top = path[path.length - 1]!;
      const edge = top.edges.pop();
      if (!edge) {
        state.set(top.group, 'done');
        path.pop();
        continue;
      }
      if (state.get(edge.to) === 'done') continue;
      if (state.get(edge.to) === 'open') {
        const from = path.findIndex((step) => step.group === edge.to);
        return [...path.slice(from).map((step) => step.group), edge.to];
      }
      enter(edge.to);
    }
  }
  return null;
}

/** The problems as one sentence for a publish failure: the first, and how many more. */
export function publishError(problems: string[]): string {
  const more = problems.length - 1;
  return `the catalog is invalid: ${problems[0]}${more > 0 ? ` (and ${more >= MAX_PROBLEMS ? `at least ${MAX_PROBLEMS}` : more} more problem${more === 1 ? '' : 's'})` : ''}`;
}

/** The part of a catalog that the given menus reach: what one DSP store receives. */
export function catalogFor(catalog: Catalog, menuIds: readonly string[]): Catalog {
  const wanted = new Set(menuIds);
  const menu = catalog.menu.filter((m) => wanted.has(m.provider_id));
  const categoryIds = new Set(menu.flatMap((m) => ids(m.category_ids)));
  const category = catalog.category.filter((c) => categoryIds.has(c.provider_id));
  const itemIds = new Set(category.flatMap((c) => ids(c.item_ids)));
  const item = catalog.item.filter((i) => itemIds.has(i.provider_id));
  // Modifier groups nest through modifiers: each group reached is walked once, its modifiers'
  // groups reached in turn.
  const groupsById = new Map(catalog.modifier_group.map((g) => [g.provider_id, g]));
  const modifiersById = new Map(catalog.modifier.map((m) => [m.provider_id, m]));
  const groupIds = new Set(item.flatMap((i) => ids(i.modifier_group_ids)));
  const modifierIds = new Set<string>();
  const unwalked = [...groupIds];
  while (unwalked.length) {
    for (const m of ids(groupsById.get(unwalked.pop()!)?.modifier_ids)) {
      modifierIds.add(m);
      for (const g of ids(modifiersById.get(m)?.modifier_group_ids)) {
        if (groupIds.has(g)) continue;
        groupIds.add(g);
        unwalked.push(g);
      }
    }
  }
  const taxIds = new Set(item.flatMap((i) => ids(i.tax_ids)));
  const familyIds = new Set(item.map((i) => i.item_family_id));
  return {
    ...catalog,
    menu,
    category,
    item,
    item_family: catalog.item_family.filter((f) => familyIds.has(f.provider_id)),
    modifier_group: catalog.modifier_group.filter((g) => groupIds.has(g.provider_id)),
    modifier: catalog.modifier.filter((m) => modifierIds.has(m.provider_id)),
    tax: catalog.tax.filter((t) => taxIds.has(t.provider_id)),
  };
}
