// Single sign-on for merchant users (docs/reference.md § Resources): a single-use, short-lived login token, and
// the browser hop that consumes it and starts the user's dashboard session.
import crypto from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Services } from '../../services.js';
import { Invalid, NotFound, Unauthenticated } from '../../common/errors.js';
import { hashSecret } from '../auth/service.js';
import { newId } from '../../common/ids.js';
import { parseScopes, storeScopes, type AuthInfo, type Scope } from '../../common/scopes.js';
import { canReach, DEFAULT_ROLE, ownPartnerId, ROLES, type Role } from '../access/index.js';
import { normalizeEmail } from '../organizations/service.js';
import { requiredText, displayName } from '../../common/input.js';

const LOGIN_TOKEN_TTL_MS = 5 * 60 * 1000;
const SESSION_TTL_SECONDS = 8 * 3600;
/** What a dashboard session may do at most; it gets those of them the token that asked for it holds. */
const DASHBOARD_SCOPES: readonly Scope[] = ['user', 'onboarding'];

/** The merchant user to sign in, and the organization (by the partner's own id of it). */
export type SsoInput = {
  email: string;
  fullName: string;
  phoneNumber: string;
  role?: string | null;
  providerOrgId?: string | null;
};

export async function generateSsoSession(services: Services, auth: AuthInfo, partnerId: string | null | undefined, input: SsoInput) {
  ownPartnerId(auth, partnerId);
  const email = normalizeEmail(input.email);
  const fullName = displayName(input.fullName, 'full_name');
  const phone = requiredText(input.phoneNumber, 'phone_number');
  const role = input.role ?? DEFAULT_ROLE;
  if (!ROLES.includes(role as Role)) throw new Invalid(`role must be one of ${ROLES.join(', ')}`);
  const providerOrgId = requiredText(input.providerOrgId ?? '', 'provider_org_id');
  const org = await services.db.organization.findFirst({ where: { partnerId: auth.partnerId, providerId: providerOrgId } });
  if (!org || !canReach(auth, { partnerId: org.partnerId, orgId: org.id }))
    throw new NotFound(`no organization with provider_org_id ${providerOrgId}`);

  const token = crypto.randomBytes(32).toString('base64url');
  await services.db.$transaction(async (tx) => {
    const user = await tx.user.upsert({
      where: { orgId_email: { orgId: org.id, email } },
      create: { id: newId('usr'), orgId: org.id, email, fullName, phone, role },
      update: { fullName, phone, role },
    });
    await tx.ssoToken.create({
      data: {
        id: newId('sso'),
        tokenHash: hashSecret(token),
        userId: user.id,
        // A token hands on only scopes it holds: a session asked for by a token without `user`
        // cannot read orders either.
        scopes: storeScopes(DASHBOARD_SCOPES.filter((scope) => auth.scopes.includes(scope))),
        expiresAt: new Date(Date.now() + LOGIN_TOKEN_TTL_MS),
      },
    });
  });
  return { ssoLoginToken: token };
}

/** Consumes a login token once; returns a signed dashboard session for the user. */
export async function consumeSsoToken(services: Services, token: string): Promise<{ session: string; maxAge: number }> {
  const refused = () => new Unauthenticated('this login link is invalid, expired or already used', 'invalid_sso_token');
  const stored = await services.db.ssoToken.findUnique({ where: { tokenHash: hashSecret(token) } });
  if (!stored || stored.expiresAt.getTime() < Date.now()) throw refused();
  const spent = await services.db.ssoToken.updateMany({ where: { id: stored.id, usedAt: null }, data: { usedAt: new Date() } });
  if (spent.count !== 1) throw refused();
  // `at`: when it started, to the millisecond, so that a logout ends it (User.sessionsEndedAt).
  const session = await new SignJWT({ uid: stored.userId, at: Date.now(), scp: parseScopes(stored.scopes) })
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience('merchant-dashboard')
    .setExpirationTime(`${SESSION_TTL_SECONDS}s`)
    .sign(services.tokenKey);
  return { session, maxAge: SESSION_TTL_SECONDS };
}

/** A live dashboard session: signed by us, not expired, not ended by a logout; its user, the
 * scopes it was given and when it ends. */
async function dashboardSession(services: Services, session: string | undefined) {
  if (!session) return null;
  let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
  try {
    ({ payload } = await jwtVerify(session, services.tokenKey, { audience: 'merchant-dashboard' }));
  } catch {
    return null;
  }
  const user = await services.db.user.findUnique({ where: { id: String(payload.uid) }, include: { org: true } });
  const startedAt = typeof payload.at === 'number' ? payload.at : (payload.iat ?? 0) * 1000;
  if (!user || (user.sessionsEndedAt && startedAt <= user.sessionsEndedAt.getTime())) return null;
  const scopes = Array.isArray(payload.scp) ? parseScopes(payload.scp.join(',')) : [...DASHBOARD_SCOPES];
  return { user, scopes, expiresAt: (payload.exp ?? 0) * 1000 };
}

/** The user of a live dashboard session. */
export async function dashboardUser(services: Services, session: string | undefined) {
  return (await dashboardSession(services, session))?.user ?? null;
}

/** The caller a dashboard session is: its user's organization, as ../access says. */
export async function dashboardCaller(services: Services, session: string): Promise<AuthInfo | null> {
  const live = await dashboardSession(services, session);
  if (!live) return null;
  const { user, scopes, expiresAt } = live;
  return {
    partnerId: user.org.partnerId,
    sessionId: `dashboard:${user.id}`,
    scopes,
    orgId: user.orgId,
    expiresAt,
    dashboard: { userId: user.id, role: user.role },
  };
}

/** Logout: every dashboard session of the user started until now is over. */
export async function endDashboardSessions(services: Services, session: string | undefined): Promise<void> {
  const user = await dashboardUser(services, session);
  if (user) await services.db.user.update({ where: { id: user.id }, data: { sessionsEndedAt: new Date() } });
}
