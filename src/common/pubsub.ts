// Live events behind the subscriptions: in-process by default; through Redis when REDIS_URL is
// set, so a subscriber on one instance sees what happened on another. Redis is an accelerator:
// while it is away, each event still reaches the subscribers of the instance where it happened,
// and when it is back, sharing resumes by itself (ioredis reconnects with backoff and
// subscribes again). Nothing Redis does can throw out of the process.
import { createPubSub } from 'graphql-yoga';
import type { Redis } from 'ioredis';
import type { Dependencies } from './dependencies.js';

export type OnboardingEvent = { id: string };

type Channels = {
  onboardingUpdated: [id: string, event: OnboardingEvent];
  /** Keyed by organization; subscribers filter by location. */
  /** The order as this change left it (dates as epoch milliseconds, so it crosses Redis as
   * JSON alike): each subscriber sees every state in order, not what the row holds by the time
   * it reads it. */
  orderUpdated: [orgId: string, event: OrderSnapshot];
  /** Keyed by organization: something of it other than an order changed (a location, an
   * onboarding, a delivery); the subscriber gets it as it is now. Rare by design: never once per
   * order. */
  organizationChanged: [orgId: string, event: OrganizationChange];
};

export type OrderSnapshot = Record<string, unknown> & { id: string; locationId: string | null; createdAt: number; updatedAt: number };

/** What of an organization changed (its kind and id), and the change's event type (null for one
 * only dashboards hear of): the subscriber reads the changed object with it. */
export type OrganizationChange = { orgId: string; kind: 'onboarding' | 'location' | 'delivery'; id: string; type: string | null };

type Listener = (event: CustomEvent) => void;

/**
 * An EventTarget over Redis pub/sub that falls back to this process: an event is published to
 * Redis when both connections are ready (every instance's subscribers get it from there, this
 * one's included), and handed to this instance's subscribers directly when Redis is away or the
 * publish fails.
 */
function redisEventTarget(publishClient: Redis, subscribeClient: Redis): EventTarget {
  const listeners = new Map<string, Set<Listener>>();
  const deliver = (topic: string, detail: unknown) => {
    for (const listener of listeners.get(topic) ?? []) listener(new CustomEvent(topic, { detail }));
  };
  subscribeClient.on('message', (channel: string, message: string) => deliver(channel, message === '' ? null : JSON.parse(message)));
  const callbackOf = (listener: EventListenerOrEventListenerObject) =>
    ('handleEvent' in listener ? listener.handleEvent.bind(listener) : listener) as Listener;
  return {
    addEventListener(topic: string, listener: EventListenerOrEventListenerObject | null) {
      if (!listener) return;
      let set = listeners.get(topic);
      if (!set) {
        set = new Set();
        listeners.set(topic, set);
        // Queued while Redis is away (the subscribing connection keeps its queue); ioredis
        // subscribes again to every channel after a reconnect.
        subscribeClient.subscribe(topic).catch(() => undefined);
      }
      set.add(callbackOf(listener));
    },
    removeEventListener(topic: string, listener: EventListenerOrEventListenerObject | null) {
      const set = listeners.get(topic);
      if (!listener || !set) return;
      set.delete(callbackOf(listener));
      if (set.size) return;
      listeners.delete(topic);
      subscribeClient.unsubscribe(topic).catch(() => undefined);
    },
    dispatchEvent(event: Event) {
      const { type } = event;
      const detail = (event as CustomEvent).detail as unknown;
      if (publishClient.status !== 'ready' || subscribeClient.status !== 'ready') {
        deliver(type, detail);
        return true;
      }
      publishClient.publish(type, detail === undefined ? '' : JSON.stringify(detail)).catch(() => deliver(type, detail));
      return true;
    },
  } as EventTarget;
}

type YogaPubSub = ReturnType<typeof createPubSub<Channels>>;

/** The pubsub, counting each topic's live subscriptions in this instance: what a test waits on
 * before it makes the change a subscriber should see (graphql-ws says nothing when a
 * subscription is in place). */
function counted(pubsub: YogaPubSub) {
  const live = new Map<string, number>();
  const topic = (channel: string, id?: string) => (id === undefined ? channel : `${channel}:${id}`);
  const change = (key: string, by: number) => {
    const now = (live.get(key) ?? 0) + by;
    if (now > 0) live.set(key, now);
    else live.delete(key);
  };
  return {
    publish: pubsub.publish,
    subscribe: <K extends keyof Channels>(channel: K, id: Channels[K][0]): AsyncIterableIterator<Channels[K][1]> => {
      const key = topic(channel, id);
      const source = (pubsub.subscribe as (c: K, i: Channels[K][0]) => AsyncIterableIterator<Channels[K][1]>)(channel, id);
      let open = true;
      const end = () => {
        if (open) change(key, -1);
        open = false;
      };
      change(key, 1);
      const iterator: AsyncIterableIterator<Channels[K][1]> = {
        [Symbol.asyncIterator]: () => iterator,
        next: async () => {
          const result = await source.next();
          if (result.done) end();
          return result;
        },
        return: async (value?: unknown) => {
          end();
          return source.return ? source.return(value) : { done: true as const, value: undefined };
        },
        throw: async (error?: unknown) => {
          end();
          if (source.throw) return source.throw(error);
          throw error;
        },
      };
      return iterator;
    },
    /** Live subscriptions to a channel (and key) in this instance. */
    subscribers: (channel: keyof Channels, id?: string) => live.get(topic(channel, id)) ?? 0,
  };
}

export async function createEvents(
  redisUrl?: string,
  dependencies?: Dependencies,
): Promise<{ pubsub: ReturnType<typeof counted>; redis: Redis | undefined; close: () => Promise<void> }> {
  if (!redisUrl) return { pubsub: counted(createPubSub<Channels>()), redis: undefined, close: async () => {} };
  // Loaded with Redis configured only: one instance alone has no use for its client.
  const { Redis } = await import('ioredis');
  // Two connections: one to publish (and to count rate limits, ../rate-limits.ts), one that only
  // subscribes. The first fails fast while Redis is away (no offline queue: a rate limit falls
  // back to this instance's counts at once, an event is handed over locally); the second queues
  // its subscriptions until Redis is back.
  const publishClient = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  const subscribeClient = new Redis(redisUrl, { maxRetriesPerRequest: null });
  let closing = false;
  publishClient.on('ready', () => dependencies?.back('redis'));
  for (const client of [publishClient, subscribeClient]) {
    // Without a listener ioredis reports each failed reconnect itself; the loss is noted once.
    client.on('error', (error: Error) => closing || dependencies?.lost('redis', error));
    client.on('close', () => closing || dependencies?.lost('redis'));
  }
  const pubsub = counted(createPubSub<Channels>({ eventTarget: redisEventTarget(publishClient, subscribeClient) as never }));
  return {
    pubsub,
    redis: publishClient,
    close: async () => {
      closing = true;
      publishClient.disconnect();
      subscribeClient.disconnect();
    },
  };
}

export type PubSub = ReturnType<typeof counted>;
