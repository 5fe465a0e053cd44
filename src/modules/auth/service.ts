// Partners, their tokens, and who a bearer token belongs to (docs/reference.md § Resources).
import crypto from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { z } from 'zod';
import { CLIENT_CREDENTIALS, INSUFFICIENT_SCOPE, INVALID_CLIENT, INVALID_GRANT, INVALID_SCOPE, type GRANT_TYPES } from './codes.js';
import type { Services } from '../../services.js';
import type { Db } from '../../db/client.js';
import { Forbidden, Invalid, Unauthenticated, AppError, someOf } from '../../common/errors.js';
import { SCOPES, parseScopes, storeScopes, type AuthInfo, type Scope } from '../../common/scopes.js';
import { keptPer } from '../../common/kept.js';
import { newId } from '../../common/ids.js';
import { sameBytes } from '../../common/signatures.js';
import { assertPartnerWide } from '../access/index.js';
import { findOrganization } from '../organizations/service.js';

const secret = (): string => crypto.randomBytes(32).toString('base64url');
// Client secrets and refresh tokens are 256 random bits: a plain SHA-256 cannot be reversed or
// guessed, and it keeps the token call fast (a slow password hash would only cost us).
export const hashSecret = (value: string): string => crypto.createHash('sha256').update(value).digest('hex');

/** Whether a secret matches its stored hash, in constant time. */
export function matchesHash(value: string, hash: string): boolean {
  return sameBytes(Buffer.from(hashSecret(value), 'hex'), Buffer.from(hash, 'hex'));
}

export async function createPartner(db: Db, input: { name: string; scopes?: Scope[] }) {
  const scopes = input.scopes?.length ? input.scopes : [...SCOPES];
  const clientSecret = secret();
  const partner = await db.partner.create({
    data: {
      id: newId('ptr'),
      name: input.name,
      clientId: `pc_${crypto.randomBytes(12).toString('hex')}`,
      clientSecretHash: hashSecret(clientSecret),
      scopes: storeScopes(scopes),
    },
  });
  return { partnerId: partner.id, clientId: partner.clientId, clientSecret, scopes };
}

/** A token request, as the token call and the GraphQL mutation read it (./wire.ts). */
export type TokenRequest = {
  grantType: (typeof GRANT_TYPES)[number];
  clientId: string;
  clientSecret: string;
  exp?: number;
  scopes?: Scope[];
  refreshToken?: string;
};

/** A token pair, as the token call and the GraphQL mutation give it. */
export type Token = {
  accessToken: string;
  tokenType: 'bearer';
  refreshToken: string;
  expiresIn: number;
  refreshTokenExpiresIn: number;
  scopes: Scope[];
};

const invalidClient = () => new AppError(401, INVALID_CLIENT, 'client authentication failed');
const invalidGrant = () => new Invalid('the refresh token is invalid, expired or already used', INVALID_GRANT);
const nowSeconds = () => Math.floor(Date.now() / 1000);

async function signAccessToken(
  services: Services,
  claims: { partnerId: string; sessionId: string; scopes: Scope[]; orgId: string | null },
  expiresAt: number,
): Promise<string> {
  return new SignJWT({ sid: claims.sessionId, scp: claims.scopes, org: claims.orgId ?? undefined })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.partnerId)
    .setIssuedAt()
    .setJti(crypto.randomUUID())
    .setExpirationTime(expiresAt)
    .sign(services.tokenKey);
}

function accessTokenExpiry(services: Services, exp: number | undefined): number {
  const now = nowSeconds();
  if (exp === undefined) return now + services.config.accessTokenTtl;
  if (!Number.isFinite(exp)) throw new Invalid('exp must be a number of seconds since the epoch');
  if (exp <= now) throw new Invalid('exp is in the past');
  if (exp > now + 3600) throw new Invalid('exp may be at most one hour after now');
  return Math.floor(exp);
}

