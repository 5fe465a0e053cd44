// Runs of one job by key that coalesce: while a run is under way, any number of further requests
// for the same key share a single run after it, which starts once the current one ends and so
// sees every change made before it was asked for.
export function coalescing() {
  const runs = new Map<string, { run: Promise<void>; next: Promise<void> | null }>();
  return function coalesced(key: string, job: () => Promise<void>): Promise<void> {
    const running = runs.get(key);
    if (running) {
      running.next ??= running.run.catch(() => undefined).then(() => coalesced(key, job));
      return running.next;
    }
    const state: { run: Promise<void>; next: Promise<void> | null } = { run: Promise.resolve(), next: null };
    state.run = job().finally(() => {
      if (runs.get(key) === state) runs.delete(key);
    });
    runs.set(key, state);
    return state.run;
  };
}
