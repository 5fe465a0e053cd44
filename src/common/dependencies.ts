// What the service runs on besides its own process: the database (always) and Redis (when
// REDIS_URL is set). Either may vanish and come back; nothing of that ends the process. This is
// where the service notes it: one log line when a dependency is lost and one when it is back
// (not one per failed request), and the gauge `dependency_up` for /metrics.
//   database away: requests answer 503 `unavailable` with Retry-After, the workers retry;
//   Redis away: rate limits count per instance, subscriptions see this instance's events, and
//   intake goes on (Redis is an accelerator, not a dependency of taking orders).
import type { Logger } from 'pino';
import type { Gauge } from 'prom-client';

export type DependencyName = 'database' | 'redis';

/** What the service does without each, as the log line says it. */
const WITHOUT: Record<DependencyName, string> = {
  database: 'requests answer 503 unavailable and deliveries wait until it is back',
  redis: 'rate limits count per instance and subscriptions see only this instance’s events until it is back',
};

/** How often the log says a dependency is busy rather than away (its failures go on meanwhile). */
const BUSY_SAID_EVERY_MS = 60_000;

export class Dependencies {
  private readonly up = new Map<DependencyName, boolean>();
  private busySaidAt = 0;

  /** `busy`: why a dependency's failure is its being busy, not away (the database's pool
   * exhausted while the server answers), or null. */
  constructor(
    private readonly log: Logger,
    private readonly gauge: Gauge<'dependency'>,
    private readonly busy: (name: DependencyName) => string | null = () => null,
  ) {}

  /** Whether the dependency answered last time anyone asked (true until it fails). */
  isUp(name: DependencyName): boolean {
    return this.up.get(name) !== false;
  }

  lost(name: DependencyName, error?: unknown): void {
    // A pool with every connection lent out is not a database away: said as what it is (at most
    // once a minute), and the dependency stays up.
    const busy = this.busy(name);
    if (busy) {
      if (Date.now() - this.busySaidAt >= BUSY_SAID_EVERY_MS) {
        this.busySaidAt = Date.now();
        this.log.warn({ err: error, dependency: name }, busy);
      }
      return;
    }
    this.gauge.set({ dependency: name }, 0);
    if (this.up.get(name) === false) return;
    this.up.set(name, false);
    this.log.error({ err: error, dependency: name }, `${name} unreachable: ${WITHOUT[name]}`);
  }

  back(name: DependencyName): void {
    this.gauge.set({ dependency: name }, 1);
    if (this.up.get(name) !== false) {
      this.up.set(name, true);
      return;
    }
    this.up.set(name, true);
    this.log.info({ dependency: name }, `${name} reachable again`);
  }
}
