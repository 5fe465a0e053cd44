// An onboarding's types and statuses, and the onboarding as its partner sees it.

export const ONBOARDING_TYPES = ['pos', 'dsp'] as const;
export type OnboardingType = (typeof ONBOARDING_TYPES)[number];

/** The status of an onboarding whose merchant revoked the app at the provider: its locations,
 * stores and messages wait for a new onboarding of the same account, which takes them over. */
export const NEEDS_REAUTHORIZATION = 'reauthorization_required';

/** An onboarding as its partner sees it (on the wire: onboardingWire in ./wire.ts). */
export type Onboarding = {
  id: string;
  orgId: string;
  type: OnboardingType;
  status: string;
  partnerId: string;
  /** The partner's own id of the organization. */
  partnerOrgId: string;
  source: string;
  entryUrl: string;
  returnUrl: string;
  integrationId: string | null;
};
