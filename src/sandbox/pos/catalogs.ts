// The sandbox POS's catalogs (docs/reference.md § POS interface): the default US catalog (usd), the
// Germany EU demo menu (eur) and a Tokyo menu (jpy, whose smallest unit is the yen itself).
// Realistic on purpose: several menus with their hours, categories, items, modifier groups with
// nested modifiers, taxes and holidays, so that what publishing and validation see looks like a
// real POS's. Prices are whole numbers of the currency's smallest unit (docs/reference.md § Money):
// 1199 is $11.99. Each catalog's main menu has no schedule (open whenever the location is), so
// that its items sell at any time of day; a breakfast menu (07:00-11:00) and others keep hours
// beside it. POST /v1/_sandbox/schedule gives a menu other hours (a test's, say).

type Item = { id: string; name: string; description: string; price: number; groups?: string[]; tax: string; family?: string };
type Modifier = { id: string; name: string; price: number; groups?: string[] };
type Group = { id: string; name: string; min: number; max: number; modifiers: string[] };
type Menu = { id: string; name: string; categories: string[]; schedule?: Record<string, string[]> };
type Source = {
  language: string;
  currency: string;
  taxRate: number;
  taxes: { id: string; name: string; rate: number; inclusive: boolean }[];
  menus: Menu[];
  categories: { id: string; name: string; items: string[] }[];
  families: { id: string; name: string }[];
  items: Item[];
  groups: Group[];
  modifiers: Modifier[];
  /** By month and day: each becomes its next date that is at least two days ahead (nextDate). */
  holidays: { monthDay: string; name: string; closed: boolean; hours?: string[] }[];
};

/** The next date of a month and day that is at least two days after now (in UTC): so that the
 * sandbox is never closed today anywhere on earth, while its catalog still shows the days it
 * closes. POST /v1/_sandbox/holidays sets other days (a test's closed day, say). */
export function nextDate(monthDay: string, now = Date.now()): string {
  const earliest = new Date(now + 2 * 86_400_000).toISOString().slice(0, 10);
  const year = Number(earliest.slice(0, 4));
  const thisYear = `${year}-${monthDay}`;
  return thisYear >= earliest ? thisYear : `${year + 1}-${monthDay}`;
}

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];
const ALL_WEEK = [...WEEKDAYS, 'saturday', 'sunday'];
/** The same ranges on each of these days. */
const on = (days: string[], ...ranges: string[]) => Object.fromEntries(days.map((day) => [day, ranges]));

/** The catalog response of docs/reference.md § Resources, every entity with its provider_id. */
function build(source: Source) {
  return {
    default_language: source.language,
    currency: source.currency,
    menu: source.menus.map((m) => ({
      provider_id: m.id,
      name: m.name,
      category_ids: m.categories,
      ...(m.schedule ? { schedule: m.schedule } : {}),
    })),
    category: source.categories.map((c) => ({ provider_id: c.id, name: c.name, item_ids: c.items })),
    item_family: source.families.map((f) => ({ provider_id: f.id, name: f.name })),
    item: source.items.map((i) => ({
      provider_id: i.id,
      name: i.name,
      description: i.description,
      price: i.price,
      modifier_group_ids: i.groups ?? [],
      tax_ids: [i.tax],
      item_family_id: i.family ?? null,
    })),
    modifier_group: source.groups.map((g) => ({
      provider_id: g.id,
      name: g.name,
      min_selections: g.min,
      max_selections: g.max,
      modifier_ids: g.modifiers,
    })),
    modifier: source.modifiers.map((m) => ({ provider_id: m.id, name: m.name, price: m.price, modifier_group_ids: m.groups ?? [] })),
    tax: source.taxes.map((t) => ({ provider_id: t.id, name: t.name, rate: t.rate, inclusive: t.inclusive })),
    tax_rate: source.taxRate,
    holidays: source.holidays.map(({ monthDay, name, closed, hours }) => ({
      date: nextDate(monthDay),
      name,
      closed,
      ...(hours ? { hours } : {}),
    })),
  };
}

export type SandboxCatalog = ReturnType<typeof build>;