function requestedScopes(requested: Scope[] | undefined, allowed: Scope[]): Scope[] {
  if (!requested?.length) return allowed;
  const extra = requested.filter((s) => !allowed.includes(s));
  if (extra.length) throw new Invalid(`scopes not granted to this client: ${someOf(extra)}`, INVALID_SCOPE);
  return [...new Set(requested)];
}

/** The scopes a caller may hand on to a token or session it makes: only those it holds itself,
 * and only while its partner still holds them. Asking for more is 403 insufficient_scope. */
export function handedOnScopes(caller: Pick<AuthInfo, 'scopes'>, partnerScopes: Scope[], requested: readonly Scope[]): Scope[] {
  const beyond = requested.filter((s) => !caller.scopes.includes(s) || !partnerScopes.includes(s));
  if (beyond.length)
    throw new Forbidden(
      `a token hands on only scopes it holds; this one does not hold ${[...new Set(beyond)].join(', ')}`,
      INSUFFICIENT_SCOPE,
    );
  return [...new Set(requested)];
}

export async function issueToken(services: Services, input: TokenRequest): Promise<Token> {
  const { db, config } = services;
  const expiresAt = accessTokenExpiry(services, input.exp);
  const partner = await db.partner.findUnique({ where: { clientId: input.clientId } });
  if (!partner || !matchesHash(input.clientSecret, partner.clientSecretHash)) throw invalidClient();

  let sessionId: string;
  let scopes: Scope[];
  if (input.grantType === CLIENT_CREDENTIALS) {
    scopes = requestedScopes(input.scopes, parseScopes(partner.scopes));
    sessionId = newId('ses');
    await db.session.create({ data: { id: sessionId, partnerId: partner.id, scopes: storeScopes(scopes) } });
  } else {
    if (!input.refreshToken) throw new Invalid('refresh_token is required for grant_type refresh_token');
    const stored = await db.refreshToken.findUnique({
      where: { tokenHash: hashSecret(input.refreshToken) },
      include: { session: true },
    });
    if (!stored || stored.session.partnerId !== partner.id || stored.session.revokedAt) throw invalidGrant();
    // Single use: only one caller can spend it. A second use means it leaked: revoke the family.
    const spent = await db.refreshToken.updateMany({ where: { id: stored.id, usedAt: null }, data: { usedAt: new Date() } });
    if (spent.count !== 1) {
      await db.session.update({ where: { id: stored.sessionId }, data: { revokedAt: new Date() } });
      liveSessionsOf(db).delete(stored.sessionId);
      throw invalidGrant();
    }
    if (stored.expiresAt.getTime() <= Date.now()) throw invalidGrant();
    // Never wider than the session it renews, nor than what the partner holds now.
    const partnerScopes = parseScopes(partner.scopes);
    scopes = requestedScopes(
      input.scopes,
      parseScopes(stored.session.scopes).filter((s) => partnerScopes.includes(s)),
    );
    sessionId = stored.sessionId;
  }

  const refreshToken = secret();
  await db.refreshToken.create({
    data: {
      id: newId('rt'),
      sessionId,
      tokenHash: hashSecret(refreshToken),
      expiresAt: new Date((nowSeconds() + config.refreshTokenTtl) * 1000),
    },
  });
  return {
    accessToken: await signAccessToken(services, { partnerId: partner.id, sessionId, scopes, orgId: null }, expiresAt),
    tokenType: 'bearer',
    refreshToken,
    expiresIn: expiresAt - nowSeconds(),
    refreshTokenExpiresIn: config.refreshTokenTtl,
    scopes,
  };
}

export type PartnerTokenInput = { orgId: string; tokenName: string; scopes: Scope[] };

