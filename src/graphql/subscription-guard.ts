// A subscription lives no longer than its caller's right to it: while it runs, its caller is
// asked again every second (the token's own expiry, then the session: revoked, or its partner or
// organization token deleted, on any instance). When the answer is no, the subscriber gets one
// GraphQL error with the reason (`invalid_token`, 401) and the subscription completes. Every
// subscription passes here, over graphql-ws and server-sent events alike, since both subscribe
// through envelop.
import type { Plugin } from '@envelop/core';
import type { ExecutionResult } from 'graphql';
import { Unauthenticated, type AppError } from '../common/errors.js';
import type { Context } from './context.js';

/** How often a running subscription asks whether its caller is still allowed. The session check
 * behind it is cached for a few seconds (modules/auth), so this costs no query a second. */
export const RECHECK_MS = 1000;

/** Why the caller may no longer subscribe, or null. */
async function refusalOf(context: Context): Promise<AppError | null> {
  const expiresAt = context.auth?.expiresAt;
  if (expiresAt !== undefined && Date.now() >= expiresAt) return new Unauthenticated('the access token has expired');
  return (await context.recheck?.()) ?? null;
}

/**
 * The source's results until the caller is refused, then the refusal as a result, then done.
 * Written as an iterator rather than an async generator: a generator waiting for its source
 * would hold a client's unsubscribe (return) until the next event arrived.
 */
export function whileAllowed(
  source: AsyncIterable<ExecutionResult>,
  context: Context,
  refusalResult: (why: AppError) => ExecutionResult,
  everyMs = RECHECK_MS,
): AsyncIterableIterator<ExecutionResult> {
  const iterator = source[Symbol.asyncIterator]();
  let timer: NodeJS.Timeout | undefined;
  let finished = false;
  let refuse: (why: AppError) => void = () => {};
  const refused = new Promise<{ why: AppError }>((resolve) => {
    refuse = (why) => resolve({ why });
  });
  const schedule = () => {
    timer = setTimeout(async () => {
      const why = await refusalOf(context).catch(() => null);
      if (finished) return;
      if (why) refuse(why);
      else schedule();
    }, everyMs);
    timer.unref();
  };
  // The source is told to stop, not waited for: a source that is an async generator would answer
  // only once its own next event arrived.
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    iterator.return?.().catch(() => undefined);
  };
  schedule();
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      if (finished) return { done: true, value: undefined };
      const step = await Promise.race([iterator.next(), refused]);
      if ('why' in step) {
        finish();
        return { done: false, value: refusalResult(step.why) };
      }
      if (step.done) finish();
      return step;
    },
    async return() {
      finish();
      return { done: true, value: undefined };
    },
    async throw(error: unknown) {
      finish();
      throw error;
    },
  };
}

/** The envelop plugin: every subscription's results pass through whileAllowed. */
export function subscriptionsEndWithTheirCaller(mask: (error: unknown) => Error): Plugin<Context> {
  return {
    onSubscribe: ({ args }) => ({
      onSubscribeResult: ({ result, setResult }) => {
        if (!(Symbol.asyncIterator in result)) return;
        setResult(whileAllowed(result, args.contextValue, (why) => ({ errors: [mask(why) as never] })));
      },
    }),
  };
}