export const usCatalog = (): SandboxCatalog =>
  build({
    language: 'en-US',
    currency: 'usd',
    taxRate: 8.25,
    taxes: [
      { id: 'tax_us_sales', name: 'Sales tax', rate: 8.25, inclusive: false },
      { id: 'tax_us_none', name: 'Tax exempt', rate: 0, inclusive: false },
    ],
    menus: [
      {
        id: 'menu_us_all_day',
        name: 'All Day',
        categories: ['cat_us_burgers', 'cat_us_sides', 'cat_us_drinks'],
      },
      {
        id: 'menu_us_breakfast',
        name: 'Breakfast',
        categories: ['cat_us_breakfast', 'cat_us_drinks'],
        schedule: on(ALL_WEEK, '07:00-11:00'),
      },
      {
        id: 'menu_us_late_night',
        name: 'Late Night',
        categories: ['cat_us_burgers', 'cat_us_sides'],
        schedule: on(['friday', 'saturday'], '22:00-02:00'),
      },
    ],
    categories: [
      { id: 'cat_us_burgers', name: 'Burgers', items: ['item_us_classic', 'item_us_bacon', 'item_us_veggie'] },
      { id: 'cat_us_sides', name: 'Sides', items: ['item_us_fries', 'item_us_rings'] },
      { id: 'cat_us_drinks', name: 'Drinks', items: ['item_us_soda', 'item_us_coffee'] },
      { id: 'cat_us_breakfast', name: 'Breakfast', items: ['item_us_pancakes', 'item_us_egg_sandwich'] },
    ],
    families: [
      { id: 'fam_us_burgers', name: 'Burgers' },
      { id: 'fam_us_beverages', name: 'Beverages' },
    ],
    items: [
      {
        id: 'item_us_classic',
        name: 'Classic Burger',
        description: 'Quarter-pound beef patty, lettuce, tomato, house sauce',
        price: 1199,
        groups: ['mg_us_doneness', 'mg_us_addons'],
        tax: 'tax_us_sales',
        family: 'fam_us_burgers',
      },
      {
        id: 'item_us_bacon',
        name: 'Bacon Cheeseburger',
        description: 'Beef patty, applewood bacon, aged cheddar',
        price: 1349,
        groups: ['mg_us_doneness', 'mg_us_addons'],
        tax: 'tax_us_sales',
        family: 'fam_us_burgers',
      },
      {
        id: 'item_us_veggie',
        name: 'Garden Veggie Burger',
        description: 'Black bean patty, avocado, sprouts',
        price: 1225,
        groups: ['mg_us_addons'],
        tax: 'tax_us_sales',
        family: 'fam_us_burgers',
      },
      { id: 'item_us_fries', name: 'Fries', description: 'Hand-cut, sea salt', price: 450, groups: ['mg_us_size'], tax: 'tax_us_sales' },
      { id: 'item_us_rings', name: 'Onion Rings', description: 'Beer-battered', price: 525, tax: 'tax_us_sales' },
      {
        id: 'item_us_soda',
        name: 'Fountain Soda',
        description: 'Free refills',
        price: 275,
        groups: ['mg_us_size'],
        tax: 'tax_us_sales',
        family: 'fam_us_beverages',
      },
      {
        id: 'item_us_coffee',
        name: 'Drip Coffee',
        description: 'Locally roasted',
        price: 295,
        tax: 'tax_us_sales',
        family: 'fam_us_beverages',
      },
      {
        id: 'item_us_pancakes',
        name: 'Buttermilk Pancakes',
        description: 'Three stacked, maple syrup',
        price: 950,
        groups: ['mg_us_addons'],
        tax: 'tax_us_sales',
      },
      {
        id: 'item_us_egg_sandwich',
        name: 'Egg Sandwich',
        description: 'Fried egg, cheddar, brioche',
        price: 775,
        groups: ['mg_us_addons'],
        tax: 'tax_us_sales',
      },
    ],
    groups: [
      {
        id: 'mg_us_doneness',
        name: 'How would you like it cooked?',
        min: 1,
        max: 1,
        modifiers: ['mod_us_medium_rare', 'mod_us_medium', 'mod_us_well'],
      },
      { id: 'mg_us_addons', name: 'Add-ons', min: 0, max: 4, modifiers: ['mod_us_cheese', 'mod_us_bacon', 'mod_us_avocado'] },
      { id: 'mg_us_cheese_type', name: 'Cheese', min: 1, max: 1, modifiers: ['mod_us_cheddar', 'mod_us_swiss', 'mod_us_pepper_jack'] },
      { id: 'mg_us_size', name: 'Size', min: 1, max: 1, modifiers: ['mod_us_regular', 'mod_us_large'] },
    ],
    modifiers: [
      { id: 'mod_us_medium_rare', name: 'Medium rare', price: 0 },
      { id: 'mod_us_medium', name: 'Medium', price: 0 },
      { id: 'mod_us_well', name: 'Well done', price: 0 },
      { id: 'mod_us_cheese', name: 'Extra cheese', price: 125, groups: ['mg_us_cheese_type'] },
      { id: 'mod_us_bacon', name: 'Bacon', price: 200 },
      { id: 'mod_us_avocado', name: 'Avocado', price: 175 },
      { id: 'mod_us_cheddar', name: 'Cheddar', price: 0 },
      { id: 'mod_us_swiss', name: 'Swiss', price: 0 },
      { id: 'mod_us_pepper_jack', name: 'Pepper Jack', price: 25 },
      { id: 'mod_us_regular', name: 'Regular', price: 0 },
      { id: 'mod_us_large', name: 'Large', price: 150 },
    ],
    holidays: [
      { monthDay: '11-26', name: 'Thanksgiving', closed: true },
      { monthDay: '12-25', name: 'Christmas Day', closed: true },
      { monthDay: '12-31', name: "New Year's Eve", closed: false, hours: ['07:00-18:00'] },
      { monthDay: '01-01', name: "New Year's Day", closed: false },
    ],
  });

