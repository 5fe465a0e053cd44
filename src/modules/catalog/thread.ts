// Where a catalog's work runs (./reading.ts): on the main thread when its text is small, on one
// worker thread when it is large, so that parsing and walking megabytes never holds the event loop
// (and with it every other merchant's requests). The worker starts at the first large catalog and
// stays, holding nothing of the process's: it never keeps a process alive.
import { Worker } from 'node:worker_threads';
import { work, type Work } from './reading.js';

/** From this many characters of catalog text on, its work goes to the worker thread: a few
 * milliseconds of the main thread's below it. */
export const THREAD_FROM = 256 * 1024;

type Waiting = { resolve: (result: unknown) => void; reject: (error: Error) => void };
let thread: { worker: Worker; waiting: Map<number, Waiting>; next: number } | undefined;

/** The worker, started once: from the built .js beside this file, or from the .ts source through
 * tsx (npm start, the tests). */
function worker() {
  if (thread) return thread;
  const source = import.meta.url.endsWith('.ts');
  const file = new URL(`./thread-worker.${source ? 'ts' : 'js'}`, import.meta.url).href;
  const boot = source
    ? `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(file)}); })`
    : `import(${JSON.stringify(file)})`;
  const started = { worker: new Worker(boot, { eval: true }), waiting: new Map<number, Waiting>(), next: 0 };
  started.worker.unref();
  started.worker.on('message', ({ id, result, error }: { id: number; result?: unknown; error?: string }) => {
    const waiting = started.waiting.get(id);
    started.waiting.delete(id);
    if (error === undefined) waiting?.resolve(result);
    else waiting?.reject(new Error(`catalog work failed: ${error}`));
  });
  // A worker that dies fails what it was asked; the next large catalog starts another.
  const lost = (error: Error) => {
    if (thread === started) thread = undefined;
    for (const waiting of started.waiting.values()) waiting.reject(error);
    started.waiting.clear();
  };
  started.worker.on('error', lost);
  started.worker.on('exit', (code) => lost(new Error(`the catalog thread stopped (${code})`)));
  thread = started;
  return started;
}

/** Does `op` of ./reading.ts on its arguments, the first of which is the catalog's text: here when
 * it is short, on the worker thread when it is long. */
export function onCatalog<K extends keyof Work>(op: K, ...args: Parameters<Work[K]>): Promise<ReturnType<Work[K]>> {
  const text = args[0] as string;
  if (text.length < THREAD_FROM) {
    try {
      return Promise.resolve((work[op] as (...given: unknown[]) => ReturnType<Work[K]>)(...args));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  const { worker: running, waiting } = worker();
  const id = thread!.next++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve: resolve as (result: unknown) => void, reject });
    running.postMessage({ id, op, args });
  });
}
