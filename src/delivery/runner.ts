// A background loop over a table of due work (the outbox, the webhook inbox): woken right after
// a write, and polling for retries that come due. Claims are conditional updates on a lock
// time, so any number of runners, in any number of instances, share one table. A claim is a
// short lease, renewed while the work is under way: a runner that dies mid-work (kill -9, a lost
// machine) stops renewing, and within one lease any instance takes the row up again.
import type { Logger } from 'pino';
import { isDatabaseUnavailable, type Db } from '../db/client.js';
import type { Dependencies } from '../common/dependencies.js';
import { statementsOf } from '../db/statements.js';
import { claimDue, releaseDelivered, renewLeases, type OutboxShare, type WorkTable } from '../db/sql/work.js';

/** How long a claim holds a row without being renewed: what a killed instance held goes out about
 * this long after it died. Renewed every third of it (one UPDATE per runner while it holds rows),
 * so only a process stalled or cut off from its database for seconds loses a lease; the row is
 * then sent again under the same idempotency key. */
export const LEASE_MS = 5_000;

/** How many rows a claim takes at most, and how many a runner works on at once, by default. */
const BATCH = 32;
const MAX_IN_FLIGHT = 64;

/** Which of a table's due rows a runner takes, and how many: the outbox has a runner for
 * providers and one for partner endpoints, each with its own rows and its own room. */
export type ClaimScope = {
  /** Which share of the outbox, asked again at each claim (it changes: partners at their cap). */
  share?: () => OutboxShare;
  batch?: number;
  maxInFlight?: number;
};

type Claimable = { id: string; attempts: number; createdAt: Date };

/** How long a delivered message's release waits for others to go with it. A release lost with
 * its process in that moment (kill -9) only has the message sent again, under its idempotency
 * key, once its lease lapses. */
const GATHER_MS = 10;

/** Releases of delivered outbox messages, the commonest write of a sender's work (a DSP's accept
 * ends so): those asked for within a moment go as one statement (one per answer status), not one
 * each. Each caller hears back once its message's release is written, and whether a message of
 * its ordering key now has its turn. */
export function deliveredReleases(db: Db, gatherMs = GATHER_MS): (id: string, status: number) => Promise<boolean> {
  const gathering = new Map<number, { ids: string[]; written: Promise<Set<string>> }>();
  return async (id, status) => {
    let group = gathering.get(status);
    if (!group) {
      const ids: string[] = [];
      const at = new Date();
      const written = new Promise((resolve) => setTimeout(resolve, gatherMs)).then(() => {
        gathering.delete(status);
        return releaseDelivered(statementsOf(db), ids, status, at);
      });
      group = { ids, written };
      gathering.set(status, group);
    }
    group.ids.push(id);
    return (await group.written).has(id);
  };
}

/** Exponential backoff with full jitter, between base and max. */
export function backoff(attempts: number, policy: { retryBaseMs: number; retryMaxMs: number }): number {
  const ceiling = Math.min(policy.retryMaxMs, policy.retryBaseMs * 2 ** (attempts - 1));
  return Math.round(ceiling / 2 + (Math.random() * ceiling) / 2);
}

/** A runner over one table of due work: it claims the table's due rows and renews their leases. */
export function tableRunner<Row extends Claimable>(
  name: string,
  { db, log, dependencies }: { db: Db; log: Logger; dependencies?: Dependencies },
  table: WorkTable,
  work: (row: Row) => Promise<void>,
  scope: ClaimScope = {},
  idle?: IdleWatch,
): Runner<Row> {
  return new Runner(
    name,
    log,
    async () => {
      // The database answering a claim (every half second at least) is how the service learns
      // that it is back after an outage.
      const rows = await claimDue<Row>(db, table, LEASE_MS, scope.batch ?? BATCH, scope.share?.());
      dependencies?.back('database');
      return rows;
    },
    work,
    (ids) => renewLeases(db, table, ids, LEASE_MS),
    (error) => {
      if (!isDatabaseUnavailable(error)) return false;
      dependencies?.lost('database', error);
      return true;
    },
    undefined,
    undefined,
    scope.maxInFlight,
    idle,
  );
}

