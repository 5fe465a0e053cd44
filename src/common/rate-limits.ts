// Rate limits (docs/reference.md § Limits), with rate-limiter-flexible: counts in Redis when REDIS_URL is set
// (every instance shares them), in this process otherwise. Over a limit the answer is 429
// `rate_limited` with Retry-After and the RateLimit-* headers (./server/app.ts sets them).
// - the partner API (REST rows and GraphQL): per partner;
// - the token call: per (client, address) and per address, where a failed authentication costs
//   FAILED_AUTH_COST points and a success one, so guessing secrets stops after a few tries while
//   a client renewing its tokens never notices; wrong secrets from one address never lock the
//   client out from another;
// - webhooks: per sender, counted only once the signature is verified (an unsigned flood cannot
//   spend a real provider's allowance); refused signatures per address, separately.
// The address is the peer's, or the one a trusted proxy reports (TRUST_PROXY, src/config.ts).
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from './errors.js';

export type RateLimitConfig = {
  apiPerMinute: number;
  tokenPerMinute: number;
  tokenPerAddressPerMinute: number;
  webhooksPerMinute: number;
  badSignaturesPerAddressPerMinute: number;
};

export const FAILED_AUTH_COST = 10;
const WINDOW_S = 60;

/** 429 with the headers a client needs to back off. */
export class RateLimited extends AppError {
  override readonly headers: Record<string, string>;
  constructor(what: string, limit: number, state: RateLimiterRes) {
    const seconds = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
    super(429, 'rate_limited', `too many requests ${what}: at most ${limit} a minute; try again in ${seconds} s`);
    this.headers = {
      'retry-after': String(seconds),
      'ratelimit-limit': String(limit),
      'ratelimit-remaining': String(Math.max(0, state.remainingPoints)),
      'ratelimit-reset': String(seconds),
    };
  }
}

export type RateLimits = {
  /** Counts one request of a partner on the API; throws RateLimited over the limit. */
  api: (partnerId: string) => Promise<void>;
  /** Before a token call: throws RateLimited when the client from this address, or the
   * address, is over its limit. */
  tokenAllowed: (clientId: string, address: string) => Promise<void>;
  /** After a token call: a failure costs more than a success. */
  tokenSettled: (clientId: string, address: string, succeeded: boolean) => Promise<void>;
  /** Counts one webhook of a sender whose signature is verified; throws RateLimited over the limit. */
  webhook: (sender: string) => Promise<void>;
  /** Counts one webhook whose signature was missing or wrong, against its address; throws
   * RateLimited over the limit (the caller answers 401 otherwise). */
  badSignature: (address: string) => Promise<void>;
};

/** The limits off (the bench alone, measuring what they cost): nothing is counted. */
export const NO_RATE_LIMITS: RateLimits = {
  api: async () => {},
  tokenAllowed: async () => {},
  tokenSettled: async () => {},
  webhook: async () => {},
  badSignature: async () => {},
};

export function createRateLimits(
  config: RateLimitConfig,
  redis?: Redis,
  onRefused: (limit: 'api' | 'token' | 'webhook') => void = () => {},
): RateLimits {
  // In Redis, shared by every instance; while Redis is away (or not ready yet), in this process:
  // rate-limiter-flexible's insurance limiter counts here instead, and a request is never failed
  // for want of Redis.
  const limiter = (keyPrefix: string, points: number): RateLimiterAbstract => {
    const memory = new RateLimiterMemory({ keyPrefix, points, duration: WINDOW_S });
    return redis
      ? new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `rl:${keyPrefix}`,
          points,
          duration: WINDOW_S,
          rejectIfRedisNotReady: true,
          insuranceLimiter: memory,
        })
      : memory;
  };
  const api = limiter('api', config.apiPerMinute);
  const tokenClient = limiter('token-client-address', config.tokenPerMinute);
  const tokenAddress = limiter('token-address', config.tokenPerAddressPerMinute);
  const webhooks = limiter('webhook', config.webhooksPerMinute);
  const badSignatures = limiter('webhook-bad-signature', config.badSignaturesPerAddressPerMinute);
  /** One client from one address: another address's wrong secrets never touch it. */
  const clientAt = (clientId: string, address: string) => `${clientId} ${address}`;

  /** Consumes points; a refusal (the library rejects with its state) becomes RateLimited. */
  const take = async (which: RateLimiterAbstract, key: string, what: string, limit: 'api' | 'webhook') => {
    try {
      await which.consume(key, 1);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      onRefused(limit);
      throw new RateLimited(what, which.points, error);
    }
  };
  const over = async (which: RateLimiterAbstract, key: string, what: string) => {
    const state = await which.get(key);
    if (!state || state.consumedPoints < which.points) return;
    onRefused('token');
    throw new RateLimited(what, which.points, state);
  };
  const settle = (which: RateLimiterAbstract, key: string, points: number) => which.penalty(key, points).then(() => undefined);

  return {
    api: (partnerId) => take(api, partnerId, 'from this partner', 'api'),
    tokenAllowed: async (clientId, address) => {
      await over(tokenClient, clientAt(clientId, address), 'for this client from this address');
      await over(tokenAddress, address, 'from this address');
    },
    tokenSettled: async (clientId, address, succeeded) => {
      const cost = succeeded ? 1 : FAILED_AUTH_COST;
      await Promise.all([settle(tokenClient, clientAt(clientId, address), cost), settle(tokenAddress, address, cost)]);
    },
    webhook: (sender) => take(webhooks, sender, 'from this sender', 'webhook'),
    badSignature: (address) => take(badSignatures, address, 'with a missing or wrong signature from this address', 'webhook'),
  };
}
