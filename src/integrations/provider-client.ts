// Calls to POS systems, DSPs and event providers. got sends; p-retry retries network errors,
// timeouts and 5xx a bounded number of times, never other 4xx. Calls on behalf of a merchant carry
// the onboarding's OAuth token, refreshed shortly before it expires and once on a 401.
import type { IncomingMessage } from 'node:http';
import type { LookupFunction } from 'node:net';
import got, { RequestError, type Method } from 'got';
import pRetry from 'p-retry';
import type { Services } from '../services.js';
import { AppError, Invalid, ReauthorizationRequired, UpstreamFailed } from '../common/errors.js';
import type { Db } from '../db/client.js';
import { keptPer } from '../common/kept.js';
import { statementsOf } from '../db/statements.js';
import { tracedCall } from '../telemetry/tracing.js';
import { providerUrl, rememberFormTokens, requireProvider, type Operation, type ProviderInfo } from './providers.js';
import { tables } from '../db/tables.js';

export type ProviderResponse = {
  status: number;
  body: unknown;
  text: string;
  headers: Record<string, string | string[] | undefined>;
  /** The answer was longer than the call would read (`maxBytes`): its body is left unread. */
  cut?: boolean;
};

/** The POS token response of docs/reference.md § Resources. */
export type ProviderToken = {
  access_token: string;
  refresh_token?: string;
  expire_time?: number;
  refresh_token_expire_time?: number;
  email?: string;
  id?: string;
};

class RetryableStatus extends Error {
  constructor(readonly response: ProviderResponse) {
    super(`provider answered ${response.status}`);
  }
}

// got as the order path needs it: an empty cacheOptions (set in the hook below) and its stream
// API (exchange, below), so that a call's objects die young (docs/performance.md, "Why some code
// lets go early").
const http = got.extend({
  retry: { limit: 0 },
  throwHttpErrors: false,
  followRedirect: false,
  hooks: {
    beforeRequest: [
      (options) => {
        options.cacheOptions = {};
      },
    ],
  },
});

type Outgoing = { headers?: Record<string, string>; json?: unknown; body?: string; form?: Record<string, string> };

/** What a call to an address we do not trust needs (a partner's webhook endpoint): its DNS
 * answers checked by the lookup it connects through, and its answer read only so far. */
export type Guard = { dnsLookup?: LookupFunction; maxBytes?: number };

/** One HTTP exchange: the status, headers and body as text (past `guard.maxBytes`, the body is cut
 * there, `cut` said, and the connection closed: an answer that says it is longer is not read at all). */
export function exchange(
  method: Method,
  url: string,
  options: Outgoing,
  timeoutMs: number,
  guard: Guard = {},
): Promise<Omit<ProviderResponse, 'body'>> {
  return new Promise((resolve, reject) => {
    const stream = http.stream(url, {
      method,
      headers: options.headers,
      json: options.json,
      body: options.body,
      form: options.form,
      timeout: { request: timeoutMs },
      ...(guard.dnsLookup ? { dnsLookup: guard.dnsLookup } : {}),
    });
    let head: IncomingMessage | undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (cut = false) =>
      resolve({
        status: head?.statusCode ?? 0,
        headers: head?.headers ?? {},
        text: Buffer.concat(chunks).toString('utf8'),
        ...(cut ? { cut } : {}),
      });
    const cutShort = () => {
      stream.destroy();
      done(true);
    };
    stream.on('response', (response: IncomingMessage) => {
      head = response;
      if (guard.maxBytes !== undefined && Number(response.headers['content-length']) > guard.maxBytes) cutShort();
    });
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (guard.maxBytes === undefined || size <= guard.maxBytes) return void chunks.push(chunk);
      chunks.push(chunk.subarray(0, chunk.length - (size - guard.maxBytes)));
      cutShort();
    });
    stream.on('end', done);
    stream.on('error', reject);
    // got's stream waits for a body to be written unless one was given; GET and HEAD have none.
    if (options.json === undefined && options.body === undefined && options.form === undefined && method !== 'GET' && method !== 'HEAD') {
      stream.end();
    }
  });
}

