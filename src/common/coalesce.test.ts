import { coalescing } from './coalesce.js';

test('requests during a run share one more run, started after it ends; other keys run on their own', async () => {
  const coalesced = coalescing();
  const runs: { key: string; finish: () => void }[] = [];
  // Each run's start settles the promise handed out by `nextStart`, so the test waits for the
  // queued run itself rather than for a guess at how long its start takes.
  let started: (() => void) | undefined;
  const nextStart = () => new Promise<void>((resolve) => (started = resolve));
  const job = (key: string) => () =>
    new Promise<void>((resolve) => {
      runs.push({ key, finish: resolve });
      started?.();
    });
  const first = coalesced('a', job('a'));
  const during = Array.from({ length: 10 }, () => coalesced('a', job('a')));
  const other = coalesced('b', job('b'));
  expect(runs.map((r) => r.key)).toEqual(['a', 'b']);
  expect(new Set(during).size).toBe(1);
  const queuedStarted = nextStart();
  runs[0]!.finish();
  await first;
  await queuedStarted;
  expect(runs.map((r) => r.key)).toEqual(['a', 'b', 'a']);
  runs[2]!.finish();
  await Promise.all(during);
  runs[1]!.finish();
  await other;
  expect(runs).toHaveLength(3);
});

test('a run that fails does not stop the run queued after it, and a later request starts afresh', async () => {
  const coalesced = coalescing();
  let runs = 0;
  // The job settles on a later turn, so the second request arrives while the first run is under way.
  const failing = () =>
    Promise.resolve().then(() => {
      runs += 1;
      if (runs === 1) throw new Error('first fails');
    });
  const first = coalesced('k', failing);
  const queued = coalesced('k', failing);
  await expect(first).rejects.toThrow('first fails');
  await queued;
  expect(runs).toBe(2);
  await coalesced('k', failing);
  expect(runs).toBe(3);
});
