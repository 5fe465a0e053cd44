// The read path's statements: an organization's locations and their DSP stores, as plain
// statements because this is the read operators and partners make most (docs/performance.md).
import type { Location as LocationRow, Store as StoreRow } from '../client.js';
import { placeholders, type Statements, type Step } from '../statements.js';

/** The columns the GraphQL Location and DspConnection (a store) types read (modules/locations/types.ts),
 * and the only ones these statements read: turning a whole row's other ids and dates into
 * strings and Dates for nothing cost the read path about a tenth of its requests a second. A
 * field that reads another column adds it here; the field list test in
 * test/modules/onboarding/onboarding-graphql.test.ts fails until someone has looked. */
export const LOCATION_COLUMNS = [
  'id',
  'name',
  'source',
  'status',
  'providerId',
  'address',
  'timezone',
  'prepTimeMinutes',
  'busyExtraMinutes',
  'busyUntil',
] as const satisfies readonly (keyof LocationRow)[];
export const STORE_COLUMNS = [
  'id',
  'locationId',
  'name',
  'source',
  'status',
  'dspStoreId',
  'assignedMenus',
  'changeTime',
  'pausedAt',
  'pausedUntil',
  'dspStatus',
] as const satisfies readonly (keyof StoreRow)[];
/** Read with each location and store: the status of the onboarding it goes through
 * (`reauthorization_required` once the merchant revoked the app at the provider). */
type Joined = { integrationStatus: string };
export type ShownLocation = Pick<LocationRow, (typeof LOCATION_COLUMNS)[number]> & Joined;
export type ShownStore = Pick<StoreRow, (typeof STORE_COLUMNS)[number]> & Joined;

const qualified = (alias: string, columns: readonly string[]) => columns.map((c) => `${alias}."${c}"`).join(', ');
/** The onboarding's status, joined by its primary key. */
const JOIN_ONBOARDING = (alias: string) => `JOIN "Onboarding" o ON o."id" = ${alias}."onboardingId"`;
const SELECT_LOCATIONS = `SELECT ${qualified('l', LOCATION_COLUMNS)}, o."status" AS "integrationStatus" FROM "Location" l ${JOIN_ONBOARDING('l')}`;
const SELECT_STORES = `SELECT ${qualified('c', STORE_COLUMNS)}, o."status" AS "integrationStatus" FROM "DspConnection" c ${JOIN_ONBOARDING('c')}`;

/** An organization's active locations (or the one with this id or POS provider_id), oldest first. */
export function activeLocations(sql: Statements, orgId: string, locationId?: string | null): Promise<ShownLocation[]> {
  const one = locationId ? ' AND (l."id" = ? OR l."providerId" = ?)' : '';
  return sql.all<ShownLocation>(`${SELECT_LOCATIONS} WHERE l."orgId" = ? AND l."status" = 'active'${one} ORDER BY l."createdAt"`, [
    orgId,
    ...(locationId ? [locationId, locationId] : []),
  ]);
}

/** The approved stores of many locations in one statement, by location, then age: the
 * index on both gives the rows in that order (ordering by age alone made SQLite sort them). */
export function approvedStores(sql: Statements, locationIds: readonly string[]): Promise<ShownStore[]> {
  return sql.all<ShownStore>(
    `${SELECT_STORES} WHERE c."locationId" IN (${placeholders([...locationIds])}) AND c."status" = 'APPROVED' ORDER BY c."locationId", c."createdAt"`,
    [...locationIds],
  );
}

/** A row as a JSON array of these columns and its onboarding's status: the server builds no keys
 * and we parse none (a quarter of the statement's time against objects, measured on 20
 * locations and 60 stores). */
const jsonArray = (alias: string, columns: readonly string[]) => `json_build_array(${qualified(alias, columns)}, o."status")`;

/** Makes one object of such an array, with one literal of fixed shape; the columns are our own
 * constants, written in as JSON strings. Dates (the columns named *At, *Until, *Time) are JSON
 * text in UTC without a zone, as Prisma writes them, or null. */
function objectMaker<Row>(columns: readonly string[]): (values: unknown[]) => Row {
  const fields = columns.map(
    (c, i) =>
      `${JSON.stringify(c)}: ${/(At|Until|Time)$/.test(c) ? `values[${i}] === null ? null : new Date(values[${i}] + 'Z')` : `values[${i}]`}`,
  );
  return new Function('values', `'use strict'; return { ${fields.join(', ')} };`) as (values: unknown[]) => Row;
}
const locationOf = objectMaker<ShownLocation>([...LOCATION_COLUMNS, 'integrationStatus']);
const storeOf = objectMaker<ShownStore>([...STORE_COLUMNS, 'integrationStatus']);

/**
 * On PostgreSQL, the whole read in one round-trip: whether the organization is the partner's,
 * its active locations (or the one asked for) and their approved stores, each list
 * aggregated to JSON by the server (as PostGraphile compiles a selection), a row as an array.
 * Null when the
 * organization is not the partner's.
 */
export async function organizationLocationsAtOnce(
  sql: Statements,
  orgId: string,
  partnerId: string,
  locationId?: string | null,
): Promise<{ locations: ShownLocation[]; stores: ShownStore[] } | null> {
  const one = locationId ? ' AND (l."id" = ? OR l."providerId" = ?)' : '';
  const oneArgs = locationId ? [locationId, locationId] : [];
  const [row] = await sql.all<{ locations: unknown[][]; stores: unknown[][] }>(
    `SELECT
       COALESCE((SELECT json_agg(${jsonArray('l', LOCATION_COLUMNS)} ORDER BY l."createdAt")
         FROM "Location" l ${JOIN_ONBOARDING('l')} WHERE l."orgId" = org."id" AND l."status" = 'active'${one}), '[]'::json) AS "locations",
       COALESCE((SELECT json_agg(${jsonArray('c', STORE_COLUMNS)} ORDER BY c."locationId", c."createdAt")
         FROM "DspConnection" c JOIN "Location" l ON l."id" = c."locationId" ${JOIN_ONBOARDING('c')}
         WHERE l."orgId" = org."id" AND l."status" = 'active'${one} AND c."status" = 'APPROVED'), '[]'::json) AS "stores"
     FROM "Organization" org WHERE org."id" = ? AND org."partnerId" = ?`,
    [...oneArgs, ...oneArgs, orgId, partnerId],
  );
  if (!row) return null;
  return { locations: row.locations.map(locationOf), stores: row.stores.map(storeOf) };
}

/** A location delete's condition: the location is still active (another delete did not win). */
export const stillActive: Step = { sql: `"status" = 'active'` };

/** A deleted location's DSP stores let go: they can be bound again. */
export const releaseStores = (locationId: string, changeTime: Date): Step => ({
  sql: `UPDATE "DspConnection" SET "status" = 'DISCONNECTED', "boundStoreId" = NULL, "changeTime" = ? WHERE "locationId" = ?`,
  args: [changeTime, locationId],
});
