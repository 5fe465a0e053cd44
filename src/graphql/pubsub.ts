// Live events behind the subscriptions: in-process by default.
import { createPubSub } from 'graphql-yoga';

export type OnboardingEvent = { id: string };

export const createEvents = () =>
  createPubSub<{
    onboardingUpdated: [id: string, event: OnboardingEvent];
    /** Keyed by organization; subscribers filter by location. */
    orderUpdated: [orgId: string, event: { id: string; locationId: string | null }];
  }>();

export type PubSub = ReturnType<typeof createEvents>;
