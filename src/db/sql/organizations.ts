// An organization by id, of one partner: nearly every partner request checks its organization
// first, so this is a plain statement.
import type { Organization } from '../client.js';
import type { Statements } from '../statements.js';

export async function partnerOrganization(sql: Statements, orgId: string, partnerId: string): Promise<Organization | undefined> {
  const [org] = await sql.all<Organization>('SELECT * FROM "Organization" WHERE "id" = ? AND "partnerId" = ?', [orgId, partnerId]);
  return org;
}
