// Orders end to end (docs/api-guide.md, "Orders"): a DSP's order.created becomes one order,
// exactly once per (DSP, dspOrderId), sent to the bound location's POS through the outbox; the
// POS's answer gives the posOrderId or the refusal, and the DSP hears either at once; an accepted
// merchant-delivered order goes to its event provider as order.confirmed (./dispatch.ts), which
// then reports the delivery (the driver, each step of the road) and hears of each move of the
// order's status (docs/event-providers.md). Every change of an order goes through
// `orderChanged`: recorded once, with its messages to peers (./peers.ts). The Order table is
// written here only, by plain statements, each write conditional on the state it was decided
// from (./states.ts).
import type { Services } from '../../services.js';
import { isUniqueViolation, type Order as OrderRow } from '../../db/client.js';
import { Conflict, FeatureDisabled, InvalidTransition, NotFound } from '../../common/errors.js';
import { statementsOf, type Run } from '../../db/statements.js';
import { tables } from '../../db/tables.js';
import type { OutboxInput } from '../../delivery/outbox.js';
import { recordChange } from '../../changes/record.js';
import { redactIfErased } from '../privacy/service.js';
import { carryingCustomer, keepKey, keyCarried, sealedKeyOf, sealCustomer } from '../privacy/customer.js';
import {
  allOf,
  deliveryStatusIs,
  dispatchCandidates,
  dispatchedOrder,
  orderById,
  orderBySource,
  orderOfPos,
  ordersWaitingOn,
  posLocationOf,
  statusIn,
  storeForOrder,
  takenIs,
  notFailedByItsPos,
  unchangedSince,
  type BoundLocation,
  type StoreForOrder,
} from '../../db/sql/orders.js';
import type { OutcomeHandler } from '../../delivery/worker.js';
import { newId } from '../../common/ids.js';
import { findProvider } from '../../integrations/providers.js';
import {
  AWAITING,
  decide,
  decideDelivery,
  deliveryOnMove,
  FINAL_STATUSES,
  MERCHANT_DELIVERED,
  NEW,
  OPEN,
  statusesWhere,
  failedByItsPos,
  taken,
  takesFirst,
  type DeliveryStatus,
  type OrderEvent,
  type OrderStatus,
  type Verdict,
} from './states.js';
import { dispatcherOf, type DispatchCandidates } from '../../integrations/dispatch.js';
import { driverText, type Driver } from './driver.js';
import {
  accepted,
  changeToEventProvider,
  changeToPos,
  COUNTS_A_CHANGE,
  COUNTS_AN_EVENT,
  dspEvent,
  failed as failedData,
  orderConfirmed,
  orderToPos,
  posOrderIdOf,
  posRefusal,
  statusEvent,
  withMarkupLine,
  orderEventData,
  type DspEventType,
  type PosLocation,
  type Refusal,
} from './peers.js';
import { catalogPriced, orderCurrency, orderRefusal, pauseRefusal, storeRefusal } from './intake.js';
import type { OrderMoney } from './wire.js';
import { cancellationColumns, type Cancellation } from './cancellation.js';
import { offeredVersion } from '../catalog/offer.js';
import { storedHolidays, storedOffer } from '../catalog/stored.js';
import { storedCurrency } from '../catalog/currency.js';
import { offSaleAt } from '../stores/service.js';
import type { Outcome } from '../../delivery/worker.js';
import {
  kitchenAnswerOf,
  locationQuote,
  orderLines,
  posValidationOf,
  PREP_MINUTES,
  readiness,
  validationRefusal,
  type KitchenAnswer,
} from './kitchen.js';

/** A change's conditional write found the order changed since it was read. */
const STALE = Symbol('stale');
/** Each attempt lost means another change to the order landed: far more than one order's peers
 * ever send at once. */
const MOST_ATTEMPTS = 40;
/** Seconds a peer waits before sending again a change that kept losing races. */
const CONFLICT_RETRY_S = 1;

