// Runs of one job by key that coalesce: while a run is under way, any number of further requests
// for the same key share a single run after it, which starts once the current one ends and so
// sees every change made before it was asked for.
type Run = { run: Promise<void>; next?: Promise<void> };

export function coalescing() {
  const runs = new Map<string, Run>();
  return function coalesced(key: string, job: () => Promise<void>): Promise<void> {
    const running = runs.get(key);
    if (running) {
      running.next ??= running.run.catch(() => undefined).then(() => coalesced(key, job));
      return running.next;
    }
    // The run lets go of its key as it ends, before the run queued behind it (which waits for
    // this promise) takes the key: the key is still this run's then.
    const state: Run = { run: job().finally(() => runs.delete(key)) };
    runs.set(key, state);
    return state.run;
  };
}
