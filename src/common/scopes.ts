// The partner scopes of docs/reference.md § Resources and who holds them.
export const SCOPES = ['user', 'onboarding', 'legacy_onboarding', 'sso', 'billing'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** Scopes are stored comma-separated (both providers, no arrays). */
export const parseScopes = (stored: string): Scope[] => stored.split(',').filter(isScope);
export const storeScopes = (scopes: readonly Scope[]): string => [...new Set(scopes)].join(',');

/** Who is calling: resolved once per request from the bearer token. */
export type AuthInfo = {
  partnerId: string;
  sessionId: string;
  scopes: Scope[];
  /** Set when the token is a named partner token for one organization. */
  orgId: string | null;
  /** When the token (or dashboard session) stops being valid, epoch ms: a subscription ends then. */
  expiresAt?: number;
  /** Set for a merchant user's dashboard session (its cookie): that user's organization, read
   * only, but for redelivery by owners and admins (../access). */
  dashboard?: { userId: string; role: string };
};
