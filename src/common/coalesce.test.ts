import { coalescing } from './coalesce.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

test('requests during a run share one more run, started after it ends; other keys run on their own', async () => {
  const coalesced = coalescing();
  const runs: { key: string; finish: () => void }[] = [];
  const job = (key: string) => () => new Promise<void>((resolve) => runs.push({ key, finish: resolve }));
  const first = coalesced('a', job('a'));
  const during = Array.from({ length: 10 }, () => coalesced('a', job('a')));
  const other = coalesced('b', job('b'));
  expect(runs.map((r) => r.key)).toEqual(['a', 'b']);
  expect(new Set(during).size).toBe(1);
  runs[0]!.finish();
  await first;
  await tick();
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
  const failing = () =>
    tick().then(() => {
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
