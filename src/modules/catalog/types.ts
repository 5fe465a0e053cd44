// GraphQL for catalogs: a location's current catalog (to choose menu_provider_ids) and the menu
// publish history of each DSP store.
import { builder } from '../../graphql/builder.js';
import { Money, moneyOf } from '../../graphql/money.js';
import type { Catalog, CatalogEntity } from './service.js';
import { readWeek, weekText, type Week } from './hours.js';
import { WEEKDAYS } from './local-time.js';

// A version's body is parsed once per row, however many of its fields a query asks for.
const parsed = new WeakMap<object, Catalog>();
const catalogOf = (row: { body: string }): Catalog => {
  let catalog = parsed.get(row);
  if (!catalog) {
    const body: unknown = JSON.parse(row.body);
    catalog = (typeof body === 'object' && body !== null ? body : {}) as Catalog;
    parsed.set(row, catalog);
  }
  return catalog;
};
/** The currency of the catalog an element was listed from: its prices are in it. */
const currencyOfElement = new WeakMap<CatalogEntity, unknown>();
const price = {
  type: Money,
  nullable: true,
  description: "In the catalog's currency; null when the POS sent no whole amount, or its catalog names no currency.",
  resolve: (e: CatalogEntity) => moneyOf(e.price, currencyOfElement.get(e)),
} as const;
const list = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const whole = (value: unknown): number | null =>
  Number.isInteger(value) && Math.abs(value as number) < 2 ** 31 ? (value as number) : null;
/** One of the catalog's element lists, as far as it can be shown: a version stored before the
 * catalog was read into its canonical shape may lack a list or hold elements without a
 * provider_id (its problems say so); those are left out, never an error of the view. */
const elements = (catalog: Catalog, name: 'menu' | 'category' | 'item' | 'modifier_group' | 'modifier' | 'tax'): CatalogEntity[] => {
  const given: unknown = catalog[name];
  const listed = Array.isArray(given)
    ? given.filter((e): e is CatalogEntity => typeof e === 'object' && e !== null && typeof (e as CatalogEntity).provider_id === 'string')
    : [];
  for (const e of listed) currencyOfElement.set(e, catalog.currency);
  return listed;
};

// biome-ignore lint/suspicious/noExplicitAny: Pothos's field builder, whose full type names the entity's shape
const entity = (name: string, description: string, extra: (t: any) => Record<string, unknown>) =>
  builder.objectRef<CatalogEntity>(name).implement({
    description,
    fields: (t) => ({
      providerId: t.string({ resolve: (e) => e.provider_id }),
      name: t.string({ nullable: true, resolve: (e) => (typeof e.name === 'string' ? e.name : null) }),
      ...(extra(t) as object),
    }),
  });

type ScheduleShape = ReturnType<typeof weekText>;
/** A menu's opening hours as the wire writes them: each weekday's ranges ("07:00-11:00"; one
 * ending at or before its start runs past midnight), null on a day it is closed. */
export const MenuSchedule = builder.objectRef<ScheduleShape>('MenuSchedule').implement({
  description:
    "A menu's hours on its location's clock: each weekday's ranges, HH:MM-HH:MM (one ending at or before its start runs past midnight into the next day); null on a day it is closed.",
  fields: (t) =>
    Object.fromEntries(WEEKDAYS.map((day) => [day, t.stringList({ nullable: true, resolve: (s) => s[day] ?? null })])) as Record<
      (typeof WEEKDAYS)[number],
      ReturnType<typeof t.stringList>
    >,
});
/** A week to show: null for a menu without schedule (open whenever its location is). */
export const scheduleShown = (week: Week | null): ScheduleShape | null => (week ? weekText(week) : null);

