// The catalog sync's reads inside its transaction (modules/catalog/sync.ts), as steps of a plain
// transaction: the versions and publishes it writes are written there only, this way.
import type { Statements, Step } from '../statements.js';

export type LatestVersion = { id: string; version: number; body: string; problems: string };
export type LastPublish = { catalogVersionId: string; menus: string; status: string };

/** A location's newest catalog version. */
export const latestCatalogVersion = (locationId: string): Step => ({
  sql: 'SELECT "id", "version", "body", "problems" FROM "CatalogVersion" WHERE "locationId" = ? ORDER BY "version" DESC LIMIT 1',
  args: [locationId],
});

/** A store's newest publish. */
export const lastPublish = (storeId: string): Step => ({
  sql: 'SELECT "catalogVersionId", "menus", "status" FROM "MenuPublish" WHERE "dspConnectionId" = ? ORDER BY "createdAt" DESC LIMIT 1',
  args: [storeId],
});

/** A catalog version's body (JSON text), if it exists. */
export async function catalogVersionBody(sql: Statements, versionId: string): Promise<string | undefined> {
  const [row] = await sql.all<{ body: string }>('SELECT "body" FROM "CatalogVersion" WHERE "id" = ?', [versionId]);
  return row?.body;
}
