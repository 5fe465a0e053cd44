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
