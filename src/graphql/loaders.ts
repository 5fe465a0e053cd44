// Request-scoped caches: the DataLoaders kept on the operation's context, and the caches Pothos
// keeps per context (scope-auth's answers). Both are let go as soon as the operation's result
// is complete.
//
// Why let go: V8's young-generation GC counts a WeakMap's values as reachable. Pothos keeps its
// per-context caches in WeakMaps whose values point back at the context (scope-auth's
// RequestCache holds it), so a finished request's context, and the whole request with it,
// outlived every young-generation collection until it was promoted and left for a full GC. A
// loader keeps its last batch, and with it every row of the response. Dropping the loaders and
// detaching the context from Pothos's cache key breaks both paths (README, Performance).
import DataLoader from 'dataloader';
import { contextCacheSymbol } from '@pothos/core';
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

/** Drops the context's loaders and Pothos's caches for it: called once its operation has
 * answered. Pothos keys its caches by `ctx[contextCacheSymbol]` (set in createContext); once
 * that is gone, nothing reachable leads from the cached entries back to their key. */
export function releaseRequestCaches(ctx: Context): void {
  ctx.loaders = undefined;
  ctx[contextCacheSymbol] = undefined;
}

/** Releases the request's caches when an operation's execution is done (for a stream of
 * results, when the stream ends). */
export function useRequestCacheRelease(): Plugin<Context> {
  return {
    onExecute: () => ({
      onExecuteDone: ({ args, result }) => {
        if (!isAsyncIterable(result)) return releaseRequestCaches(args.contextValue);
        return { onEnd: () => releaseRequestCaches(args.contextValue) };
      },
    }),
  };
}
