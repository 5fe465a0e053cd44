// Organizations (merchants) and their users (docs/reference.md § Resources).
import { requiredText, displayName } from '../../common/input.js';
import type { Services } from '../../services.js';
import { Conflict, Invalid, NotFound } from '../../common/errors.js';
import { isUniqueViolation } from '../../db/client.js';
import { statementsOf } from '../../db/statements.js';
import { partnerOrganization } from '../../db/sql/organizations.js';
import { assertOrgInReach, assertPartnerWide } from '../access/index.js';
import { newId } from '../../common/ids.js';
import type { AuthInfo } from '../../common/scopes.js';
import { EVENT_PROVIDER, eventProviderSources, findProvider } from '../../integrations/providers.js';
import { dispatcherOf } from '../../integrations/dispatch.js';

export type CreateOrganizationInput = {
  name: string;
  /** The partner's own id for the merchant. */
  providerId: string;
  user: { email: string; firstName?: string | null; lastName?: string | null };
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string, field = 'email'): string {
  const value = email.trim().toLowerCase();
  if (!EMAIL.test(value)) throw new Invalid(`${field} must be an email address`);
  return value;
}

export async function createOrganization(services: Services, auth: AuthInfo, input: CreateOrganizationInput) {
  const name = displayName(input.name, 'name');
  const providerId = requiredText(input.providerId, 'provider_id');
  const email = normalizeEmail(input.user.email, 'user.email');
  assertPartnerWide(auth, 'create organizations');
  const orgId = newId('org');
  const userId = newId('usr');
  try {
    await services.db.organization.create({
      data: {
        id: orgId,
        partnerId: auth.partnerId,
        name,
        providerId,
        users: {
          create: { id: userId, email, firstName: input.user.firstName ?? null, lastName: input.user.lastName ?? null, role: 'owner' },
        },
      },
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new Conflict(`an organization with provider_id ${providerId} already exists`);
    throw error;
  }
  return { orgId, userId };
}

/** The caller's organization, or 404 (also for another partner's: its existence is not revealed). */
export async function findOrganization(services: Services, auth: AuthInfo, orgId: string) {
  assertOrgInReach(auth, orgId);
  // A plain statement: nearly every partner request checks its organization first.
  const org = await partnerOrganization(statementsOf(services.db), orgId, auth.partnerId);
  if (!org) throw new NotFound(`organization ${orgId} not found`);
  return org;
}

/** Names the organization's event provider (a registered event provider's source), or none
 * (null: the deployment's, when exactly one is registered). Its merchant-delivered orders
 * confirmed from then on go to it; those confirmed before stay with theirs. */
export async function setEventProvider(services: Services, auth: AuthInfo, orgId: string, source: string | null | undefined) {
  if (source === undefined) throw new Invalid('source is required: an event provider, or null for the deployment’s');
  const named = source === null ? null : requiredText(source, 'source');
  const org = await findOrganization(services, auth, orgId);
  if (named !== null && (await findProvider(services, named))?.kind !== EVENT_PROVIDER)
    throw new Invalid(`source ${named} is not a registered event provider`);
  await services.db.organization.update({ where: { id: org.id }, data: { eventProvider: named } });
  return { orgId: org.id, eventProvider: named };
}

/** The event provider the organization's merchant-delivered orders go to now, or why none does
 * (orders/dispatch.ts, as an order's confirmation decides it). */
export async function eventProviderInUse(services: Services, org: { eventProvider: string | null }) {
  const registered = await eventProviderSources(services);
  const named = org.eventProvider;
  return dispatcherOf({
    named,
    namedKind: named === null ? null : registered.includes(named) ? EVENT_PROVIDER : ((await findProvider(services, named))?.kind ?? null),
    registered: registered.length,
    only: registered[0] ?? null,
  });
}
