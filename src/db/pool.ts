// How the PostgreSQL pool is opened when configuration says nothing else (DATABASE_POOL_SIZE,
// DATABASE_POOL_WAIT_MS in ../config.ts).

/** The PostgreSQL pool's defaults (docs/operations.md, "Configuration"): twenty connections, what
 * Prisma's pool and a pool of the statements' own had together, and ten seconds to wait for one.
 * A connection is held only for a statement or a transaction's statements, never across a call
 * to a peer, so a burst queues for milliseconds; a wait of one second once turned such a queue on
 * a busy machine into failed requests and deliveries. */
export const POOL_DEFAULTS = { size: 20, waitMs: 10_000 } as const;
