// Operating the outbox: dead letters back into the queue (GraphQL `redeliver`, CLI
// `deliveries redeliver`).
import type { Services } from '../services.js';
import { Conflict } from '../common/errors.js';
import { statementsOf, type Run } from '../db/statements.js';
import { tables } from '../db/tables.js';

/** A dead message queued again, from a fresh attempt count, under its idempotency key; `also`
 * writes in the same transaction (the change's record, which its dashboards see). */
export async function redeliver(
  services: Pick<Services, 'db' | 'delivery'>,
  id: string,
  also?: (run: Run) => Promise<void>,
): Promise<void> {
  await statementsOf(services.db).transaction(async (run) => {
    const [moved] = await run(
      tables.outbox.update(
        id,
        { status: 'pending', attempts: 0, nextAttemptAt: new Date(), lockedUntil: null },
        { and: { sql: `"status" = 'dead'` }, returning: true },
      ),
    );
    if (!moved) throw new Conflict(`delivery ${id} is not dead: only dead deliveries are redelivered`);
    await also?.(run);
    run.after(() => services.delivery.wake());
  });
}