/** One HTTP exchange with bounded retries on network errors, timeouts and 5xx. With `retries: 0`
 * (the outbox, which schedules its own) the one attempt runs without p-retry: its per-call state
 * is then all cost and no use, on every order. */
/** What a call needs of the service: its timeout and its tracing (the conformance kit, which
 * has no service, gives just these). */
export type Caller = { config: Pick<Services['config'], 'providerTimeoutMs'>; tracing: Services['tracing'] };

export async function send(
  services: Caller,
  method: Method,
  url: string,
  options: Outgoing & { retries?: number; maxBytes?: number; raw?: boolean } = {},
): Promise<ProviderResponse> {
  const attempt = async () => {
    const res = await tracedCall(
      services.tracing,
      () => {
        const where = new URL(url);
        return [
          `${method} ${where.host}`,
          { 'http.request.method': method, 'server.address': where.hostname, 'url.full': `${where.origin}${where.pathname}` },
        ];
      },
      options.headers ?? {},
      (headers) => exchange(method, url, { ...options, headers }, services.config.providerTimeoutMs, { maxBytes: options.maxBytes }),
    );
    let body: unknown = res.text;
    try {
      // An answer read only in part is no JSON; one too large to parse at once is its reader's
      // (options.raw: the catalog, read off the main thread).
      body = res.text && !res.cut && !options.raw ? JSON.parse(res.text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    const response = { status: res.status, body, text: res.text, headers: res.headers, ...(res.cut ? { cut: true } : {}) };
    if (res.status >= 500) throw new RetryableStatus(response);
    return response;
  };
  const retries = options.retries ?? 2;
  try {
    if (retries === 0) return await attempt();
    return await pRetry(attempt, {
      retries,
      minTimeout: 100,
      maxTimeout: 1000,
      randomize: true,
      shouldRetry: ({ error }) => error instanceof RetryableStatus || error instanceof RequestError,
    });
  } catch (error) {
    if (error instanceof RetryableStatus) return error.response;
    throw error;
  }
}

/** Why a provider call failed, for people: status and the provider's own words. */
export function describeFailure(response: ProviderResponse): string {
  const body = response.body as { message?: string; error_description?: string; error?: string } | undefined;
  const reason =
    body?.error_description ?? body?.message ?? (typeof body?.error === 'string' ? body.error : undefined) ?? response.text.slice(0, 200);
  return `${response.status}${reason ? ` ${reason}` : ''}`;
}

/** Below this, an expire_time is a lifetime in seconds (10^8 s is over three years). */
const LIFETIMES_BELOW = 1e8;
/** Below this (and from LIFETIMES_BELOW), epoch seconds (up to the year 5138); from it, epoch
 * milliseconds (from 1973). */
const EPOCH_SECONDS_BELOW = 1e11;

/** When a token answer's expire_time (or refresh_token_expire_time) says the token expires, read
 * at `now` (docs/dsp-channels.md, "Token timing"); null when it says nothing. */
export function expiryOf(value: number | undefined, now = Date.now()): Date | null {
  if (value === undefined || !Number.isFinite(value)) return null;
  if (value < LIFETIMES_BELOW) return new Date(now + value * 1000);
  if (value < EPOCH_SECONDS_BELOW) return new Date(value * 1000);
  return new Date(value);
}

export function tokenFields(services: Services, token: ProviderToken) {
  return {
    accessTokenEnc: services.sealer.seal(token.access_token),
    refreshTokenEnc: token.refresh_token ? services.sealer.seal(token.refresh_token) : null,
    tokenExpiresAt: expiryOf(token.expire_time),
    refreshExpiresAt: expiryOf(token.refresh_token_expire_time),
  };
}

/** A token request's answers that mean "not now" rather than "no". */
const TRANSIENT = new Set([408, 429]);

/** A token request, as docs/reference.md has it: JSON. A POS that answers 415 takes form-encoded bodies only
 * (RFC 6749); it is asked again that way, and its registration remembers it. */
async function tokenRequest(
  services: Caller & Partial<Pick<Services, 'db'>>,
  provider: ProviderInfo,
  form: Record<string, string>,
): Promise<ProviderToken> {
  const fields = { client_id: provider.clientId ?? '', client_secret: provider.clientSecret ?? '', ...form };
  const call = (format: ProviderInfo['tokenFormat']) =>
    send(services, 'POST', providerUrl(provider, 'token'), format === 'form' ? { form: fields } : { json: fields });
  let response = await call(provider.tokenFormat);
  if (response.status === 415 && provider.tokenFormat === 'json') {
    response = await call('form');
    // A registered provider remembers it; the conformance kit's, given by flags, has nowhere to.
    if (response.status !== 415 && services.db) await rememberFormTokens({ db: services.db }, provider.source);
  }
  const token = response.body as ProviderToken | undefined;
  if (response.status >= 200 && response.status < 300 && typeof token?.access_token === 'string') return token;
  if (response.status >= 400 && response.status < 500 && !TRANSIENT.has(response.status)) {
    throw new Invalid(
      `${provider.source} refused the ${form.grant_type === 'refresh_token' ? 'refresh token' : 'code'}: ${describeFailure(response)}`,
      'invalid_grant',
    );
  }
  throw new UpstreamFailed(`${provider.source} token endpoint failed: ${describeFailure(response)}`);
}

/** Onboardings through which nothing can be sent until the merchant authorizes the provider again. */
const REVOKED = new Set(['reauthorization_required', 'replaced']);

/** The merchant revoked the app: the onboarding says so (the partner sees it, and its messages
 * wait), and the call that found out fails with ReauthorizationRequired. */
async function revoked(services: Services, provider: ProviderInfo, onboardingId: string, why: string): Promise<never> {
  tokensOf(services.db).delete(onboardingId);
  if (await services.reauthorizationRequired(onboardingId))
    services.log.warn({ onboarding: onboardingId, source: provider.source, why }, 'the merchant must authorize the provider again');
  throw new ReauthorizationRequired(
    `${provider.source} no longer accepts this merchant's authorization (${why}): the merchant must complete a new onboarding of it`,
  );
}

/** Exchanges an authorization code (docs/reference.md § Resources token request), with the PKCE verifier of the
 * authorization it came from (docs/reference.md § Partner API). */
export function exchangeCode(
  services: Caller & Partial<Pick<Services, 'db'>>,
  provider: ProviderInfo,
  code: string,
  redirectUri: string,
  codeVerifier?: string,
): Promise<ProviderToken> {
  return tokenRequest(services, provider, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    ...(codeVerifier ? { code_verifier: codeVerifier } : {}),
  });
}

/** A refresh token for a new access token (docs/reference.md § POS interface: the token call, `grant_type=refresh_token`). */
export function exchangeRefreshToken(
  services: Caller & Partial<Pick<Services, 'db'>>,
  provider: ProviderInfo,
  refreshToken: string,
): Promise<ProviderToken> {
  return tokenRequest(services, provider, { grant_type: 'refresh_token', refresh_token: refreshToken });
}

/** A token is refreshed before the first call made after its expiry less this margin (no timer
 * runs: a grant nobody calls with is not refreshed). */
const REFRESH_MARGIN_MS = 60_000;

/** Refreshes under way, per database and onboarding: calls that find the token expiring at the
 * same moment (every order to a merchant's POS, an outbox retrying) share one refresh, as a
 * rotating refresh token works once: a second refresh with it would be refused (invalid_grant)
 * and the onboarding taken for revoked. Another instance's refresh at the same moment is not
 * shared. */
const refreshing = keptPer<Db, string, Promise<string>>({ max: 10_000 });

function refreshOnboardingToken(services: Services, provider: ProviderInfo, onboardingId: string): Promise<string> {
  const underWay = refreshing(services.db);
  return underWay.remember(onboardingId, () =>
    refreshedToken(services, provider, onboardingId).finally(() => underWay.delete(onboardingId)),
  );
}

async function refreshedToken(services: Services, provider: ProviderInfo, onboardingId: string): Promise<string> {
  const onboarding = await services.db.onboarding.findUniqueOrThrow({ where: { id: onboardingId } });
  if (REVOKED.has(onboarding.status)) return revoked(services, provider, onboardingId, `the onboarding is ${onboarding.status}`);
  if (!onboarding.refreshTokenEnc)
    return revoked(services, provider, onboardingId, 'it gave no refresh token and the access token expired');
  let token: ProviderToken;
  try {
    token = await exchangeRefreshToken(services, provider, services.sealer.open(onboarding.refreshTokenEnc));
  } catch (error) {
    if (error instanceof AppError && error.code === 'invalid_grant') return revoked(services, provider, onboardingId, error.message);
    throw error;
  }
  const fields = tokenFields(services, token);
  await statementsOf(services.db).write(
    // Some providers do not rotate refresh tokens: keep the one we have.
    tables.onboarding.update(onboardingId, {
      ...fields,
      refreshTokenEnc: fields.refreshTokenEnc ?? onboarding.refreshTokenEnc,
      updatedAt: new Date(),
    }),
  );
  tokensOf(services.db).delete(onboardingId);
  return token.access_token;
}

/** Access tokens read in the last five seconds, per database and onboarding: every order sent to
 * a POS needs one. Only tokens good for longer than that are kept, and a refresh replaces it. */
const TOKEN_CACHE_MS = 5000;
const tokensOf = keptPer<Db, string, string>({ max: 10_000, ttlMs: TOKEN_CACHE_MS });

async function accessToken(services: Services, provider: ProviderInfo, onboardingId: string): Promise<string> {
  const cached = tokensOf(services.db).get(onboardingId);
  if (cached) return cached;
  const onboarding = await services.db.onboarding.findUniqueOrThrow({ where: { id: onboardingId } });
  if (REVOKED.has(onboarding.status)) return revoked(services, provider, onboardingId, `the onboarding is ${onboarding.status}`);
  if (!onboarding.accessTokenEnc) throw new AppError(409, 'onboarding_incomplete', `onboarding ${onboardingId} is not completed`);
  const goodUntil = onboarding.tokenExpiresAt ? onboarding.tokenExpiresAt.getTime() - REFRESH_MARGIN_MS : Infinity;
  if (goodUntil < Date.now()) return refreshOnboardingToken(services, provider, onboardingId);
  const token = services.sealer.open(onboarding.accessTokenEnc);
  if (goodUntil > Date.now() + TOKEN_CACHE_MS) tokensOf(services.db).set(onboardingId, token);
  return token;
}

/** A call for a merchant, with the onboarding's bearer token; refreshed and retried once on 401. */
export async function callForOnboarding(
  services: Services,
  source: string,
  onboardingId: string,
  operation: Operation,
  options: {
    method?: Method;
    headers?: Record<string, string>;
    json?: unknown;
    body?: string;
    retries?: number;
    maxBytes?: number;
    raw?: boolean;
  } = {},
): Promise<ProviderResponse> {
  const provider = await requireProvider(services, source);
  const { method = 'GET', headers, ...rest } = options;
  const attempt = (token: string) =>
    send(services, method, providerUrl(provider, operation), { ...rest, headers: { ...headers, authorization: `Bearer ${token}` } });
  const response = await attempt(await accessToken(services, provider, onboardingId));
  if (response.status !== 401) return response;
  return attempt(await refreshOnboardingToken(services, provider, onboardingId));
}