/** createPartnerToken: a named, long-lived token acting for one organization, shown once. */
export async function createPartnerToken(services: Services, auth: AuthInfo, input: PartnerTokenInput) {
  const name = input.tokenName.trim();
  if (!name) throw new Invalid('token_name must not be empty');
  if (!input.scopes.length) throw new Invalid('scopes must name at least one scope');
  assertPartnerWide(auth, 'create organization tokens');
  const org = await findOrganization(services, auth, input.orgId);
  const partner = await services.db.partner.findUniqueOrThrow({ where: { id: auth.partnerId } });
  const scopes = handedOnScopes(auth, parseScopes(partner.scopes), input.scopes);
  const session = await services.db.session.create({
    data: { id: newId('ses'), partnerId: auth.partnerId, orgId: org.id, name, scopes: storeScopes(scopes) },
  });
  const expiresAt = nowSeconds() + services.config.partnerTokenTtl;
  return {
    id: session.id,
    orgId: org.id,
    tokenName: name,
    scopes,
    accessToken: await signAccessToken(services, { partnerId: auth.partnerId, sessionId: session.id, scopes, orgId: org.id }, expiresAt),
    tokenType: 'bearer' as const,
    expiresIn: services.config.partnerTokenTtl,
  };
}

/** Sessions known to be live, for a few seconds: saves a query on every request. A revocation
 * is seen at once by the instance that makes it, and by the others within five seconds. */
const liveSessionsOf = keptPer<Db, string, string>({ max: 10_000, ttlMs: 5000 });

async function sessionIsLive(db: Db, sessionId: string, partnerId: string): Promise<boolean> {
  const liveSessions = liveSessionsOf(db);
  const cached = liveSessions.get(sessionId);
  if (cached) return cached === partnerId;
  const session = await db.session.findUnique({ where: { id: sessionId }, select: { revokedAt: true, partnerId: true } });
  if (!session || session.revokedAt) {
    liveSessions.delete(sessionId);
    return false;
  }
  liveSessions.set(sessionId, session.partnerId);
  return session.partnerId === partnerId;
}

const accessClaims = z.object({
  sub: z.string(),
  sid: z.string(),
  scp: z.array(z.string()),
  org: z.string().optional(),
  exp: z.number().optional(),
});
type AccessClaims = z.infer<typeof accessClaims>;

/** Access tokens verified in the last five seconds, by their whole text (signature included),
 * per signing key: a client sends the same token with every request, and jose's HMAC check
 * through WebCrypto was 8% of a read request's CPU. Only tokens good for longer than that are
 * kept, so none is taken after it expires; revocation is the session check's, on every request. */
const VERIFIED_TOKEN_MS = 5000;
const verifiedTokens = keptPer<CryptoKey, string, AccessClaims>({ max: 10_000, ttlMs: VERIFIED_TOKEN_MS });

async function verifiedClaims(services: Services, token: string): Promise<AccessClaims> {
  const verified = verifiedTokens(services.tokenKey);
  const known = verified.get(token);
  if (known) return known;
  const { payload } = await jwtVerify(token, services.tokenKey, { algorithms: ['HS256'] });
  const claims = accessClaims.parse(payload);
  if (payload.exp !== undefined && payload.exp * 1000 > Date.now() + VERIFIED_TOKEN_MS) verified.set(token, claims);
  return claims;
}

/** Who an `Authorization` header belongs to. Throws 401 for anything but a live token. */
export async function authenticate(services: Services, header: string | undefined): Promise<AuthInfo> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) throw new Unauthenticated(header ? 'the Authorization header must be "Bearer <token>"' : 'a bearer token is required');
  let claims: AccessClaims;
  try {
    claims = await verifiedClaims(services, match[1]!);
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) throw new Unauthenticated('the access token has expired');
    throw new Unauthenticated('the access token is not valid');
  }
  if (!(await sessionIsLive(services.db, claims.sid, claims.sub))) throw new Unauthenticated('the access token has been revoked');
  return {
    partnerId: claims.sub,
    sessionId: claims.sid,
    scopes: parseScopes(claims.scp.join(',')),
    orgId: claims.org ?? null,
    ...(claims.exp !== undefined ? { expiresAt: claims.exp * 1000 } : {}),
  };
}
