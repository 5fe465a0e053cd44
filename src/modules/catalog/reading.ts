// The work a catalog takes, whole, in one place and in plain data (text in, text or small data
// out): a POS's answer read into the stored body, a store's part of it, what the order intake and
// a location's reads work out of a stored body, and a page of one of its lists. Pure, so that it
// runs where its size says (./thread.ts): a small catalog on the main thread, a large one on a
// worker thread, where parsing and walking megabytes holds no one's request.
import { catalogFor, readCatalog, type Catalog, type CatalogEntity } from './validate.js';
import { offerIn, type Offer, type Offered } from './offer.js';
import { holidaysIn } from './holidays.js';
import type { Holiday, MenuHours } from './hours.js';
import { isCurrency } from '../../common/money.js';

/** A POS's catalog answer as the service keeps it: the canonical body, what is wrong with it, its menus. */
export type ReadCatalog = { body: string; problems: string[]; menuIds: string[] };

export function read(text: string): ReadCatalog {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    raw = text;
  }
  const { catalog, problems } = readCatalog(raw);
  return { body: JSON.stringify(catalog), problems, menuIds: catalog.menu.map((m) => m.provider_id) };
}

const parse = (body: string): Catalog => JSON.parse(body) as Catalog;

/** The part of a stored catalog the menus reach, as JSON: what one DSP store receives. */
export const storePart = (body: string, menus: readonly string[]): string => JSON.stringify(catalogFor(parse(body), menus));

/** An offer as plain data (./offer.ts's maps as lists of entries). */
export type OfferData = {
  menus: [string, MenuHours][];
  items: [string, Offered][];
  modifiers: [string, Offered][];
  groups: [string, { min: number; max: number | null; modifiers: string[] }][];
};

/** What is worked out of a stored catalog version: its currency, its holidays, and with `menus`
 * the offer of those menus (null: all of them) as JSON text (parsed faster than structured clone
 * copies it; read into the canonical shape first: versions stored before it are read the same way). */
export function facts(
  body: string,
  menus?: readonly string[] | null,
): { currency: string | null; holidays: [string, Holiday][]; offer?: string } {
  const stored = JSON.parse(body) as Record<string, unknown> | null;
  return {
    currency: isCurrency(stored?.currency) ? stored.currency : null,
    holidays: [...holidaysIn(stored?.holidays)],
    ...(menus === undefined ? {} : { offer: JSON.stringify(offerData(offerIn(readCatalog(stored).catalog, menus))) }),
  };
}

const offerData = (offer: Offer): OfferData => ({
  menus: [...offer.menus],
  items: [...offer.items],
  modifiers: [...offer.modifiers],
  groups: [...offer.groups].map(([id, g]) => [id, { min: g.min, max: Number.isFinite(g.max) ? g.max : null, modifiers: [...g.modifiers] }]),
});

/** The lists a catalog's page is of. */
export const PAGED_LISTS = ['menu', 'category', 'item', 'modifier_group', 'modifier', 'tax'] as const;
export type PagedList = (typeof PAGED_LISTS)[number];

/** A page of one list of a stored catalog: at most `first` elements after the one whose
 * provider_id is `after` (from the start without it), the list's size, and the catalog's
 * currency, which the elements' prices are in. A version stored before the canonical shape may
 * lack a list or hold elements without a provider_id: those are left out. */
export function page(
  body: string,
  list: PagedList,
  first: number,
  after: string | null,
): { elements: CatalogEntity[]; total: number; currency: unknown } {
  const catalog = JSON.parse(body) as Record<string, unknown> | null;
  const given = catalog?.[list];
  const listed = Array.isArray(given)
    ? given.filter((e): e is CatalogEntity => typeof e === 'object' && e !== null && typeof (e as CatalogEntity).provider_id === 'string')
    : [];
  const from = after === null ? 0 : listed.findIndex((e) => e.provider_id === after) + 1;
  return {
    elements: from === 0 && after !== null ? [] : listed.slice(from, from + first),
    total: listed.length,
    currency: catalog?.currency,
  };
}

/** The catalog's own fields besides its lists. */
export function head(body: string): { currency: unknown; defaultLanguage: unknown; taxRate: unknown } {
  const catalog = JSON.parse(body) as Record<string, unknown> | null;
  return { currency: catalog?.currency, defaultLanguage: catalog?.default_language, taxRate: catalog?.tax_rate };
}

/** What a thread is asked to do, by name. */
export const work = { read, storePart, facts, page, head } as const;
export type Work = typeof work;