export const deCatalog = (): SandboxCatalog =>
  build({
    language: 'de-DE',
    currency: 'eur',
    taxRate: 19,
    taxes: [
      { id: 'tax_de_mwst_19', name: 'MwSt. 19 %', rate: 19, inclusive: true },
      { id: 'tax_de_mwst_7', name: 'MwSt. 7 %', rate: 7, inclusive: true },
    ],
    menus: [
      {
        id: 'menu_de_hauptkarte',
        name: 'Hauptkarte',
        categories: ['cat_de_hauptgerichte', 'cat_de_beilagen', 'cat_de_getraenke'],
      },
      {
        id: 'menu_de_mittagstisch',
        name: 'Mittagstisch',
        categories: ['cat_de_mittag', 'cat_de_getraenke'],
        schedule: on(WEEKDAYS, '11:30-14:30'),
      },
      {
        id: 'menu_de_fruehstueck',
        name: 'Frühstück',
        categories: ['cat_de_fruehstueck', 'cat_de_getraenke'],
        schedule: on(ALL_WEEK, '07:00-11:00'),
      },
    ],
    categories: [
      { id: 'cat_de_hauptgerichte', name: 'Hauptgerichte', items: ['item_de_schnitzel', 'item_de_currywurst', 'item_de_spaetzle'] },
      { id: 'cat_de_beilagen', name: 'Beilagen', items: ['item_de_pommes', 'item_de_kartoffelsalat'] },
      { id: 'cat_de_getraenke', name: 'Getränke', items: ['item_de_apfelschorle', 'item_de_wasser'] },
      { id: 'cat_de_mittag', name: 'Mittagsangebot', items: ['item_de_tagessuppe', 'item_de_currywurst'] },
      { id: 'cat_de_fruehstueck', name: 'Frühstück', items: ['item_de_broetchen'] },
    ],
    families: [{ id: 'fam_de_getraenke', name: 'Alkoholfreie Getränke' }],
    items: [
      {
        id: 'item_de_schnitzel',
        name: 'Wiener Schnitzel',
        description: 'Kalbsschnitzel mit Zitrone und Preiselbeeren',
        price: 1890,
        groups: ['mg_de_beilage'],
        tax: 'tax_de_mwst_19',
      },
      {
        id: 'item_de_currywurst',
        name: 'Currywurst',
        description: 'Mit hausgemachter Currysauce',
        price: 850,
        groups: ['mg_de_schaerfe'],
        tax: 'tax_de_mwst_19',
      },
      { id: 'item_de_spaetzle', name: 'Käsespätzle', description: 'Mit Röstzwiebeln und Bergkäse', price: 1350, tax: 'tax_de_mwst_19' },
      {
        id: 'item_de_pommes',
        name: 'Pommes frites',
        description: 'Mit Mayonnaise oder Ketchup',
        price: 420,
        groups: ['mg_de_sauce'],
        tax: 'tax_de_mwst_19',
      },
      { id: 'item_de_kartoffelsalat', name: 'Kartoffelsalat', description: 'Schwäbische Art', price: 480, tax: 'tax_de_mwst_19' },
      {
        id: 'item_de_apfelschorle',
        name: 'Apfelschorle 0,4 l',
        description: 'Naturtrüb',
        price: 390,
        tax: 'tax_de_mwst_19',
        family: 'fam_de_getraenke',
      },
      {
        id: 'item_de_wasser',
        name: 'Mineralwasser 0,5 l',
        description: 'Still oder sprudelnd',
        price: 320,
        tax: 'tax_de_mwst_19',
        family: 'fam_de_getraenke',
      },
      { id: 'item_de_tagessuppe', name: 'Tagessuppe', description: 'Frag nach der Suppe des Tages', price: 590, tax: 'tax_de_mwst_7' },
      { id: 'item_de_broetchen', name: 'Brötchenkorb', description: 'Mit Butter, Konfitüre und Käse', price: 750, tax: 'tax_de_mwst_7' },
    ],
    groups: [
      {
        id: 'mg_de_beilage',
        name: 'Beilage wählen',
        min: 1,
        max: 1,
        modifiers: ['mod_de_pommes', 'mod_de_kartoffelsalat', 'mod_de_salat'],
      },
      { id: 'mg_de_schaerfe', name: 'Schärfegrad', min: 1, max: 1, modifiers: ['mod_de_mild', 'mod_de_scharf'] },
      { id: 'mg_de_sauce', name: 'Sauce', min: 0, max: 2, modifiers: ['mod_de_mayo', 'mod_de_ketchup'] },
      { id: 'mg_de_dressing', name: 'Dressing', min: 1, max: 1, modifiers: ['mod_de_essig_oel', 'mod_de_joghurt'] },
    ],
    modifiers: [
      { id: 'mod_de_pommes', name: 'Pommes frites', price: 0 },
      { id: 'mod_de_kartoffelsalat', name: 'Kartoffelsalat', price: 0 },
      { id: 'mod_de_salat', name: 'Beilagensalat', price: 150, groups: ['mg_de_dressing'] },
      { id: 'mod_de_mild', name: 'Mild', price: 0 },
      { id: 'mod_de_scharf', name: 'Scharf', price: 50 },
      { id: 'mod_de_mayo', name: 'Mayonnaise', price: 60 },
      { id: 'mod_de_ketchup', name: 'Ketchup', price: 60 },
      { id: 'mod_de_essig_oel', name: 'Essig & Öl', price: 0 },
      { id: 'mod_de_joghurt', name: 'Joghurt-Kräuter', price: 0 },
    ],
    holidays: [
      { monthDay: '12-24', name: 'Heiligabend', closed: false, hours: ['10:00-14:00'] },
      { monthDay: '12-25', name: '1. Weihnachtstag', closed: true },
      { monthDay: '12-26', name: '2. Weihnachtstag', closed: true },
      { monthDay: '01-01', name: 'Neujahr', closed: true },
    ],
  });

