// Live events behind the subscriptions: in-process by default; through Redis when REDIS_URL is
// set, so a subscriber on one instance sees what happened on another.
import { createPubSub } from 'graphql-yoga';
import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { Redis } from 'ioredis';

export type OnboardingEvent = { id: string };

type Channels = {
  onboardingUpdated: [id: string, event: OnboardingEvent];
  /** Keyed by organization; subscribers filter by location. */
  /** The order as this change left it (dates as epoch milliseconds, so it crosses Redis as
   * JSON alike): each subscriber sees every state in order, not what the row holds by the time
   * it reads it. */
  orderUpdated: [orgId: string, event: OrderSnapshot];
  /** Keyed by organization: something of it other than an order changed (the dashboard reloads
   * that part). Rare by design: never once per order. */
  organizationChanged: [orgId: string, event: OrganizationChange];
};

export type OrderSnapshot = Record<string, unknown> & { id: string; locationId: string | null; createdAt: number; updatedAt: number };

export type OrganizationChange = { kind: 'onboarding' | 'location' | 'publish' | 'delivery'; id: string };

export function createEvents(redisUrl?: string) {
  if (!redisUrl) return { pubsub: createPubSub<Channels>(), redis: undefined, close: async () => {} };
  // Redis needs one connection to publish and one that only subscribes.
  const publishClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const subscribeClient = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: 3 });
  const pubsub = createPubSub<Channels>({ eventTarget: createRedisEventTarget({ publishClient, subscribeClient }) });
  // The publishing connection also carries the shared rate-limit counts (../rate-limits.ts).
  return {
    pubsub,
    redis: publishClient,
    close: async () => {
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}

export type PubSub = ReturnType<typeof createPubSub<Channels>>;