/**
 * A change to one order made on the row as it is now: `attempt` reads the order, judges the
 * change and writes it only if the order is still as it read it, or answers STALE when another
 * change landed in between; it is then read and judged again, so two peers changing one order at
 * once are served one after the other, on either database, and 409 invalid_transition means only
 * a move the rules refuse. A change that keeps losing is 409 `conflict` with Retry-After.
 */
async function onFreshRow<T>(attempt: () => Promise<T | typeof STALE>): Promise<T> {
  for (let i = 0; i < MOST_ATTEMPTS; i++) {
    const done = await attempt();
    if (done !== STALE) return done;
  }
  const conflict = new Conflict('the order is being changed by others at this moment: send the change again shortly');
  conflict.headers = { 'retry-after': String(CONFLICT_RETRY_S) };
  throw conflict;
}

/** A final order's refusal, naming the status it ended in: the sender sees why. */
export const notModifiable = (status: string) => new FeatureDisabled(`order is ${status}, which is final: it is not modifiable`);

/** Where an event takes the order, or the refusal the sender gets (./states.ts). */
export function move(order: Pick<OrderRow, 'status'>, event: OrderEvent): Extract<Verdict, { to: unknown }>['to'] {
  const verdict = decide(order.status, event);
  if ('to' in verdict) return verdict.to;
  if (verdict.refused === 'notModifiable') throw notModifiable(order.status);
  const to = event.kind === 'posUpdate' ? event.status : event.kind;
  throw new InvalidTransition(`an order cannot move from ${order.status} to ${to}`);
}

/** What a move to `to` writes besides the status: when it ended, for a final status. */
const ending = (to: OrderStatus | null, now: Date) => (to && FINAL_STATUSES.has(to) ? { endedAt: now } : {});

/**
 * Every change of an order, in the transaction that makes it: recorded once (its history, the
 * partner's event, its messages to peers, and after the commit its live subscribers get the
 * order as it is now), and, when it ends with its customer's erasure asked for, redacted there
 * too. A `note` says in a sentence what the order's fields do not (why no event provider has it).
 */
export async function orderChanged(
  run: Run,
  services: Services,
  order: OrderRow,
  change: {
    type?: 'order.created' | 'order.accepted';
    messages?: OutboxInput[];
    unheard?: boolean;
    note?: string;
    /** The order's object, when the caller has it (its body parsed, or what it was made from). */
    sent?: Record<string, unknown>;
  } = {},
): Promise<void> {
  await recordChange(run, services, {
    type: change.type ?? (order.status === 'failed' ? 'order.failed' : 'order.updated'),
    owner: order,
    subject: { kind: 'order', id: order.id },
    data: { ...orderEventData(order, change.sent), ...(change.note ? { note: change.note } : {}) },
    messages: change.messages,
    order: { ...order, createdAt: order.createdAt.getTime(), updatedAt: order.updatedAt.getTime() },
    unheard: change.unheard,
  });
  // Only an order whose customer's erasure was asked for crosses to privacy.
  if (order.erasureRequestedAt) await redactIfErased(run, services, order);
}

/** The order's next event to its DSP, ordered behind the others unless the bench measures without. */
export const toDsp = (services: Services, order: OrderRow, type: DspEventType, data: Record<string, unknown>) =>
  dspEvent(order, type, data, services.config.outbox.ordered);

/** A DSP's order as the service takes it (./webhooks.ts reads it from the DSP's payload). */
export type Incoming = {
  dspOrderId: string;
  dspStoreId: string;
  fulfillmentType: string | null;
  /** Its money as its columns keep it (./wire.ts). */
  money: OrderMoney;
  object: Record<string, unknown>;
};

/** What the intake made of an order: its refusal, or its items at the catalog's prices and its
 * markup (null: no catalog to price them by). */
type Judgement = { refusal: Refusal | null; priced: ReturnType<typeof catalogPriced> };

/** The intake's checks (./intake.ts) of an order to a bound store, with what they judge it by: a
 * paused store's orders are refused before anything is read; the rest is kept per catalog version
 * and per availability version (catalog/stored.ts, stores/service.ts), none of it read per order. */
