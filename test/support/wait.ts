// Waiting on what is awaited (a received call, an event, a row): what announces itself is heard
// (the delivery worker's events), anything else is a condition looked at until it holds. Every
// look goes through `polled`, so the pause between two looks is the one timer the tests and the
// benchmark share; nothing here waits for a length of time as such.
import { on } from 'node:events';
import type { DeliveryWorker, Message } from '../../src/delivery/worker.js';

/** What a subscription's refusal leaves for `until`: its error, which then ends the wait at once. */
export type Refusal = { error?: Error };

type Check<T> = () => T | undefined | null | false | Promise<T | undefined | null | false>;

/** Looks at `check` every `everyMs` until it gives a value, which is returned; undefined once
 * `timeoutMs` has passed without one. For a caller that reports what it got by then (the
 * benchmark); a test that needs the condition uses `until`, which fails instead. */
export async function polled<T>(
  check: Check<T>,
  timeoutMs: number,
  { everyMs = 25, refusal }: { everyMs?: number; refusal?: Refusal } = {},
): Promise<T | undefined> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (refusal?.error) throw refusal.error;
    const value = await check();
    if (value) return value;
    if (Date.now() > end) return undefined;
    // The pause between two looks at the condition: what is awaited announces nothing here.
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Waits until `check` gives a value, and returns it; fails after `timeoutMs`, or at once with a
 * subscription's refusal. */
export async function until<T>(check: Check<T>, timeoutMs = 15_000, refusal?: Refusal): Promise<T> {
  const value = await polled(check, timeoutMs, { refusal });
  if (!value) throw new Error('condition not met in time');
  return value;
}

/** The next message the service's delivery worker says became `what` (delivered, dead, retried),
 * of those `match` picks, once it is recorded; fails after `timeoutMs`. Ask before what causes it:
 * what the worker said before the question is not heard. */
export async function workerSays(
  worker: DeliveryWorker,
  what: 'delivered' | 'dead' | 'retry',
  match: (message: Message) => boolean = () => true,
  timeoutMs = 15_000,
): Promise<Message> {
  try {
    for await (const [message] of on(worker, what, { signal: AbortSignal.timeout(timeoutMs) }) as AsyncIterable<[Message]>)
      if (match(message)) return message;
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw new Error(`the worker said no matching message was ${what} in time`);
    throw error;
  }
  throw new Error('the worker stopped');
}
