// Operating the outbox: dead letters back into the queue (GraphQL `redeliver`, CLI
// `deliveries redeliver`), and what a message's death records.
import type { Services } from '../../services.js';
import { Conflict } from '../../common/errors.js';
import { statementsOf, type Run } from '../../db/statements.js';
import { tables } from '../../db/tables.js';
import { deadMessage } from '../../db/sql/work.js';
import type { DeadLetterWrites } from '../../delivery/worker.js';
import { recordChange } from '../../changes/record.js';
import { deadDeliveryData } from './wire.js';

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
        { and: deadMessage, returning: true },
      ),
    );
    if (!moved) throw new Conflict(`delivery ${id} is not dead: only dead deliveries are redelivered`);
    await also?.(run);
    run.after(() => services.delivery.wake());
  });
}

/** A message that died (to a provider or to a partner's endpoint): its partner hears of it
 * (delivery.dead) at its endpoints, but the one whose delivery died, and its organization's
 * dashboards see it; a dead delivery.dead tells no one again. */
export const messageDied: DeadLetterWrites = async (run, services, message, outcome) => {
  if (message.kind === 'delivery.dead') return;
  await recordChange(run, services, {
    type: 'delivery.dead',
    owner: message,
    subject: { kind: 'delivery', id: message.id },
    except: message.endpointId ?? undefined,
    data: deadDeliveryData(message, outcome),
  });
};