/** Who hears that a runner went quiet: nothing under way, and its last claim found nothing due.
 * Asked first whether anyone listens: only then does a runner whose last work ended look for more
 * at once (one claim), rather than at its next poll. */
export type IdleWatch = { listening: () => boolean; quiet: (idle: boolean) => void };

export class Runner<Row extends Claimable> {
  private timer: NodeJS.Timeout | undefined;
  private renewer: NodeJS.Timeout | undefined;
  /** The rows worked on now, whose leases this runner renews. */
  private readonly held = new Set<string>();
  private claiming: Promise<void> | undefined;
  private again = false;
  private full = false;
  private stopped = true;
  private readonly inFlight = new Set<Promise<void>>();
  /** Whether it has had work since it last said it was quiet. */
  private busy = true;

  constructor(
    private readonly name: string,
    private readonly log: Logger,
    private readonly claim: () => Promise<Row[]>,
    private readonly work: (row: Row) => Promise<void>,
    private readonly renew: (ids: string[]) => Promise<void>,
    /** Takes an error that is an outage, noted elsewhere once (true), rather than a fault to log. */
    private readonly outage: (error: unknown) => boolean = () => false,
    private readonly pollMs = 500,
    /** Three renewals a lease, so a late one or two never let a lease lapse under work going on. */
    private readonly renewMs = LEASE_MS / 3,
    private readonly maxInFlight = MAX_IN_FLIGHT,
    private readonly idle?: IdleWatch,
  ) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.renewer = setInterval(() => this.renewLeases(), this.renewMs);
    this.renewer.unref();
    this.wake();
  }

  private renewLeases(): void {
    if (!this.held.size) return;
    this.renew([...this.held]).catch(
      (error: unknown) => this.outage(error) || this.log.error({ err: error, runner: this.name }, 'renewing leases failed; will try again'),
    );
  }

  /** Claim soon: called after a transaction that wrote work commits. The claim starts on the next
   * turn of the event loop, so the answer of the request that woke it is written first. */
  wake(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.claimWhileRoom())
      .finally(() => {
        this.claiming = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Stops claiming and waits for the work under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.claiming;
    await Promise.all(this.inFlight);
    clearInterval(this.renewer);
  }

  /** Claims and starts work while there is room. Work under way does not hold up rows that come
   * due meanwhile: a slow receiver delays its own messages, not the next ones. */
  private async claimWhileRoom(): Promise<void> {
    try {
      while (!this.stopped) {
        if (this.inFlight.size >= this.maxInFlight) {
          this.full = true;
          return;
        }
        const claimed = await this.claim();
        if (!claimed.length) {
          if (this.busy && !this.inFlight.size) {
            this.busy = false;
            this.idle?.quiet(true);
          }
          return;
        }
        for (const row of claimed) this.begin(row);
      }
    } catch (error) {
      // The database away: the next poll tries again, and the outage is logged once.
      if (!this.outage(error)) this.log.error({ err: error, runner: this.name }, 'runner failed; it will try again');
    }
  }

  /** Works on a row this instance holds the lock of: claimed here, or written already claimed.
   * A stopped runner leaves it: when its lease expires, any instance takes it up. */
  begin(row: Row): void {
    if (this.stopped) return;
    if (!this.busy) {
      this.busy = true;
      this.idle?.quiet(false);
    }
    this.held.add(row.id);
    const job: Promise<void> = this.work(row)
      .catch((error: unknown) => {
        if (!this.outage(error))
          this.log.error({ err: error, runner: this.name, row: row.id }, 'work failed; the row is taken up again when its lease expires');
      })
      .finally(() => {
        this.held.delete(row.id);
        this.inFlight.delete(job);
        if (this.full) {
          this.full = false;
          this.wake();
        } else if (!this.inFlight.size && this.idle?.listening()) this.wake();
      });
    this.inFlight.add(job);
  }
}
