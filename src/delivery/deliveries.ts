// Operating the outbox: dead letters back into the queue (GraphQL `redeliver`, CLI
// `deliveries redeliver`).
import type { Services } from '../services.js';
import { Conflict } from '../errors.js';

export async function redeliver(services: Pick<Services, 'db' | 'delivery'>, id: string): Promise<void> {
  const moved = await services.db.outboxMessage.updateMany({
    where: { id, status: 'dead' },
    data: { status: 'pending', attempts: 0, nextAttemptAt: new Date(), lockedUntil: null },
  });
  if (!moved.count) throw new Conflict(`delivery ${id} is not dead: only dead deliveries are redelivered`);
  services.delivery.wake();
}
