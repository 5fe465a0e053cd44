// A POS's decision taken later (docs/pos-vendors.md, "A decision later"): a POS that answers
// order.created with `async_acceptance: true` holds the order `awaiting_confirmation`, nobody told
// it was accepted, until its signed order.accepted or order.rejected; without either by the
// order's stored deadline (`decisionDueAt`, POS_CONFIRMATION_TIMEOUT_MS after its answer) the
// confirmations sweep fails it `confirmation_timeout` and its DSP is told. The deadline is a row,
// not a timer: a restart, or another instance, finds it as it was.
import type { Services } from '../../services.js';
import type { Order as OrderRow } from '../../db/client.js';
import { Invalid, InvalidTransition, NotFound } from '../../common/errors.js';
import { statementsOf } from '../../db/statements.js';
import { tables } from '../../db/tables.js';
import { decisionsOverdue, orderOfPos, statusIn } from '../../db/sql/orders.js';
import { sealedKeyOf } from '../privacy/customer.js';
import { AWAITING, MERCHANT_DELIVERED, NEW } from './states.js';
import { COUNTS_AN_EVENT, failed, type Refusal } from './peers.js';
import { orderLines, posValidationOf, readiness } from './kitchen.js';
import { kitchenSaid, namedRefusal, orderChanged, recordTaking, toDsp } from './service.js';

/** How often each instance looks for decisions past their deadline. */
export const DECISIONS_SWEEP_MS = 1000;
/** How many overdue orders one pass of the sweep fails. */
const SWEEP_BATCH = 100;

/** The POS's decision, as its webhook says it: taken (with its prep time, if it gives one), or
 * refused (with its reason, and what it names, if it does). */
export type Decision = { accepted: true; order: unknown } | { accepted: false; reason: string; posValidation?: unknown };

/** Whether an order that is no longer awaiting was decided this same way before: the POS's retry. */
function decidedSo(order: OrderRow, decision: Decision): boolean {
  if (!order.decisionDueAt || order.failureReason === 'confirmation_timeout') return false;
  if (decision.accepted) return order.status !== 'failed' && order.status !== 'dsp_canceled';
  return order.status === 'failed';
}

/**
 * A POS's decision on an order it said it would decide later. The same decision again answers as
 * the first (`duplicate`, nothing changes); a decision on an order not awaiting one (answered at
 * once, decided otherwise, canceled) or past its deadline is 409 invalid_transition; another
 * POS's order is 404. An accepted order is then as one taken at once (its prep time, its accept to
 * the DSP, its event provider); a refused one fails as a refusal does (a posValidation naming
 * items: item_unavailable, with them).
 */
export async function decideOrder(
  services: Services,
  source: string,
  orderId: string,
  decision: Decision,
): Promise<{ order: OrderRow; duplicate: boolean }> {
  const sql = statementsOf(services.db);
  const [order] = await sql.read<OrderRow & { locationSource: string | null }>(orderOfPos(orderId));
  if (!order || order.locationSource !== source) throw new NotFound(`order ${orderId} not found`);
  const now = new Date();
  if (order.status !== AWAITING) {
    if (decidedSo(order, decision)) return { order, duplicate: true };
    if (order.failureReason === 'confirmation_timeout')
      throw new InvalidTransition(
        `order ${orderId} failed confirmation_timeout: its decision was due by ${order.decisionDueAt!.toISOString()}`,
      );
    throw new InvalidTransition(`order ${orderId} is ${order.status} and awaits no decision of its POS`);
  }
  if (order.decisionDueAt && order.decisionDueAt <= now)
    throw new InvalidTransition(
      `order ${orderId}'s decision was due by ${order.decisionDueAt.toISOString()}: it fails confirmation_timeout`,
    );
  const body = JSON.parse(order.body) as Record<string, unknown>;
  if (!decision.accepted) {
    // What a POS names must be lines of the order, in Stream's shape: told, not half taken.
    const read = posValidationOf(decision.posValidation, orderLines(body));
    if (read?.problems.length) throw new Invalid(read.problems.join('; '));
  }
  const refusal: Refusal | null = decision.accepted
    ? null
    : namedRefusal(services, orderId, decision.posValidation, body, `the POS refused the order: ${decision.reason}`);
  const prep = decision.accepted ? kitchenSaid(services, orderId, decision.order).prepTimeMinutes : null;
  // Read before the transaction: on SQLite nothing else is read while it holds the connection.
  const key = decision.accepted && order.fulfillmentType === MERCHANT_DELIVERED ? await sealedKeyOf(services.db, orderId) : null;
  const changed = await sql.transaction(async (run) => {
    const values = refusal
      ? { status: 'failed', failureReason: refusal.reason, failureDetails: refusal.details, endedAt: now, updatedAt: now }
      : { status: NEW, ...readiness(order, prep, now), updatedAt: now };
    const [moved] = await run<OrderRow>(
      tables.order.update(orderId, values, { and: statusIn([AWAITING]), returning: true, ...COUNTS_AN_EVENT }),
    );
    if (!moved) return null;
    if (refusal) {
      await orderChanged(run, services, moved, { messages: [toDsp(services, moved, 'location.order.fail', failed(refusal))] });
      return moved;
    }
    return recordTaking(run, services, moved, { key: () => key });
  });
  if (changed) return { order: changed, duplicate: false };
  // Another change came first (the sweep, a cancellation, the same decision at the same moment).
  const [after] = await sql.read<OrderRow>(orderOfPos(orderId));
  if (after && decidedSo(after, decision)) return { order: after, duplicate: true };
  throw new InvalidTransition(`order ${orderId} is ${after?.status ?? 'gone'} and awaits no decision of its POS`);
}

/** One pass of the confirmations sweep: each order past its deadline fails confirmation_timeout,
 * its DSP and partner told; conditional on its still awaiting, so that two instances, or a
 * decision at the same moment, fail it at most once. How many it failed. */
export async function failOverdueDecisions(services: Services): Promise<number> {
  const sql = statementsOf(services.db);
  const now = new Date();
  const due = await sql.read<{ id: string }>(decisionsOverdue(AWAITING, now, SWEEP_BATCH));
  const seconds = Math.round(services.config.posConfirmationTimeoutMs / 1000);
  let failedCount = 0;
  for (const { id } of due) {
    const refusal: Refusal = {
      reason: 'confirmation_timeout',
      details: `the POS said it would decide later and did not within ${seconds} s`,
    };
    const done = await sql.transaction(async (run) => {
      const [moved] = await run<OrderRow>(
        tables.order.update(
          id,
          { status: 'failed', failureReason: refusal.reason, failureDetails: refusal.details, endedAt: now, updatedAt: now },
          { and: statusIn([AWAITING]), returning: true, ...COUNTS_AN_EVENT },
        ),
      );
      if (!moved) return false;
      await orderChanged(run, services, moved, { messages: [toDsp(services, moved, 'location.order.fail', failed(refusal))] });
      return true;
    });
    if (done) failedCount++;
  }
  return failedCount;
}
