// The delivery.dead partner event's data, in its wire names (the partner events' own), made once here.
import type { DeadLetterWrites } from '../../delivery/worker.js';

type Died = Parameters<DeadLetterWrites>;

/** What a partner's endpoint hears of a message that died: which, where to, how often it was
 * tried and the last answer. */
export function deadDeliveryData(message: Died[2], outcome: Died[3]) {
  return {
    delivery_id: message.id,
    kind: message.kind,
    ...(message.endpointId ? { endpoint_id: message.endpointId, event_id: message.subjectId } : { destination: message.source }),
    attempts: message.attempts,
    last_status: outcome.status,
    last_error: outcome.error,
  };
}
