// Request-scoped DataLoaders: kept on the operation's context, and let go as soon as its result
// is complete.
//
// Why let go: V8's young-generation GC counts a WeakMap's values as reachable. The caches that
// Pothos and Yoga keep per context are WeakMap entries whose values point back at the context,
// so a finished request's context outlives every young-generation collection until it is
// promoted. A loader keeps its last batch, and with it every row of the response: without the
// release each response's rows were promoted and collected by full GCs, and young-generation
// pauses were twice as long (README, Performance).
import DataLoader from 'dataloader';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { Context } from './context.js';

type Batch<K, V> = (ctx: Context, keys: readonly K[]) => Promise<readonly (V | Error)[]>;

/** The context's loader for `batch` (a module-level function: it is the loader's identity).
 * Batching only, no cache: a subscription's context lives long, and its answers must not go
 * stale. */
export function loaderOf<K, V>(ctx: Context, batch: Batch<K, V>): DataLoader<K, V> {
  const loaders = (ctx.loaders ??= new Map());
  let loader = loaders.get(batch) as DataLoader<K, V> | undefined;
  if (!loader) {
    loader = new DataLoader<K, V>((keys) => batch(ctx, keys), { cache: false });
    loaders.set(batch, loader);
  }
  return loader;
}

/** Drops the context's loaders: called once its operation has answered. */
export function releaseLoaders(ctx: Context): void {
  ctx.loaders = undefined;
}

/** Releases the loaders when an operation's execution is done (for a stream of results, when
 * the stream ends). */
export function useRequestLoaders(): Plugin<Context> {
  return {
    onExecute: () => ({
      onExecuteDone: ({ args, result }) => {
        if (!isAsyncIterable(result)) return releaseLoaders(args.contextValue);
        return { onEnd: () => releaseLoaders(args.contextValue) };
      },
    }),
  };
}
