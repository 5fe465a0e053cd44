// Operating the outbox: dead letters back into the queue (GraphQL `redeliver`, CLI
// `deliveries redeliver`).
import type { Services } from '../services.js';
import { Conflict } from '../common/errors.js';
import { statementsOf } from '../db/statements.js';
import { tables } from '../db/tables.js';

export async function redeliver(services: Pick<Services, 'db' | 'delivery'>, id: string): Promise<void> {
  const [moved] = await statementsOf(services.db).write(
    tables.outbox.update(
      id,
      { status: 'pending', attempts: 0, nextAttemptAt: new Date(), lockedUntil: null },
      { and: { sql: `"status" = 'dead'` }, returning: true },
    ),
  );
  if (!moved) throw new Conflict(`delivery ${id} is not dead: only dead deliveries are redelivered`);
  services.delivery.wake();
}