export const jpCatalog = (): SandboxCatalog =>
  build({
    language: 'ja-JP',
    currency: 'jpy',
    taxRate: 10,
    taxes: [
      { id: 'tax_jp_10', name: '消費税 10%', rate: 10, inclusive: true },
      { id: 'tax_jp_8', name: '消費税 8%（軽減税率）', rate: 8, inclusive: true },
    ],
    menus: [
      {
        id: 'menu_jp_all_day',
        name: 'グランドメニュー',
        categories: ['cat_jp_burgers', 'cat_jp_sides', 'cat_jp_drinks'],
      },
      {
        id: 'menu_jp_lunch',
        name: 'ランチセット',
        categories: ['cat_jp_lunch', 'cat_jp_drinks'],
        schedule: on(WEEKDAYS, '11:00-15:00'),
      },
    ],
    categories: [
      { id: 'cat_jp_burgers', name: 'バーガー', items: ['item_jp_teriyaki', 'item_jp_cheese'] },
      { id: 'cat_jp_sides', name: 'サイド', items: ['item_jp_fries', 'item_jp_edamame'] },
      { id: 'cat_jp_drinks', name: 'ドリンク', items: ['item_jp_green_tea', 'item_jp_cola'] },
      { id: 'cat_jp_lunch', name: 'ランチ', items: ['item_jp_lunch_set'] },
    ],
    families: [{ id: 'fam_jp_drinks', name: 'ソフトドリンク' }],
    items: [
      {
        id: 'item_jp_teriyaki',
        name: 'てりやきバーガー',
        description: '国産牛100%パティ、自家製てりやきソース',
        price: 1280,
        groups: ['mg_jp_toppings'],
        tax: 'tax_jp_10',
      },
      {
        id: 'item_jp_cheese',
        name: 'チーズバーガー',
        description: 'チェダーチーズ2枚',
        price: 1180,
        groups: ['mg_jp_toppings'],
        tax: 'tax_jp_10',
      },
      { id: 'item_jp_fries', name: 'フライドポテト', description: '皮付き、塩', price: 450, groups: ['mg_jp_size'], tax: 'tax_jp_10' },
      { id: 'item_jp_edamame', name: '枝豆', description: '塩ゆで', price: 380, tax: 'tax_jp_10' },
      { id: 'item_jp_green_tea', name: '緑茶', description: '静岡産', price: 300, tax: 'tax_jp_10', family: 'fam_jp_drinks' },
      {
        id: 'item_jp_cola',
        name: 'コーラ',
        description: '氷少なめもできます',
        price: 350,
        groups: ['mg_jp_size'],
        tax: 'tax_jp_10',
        family: 'fam_jp_drinks',
      },
      {
        id: 'item_jp_lunch_set',
        name: 'ランチセット',
        description: 'バーガー、ポテト、ドリンク',
        price: 1500,
        groups: ['mg_jp_lunch_burger'],
        tax: 'tax_jp_10',
      },
    ],
    groups: [
      { id: 'mg_jp_toppings', name: 'トッピング', min: 0, max: 3, modifiers: ['mod_jp_egg', 'mod_jp_cheese', 'mod_jp_avocado'] },
      { id: 'mg_jp_size', name: 'サイズ', min: 1, max: 1, modifiers: ['mod_jp_regular', 'mod_jp_large'] },
      { id: 'mg_jp_lunch_burger', name: 'バーガーを選ぶ', min: 1, max: 1, modifiers: ['mod_jp_lunch_teriyaki', 'mod_jp_lunch_cheese'] },
    ],
    modifiers: [
      { id: 'mod_jp_egg', name: '目玉焼き', price: 150 },
      { id: 'mod_jp_cheese', name: 'チーズ追加', price: 100 },
      { id: 'mod_jp_avocado', name: 'アボカド', price: 200 },
      { id: 'mod_jp_regular', name: 'レギュラー', price: 0 },
      { id: 'mod_jp_large', name: 'ラージ', price: 150 },
      { id: 'mod_jp_lunch_teriyaki', name: 'てりやきバーガー', price: 0, groups: ['mg_jp_toppings'] },
      { id: 'mod_jp_lunch_cheese', name: 'チーズバーガー', price: 0, groups: ['mg_jp_toppings'] },
    ],
    holidays: [
      { monthDay: '12-31', name: '大晦日', closed: false },
      { monthDay: '01-01', name: '元日', closed: true },
      { monthDay: '01-02', name: '正月休み', closed: true },
    ],
  });