async function intakeJudgement(
  services: Services,
  store: StoreForOrder & BoundLocation,
  storeId: string,
  object: Record<string, unknown>,
): Promise<Judgement> {
  const now = Date.now();
  const paused = pauseRefusal(store, storeId, now, store.timezone);
  if (paused) return { refusal: paused, priced: null };
  const offered = offeredVersion(store, store.latestVersionId);
  const [currency, offer, holidays, offSale] = await Promise.all([
    storedCurrency(services.db, store.latestVersionId),
    offered ? storedOffer(services.db, offered.versionId, offered.menus) : null,
    offered ? storedHolidays(services.db, offered.versionId) : new Map(),
    offSaleAt(services, store.id, store.availabilityVersion),
  ]);
  const inCurrency = orderCurrency(object, currency);
  if (inCurrency !== undefined) object.currency = inCurrency;
  const refusal = orderRefusal(object, store.timezone, now, { currency, offer, holidays, offSale });
  return { refusal, priced: refusal ? null : catalogPriced(offer, object.items) };
}

/** The POS's copy of a new order: as sent, or for a POS that takes the markup as a line
 * (providers add --markup-line) its items at the catalog's prices and one more line with the
 * difference, named after the platform. */
async function posCopy(
  services: Services,
  source: string,
  posSource: string,
  object: Record<string, unknown>,
  priced: Judgement['priced'],
) {
  if (!priced?.markup || !(await findProvider(services, posSource))?.markupLine) return object;
  const platform = (await findProvider(services, source))?.name ?? source;
  return withMarkupLine(object, priced.items, priced.markup, platform);
}

/** order.created from a DSP: one order per (DSP, dspOrderId), however often and however
 * concurrently it is sent. Checked before the POS sees it (./intake.ts): an order that fails is
 * stored failed with its reason, not sent, and its DSP is told (location.order.fail). The order
 * made (`unbound` when its store is bound to no location), or the one made before. */
