// Time-based rules (an expiry, a lease, a pause with an end) are tested by moving the clock, not
// by waiting for it. Only Date is faked: the server in this process keeps its real timers, its
// event loop and its I/O, and reads a clock that runs on from the moved time.
import { jest } from '@jest/globals';

/** Moves `Date` (Date.now and new Date(), what jose and our own code read) `ms` ahead, until
 * the returned function puts it back. */
export function clockMovedBy(ms: number): () => void {
  jest.useFakeTimers({
    now: Date.now() + ms,
    advanceTimers: true,
    doNotFake: [
      'hrtime',
      'nextTick',
      'performance',
      'queueMicrotask',
      'requestAnimationFrame',
      'cancelAnimationFrame',
      'requestIdleCallback',
      'cancelIdleCallback',
      'setImmediate',
      'clearImmediate',
      'setInterval',
      'clearInterval',
      'setTimeout',
      'clearTimeout',
    ],
  });
  return () => jest.useRealTimers();
}
