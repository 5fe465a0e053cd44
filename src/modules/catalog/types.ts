// GraphQL for catalogs: a location's current catalog (to choose menu_provider_ids) and the menu
// publish history of each DSP store.
import { builder } from '../../graphql/builder.js';
import { Money, moneyOf } from '../../graphql/money.js';
import { pageSize } from '../../common/pages.js';
import type { CatalogEntity } from './service.js';
import { onCatalog } from './thread.js';
import type { PagedList } from './reading.js';
import { readWeek, weekText, type Week } from './hours.js';
import { WEEKDAYS } from './local-time.js';

/** A version's own fields, read once per row (where its size says: ./thread.ts), however many of
 * them a query asks for. */
const heads = new WeakMap<object, ReturnType<typeof onCatalog<'head'>>>();
const headOf = (row: { body: string }) => {
  let head = heads.get(row);
  if (!head) {
    head = onCatalog('head', row.body);
    heads.set(row, head);
  }
  return head;
};
/** A page of a version's list: at most this many elements (1,000 unless asked for fewer). */
export const CATALOG_PAGE = { default: 1000, max: 1000 } as const;
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
/** A page of one of the catalog's element lists (./reading.ts, `page`), its elements knowing the
 * catalog's currency. */
async function elements(row: { body: string }, list: PagedList, args: { first?: unknown; after?: unknown }) {
  const first = pageSize(args.first as number | null | undefined, { name: 'first', ...CATALOG_PAGE });
  const after = typeof args.after === 'string' ? args.after : null;
  const { elements: listed, currency } = await onCatalog('page', row.body, list, first, after);
  for (const e of listed) currencyOfElement.set(e, currency);
  return listed;
}

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

/** A list of a version is read a page at a time: `first` elements (1 to 1,000; 1,000 unless
 * asked) after the one whose providerId is `after`. */
// biome-ignore lint/suspicious/noExplicitAny: Pothos's field builder, whose full type names the object
const page = (t: any) => ({
  first: t.arg.int({ description: `How many, 1 to ${CATALOG_PAGE.max} (${CATALOG_PAGE.default} unless asked).` }),
  after: t.arg.string({ description: 'The providerId of the last element of the page before.' }),
});
const listed = (what: string) => `The catalog's ${what}, in its order, a page at a time.`;

builder.prismaObject('CatalogVersion', {
  description: 'A catalog fetched from the POS; each fetch is a new version.',
  fields: (t) => ({
    version: t.exposeInt('version'),
    fetchedAt: t.float({ description: 'Epoch milliseconds.', resolve: (c) => c.fetchedAt.getTime() }),
    problems: t.stringList({
      description: 'Why it cannot be published; empty when it is valid.',
      resolve: (c) => JSON.parse(c.problems) as string[],
    }),
    defaultLanguage: t.string({ nullable: true, resolve: async (c) => text((await headOf(c)).defaultLanguage) }),
    currency: t.string({
      nullable: true,
      description: "Lower-case ISO 4217 code: the location's currency, which its prices and orders are in.",
      resolve: async (c) => text((await headOf(c)).currency),
    }),
    taxRate: t.float({ nullable: true, resolve: async (c) => num((await headOf(c)).taxRate) }),
    menus: t.field({ type: [Menu], args: page(t), description: listed('menus'), resolve: (c, args) => elements(c, 'menu', args) }),
    categories: t.field({
      type: [Category],
      args: page(t),
      description: listed('categories'),
      resolve: (c, args) => elements(c, 'category', args),
    }),
    items: t.field({ type: [Item], args: page(t), description: listed('items'), resolve: (c, args) => elements(c, 'item', args) }),
    modifierGroups: t.field({
      type: [ModifierGroup],
      args: page(t),
      description: listed('modifier groups'),
      resolve: (c, args) => elements(c, 'modifier_group', args),
    }),
    modifiers: t.field({
      type: [Modifier],
      args: page(t),
      description: listed('modifiers'),
      resolve: (c, args) => elements(c, 'modifier', args),
    }),
    taxes: t.field({ type: [Tax], args: page(t), description: listed('taxes'), resolve: (c, args) => elements(c, 'tax', args) }),
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