const Menu = entity('CatalogMenu', 'A menu; its provider_id is what menu assignment takes.', (t) => ({
  categoryIds: t.stringList({ resolve: (e: CatalogEntity) => list(e.category_ids) }),
  schedule: t.field({
    type: MenuSchedule,
    nullable: true,
    description: 'Its opening hours; null: open whenever the location is.',
    resolve: (e: CatalogEntity) => (e.schedule === undefined || e.schedule === null ? null : scheduleShown(readWeek(e.schedule).week)),
  }),
}));
const Category = entity('CatalogCategory', 'A category of items.', (t) => ({
  itemIds: t.stringList({ resolve: (e: CatalogEntity) => list(e.item_ids) }),
}));
const Item = entity('CatalogItem', 'An item.', (t) => ({
  description: t.string({ nullable: true, resolve: (e: CatalogEntity) => (typeof e.description === 'string' ? e.description : null) }),
  price: t.field(price),
  modifierGroupIds: t.stringList({ resolve: (e: CatalogEntity) => list(e.modifier_group_ids) }),
  taxIds: t.stringList({ resolve: (e: CatalogEntity) => list(e.tax_ids) }),
}));
const ModifierGroup = entity('CatalogModifierGroup', 'A group of modifiers of an item or, nested, of a modifier.', (t) => ({
  minSelections: t.int({ nullable: true, resolve: (e: CatalogEntity) => whole(e.min_selections) }),
  maxSelections: t.int({ nullable: true, resolve: (e: CatalogEntity) => whole(e.max_selections) }),
  modifierIds: t.stringList({ resolve: (e: CatalogEntity) => list(e.modifier_ids) }),
}));
const Modifier = entity('CatalogModifier', 'A modifier; it may open further modifier groups.', (t) => ({
  price: t.field(price),
  modifierGroupIds: t.stringList({ resolve: (e: CatalogEntity) => list(e.modifier_group_ids) }),
}));
const Tax = entity('CatalogTax', 'A tax.', (t) => ({
  rate: t.float({ nullable: true, description: 'Percent.', resolve: (e: CatalogEntity) => num(e.rate) }),
}));

builder.prismaObject('CatalogVersion', {
  description: 'A catalog fetched from the POS; each fetch is a new version.',
  fields: (t) => ({
    version: t.exposeInt('version'),
    fetchedAt: t.float({ description: 'Epoch milliseconds.', resolve: (c) => c.fetchedAt.getTime() }),
    problems: t.stringList({
      description: 'Why it cannot be published; empty when it is valid.',
      resolve: (c) => JSON.parse(c.problems) as string[],
    }),
    defaultLanguage: t.string({ nullable: true, resolve: (c) => text(catalogOf(c).default_language) }),
    currency: t.string({
      nullable: true,
      description: "Lower-case ISO 4217 code: the location's currency, which its prices and orders are in.",
      resolve: (c) => text(catalogOf(c).currency),
    }),
    taxRate: t.float({ nullable: true, resolve: (c) => num(catalogOf(c).tax_rate) }),
    menus: t.field({ type: [Menu], resolve: (c) => elements(catalogOf(c), 'menu') }),
    categories: t.field({ type: [Category], resolve: (c) => elements(catalogOf(c), 'category') }),
    items: t.field({ type: [Item], resolve: (c) => elements(catalogOf(c), 'item') }),
    modifierGroups: t.field({ type: [ModifierGroup], resolve: (c) => elements(catalogOf(c), 'modifier_group') }),
    modifiers: t.field({ type: [Modifier], resolve: (c) => elements(catalogOf(c), 'modifier') }),
    taxes: t.field({ type: [Tax], resolve: (c) => elements(catalogOf(c), 'tax') }),
  }),
});

builder.prismaObject('MenuPublish', {
  description: 'One publish of menus to a DSP connection.',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.exposeString('status', {
      description: 'pending, published, failed (the DSP refused it or never answered) or invalid (not sent).',
    }),
    menuProviderIds: t.stringList({ resolve: (p) => JSON.parse(p.menus) as string[] }),
    error: t.exposeString('error', { nullable: true }),
    createdAt: t.float({ description: 'Epoch milliseconds.', resolve: (p) => p.createdAt.getTime() }),
    completedAt: t.float({ nullable: true, resolve: (p) => p.completedAt?.getTime() ?? null }),
    catalogVersion: t.int({ select: { catalogVersion: { select: { version: true } } }, resolve: (p) => p.catalogVersion.version }),
  }),
});
