// Live events behind the subscriptions: in-process by default.
import { createPubSub } from 'graphql-yoga';

export type OnboardingEvent = { id: string };

export const createEvents = () =>
  createPubSub<{
    onboardingUpdated: [id: string, event: OnboardingEvent];
  }>();

export type PubSub = ReturnType<typeof createEvents>;
