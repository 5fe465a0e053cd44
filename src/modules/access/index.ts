// Who may touch what: the one tenancy rule, used by every resolver, REST row, subscription and
// CLI command. Three kinds of caller reach partner data (docs/architecture.md "Conventions", docs/reference.md § Partner API):
// - a partner login (client credentials): every organization of its partner;
// - an organization token (createPartnerToken): that one organization of its partner;
// - a merchant user's dashboard session: that user's organization (same shape as an
//   organization token: `orgId` set).
// The CLI is the operator and reaches everything; it calls the domain without a caller.
// Another tenant's data is "not found", never "forbidden", and a not-found answer names only the
// id the caller asked for, so no caller learns another tenant's ids or that they exist. Forbidden
// is for what the caller's own token may not do (a partner-wide act with an organization token).
import { Forbidden, NotFound } from '../../common/errors.js';
import type { AuthInfo } from '../../common/scopes.js';

export type Caller = AuthInfo;

/** The filter of rows a caller may reach, for rows that carry `partnerId` and `orgId`. */
export function reachableRows(caller: Caller): { partnerId: string; orgId?: string } {
  return caller.orgId === null ? { partnerId: caller.partnerId } : { partnerId: caller.partnerId, orgId: caller.orgId };
}

/** Whether a row of this partner and organization is within the caller's reach. */
export function canReach(caller: Caller, row: { partnerId: string | null; orgId: string | null }): boolean {
  return row.partnerId === caller.partnerId && (caller.orgId === null || row.orgId === caller.orgId);
}

/** The row if the caller may reach it, else 404 naming what the caller asked for. */
export function reachable<T extends { partnerId: string | null; orgId: string | null }>(
  caller: Caller,
  row: T | null | undefined,
  what: string,
): T {
  if (!row || !canReach(caller, row)) throw new NotFound(`${what} not found`);
  return row;
}

/** An organization id the caller may act on; the organization's own partner is checked by the
 * caller's look-up (organizations/service.ts, findOrganization). */
export function assertOrgInReach(caller: Caller, orgId: string): void {
  if (caller.orgId !== null && caller.orgId !== orgId) throw new NotFound(`organization ${orgId} not found`);
}

/** Partner-wide acts (creating organizations, minting organization tokens) need a partner login. */
export function assertPartnerWide(caller: Caller, act: string): void {
  if (caller.orgId !== null) throw new Forbidden(`an organization token cannot ${act}`, 'insufficient_scope');
}

/** The roles of a merchant's users; a user signed in without one is a team member. */
export const ROLES = ['owner', 'admin', 'manager', 'team_member', 'custom'] as const;
export type Role = (typeof ROLES)[number];
export const DEFAULT_ROLE: Role = 'team_member';
/** The roles whose dashboard session may redeliver a dead delivery. */
export const REDELIVERING_ROLES: readonly string[] = ['owner', 'admin'];
/** The roles whose dashboard session may stop, start and slow their stores: pause, resume, busy, items off sale. */
export const STORE_CONTROLLING_ROLES: readonly string[] = ['owner', 'admin', 'manager'];
const STORE_CONTROLS = ['pauseStores', 'resumeStores', 'setLocationBusy', 'endLocationBusy', 'setItemAvailability'];
/** The roles whose dashboard session may choose who delivers the merchant's own orders. */
export const DISPATCH_CHOOSING_ROLES: readonly string[] = ['owner', 'admin'];
const DISPATCH_CHOICE = 'setEventProvider';
/** The roles whose dashboard session reads the end of day (the daily statements). */
export const STATEMENT_READING_ROLES: readonly string[] = ['owner', 'admin', 'manager'];

/** A dashboard session reads its organization; of the mutations it runs only `redeliver` and the
 * choice of event provider (owners and admins) and the store controls (owners, admins and
 * managers). The answer is the refusal, or null when the operation may run. */
export function dashboardRefusal(
  caller: Caller | null,
  operation: 'query' | 'mutation' | 'subscription',
  rootFields: string[],
): Forbidden | null {
  if (!caller?.dashboard || operation !== 'mutation') return null;
  const writes = rootFields.filter((field) => field !== '__typename');
  if (writes.some((field) => field !== 'redeliver' && field !== DISPATCH_CHOICE && !STORE_CONTROLS.includes(field)))
    return new Forbidden(
      'the dashboard session is read-only: of the mutations it runs only redeliver, the choice of event provider and the store controls',
    );
  if (writes.some((field) => STORE_CONTROLS.includes(field)) && !STORE_CONTROLLING_ROLES.includes(caller.dashboard.role))
    return new Forbidden(
      `only owners, admins and managers pause stores, make them busy and take items off sale; you are ${caller.dashboard.role}`,
      'insufficient_role',
    );
  if (writes.includes(DISPATCH_CHOICE) && !DISPATCH_CHOOSING_ROLES.includes(caller.dashboard.role))
    return new Forbidden(`only owners and admins choose the event provider; you are ${caller.dashboard.role}`, 'insufficient_role');
  return null;
}

export function assertMayRedeliver(caller: Caller): void {
  if (caller.dashboard && !REDELIVERING_ROLES.includes(caller.dashboard.role)) {
    throw new Forbidden(`only owners and admins redeliver deliveries; you are ${caller.dashboard.role}`, 'insufficient_role');
  }
}

/** The dashboard roles that see a customer whole (name, phone, loyalty id); other roles see the
 * first name and an initial, and no number. A token's caller (the partner's systems) sees it whole. */
export const CUSTOMER_SEEING_ROLES: readonly string[] = ['owner', 'admin', 'manager'];
export const seesCustomer = (caller: Caller) => !caller.dashboard || CUSTOMER_SEEING_ROLES.includes(caller.dashboard.role);

/** A `partner_id` given in a request (flags, SSO) must be the caller's own; absent means own. */
export function ownPartnerId(caller: Caller, given: string | null | undefined): string {
  if (given && given !== caller.partnerId) throw new Forbidden('partner_id must be your own partner id');
  return caller.partnerId;
}
