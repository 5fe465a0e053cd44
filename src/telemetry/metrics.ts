// What operators scrape at GET /metrics (docs/reference.md § Operations), with prom-client, in a registry of this
// service's own (tests run several services in one process): HTTP requests by route and status
// with latencies, GraphQL operations by name and outcome, outbox messages by kind and state (dead
// letters among them), webhooks received and applied with their lag, rate-limit refusals, and
// the process's own metrics. Counts of stored rows are read from the database at scrape time.
import { Counter, Histogram, Registry, Gauge, collectDefaultMetrics } from 'prom-client';

/** A count of stored rows, with its labels. */
export type Count = { labels: Record<string, string>; n: number };
/** Counts of stored rows, read when GET /metrics is scraped (../db/sql/counts.ts). */
export type StoredCounts = {
  /** Outbox messages by kind and state. */
  outbox: () => Promise<Count[]>;
  /** Stored webhooks by type and state. */
  webhooks: () => Promise<Count[]>;
  /** Rows of each table traffic writes. */
  tables: () => Promise<Count[]>;
};

export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics(stored: StoredCounts) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Dropped when the service stops: the process's default collectors outlive this registry, and
  // nothing of theirs may keep the database client (test/server/server.test.ts checks).
  let counts: StoredCounts | null = stored;
  /** A gauge of stored rows, read when scraped; left as it was when the database cannot answer
   * (the scrape still answers, with dependency_up saying why). */
  const countsOf = (name: string, help: string, labelNames: string[], read: (counts: StoredCounts) => ReturnType<StoredCounts['outbox']>) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        if (!counts) return;
        const rows = await read(counts).catch(() => null);
        if (!rows) return;
        this.reset();
        for (const row of rows) this.set(row.labels, row.n);
      },
    });
  countsOf('outbox_messages', 'Outbox messages by kind and state (pending, delivered, dead: dead letters)', ['kind', 'status'], (c) =>
    c.outbox(),
  );
  countsOf('webhook_events', 'Stored webhooks by type and state (pending, applied, failed)', ['type', 'status'], (c) => c.webhooks());
  countsOf('table_rows', 'Rows of each table traffic writes: what pruning keeps in check', ['table'], (c) => c.tables());
  /** What the GraphQL server's parsed-document cache holds, in bytes of operation text. */
  let documentCacheBytes = () => 0;
  new Gauge({
    name: 'graphql_document_cache_bytes',
    help: 'Bytes of operation text held by the cache of parsed GraphQL documents (bounded)',
    registers: [registry],
    collect() {
      this.set(documentCacheBytes());
    },
  });
  /** How the PostgreSQL pool stands; null on SQLite, which has none. */
  let pool: () => { size: number; waiting: number; timeouts: number } | null = () => null;
  new Gauge({
    name: 'database_pool_connections',
    help: 'PostgreSQL: connections open in the pool (at most DATABASE_POOL_SIZE)',
    registers: [registry],
    collect() {
      const state = pool();
      if (state) this.set(state.size);
    },
  });
  new Gauge({
    name: 'database_pool_waiting',
    help: 'PostgreSQL: statements waiting for a connection of the pool now',
    registers: [registry],
    collect() {
      const state = pool();
      if (state) this.set(state.waiting);
    },
  });
  new Counter({
    name: 'database_pool_timeouts_total',
    help: 'PostgreSQL: statements that waited DATABASE_POOL_WAIT_MS for a connection and gave up; above 0 while the server is up, the pool is too small',
    registers: [registry],
    collect() {
      const state = pool();
      if (!state) return;
      this.reset();
      this.inc(state.timeouts);
    },
  });
  return {
    registry,
    /** Where the pool gauges read from (the database client). */
    measurePool: (state: typeof pool) => {
      pool = state;
    },
    /** Where the document cache gauge reads from (the GraphQL server, once built). */
    measureDocumentCache: (bytes: () => number) => {
      documentCacheBytes = bytes;
    },
    close: () => {
      counts = null;
      registry.clear();
    },
    http: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by route pattern, method and status, and how long they took',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    graphql: new Counter({
      name: 'graphql_operations_total',
      help: 'GraphQL operations by name and outcome (ok, error)',
      labelNames: ['operation', 'outcome'],
      registers: [registry],
    }),
    webhooksReceived: new Counter({
      name: 'webhooks_received_total',
      help: 'Webhooks received by channel and outcome (accepted, duplicate, refused)',
      labelNames: ['channel', 'outcome'],
      registers: [registry],
    }),
    webhooksApplied: new Counter({
      name: 'webhooks_applied_total',
      help: 'Stored webhooks applied, by type and outcome (applied, retry, failed)',
      labelNames: ['type', 'outcome'],
      registers: [registry],
    }),
    webhookLag: new Histogram({
      name: 'webhook_apply_lag_seconds',
      help: 'From a webhook being stored to its being applied',
      labelNames: ['type'],
      buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 300],
      registers: [registry],
    }),
    dependencyUp: new Gauge({
      name: 'dependency_up',
      help: 'Whether a dependency answered last time it was used (database, redis): 1 or 0. With redis at 0, rate limits count per instance and subscriptions see only this instance’s events',
      labelNames: ['dependency'],
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: 'rate_limit_refusals_total',
      help: 'Requests refused as over a rate limit, by limit (api, token, webhook)',
      labelNames: ['limit'],
      registers: [registry],
    }),
  };
}
