// The worker thread of ./thread.ts: does what it is asked of ./reading.ts, a call at a time, and
// answers with the result or the error's text.
import { parentPort } from 'node:worker_threads';
import { work, type Work } from './reading.js';

type Asked = { id: number; op: keyof Work; args: unknown[] };

parentPort?.on('message', ({ id, op, args }: Asked) => {
  try {
    parentPort?.postMessage({ id, result: (work[op] as (...given: unknown[]) => unknown)(...args) });
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});