/** A large catalog, as JSON text: `items` items (each with a description of `padding` characters)
 * in 200 categories of one menu, with 500 modifier groups of two modifiers each, all valid. For
 * a location whose catalog is as large as a test or the bench needs (its control `catalog`). */
export function largeCatalogText(items: number, padding = 0): string {
  const groups = 500;
  const catalog = {
    currency: 'usd',
    menu: [{ provider_id: 'menu_large', name: 'Everything', category_ids: Array.from({ length: 200 }, (_, i) => `cat_${i}`) }],
    category: Array.from({ length: 200 }, (_, i) => ({ provider_id: `cat_${i}`, name: `Category ${i}` })),
    item: Array.from({ length: items }, (_, i) => ({
      provider_id: `item_${i}`,
      name: `Item ${i}`,
      description: 'x'.repeat(padding),
      price: 1000 + (i % 900),
      category_ids: [`cat_${i % 200}`],
      modifier_group_ids: [`grp_${i % groups}`],
    })),
    modifier_group: Array.from({ length: groups }, (_, i) => ({
      provider_id: `grp_${i}`,
      name: `Choices ${i}`,
      modifier_ids: [`mod_${i}_a`, `mod_${i}_b`],
      min_selections: 0,
      max_selections: 2,
    })),
    modifier: Array.from({ length: groups * 2 }, (_, i) => ({
      provider_id: `mod_${Math.floor(i / 2)}_${i % 2 ? 'b' : 'a'}`,
      name: `Choice ${i}`,
      price: 50,
    })),
    item_family: [],
    tax: [],
  };
  return JSON.stringify(catalog);
}
