// What the service works out of a stored catalog version, read once per version (a version never
// changes) and kept per database client on each instance, so that no order and no read of a
// location parses a catalog: the offer of a store's menus, a location's holidays, its hours and
// whether they have it open. The rules they apply are pure, beside this file (./offer.ts,
// ./holidays.ts, ./hours.ts), and run where the catalog's size says (./thread.ts, ./reading.ts);
// this file only reads and keeps.
import type { Db } from '../../db/client.js';
import { statementsOf } from '../../db/statements.js';
import { catalogVersionBody } from '../../db/sql/catalog.js';
import { keptPer } from '../../common/kept.js';
import { offeredVersion, type Offer } from './offer.js';
import { openingAt, type Holidays, type Hours } from './hours.js';
import { onCatalog } from './thread.js';
import type { OfferData } from './reading.js';
import { zoneOf } from './local-time.js';

/** A version's body, read once for what is worked out of it at one moment (its currency, its
 * holidays and its offer are asked for together by a store's first order): a large catalog's
 * megabytes are read from the database once, not once each. */
const bodiesOf = keptPer<Db, string, Promise<string | undefined>>({ max: 4, ttlMs: 10_000 });
export const storedBody = (db: Db, versionId: string) =>
  bodiesOf(db).remember(versionId, () => catalogVersionBody(statementsOf(db), versionId));

/** Offers kept per database client: versions and menus a store last received, at most this many. */
const offersOf = keptPer<Db, string, Promise<Offer | null>>({ max: 200 });

/** The offer of a stored catalog version's menus, built once and kept (the most recently used). */
export function storedOffer(db: Db, versionId: string, menus: readonly string[] | null): Promise<Offer | null> {
  return offersOf(db).remember(`${versionId}|${menus ? JSON.stringify(menus) : '*'}`, async () => {
    const body = await storedBody(db, versionId);
    if (body === undefined) return null;
    const { offer } = await onCatalog('facts', body, menus);
    return offerOf(JSON.parse(offer!) as OfferData);
  });
}

/** An offer from its plain data. */
const offerOf = (data: OfferData): Offer => ({
  menus: new Map(data.menus),
  items: new Map(data.items),
  modifiers: new Map(data.modifiers),
  groups: new Map(
    data.groups.map(([id, g]) => [id, { min: g.min, max: g.max ?? Number.POSITIVE_INFINITY, modifiers: new Set(g.modifiers) }]),
  ),
});

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

/** Holidays kept per database client and catalog version (a version never changes). */
const holidaysOf = keptPer<Db, string, Promise<Holidays>>({ max: 500 });

/** The holidays of a stored catalog version: read once per version on each instance. */
export function storedHolidays(db: Db, versionId: string): Promise<Holidays> {
  return holidaysOf(db).remember(versionId, async () => {
    const body = await storedBody(db, versionId);
    return new Map(body === undefined ? [] : (await onCatalog('facts', body)).holidays);
  });
}

/** Hours kept per database client, catalog version and zone (none of them changes). */
const hoursKept = keptPer<Db, string, Promise<Hours>>({ max: 500 });

/** A location's hours: every menu of a catalog version (its latest valid one), with its holidays,
 * in its time zone. */
export function locationHours(db: Db, versionId: string, timezone: string): Promise<Hours> {
  const timeZone = zoneOf(timezone);
  return hoursKept(db).remember(`${versionId}|${timeZone}`, async () => {
    const [offer, holidays] = await Promise.all([storedOffer(db, versionId, null), storedHolidays(db, versionId)]);
    return { timeZone, menus: offer?.menus ?? new Map(), holidays };
  });
}

type Opening = ReturnType<typeof openingAt>;
/** Openings kept until they change: from when they were worked out until the location next opens
 * or closes (a minute, when that is not within the week). */
const openingKept = keptPer<Db, string, { opening: Opening; from: number; until: number }>({ max: 500 });

/** Whether a location's hours have it open at `now`, and when that changes: worked out once for
 * as long as it holds, not at every read of the location. */
export async function locationOpening(db: Db, versionId: string, timezone: string, now = Date.now()): Promise<Opening> {
  const key = `${versionId}|${zoneOf(timezone)}`;
  const kept = openingKept(db).get(key);
  if (kept && kept.from <= now && now < kept.until) return kept.opening;
  const opening = openingAt(await locationHours(db, versionId, timezone), now);
  openingKept(db).set(key, { opening, from: now, until: opening.opensAt ?? opening.closesAt ?? now + 60_000 });
  return opening;
}
