// Work that runs every so often in each instance (pruning, redacting expired customer data): once
// soon after start-up, then every interval; one run at a time; stopping waits for the run under
// way. A failed run is logged (an outage once, by the caller's `outage`) and the next one tries again.
import type { Logger } from 'pino';

export type Periodic = {
  stop: () => Promise<void>;
  /** Runs it now, after the run under way if there is one, and resolves once done. */
  runNow: () => Promise<void>;
};

export function periodic(
  name: string,
  everyMs: number,
  work: () => Promise<unknown>,
  log: Logger,
  outage: (error: unknown) => boolean = () => false,
): Periodic {
  let running: Promise<void> | undefined;
  let stopped = false;
  const run = () => {
    if (stopped) return Promise.resolve();
    running ??= work()
      .then(
        () => undefined,
        (error: unknown) => {
          if (!outage(error)) log.error({ err: error, job: name }, 'periodic job failed; it runs again at its next time');
        },
      )
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const first = setTimeout(run, 1000);
  const timer = setInterval(run, everyMs);
  first.unref();
  timer.unref();
  return {
    // A run that sees everything written before the call: one under way may have started before
    // it, so it runs again after that one (callers meanwhile share that next run).
    runNow: async () => {
      await running;
      await run();
    },
    stop: async () => {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
