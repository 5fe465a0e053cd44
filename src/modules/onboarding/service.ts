// OAuth onboarding of a POS or DSP (docs/reference.md § Resources; docs/reference.md § Partner API's browser hops
// and 7.2). A code completes only the onboarding it came back for: the callback hop records its
// hash on that onboarding, and complete takes no other. Toward the provider every authorization
// uses PKCE (RFC 7636, S256): the start hop keeps the verifier, sealed, for the token request.
import crypto from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Services } from '../../services.js';
import type { Onboarding as OnboardingRow } from '../../db/client.js';
import { Conflict, Invalid, NotFound } from '../../common/errors.js';
import { exchangeCode, tokenFields } from '../../integrations/provider-client.js';
import { hashSecret, matchesHash } from '../auth/service.js';
import { reachable, reachableRows } from '../access/index.js';
import { newId } from '../../common/ids.js';
import type { AuthInfo } from '../../common/scopes.js';
import { findOrganization } from '../organizations/service.js';
import { requiredText } from '../../common/input.js';
import { providerUrl, requireProvider } from '../../integrations/providers.js';
import { statementsOf, type Run } from '../../db/statements.js';
import {
  markReplaced,
  moveStores,
  moveLocations,
  onboardingById,
  onboardingIsActive,
  onboardingIsNotActive,
  resumeMessages,
} from '../../db/sql/onboardings.js';
import { recordChange } from '../../changes/record.js';
import { tables } from '../../db/tables.js';
import { authorizeUrl, onboardingWire, returnUrlWith } from './wire.js';
import { NEEDS_REAUTHORIZATION, ONBOARDING_TYPES, type Onboarding, type OnboardingType } from './states.js';

const STATE_TTL_SECONDS = 15 * 60;

export const callbackUrl = (services: Services) => `${services.publicUrl}/v1/onboarding/callback`;

/** The record of an onboarding whose organization has this partner's id (`partnerOrgId`). */
function shown(services: Pick<Services, 'publicUrl'>, row: OnboardingRow, partnerOrgId: string): Onboarding {
  return {
    id: row.id,
    orgId: row.orgId,
    type: row.type as OnboardingType,
    status: row.status,
    partnerId: row.partnerId,
    partnerOrgId,
    source: row.source,
    entryUrl: `${services.publicUrl}/v1/onboarding/integrations/${row.id}/start`,
    returnUrl: row.returnUrl,
    integrationId: row.integrationId,
  };
}

const partnerOrgIdOf = async (services: Services, orgId: string) =>
  (await services.db.organization.findUniqueOrThrow({ where: { id: orgId }, select: { providerId: true } })).providerId;

export async function showOnboarding(services: Services, row: OnboardingRow): Promise<Onboarding> {
  return shown(services, row, await partnerOrgIdOf(services, row.orgId));
}

/** The onboarding's change, recorded once in its transaction: the partner hears of it as it is
 * now (onboarding.updated), and its subscribers and its organization's dashboards see it. */
function onboardingChanged(run: Run, services: Services, row: OnboardingRow, partnerOrgId: string): Promise<void> {
  return recordChange(run, services, {
    type: 'onboarding.updated',
    owner: row,
    subject: { kind: 'onboarding', id: row.id },
    data: onboardingWire(shown(services, row, partnerOrgId)),
  });
}

/**
 * The merchant revoked the app at the provider (it refused our refresh token): an active
 * onboarding comes to need reauthorization, and its partner hears of it. False when it was
 * not active (already noted, by this or another call).
 */
export async function requireReauthorization(services: Services, onboardingId: string): Promise<boolean> {
  const [row] = await statementsOf(services.db).read<OnboardingRow>(onboardingById(onboardingId));
  if (!row) return false;
  const partnerOrgId = await partnerOrgIdOf(services, row.orgId);
  const changed = await statementsOf(services.db).transaction(async (run) => {
    const [updated] = await run<OnboardingRow>(
      tables.onboarding.update(
        onboardingId,
        { status: NEEDS_REAUTHORIZATION, updatedAt: new Date() },
        { and: onboardingIsActive, returning: true },
      ),
    );
    if (updated) await onboardingChanged(run, services, updated, partnerOrgId);
    return updated;
  });
  return !!changed;
}

function checkReturnUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString();
  } catch {
    // reported below
  }
  throw new Invalid('return_url must be an absolute http(s) URL');
}

export async function initializeOnboarding(
  services: Services,
  auth: AuthInfo,
  input: { orgId: string; source: string; type: string; returnUrl: string },
): Promise<Onboarding> {
  if (!ONBOARDING_TYPES.includes(input.type as OnboardingType)) throw new Invalid('type must be pos or dsp');
  const returnUrl = checkReturnUrl(input.returnUrl);
  const org = await findOrganization(services, auth, input.orgId);
  const source = requiredText(input.source, 'source');
  await requireProvider(services, source, input.type as OnboardingType).catch(() => {
    throw new Invalid(`source ${source} is not a registered ${input.type} provider`);
  });
  const now = new Date();
  const row: OnboardingRow = {
    id: newId('onb'),
    partnerId: auth.partnerId,
    orgId: org.id,
    type: input.type,
    source,
    status: 'pending',
    returnUrl,
    integrationId: null,
    pkceVerifierEnc: null,
    codeHash: null,
    merchantEmail: null,
    accessTokenEnc: null,
    refreshTokenEnc: null,
    tokenExpiresAt: null,
    refreshExpiresAt: null,
    completedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await statementsOf(services.db).transaction(async (run) => {
    await run(tables.onboarding.insert(row));
    await onboardingChanged(run, services, row, org.providerId);
  });
  return shown(services, row, org.providerId);
}

/** The caller's onboarding, or 404 (another partner's is not revealed). */
export async function findOnboarding(services: Services, auth: AuthInfo, id: string): Promise<OnboardingRow> {
  return reachable(auth, await services.db.onboarding.findFirst({ where: { id, ...reachableRows(auth) } }), `onboarding ${id}`);
}

/** An onboarding whose OAuth grant is in place, of the expected type (any when not given). */
export async function activeOnboarding(services: Services, auth: AuthInfo, id: string, type?: OnboardingType): Promise<OnboardingRow> {
  const row = await findOnboarding(services, auth, id);
  if (type && row.type !== type)
    throw new Invalid(`onboarding ${id} is a ${row.type} onboarding; this operation needs a ${type} onboarding`);
  if (row.status !== 'active') throw new Conflict(`onboarding ${id} is not completed yet`, 'onboarding_incomplete');
  return row;
}

/** The start hop: the browser goes on to the provider's authorize endpoint with a signed state. */
export async function authorizeRedirect(services: Services, id: string): Promise<string> {
  const row = await services.db.onboarding.findUnique({ where: { id } });
  if (!row) throw new NotFound(`onboarding ${id} not found`);
  const provider = await requireProvider(services, row.source);
  // Each start is a new authorization: a new verifier, and no code accepted until it comes back.
  const verifier = crypto.randomBytes(32).toString('base64url');
  await statementsOf(services.db).write(
    tables.onboarding.update(row.id, { pkceVerifierEnc: services.sealer.seal(verifier), codeHash: null, updatedAt: new Date() }),
  );
  const state = await new SignJWT({ onb: row.id })
    .setProtectedHeader({ alg: 'HS256' })
    .setAudience('onboarding-state')
    .setExpirationTime(`${STATE_TTL_SECONDS}s`)
    .sign(services.tokenKey);
  return authorizeUrl(providerUrl(provider, 'authorize'), {
    clientId: provider.clientId ?? '',
    redirectUri: callbackUrl(services),
    state,
    verifier,
  });
}

/** The callback hop: checks the state, then returns the browser to the partner with the code. */
export async function callbackRedirect(services: Services, query: { code?: string; state?: string; error?: string }): Promise<string> {
  let onboardingId: string;
  try {
    const { payload } = await jwtVerify(query.state ?? '', services.tokenKey, { audience: 'onboarding-state' });
    onboardingId = String(payload.onb);
  } catch {
    throw new Invalid('the state is missing, forged or expired: start the onboarding again from its entry_url', 'invalid_state');
  }
  const row = await services.db.onboarding.findUnique({ where: { id: onboardingId } });
  if (!row) throw new NotFound(`onboarding ${onboardingId} not found`);
  if (query.code && row.status === 'pending')
    await statementsOf(services.db).write(tables.onboarding.update(row.id, { codeHash: hashSecret(query.code), updatedAt: new Date() }));
  return returnUrlWith(row.returnUrl, row.id, query);
}

export async function completeOnboarding(services: Services, auth: AuthInfo, id: string, code: string): Promise<Onboarding> {
  if (!code.trim()) throw new Invalid('code must not be empty');
  const row = await findOnboarding(services, auth, id);
  if (row.status === 'active') throw new Conflict(`onboarding ${id} is already completed`);
  if (!row.codeHash || !matchesHash(code.trim(), row.codeHash)) {
    throw new Invalid(`this code was not issued for onboarding ${id}: walk its own entry_url and use the code it returns`, 'invalid_grant');
  }
  const provider = await requireProvider(services, row.source);
  // A refused code leaves the onboarding pending: the partner can try again with a fresh code.
  const verifier = row.pkceVerifierEnc ? services.sealer.open(row.pkceVerifierEnc) : undefined;
  const token = await exchangeCode(services, provider, code.trim(), callbackUrl(services), verifier);
  const partnerOrgId = await partnerOrgIdOf(services, row.orgId);
  const merchantEmail = token.email ?? null;
  const earlier = await services.db.onboarding.findMany({
    where: { orgId: row.orgId, source: row.source, type: row.type, merchantEmail, status: NEEDS_REAUTHORIZATION },
    select: { id: true },
  });
  const from = earlier.map((e) => e.id);
  const now = new Date();
  const { updated, replaced } = await statementsOf(services.db).transaction(async (run) => {
    const [completed] = await run<OnboardingRow>(
      tables.onboarding.update(
        row.id,
        {
          ...tokenFields(services, token),
          status: 'active',
          codeHash: null,
          pkceVerifierEnc: null,
          integrationId: token.id ?? null,
          merchantEmail,
          completedAt: now,
          updatedAt: now,
        },
        { and: onboardingIsNotActive, returning: true },
      ),
    );
    if (!completed) throw new Conflict(`onboarding ${id} is already completed`);
    await onboardingChanged(run, services, completed, partnerOrgId);
    return { updated: completed, replaced: from.length ? await takeOver(run, services, completed, from, partnerOrgId) : [] };
  });
  if (replaced.length) {
    services.delivery.wake();
    services.log.info({ onboarding: updated.id, replaced: from }, 'a new onboarding took over from ones that needed reauthorization');
  }
  return shown(services, updated, partnerOrgId);
}

/**
 * A merchant who revoked the app at a provider and authorized it again: the new onboarding of the
 * same account (same organization, provider and merchant email) takes over the locations, DSP
 * stores and waiting messages of the ones that need reauthorization, which become `replaced`.
 * Their messages go out at once, with the new grant's token. Steps of the completing transaction.
 */
async function takeOver(
  run: Run,
  services: Services,
  onboarding: OnboardingRow,
  from: string[],
  partnerOrgId: string,
): Promise<OnboardingRow[]> {
  await run(moveLocations(from, onboarding.id));
  await run(moveStores(from, onboarding.id));
  await run(resumeMessages(from, onboarding.id, new Date()));
  const replaced = await run<OnboardingRow>(markReplaced(from, new Date()));
  for (const row of replaced) await onboardingChanged(run, services, row, partnerOrgId);
  return replaced;
}

export async function onboardingStatus(services: Services, auth: AuthInfo, id: string): Promise<Onboarding> {
  return showOnboarding(services, await findOnboarding(services, auth, id));
}
