// What lives for one operation: its DataLoaders, the caches Pothos keeps per context
// (scope-auth's answers), and the HTTP request Yoga puts on the context. All of it is let go as
// soon as the operation's result is complete.
//
// Why let go: otherwise a finished request's context, and all it reaches (the response's rows,
// the HTTP request and reply), survives young-generation collections until a full GC
// (docs/performance.md, "Why some code lets go early").
import DataLoader from 'dataloader';
import { contextCacheSymbol } from '@pothos/core';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { Context } from './context.js';

type Batch<K, V> = (ctx: Context, keys: readonly K[]) => Promise<readonly (V | Error)[]>;

/** The context's loader for `batch` (a module-level function: it is the loader's identity).
 * Batching only, no cache: a subscription's context lives long, and its answers must not go
 * stale. */
export function loaderOf<K, V>(ctx: Context, batch: Batch<K, V>): DataLoader<K, V> {
  ctx.loaders ??= new Map();
  const loaders = ctx.loaders;
  let loader = loaders.get(batch) as DataLoader<K, V> | undefined;
  if (!loader) {
    loader = new DataLoader<K, V>((keys) => batch(ctx, keys), { cache: false });
    loaders.set(batch, loader);
  }
  return loader;
}

/** The fields Yoga adds to the context for an HTTP request (and ours, `req`, Fastify's). */
type HttpContext = Context & { request?: unknown; req?: unknown; params?: unknown };

/** Lets go of everything the context holds for its request: called once its operation has
 * answered. Pothos keys its caches by `ctx[contextCacheSymbol]` (set in createContext); once that
 * is gone, nothing leads from a cached entry back to its key. Fields are set to undefined, not
 * deleted, so that contexts keep one shape. */
export function releaseRequestScope(ctx: HttpContext): void {
  ctx.loaders = undefined;
  ctx[contextCacheSymbol] = undefined;
  if (ctx.request !== undefined) ctx.request = undefined;
  if (ctx.req !== undefined) ctx.req = undefined;
  if (ctx.params !== undefined) ctx.params = undefined;
}

/** Releases the request's scope when an operation's execution is done (for a stream of results,
 * when the stream ends). Nothing after execution reads these fields from the context: Yoga hands
 * its result processors the request itself. */
export function useRequestScopeRelease(): Plugin<Context> {
  return {
    onExecute: () => ({
      onExecuteDone: ({ args, result }) => {
        if (!isAsyncIterable(result)) return releaseRequestScope(args.contextValue);
        return { onEnd: () => releaseRequestScope(args.contextValue) };
      },
    }),
  };
}