export async function acceptOrder(
  services: Services,
  source: string,
  incoming: Incoming,
): Promise<(OrderRow & { unbound: boolean }) | { duplicateOf: Pick<OrderRow, 'id' | 'status'> }> {
  const { dspOrderId, dspStoreId, object } = incoming;
  const sql = statementsOf(services.db);
  // The store row that holds the DSP's store, else the last one that did (its location was deleted).
  // No look-up for a repeat first: the unique (DSP, dspOrderId) refuses it below, which also
  // covers two copies arriving at the same moment, and a first copy costs one query less.
  const binding = await storeForOrder(sql, source, dspStoreId);
  const unbound = storeRefusal(binding, dspStoreId);
  const location = unbound ? null : (binding as StoreForOrder & BoundLocation);
  const judged = unbound ? { refusal: unbound, priced: null } : await intakeJudgement(services, location!, dspStoreId, object);
  const { refusal } = judged;
  // Checked in clear, stored sealed: the customer under a key of the order's own.
  const sealed = sealCustomer(services.sealer, location?.orgId ?? null, object);
  const now = new Date();
  const row: OrderRow = {
    id: newId('ord'),
    partnerId: location?.partnerId ?? null,
    orgId: location?.orgId ?? null,
    locationId: location?.id ?? null,
    dspSource: source,
    dspStoreId,
    dspOrderId,
    dspOnboardingId: location ? binding!.dspOnboardingId : null,
    fulfillmentType: incoming.fulfillmentType,
    ...incoming.money,
    markup: judged.priced?.markup ?? 0,
    canceledBy: null,
    cancelReason: null,
    cancelDetails: null,
    body: JSON.stringify(sealed.object),
    ...sealed.lookup,
    status: refusal ? 'failed' : NEW,
    deliveryStatus: 'pending',
    posOrderId: null,
    failureReason: refusal?.reason ?? null,
    failureDetails: refusal?.details ?? null,
    driver: null,
    eventProvider: null,
    // A refused order's first event is its fail (sequence 1).
    eventSequence: refusal ? 1 : 0,
    changeSequence: 0,
    estimatedDropoffAt: null,
    // The location's quote as the order arrives; the POS's answer may lengthen it (./kitchen.ts).
    prepTimeMinutes: location ? locationQuote(location, now.getTime()) : null,
    estimatedReadyAt: null,
    decisionDueAt: null,
    redactedAt: null,
    erasureRequestedAt: null,
    endedAt: refusal ? now : null,
    createdAt: now,
    updatedAt: now,
  };
  // The order's writes and its messages in one transaction. The partner's event first: its read
  // of the partner's endpoints comes before every write, which then go to PostgreSQL as one
  // statement (Run.defer).
  const messages = refusal
    ? [toDsp(services, row, 'location.order.fail', failedData(refusal))]
    : [
        carryingCustomer(
          orderToPos(row, await posCopy(services, source, location!.source, sealed.object, judged.priced), {
            source: location!.source,
            onboardingId: location!.onboardingId,
            providerId: location!.providerId,
          }),
          sealed.key,
        ),
      ];
  try {
    await sql.transaction(async (run) => {
      await orderChanged(run, services, row, {
        type: refusal ? undefined : 'order.created',
        messages,
        unheard: !binding?.partnerListens,
        sent: sealed.object,
      });
      run.defer(tables.order.insert(row));
      keepKey(run, row.id, sealed.key);
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // The same order arrived before, or at the same moment through another request: that one won.
    const [winner] = await sql.read<Pick<OrderRow, 'id' | 'status'>>(orderBySource(source, dspOrderId));
    return { duplicateOf: winner! };
  }
  return { ...row, unbound: unbound !== null };
}

/** The moves of the POS's answer to a sent order (./states.ts), worked out once: the status each
 * sets (null: keeps it), whether it applies to the order as read, and the same as its write's
 * condition. Taking the order, or holding it for a decision, applies only where its taking is not
 * recorded already (its POS moved it before this answer was read: changeStatus). A failed order
 * taken now opens again when the service failed it (a refusal, the POS out of reach: the
 * contract's redelivery), never when its POS failed it itself (no reason recorded): its answer,
 * read late, does not undo what the POS said after it. */
const answerMoves = (event: OrderEvent, targets: (OrderStatus | null)[], untaken: boolean) =>
  targets.map((to) => {
    const statuses = statusesWhere(event, to);
    const applies = (order: OrderRow) =>
      statuses.includes(order.status as OrderStatus) && (!untaken || (!taken(order) && !failedByItsPos(order)));
    const where = untaken ? allOf(statusIn(statuses), takenIs(false, OPEN), notFailedByItsPos) : statusIn(statuses);
    return { to, applies, where };
  });
const WHEN_TAKEN = answerMoves({ kind: 'posTook' }, [null, NEW], true);
const WHEN_REFUSED = answerMoves({ kind: 'posRefused' }, ['failed'], false);
const WHEN_DEFERRED = answerMoves({ kind: 'posDefers' }, [AWAITING], true);
/** Where the POS's yes finds its taking recorded already: its answer's columns are kept, no more. */
const ALREADY_TAKEN = takenIs(true, OPEN);

/** A POS's refusal read whole: one that names what it cannot make (`posValidation`, read against
 * the order's lines, ./kitchen.ts) fails the order by what it named. What of it could not be
 * taken is logged. */
export function namedRefusal(
  services: Services,
  orderId: string,
  said: unknown,
  object: Record<string, unknown>,
  fallback: string,
): Refusal {
  const lines = orderLines(object);
  const read = posValidationOf(said, lines);
  if (!read) return { reason: 'pos_rejected', details: fallback };
  if (read.problems.length) services.log.warn({ order: orderId, problems: read.problems }, "the POS's posValidation was read in part");
  return validationRefusal(read.validation, lines, fallback);
}

/** The POS's refusal of order.created, from its answer; one naming items is read against the
 * order's body (a refusal is rare: the read is on its path only). */
async function answerRefusal(services: Services, orderId: string, outcome: Outcome): Promise<Refusal | null> {
  const refusal = posRefusal(outcome);
  const said = (outcome.body as { posValidation?: unknown } | null | undefined)?.posValidation;
  if (refusal?.reason !== 'pos_rejected' || said === undefined) return refusal;
  const [order] = await statementsOf(services.db).read<Pick<OrderRow, 'body'>>(orderOfPos(orderId));
  return namedRefusal(services, orderId, said, order ? (JSON.parse(order.body) as Record<string, unknown>) : {}, refusal.details);
}

/** The minutes a POS's answer quotes, read (./kitchen.ts); one out of range is logged and the
 * order taken all the same. */
export function kitchenSaid(services: Services, orderId: string, order: unknown): KitchenAnswer {
  const answer = kitchenAnswerOf(order);
  if ('ignored' in answer)
    services.log.warn(
      { order: orderId, prepTimeMinutes: answer.ignored },
      `the POS's prep time is not whole minutes from ${PREP_MINUTES.min} to ${PREP_MINUTES.max}: ignored`,
    );
  return answer;
}

/** How an order was taken: the customer's sealed key for the event provider's message, and the
 * record's type (the default, order.updated, for an order the taking moves). */
export type Taking = {
  key: () => Promise<string | null> | string | null;
  type?: 'order.accepted';
};

/** The POS took the order (by its answer, its decision later, or its first move read before
 * either: changeStatus), written by the caller's write that counted the accept as the DSP's next
 * event and set its readiness (./kitchen.ts; `counted`, the order as that write left it). Recorded once,
 * whichever way: its accept to the DSP (with its prep time and ready time), and for a merchant-delivered order its
 * confirmation to the event provider that delivers it (which alone may then report its delivery:
 * reportDelivery, below); with none, its POS delivers it, and the note says why. The order as it
 * is after. */
export async function recordTaking(run: Run, services: Services, counted: OrderRow, taking: Taking): Promise<OrderRow> {
  let order: OrderRow | undefined = counted;
  const sent = JSON.parse(order.body) as Record<string, unknown>;
  const messages = [toDsp(services, counted, 'location.order.accept', accepted(counted, sent))];
  let note: string | undefined;
  if (counted.fulfillmentType === MERCHANT_DELIVERED && !counted.eventProvider && counted.locationId) {
    const [candidates] = await run<DispatchCandidates>(dispatchCandidates(counted.locationId));
    const dispatcher = candidates ? dispatcherOf(candidates) : { none: 'its location is gone' };
    if ('source' in dispatcher) {
      [order] = await run<OrderRow>(
        tables.order.update(counted.id, { eventProvider: dispatcher.source }, { returning: true, increment: ['changeSequence'] }),
      );
      // The customer's key, unless the customer is gone.
      const carried = order!.redactedAt ? null : await taking.key();
      messages.push(carryingCustomer(orderConfirmed(order!, { source: dispatcher.source, locationId: candidates!.locationId }), carried));
    } else note = `Sent to no event provider (${dispatcher.none}): the restaurant delivers it.`;
  }
  await orderChanged(run, services, order!, { type: taking.type, messages, note });
  return order!;
}

/** How the POS answered order.created: its order id, or its refusal; the DSP hears either in the
 * same transaction, and an accepted merchant-delivered order goes on to its event provider. A POS
 * that decides later holds the order awaiting its decision until a stored deadline
 * (./decisions.ts): nobody is told it was accepted. A yes (at once or later) to an order whose
 * taking is recorded already (its POS moved it first, or the answer is a redelivery's) keeps its
 * order id and tells nobody again: the DSP hears one accept. */
const orderSent: OutcomeHandler = async (subject, outcome, services) => {
  const orderId = subject.subjectId!;
  const refusal = await answerRefusal(services, orderId, outcome);
  const kitchen = refusal ? null : kitchenSaid(services, orderId, (outcome.body as { order?: unknown } | undefined)?.order);
  const posOrderId = refusal ? null : posOrderIdOf(outcome.body);
  const later = kitchen?.decidesLater ?? false;
  return async (run) => {
    // The order as its intake wrote it (handed over with a message sent at once) or as read now,
    // the answer's move decided on it (./states.ts: an order canceled meanwhile keeps its status;
    // one refused before and taken now opens again), and every write that follows guarded by that
    // order (Run.expect): on PostgreSQL one statement, after the read when there is one. Another
    // change landing in between undoes them, and the worker asks here again, to read it.
    const [order] = subject.subjectRow ? [subject.subjectRow as OrderRow] : await run<OrderRow>(orderById(orderId));
    if (!order) return;
    const now = new Date();
    // What the answer says, kept whatever it moves: a deferral's deadline too, by which the POS's
    // decision, when it comes, is known for one it said it would make (./decisions.ts).
    const answered = refusal
      ? { failureReason: refusal.reason, failureDetails: refusal.details }
      : later
        ? { posOrderId, decisionDueAt: new Date(now.getTime() + services.config.posConfirmationTimeoutMs) }
        : { posOrderId };
    const move = (refusal ? WHEN_REFUSED : later ? WHEN_DEFERRED : WHEN_TAKEN).find((m) => m.applies(order));
    if (!move) {
      // Its taking recorded already: its answer's columns kept, nobody told anything new.
      if (!refusal) run.defer(tables.order.update(orderId, { ...answered, updatedAt: now }, { and: ALREADY_TAKEN }));
      return;
    }
    const { to } = move;
    const values = {
      ...answered,
      ...(to ? { status: to } : {}),
      ...(to === NEW || to === AWAITING ? { failureReason: null, failureDetails: null, endedAt: null } : ending(to, now)),
      ...(refusal || later ? {} : readiness(order, kitchen!.prepTimeMinutes, now)),
      updatedAt: now,
    };
    // Held for a decision, nothing is told to the DSP: no event is counted.
    run.expect(tables.order.update(orderId, values, { and: allOf(move.where, unchangedSince(order)), ...(later ? {} : COUNTS_AN_EVENT) }));
    const changed: OrderRow = { ...order, ...values, eventSequence: order.eventSequence + (later ? 0 : 1) };
    if (later) return orderChanged(run, services, changed);
    if (refusal)
      return orderChanged(run, services, changed, { messages: [toDsp(services, changed, 'location.order.fail', failedData(refusal))] });
    // The POS taking a new order moves nothing the partner hears of (a refused order taken now
    // does), and is kept in the order's history all the same.
    await recordTaking(run, services, changed, { key: () => keyCarried(subject.headers), type: to ? undefined : 'order.accepted' });
  };
};

/** docs/reference.md's order event is order.created only: a POS hears of an order's changes only
 * when its registration says it takes order.updated. */
const takesChanges = async (services: Services, posSource: string | null | undefined) =>
  Boolean(posSource && (await findProvider(services, posSource))?.orderUpdates);

/** A DSP's cancellation: the order canceled, conditional on the status it was read in (judged
 * again on the fresh row when another change landed first: onFreshRow); its POS told when its
 * registration takes order changes, and its event provider, if it has one. The same cancellation
 * again (the DSP's retry, or a copy that lost the race) changes nothing and is answered as a
 * `duplicate`. An order of another store is not found. */
export function cancelOrder(
  services: Services,
  source: string,
  dspOrderId: string,
  dspStoreId: string,
  cancellation: Cancellation,
): Promise<OrderRow & { duplicate: boolean }> {
  const sql = statementsOf(services.db);
  return onFreshRow(async () => {
    const [order] = await sql.read<OrderRow>(orderBySource(source, dspOrderId));
    if (!order || order.dspStoreId !== dspStoreId) throw new NotFound(`order ${dspOrderId} of store ${dspStoreId} not found`);
    const to = move(order, { kind: 'dspCancel' });
    if (!to) return { ...order, duplicate: true };
    const [location] = order.locationId ? await sql.read<PosLocation>(posLocationOf(order.locationId)) : [];
    const tellPos = location && (await takesChanges(services, location.source));
    const key = tellPos ? await sealedKeyOf(services.db, order.id) : null;
    const dispatch = order.eventProvider && location ? { source: order.eventProvider, locationId: location.providerId } : null;
    const now = new Date();
    return sql.transaction(async (run) => {
      const [changed] = await run<OrderRow>(
        tables.order.update(
          order.id,
          { status: to, ...cancellationColumns(cancellation), updatedAt: now, ...ending(to, now) },
          { and: statusIn([order.status]), returning: true, ...(tellPos || dispatch ? { increment: ['changeSequence'] } : {}) },
        ),
      );
      if (!changed) return STALE;
      const messages = [
        ...(tellPos ? [carryingCustomer(changeToPos(changed, location), key)] : []),
        ...(dispatch ? [changeToEventProvider(changed, dispatch)] : []),
      ];
      await orderChanged(run, services, changed, { messages });
      return { ...changed, duplicate: false };
    });
  });
}

/** A POS's status change, conditional on the status it was read in (judged again on the fresh
 * row when another change landed first: onFreshRow): a move is told to the DSP, and to the
 * order's event provider if it has one, in the same transaction (a status the order has already
 * is no move). A move of an order whose taking is not recorded yet (its POS's answer not read,
 * or a decision later not made: ./states.ts, takesFirst) records its taking first, as its answer
 * would have, in the same transaction: the DSP hears the accept, then the move. Another POS's
 * order is 404. */
export function changeStatus(
  services: Services,
  source: string,
  orderId: string,
  status: OrderStatus,
  cancellation: Cancellation | null = null,
): Promise<void> {
  const sql = statementsOf(services.db);
  return onFreshRow(async () => {
    const [order] = await sql.read<OrderRow & { locationSource: string | null; locationProviderId: string | null }>(orderOfPos(orderId));
    if (!order || order.locationSource !== source) throw new NotFound(`order ${orderId} not found`);
    const to = move(order, { kind: 'posUpdate', status });
    const takes = to !== null && takesFirst(order, to);
    // Read before the transaction: on SQLite nothing else is read while it holds the connection.
    const key = takes && order.fulfillmentType === MERCHANT_DELIVERED ? await sealedKeyOf(services.db, order.id) : null;
    const now = new Date();
    return sql.transaction(async (run) => {
      let from: OrderRow = order;
      if (takes) {
        // Conditional on its taking still not recorded: an answer read meanwhile recorded it.
        const [counted] = await run<OrderRow>(
          tables.order.update(
            order.id,
            { status: NEW, ...readiness(order, null, now), updatedAt: now },
            { and: allOf(statusIn([order.status]), takenIs(false, OPEN)), returning: true, ...COUNTS_AN_EVENT },
          ),
        );
        if (!counted) return STALE;
        from = await recordTaking(run, services, counted, {
          key: () => key,
          type: order.status === NEW ? 'order.accepted' : undefined,
        });
      }
      const dispatch =
        to && from.eventProvider && order.locationProviderId ? { source: from.eventProvider, locationId: order.locationProviderId } : null;
      const [changed] = await run<OrderRow>(
        tables.order.update(
          order.id,
          {
            status,
            deliveryStatus: deliveryOnMove(order, to),
            ...(to && cancellation ? cancellationColumns(cancellation) : {}),
            updatedAt: now,
            ...ending(to, now),
          },
          // After its taking, the row is as that left it (this transaction holds it).
          { and: statusIn([from.status]), returning: true, ...(dispatch ? COUNTS_A_CHANGE : to ? COUNTS_AN_EVENT : {}) },
        ),
      );
      if (!changed) return STALE;
      if (!to) return;
      const told = statusEvent(changed);
      const messages = [toDsp(services, changed, told.type, told.data), ...(dispatch ? [changeToEventProvider(changed, dispatch)] : [])];
      await orderChanged(run, services, changed, { messages });
    });
  });
}

/** What an event provider reports of an order's delivery, read from its webhook (./webhooks.ts):
 * the order, and the location its order.confirmed named; the driver it assigns, or the step of
 * the road it reached, with a driver and when it expects the driver at the customer, when it
 * says. */
export type DeliveryUpdate = {
  orderId: string;
  locationId: string;
  driver: Driver | null;
  deliveryStatus: DeliveryStatus | null;
  estimatedDropoffAt: Date | null;
};

/** An order as an event provider's report is judged against: where it and its delivery are, its
 * driver (as stored), and the location its order.confirmed named. */
export type ReportedOrder = { status: string; deliveryStatus: string; driver: string | null; dispatchLocationId: string | null };

/**
 * The rules of an event provider's report, for the order of that id confirmed to it (undefined:
 * none was): another order, or a location other than the one its order.confirmed named, is 404,
 * as an order that does not exist; then forward only (./states.ts, decideDelivery): what the
 * order has already is null (answered as taken, nothing changes), a step back a 409 (an invalid
 * transition), a final order a 409 (not modifiable). The conformance kit judges a provider's
 * webhooks about its test order by the same rules (src/certify/event-provider.ts).
 */
export function judgeReport(order: ReportedOrder | undefined, provider: string, update: DeliveryUpdate) {
  if (!order || order.dispatchLocationId !== update.locationId)
    throw new NotFound(`no order ${update.orderId} of location ${update.locationId} was confirmed to ${provider}`);
  const driver = update.driver ? driverText(update.driver) : null;
  const verdict = decideDelivery(
    order,
    update.deliveryStatus
      ? { kind: 'deliveryStatus', deliveryStatus: update.deliveryStatus }
      : { kind: 'driverAssigned', driverChanged: driver !== order.driver },
  );
  if ('refused' in verdict) {
    if (verdict.refused === 'notModifiable') throw notModifiable(order.status);
    throw new InvalidTransition(`the delivery cannot go back from ${order.deliveryStatus} to ${update.deliveryStatus}`);
  }
  return 'unchanged' in verdict ? null : { ...verdict, driver };
}

/**
 * A move of the delivery, judged by judgeReport (above). The move, and the order's status with
 * it, is told once, in order, to the DSP, the POS that takes changes, the event provider itself
 * when the order's status moved, the partner and the dashboards. The order as it is after.
 */
export function reportDelivery(services: Services, provider: string, update: DeliveryUpdate): Promise<OrderRow> {
  const sql = statementsOf(services.db);
  type Dispatched = OrderRow & { dispatchLocationId: string | null; posSource: string | null; posOnboardingId: string | null };
  return onFreshRow(async () => {
    const [found] = await sql.read<Dispatched>(dispatchedOrder(update.orderId, provider));
    const verdict = judgeReport(found, provider, update);
    // judgeReport found it: an order not found is its 404.
    const order = found!;
    if (!verdict) return order;
    const { to, driver } = verdict;
    const tellPos = await takesChanges(services, order.posSource);
    const key = tellPos ? await sealedKeyOf(services.db, order.id) : null;
    const locationId = order.dispatchLocationId!;
    const now = new Date();
    return sql.transaction(async (run) => {
      const values = {
        deliveryStatus: verdict.deliveryStatus,
        ...(to ? { status: to } : {}),
        ...(driver ? { driver } : {}),
        ...(update.estimatedDropoffAt ? { estimatedDropoffAt: update.estimatedDropoffAt } : {}),
        updatedAt: now,
        ...ending(to, now),
      };
      const [changed] = await run<OrderRow>(
        tables.order.update(order.id, values, {
          and: allOf(statusIn([order.status]), deliveryStatusIs(order.deliveryStatus)),
          returning: true,
          ...COUNTS_A_CHANGE,
        }),
      );
      if (!changed) return STALE;
      const told = statusEvent(changed);
      const messages = [
        toDsp(services, changed, told.type, told.data),
        ...(tellPos
          ? [
              carryingCustomer(
                changeToPos(changed, { source: order.posSource!, onboardingId: order.posOnboardingId!, providerId: locationId }),
                key,
              ),
            ]
          : []),
        ...(to ? [changeToEventProvider(changed, { source: provider, locationId })] : []),
      ];
      await orderChanged(run, services, changed, { messages });
      return changed;
    });
  });
}

/** How many open orders wait on a provider (as their DSP, POS or event provider): while any
 * does, its registration is not removed. */
export async function ordersWaitingOnProvider(services: Pick<Services, 'db'>, source: string): Promise<number> {
  const [row] = await statementsOf(services.db).read<{ waiting: number | string }>(ordersWaitingOn(source, [...FINAL_STATUSES]));
  return Number(row?.waiting ?? 0);
}

/** The delivery outcomes this module handles (the composition root assembles them). */
export const orderOutcomes: Record<string, OutcomeHandler> = { 'order.created': orderSent };
