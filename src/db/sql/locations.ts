// The read path's statements: an organization's locations and their DSP connections, as plain
// statements because this is the read operators and partners make most (docs/performance.md).
import type { DspConnection as DspConnectionRow, Location as LocationRow } from '../client.js';
import { columnList, placeholders, type Statements } from '../statements.js';

/** The columns the GraphQL Location and DspConnection types read (modules/locations/types.ts),
 * and the only ones these statements read: turning a whole row's other ids and dates into
 * strings and Dates for nothing cost the read path about a tenth of its requests a second. A
 * field that reads another column adds it here; the field list test in
 * test/onboarding-graphql.test.ts fails until someone has looked. */
export const LOCATION_COLUMNS = [
  'id',
  'name',
  'source',
  'status',
  'providerId',
  'address',
] as const satisfies readonly (keyof LocationRow)[];
export const DSP_CONNECTION_COLUMNS = [
  'id',
  'locationId',
  'name',
  'source',
  'status',
  'dspStoreId',
  'assignedMenus',
  'changeTime',
] as const satisfies readonly (keyof DspConnectionRow)[];
export type ShownLocation = Pick<LocationRow, (typeof LOCATION_COLUMNS)[number]>;
export type ShownDspConnection = Pick<DspConnectionRow, (typeof DSP_CONNECTION_COLUMNS)[number]>;

const SELECT_LOCATIONS = `SELECT ${columnList(LOCATION_COLUMNS)} FROM "Location"`;
const SELECT_DSP_CONNECTIONS = `SELECT ${columnList(DSP_CONNECTION_COLUMNS)} FROM "DspConnection"`;

/** An organization's active locations (or the one with this id or POS provider_id), oldest first. */
export function activeLocations(sql: Statements, orgId: string, locationId?: string | null): Promise<ShownLocation[]> {
  const one = locationId ? ' AND ("id" = ? OR "providerId" = ?)' : '';
  return sql.all<ShownLocation>(`${SELECT_LOCATIONS} WHERE "orgId" = ? AND "status" = 'active'${one} ORDER BY "createdAt"`, [
    orgId,
    ...(locationId ? [locationId, locationId] : []),
  ]);
}

/** The approved DSP connections of many locations in one statement, by location, then age: the
 * index on both gives the rows in that order (ordering by age alone made SQLite sort them). */
export function approvedConnections(sql: Statements, locationIds: readonly string[]): Promise<ShownDspConnection[]> {
  return sql.all<ShownDspConnection>(
    `${SELECT_DSP_CONNECTIONS} WHERE "locationId" IN (${placeholders([...locationIds])}) AND "status" = 'APPROVED' ORDER BY "locationId", "createdAt"`,
    [...locationIds],
  );
}

const jsonObject = (alias: string, columns: readonly string[]) =>
  `json_build_object(${columns.map((c) => `'${c}', ${alias}."${c}"`).join(', ')})`;

/**
 * On PostgreSQL, the whole read in one round-trip: whether the organization is the partner's,
 * its active locations (or the one asked for) and their approved DSP connections, each list
 * aggregated to JSON by the server (as PostGraphile compiles a selection). Null when the
 * organization is not the partner's.
 */
export async function organizationLocationsAtOnce(
  sql: Statements,
  orgId: string,
  partnerId: string,
  locationId?: string | null,
): Promise<{ locations: ShownLocation[]; connections: ShownDspConnection[] } | null> {
  const one = locationId ? ' AND (l."id" = ? OR l."providerId" = ?)' : '';
  const oneArgs = locationId ? [locationId, locationId] : [];
  const [row] = await sql.all<{
    locations: ShownLocation[];
    connections: (Omit<ShownDspConnection, 'changeTime'> & { changeTime: string })[];
  }>(
    `SELECT
       COALESCE((SELECT json_agg(${jsonObject('l', LOCATION_COLUMNS)} ORDER BY l."createdAt")
         FROM "Location" l WHERE l."orgId" = o."id" AND l."status" = 'active'${one}), '[]'::json) AS "locations",
       COALESCE((SELECT json_agg(${jsonObject('c', DSP_CONNECTION_COLUMNS)} ORDER BY c."locationId", c."createdAt")
         FROM "DspConnection" c JOIN "Location" l ON l."id" = c."locationId"
         WHERE l."orgId" = o."id" AND l."status" = 'active'${one} AND c."status" = 'APPROVED'), '[]'::json) AS "connections"
     FROM "Organization" o WHERE o."id" = ? AND o."partnerId" = ?`,
    [...oneArgs, ...oneArgs, orgId, partnerId],
  );
  if (!row) return null;
  // JSON carries timestamps as text, in UTC as Prisma writes them (without a zone).
  const connections = row.connections.map((c) => ({ ...c, changeTime: new Date(`${c.changeTime}Z`) }));
  return { locations: row.locations, connections };
}
