// Waiting on what is awaited (a received call, an event, a row): what announces itself is heard
// (the delivery worker's events), anything else is a condition looked at until it holds. Every
// look goes through `polled`, so the pause between two looks is the one timer the tests and the
// benchmark share; nothing here waits for a length of time as such.
import { on } from 'node:events';
import type { DeliveryWorker, Message } from '../../src/delivery/worker.js';

/** What a subscription's refusal leaves for `until`: its error, which then ends the wait at once. */
export type Refusal = { error?: Error };

type Check<T> = () => T | undefined | null | false | Promise<T | undefined | null | false>;

/** Looks at `check` until it gives a value, which is returned; undefined once `timeoutMs` has
 * passed without one. For a caller that reports what it got by then (the benchmark); a test that
 * needs the condition uses `until`, which fails instead. The pause between two looks is `everyMs`
 * when given; otherwise it starts at 10 ms and grows by half at each look up to 100 ms: a
 * condition that holds soon is seen soon, and one that takes seconds (a restart, a retry's
 * backoff) is not asked about forty times a second. Each look costs CPU (a query, a request), and
 * on a loaded machine (CI's two test passes on two cores) the looks of the waiting tests were
 * CPU taken from the tests they wait for. */
export async function polled<T>(
  check: Check<T>,
  timeoutMs: number,
  { everyMs, refusal }: { everyMs?: number; refusal?: Refusal } = {},
): Promise<T | undefined> {
  const end = Date.now() + timeoutMs;
  let pause = everyMs ?? 10;
  for (;;) {
    if (refusal?.error) throw refusal.error;
    const value = await check();
    if (value) return value;
    if (Date.now() > end) return undefined;
    // The pause between two looks at the condition: what is awaited announces nothing here.
    await new Promise((r) => setTimeout(r, pause));
    if (everyMs === undefined) pause = Math.min(100, Math.round(pause * 1.5));
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
