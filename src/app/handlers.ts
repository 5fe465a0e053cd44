// What the service does with a webhook (by path and event type) and with a delivery's outcome
// (by message kind), from each module's own list: nothing registers itself when imported, so
// this file is the whole answer to "what handles this?".
import { webhookRegistry } from '../webhooks/intake.js';
import { byKind, type AnswerChecks, type DeadLetterWrites, type OutcomeHandlers } from '../delivery/worker.js';
import { messageDied } from '../modules/deliveries/service.js';
import { catalogOutcomes, catalogWebhooks } from '../modules/catalog/sync.js';
import { orderOutcomes } from '../modules/orders/service.js';
import { orderWebhooks } from '../modules/orders/webhooks.js';
import { orderAnswerChecks } from '../modules/orders/peers.js';
import { storeWebhooks } from '../modules/stores/webhooks.js';

export const webhooks = webhookRegistry(catalogWebhooks, orderWebhooks, storeWebhooks);
export const outcomes: OutcomeHandlers = byKind('outcome', catalogOutcomes, orderOutcomes);
export const answerChecks: AnswerChecks = byKind('answer check', orderAnswerChecks);
export const deadLetter: DeadLetterWrites = messageDied;
