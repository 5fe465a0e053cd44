import pino from 'pino';
import { periodic } from './periodic.js';

test('a run asked for while one is under way runs again after it: it sees what was written before the call', async () => {
  const seen: string[] = [];
  const table = ['before'];
  let entered!: () => void;
  const firstEntered = new Promise<void>((resolve) => (entered = resolve));
  let finishFirst!: () => void;
  const firstHeld = new Promise<void>((resolve) => (finishFirst = resolve));
  const job = periodic(
    'test',
    3_600_000,
    async () => {
      const snapshot = [...table];
      if (!seen.length) {
        entered();
        await firstHeld;
      }
      seen.push(snapshot.join(','));
    },
    pino({ level: 'silent' }),
  );
  const first = job.runNow();
  await firstEntered;
  table.push('after');
  const second = job.runNow();
  finishFirst();
  await Promise.all([first, second]);
  expect(seen).toEqual(['before', 'before,after']);
  await job.stop();
});
