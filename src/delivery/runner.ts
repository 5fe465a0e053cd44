// A background loop over a table of due work (the outbox, the webhook inbox): woken right after
// a write, and polling for retries that come due. Claims are conditional updates on a lock
// time, so any number of runners, in any number of instances, share one table. A claim is a
// short lease, renewed while the work is under way: a runner that dies mid-work (kill -9, a lost
// machine) stops renewing, and within one lease any instance takes the row up again.
import type { Logger } from 'pino';
import { isDatabaseUnavailable, type Db } from '../db/client.js';
import type { Dependencies } from '../common/dependencies.js';
import { placeholders, statementsOf, updateStep, type Step } from '../db/statements.js';

/** How long a claim holds a row without being renewed: what a killed instance held goes out about
 * this long after it died. Renewed every third of it (one UPDATE per runner while it holds rows),
 * so only a process stalled or cut off from its database for seconds loses a lease; the row is
 * then sent again under the same idempotency key. */
export const LEASE_MS = 5_000;

/** How many rows a claim takes at most, and how many a runner works on at once, by default. */
const BATCH = 32;
const MAX_IN_FLIGHT = 64;

/** Which of a table's due rows a runner takes, and how many: the outbox has two runners, one for
 * providers and one for partner endpoints, each with its own rows and its own room. */
export type ClaimScope = {
  /** A condition on the rows, asked again at each claim (it may change: partners at their cap). */
  where?: () => Step;
  batch?: number;
  maxInFlight?: number;
};

type Claimable = { id: string; attempts: number; createdAt: Date };
/** The tables of due work: the outbox and the webhook inbox. */
export type WorkTable = 'OutboxMessage' | 'WebhookEvent';

/** An outbox message with an ordering key is due only when no message of its key before it
 * (by position) is still to be sent or waiting: a key's messages go out one at a time, in order,
 * whichever instance claims them, and a lease that lapses (kill -9) changes nothing of it. Other
 * keys, and messages without one, never wait. The index on (orderingKey, orderingPosition)
 * answers the check. */
const IN_ITS_TURN = `("orderingKey" IS NULL OR NOT EXISTS (SELECT 1 FROM "OutboxMessage" e
  WHERE e."orderingKey" = "OutboxMessage"."orderingKey" AND e."orderingPosition" < "OutboxMessage"."orderingPosition"
  AND e."status" IN ('pending', 'waiting')))`;

/** Takes up to a batch of pending, due, unlocked rows, oldest first; each is taken by one
 * claimer only: the update is conditional on the row being free still. One read and one write
 * per batch, whatever its size. */
export async function claimDue<Row extends Claimable>(
  db: Db,
  table: WorkTable,
  leaseMs = LEASE_MS,
  scope: Pick<ClaimScope, 'where' | 'batch'> = {},
): Promise<Row[]> {
  const sql = statementsOf(db);
  const now = new Date();
  const free = `"status" = 'pending' AND ("lockedUntil" IS NULL OR "lockedUntil" < ?)`;
  const turn = table === 'OutboxMessage' ? ` AND ${IN_ITS_TURN}` : '';
  const where = scope.where?.();
  const due = await sql.all<{ id: string }>(
    `SELECT "id" FROM "${table}" WHERE ${free} AND "nextAttemptAt" <= ?${turn}${where ? ` AND ${where.sql}` : ''} ORDER BY "createdAt" LIMIT ${scope.batch ?? BATCH}`,
    [now, now, ...(where?.args ?? [])],
  );
  if (!due.length) return [];
  const ids = due.map((row) => row.id);
  const claimed = await sql.write<Row>({
    sql: `UPDATE "${table}" SET "lockedUntil" = ?, "attempts" = "attempts" + 1 WHERE "id" IN (${placeholders(ids)}) AND ${free} RETURNING *`,
    args: [new Date(now.getTime() + leaseMs), ...ids, now],
  });
  return claimed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

/** Extends this runner's leases on rows it still works on; a row already released (done, or
 * scheduled for a retry) keeps its release. */
export async function renewLeases(db: Db, table: WorkTable, ids: readonly string[], leaseMs = LEASE_MS): Promise<void> {
  if (!ids.length) return;
  await statementsOf(db).write({
    sql: `UPDATE "${table}" SET "lockedUntil" = ? WHERE "id" IN (${placeholders([...ids])}) AND "status" = 'pending' AND "lockedUntil" IS NOT NULL`,
    args: [new Date(Date.now() + leaseMs), ...ids],
  });
}

/** The write that ends this instance's hold on a row, recording how its work went. */
export const releaseStep = (table: WorkTable, id: string, data: Record<string, unknown>): Step =>
  updateStep(table, id, { ...data, lockedUntil: null });

/** Whether a message of an outbox row's ordering key waits behind it. The release that ends the
 * row (delivered or dead) answers it, so that its sender claims that message at once: a key's
 * next message would otherwise wait up to a poll (half a second) for its turn. */
const SUCCESSOR_WAITS = `("orderingKey" IS NOT NULL AND EXISTS (SELECT 1 FROM "OutboxMessage" n
  WHERE n."orderingKey" = "OutboxMessage"."orderingKey" AND n."orderingPosition" > "OutboxMessage"."orderingPosition"
  AND n."status" = 'pending')) AS "successorWaits"`;

/** The release that ends an outbox message, delivered or dead: its row says (`successorWaits`)
 * whether a message of its ordering key now has its turn. */
export function endingRelease(id: string, data: Record<string, unknown>): Step {
  const release = releaseStep('OutboxMessage', id, data);
  return { ...release, sql: `${release.sql} RETURNING ${SUCCESSOR_WAITS}` };
}
export const successorWaits = (rows: readonly Record<string, unknown>[]): boolean => rows.some((row) => Boolean(row.successorWaits));

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
      const written = new Promise((resolve) => setTimeout(resolve, gatherMs)).then(async () => {
        gathering.delete(status);
        const rows = await statementsOf(db).write<{ id: string; successorWaits: unknown }>({
          sql: `UPDATE "OutboxMessage" SET "status" = 'delivered', "deliveredAt" = ?, "lastStatus" = ?, "lastError" = NULL, "lockedUntil" = NULL WHERE "id" IN (${placeholders(ids)}) RETURNING "id", ${SUCCESSOR_WAITS}`,
          args: [at, status, ...ids],
        });
        return new Set(rows.filter((row) => Boolean(row.successorWaits)).map((row) => row.id));
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
): Runner<Row> {
  return new Runner(
    name,
    log,
    async () => {
      // The database answering a claim (every half second at least) is how the service learns
      // that it is back after an outage.
      const rows = await claimDue<Row>(db, table, LEASE_MS, scope);
      dependencies?.back('database');
      return rows;
    },
    work,
    (ids) => renewLeases(db, table, ids),
    (error) => {
      if (!isDatabaseUnavailable(error)) return false;
      dependencies?.lost('database', error);
      return true;
    },
    undefined,
    undefined,
    scope.maxInFlight,
  );
}

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
        if (!claimed.length) return;
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
        }
      });
    this.inFlight.add(job);
  }
}
