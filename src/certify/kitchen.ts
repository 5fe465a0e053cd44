// The kit's checks of the kitchen's answer (docs/pos-vendors.md, "A decision later" and "A refusal
// that names items"): a POS that answers the test order `async_acceptance: true` must send its
// signed order.accepted or order.rejected, after its answer and within the service's deadline, to
// the kit's listener, which answers it as the service would (./decisions.ts's rules, here for the
// one test order); and every posValidation the POS gives in the run (a 4xx to the order, an
// order.rejected) must be in Stream's shape, read as the service reads it (../modules/orders/kitchen.ts).
import { POS_CONFIRMATION_DEFAULT_MS } from '../config.js';
import { Invalid, InvalidTransition, NotFound } from '../common/errors.js';
import { requiredText } from '../common/input.js';
import type { ProviderResponse } from '../integrations/provider-client.js';
import {
  kitchenAnswerOf,
  MOST_VALIDATION_ENTRIES,
  orderLines,
  PREP_MINUTES,
  posValidationOf,
  readyAt,
  validationRefusal,
} from '../modules/orders/kitchen.js';
import { ok2xx, type Answer, type Arrival, type CheckRun, type KitOptions } from './kit.js';
import { excerpt, signing, told, webhookType, WITHOUT_WAIT } from './webhooks.js';

/** The POS's decisions on an order it answered later. */
export const DECISIONS = ['order.accepted', 'order.rejected'] as const;
const isDecision = (arrival: Arrival) => DECISIONS.includes(webhookType(arrival) as never);

const LISTS = ['stockValidation', 'orderTotalsValidation', 'orderValidation', 'unknownValidation'];
const SHAPE =
  'posValidation is {stockValidation: [{type: "item" | "modifier", provider_id (the service_id of a line of the order), quantity (how many you have)}], orderTotalsValidation: [{posTotal, streamTotal}] (minor units), orderValidation: [{order_error, order_error_reason}]}, each list an array of at most ' +
  `${MOST_VALIDATION_ENTRIES} entries, naming at least one thing`;

/** The entries of a list that `wrong` says are not what the service reads, said once for the list. */
function wrongEntries(list: unknown[], name: string, wrong: (entry: Record<string, unknown>) => boolean, rule: string): string[] {
  const at = list.flatMap((entry, index) => (wrong((entry ?? {}) as Record<string, unknown>) ? [index] : []));
  if (!at.length) return [];
  const shown = at.slice(0, 5).join(', ');
  return [`posValidation.${name}[${shown}]${at.length > 5 ? ` (and ${at.length - 5} more)` : ''} ${rule}`];
}

/**
 * What is wrong with a posValidation, for the order of these lines, in words a vendor can act on:
 * what the service refuses of it (../modules/orders/kitchen.ts) and what it passes over without a
 * word (a list that is not an array, totals that are not numbers, an order error without its
 * reason, a quantity that is not whole, lists under names it does not read). Empty: in shape.
 */
export function posValidationProblems(value: unknown, lines: ReadonlyMap<string, string>): string[] {
  const read = posValidationOf(value, lines);
  if (!read) return [];
  if (typeof value !== 'object' || Array.isArray(value)) return read.problems;
  const v = value as Record<string, unknown>;
  const notArrays = LISTS.filter((name) => v[name] !== undefined && !Array.isArray(v[name])).map(
    (name) => `posValidation.${name} must be an array`,
  );
  const list = (name: string) => (Array.isArray(v[name]) ? (v[name] as unknown[]).slice(0, MOST_VALIDATION_ENTRIES) : []);
  const problems = [
    ...read.problems,
    ...notArrays,
    ...wrongEntries(
      list('stockValidation'),
      'stockValidation',
      (e) => e.quantity !== undefined && !Number.isInteger(e.quantity),
      'quantity must be a whole number (how many you have; 0: none)',
    ),
    ...wrongEntries(
      list('orderTotalsValidation'),
      'orderTotalsValidation',
      (e) => typeof e.posTotal !== 'number' || typeof e.streamTotal !== 'number',
      'needs posTotal and streamTotal, numbers in minor units: the service passes it over',
    ),
    ...['orderValidation', 'unknownValidation'].flatMap((name) =>
      wrongEntries(
        list(name),
        name,
        (e) => typeof e.order_error_reason !== 'string' && typeof e.order_error !== 'string',
        'needs order_error_reason (a sentence) or order_error: the service passes it over',
      ),
    ),
  ];
  const { stock, totals, order } = read.validation;
  if (!problems.length && !stock.length && !totals.length && !order.length) {
    const unread = Object.keys(v).filter((key) => !LISTS.includes(key));
    problems.push(
      `posValidation names nothing the service reads${unread.length ? ` (it has ${unread.slice(0, 5).join(', ')}, which the service does not read)` : ''}: give stockValidation, orderTotalsValidation or orderValidation`,
    );
  }
  return problems;
}

/** The test order as the kit sent it, and the POS's first answer to it once it came. */
type TestOrder = { object: Record<string, unknown> & { id: string }; answer?: ProviderResponse; answeredAt?: number };

/**
 * The kitchen's checks on the kit's test order: `sent` and `answered` follow it; `answer` answers
 * the POS's decisions at the listener as the service would; `check` judges them
 * (`orders.async_acceptance`) and every posValidation given (`orders.pos_validation_shape`).
 */
export function kitchenChecks(options: KitOptions) {
  const { listener, provider, say } = options;
  let order: TestOrder | undefined;
  let decided: (typeof DECISIONS)[number] | undefined;
  /** Decisions that came before the POS's answer to the order (answered 409, as the service would). */
  const early = new WeakSet<Arrival>();
  /** Decisions refused 400 for their posValidation alone: orders.pos_validation_shape's to judge. */
  const shapeOnly = new WeakSet<Arrival>();
  const waitMs = Math.min((options.waitWebhookSeconds ?? 0) * 1000, POS_CONFIRMATION_DEFAULT_MS);

  /** A decision, answered as the service answers it (./webhooks.ts's answeringAsTheService calls it). */
  const answer = (type: string, object: Record<string, unknown>, arrival: Arrival): Answer => {
    const orderId = requiredText(object.order_id, 'object.order_id');
    if (!order || orderId !== order.object.id) throw new NotFound(`order ${orderId} not found`);
    if (!order.answer) {
      early.add(arrival);
      throw new InvalidTransition(`order ${orderId} awaits no decision of its POS: your answer to its order.created has not come back yet`);
    }
    const later = ok2xx(order.answer) && kitchenAnswerOf((order.answer.body as { order?: unknown } | null)?.order).decidesLater;
    if (!later) throw new InvalidTransition(`order ${orderId} was answered at once and awaits no decision of its POS`);
    if (decided) {
      if (decided === type) return { status: 200, body: { order_id: orderId, duplicate: true } };
      throw new InvalidTransition(`order ${orderId} was decided with ${decided} and awaits no decision of its POS`);
    }
    const due = order.answeredAt! + POS_CONFIRMATION_DEFAULT_MS;
    if (arrival.at > due)
      throw new InvalidTransition(`order ${orderId}'s decision was due by ${new Date(due).toISOString()}: it fails confirmation_timeout`);
    const lines = orderLines(order.object);
    if (type === 'order.accepted') {
      decided = 'order.accepted';
      const prep = kitchenAnswerOf(object).prepTimeMinutes;
      const ready = readyAt(arrival.at, prep);
      return {
        status: 200,
        body: { order_id: orderId, status: 'new', ...(ready ? { prep_time_minutes: prep, estimated_ready_time: ready.getTime() } : {}) },
      };
    }
    const read = posValidationOf(object.posValidation, lines);
    if (read?.problems.length) {
      shapeOnly.add(arrival);
      throw new Invalid(read.problems.join('; '));
    }
    decided = 'order.rejected';
    const reason = typeof object.reason === 'string' && object.reason.trim() ? object.reason.trim() : 'no reason given';
    const refusal = read ? validationRefusal(read.validation, lines, reason) : { reason: 'pos_rejected' };
    return { status: 200, body: { order_id: orderId, status: 'failed', failure_reason: refusal.reason } };
  };

  const check: [string[], CheckRun] = [
    ['orders.async_acceptance', 'orders.pos_validation_shape'],
    async (record, skip) => {
      if (!order?.answer) throw new Error('the test order was not sent: orders.accepts_order_created could not finish');
      const { object, answer: first } = order;
      const secret = provider.webhookSecret ?? '';
      const later = ok2xx(first) && kitchenAnswerOf((first.body as { order?: unknown } | null)?.order).decidesLater;
      /** The posValidations the POS gave in the run, each with where. */
      const given: [string, unknown][] = [];
      const refusedWith = (first.body as { posValidation?: unknown } | null)?.posValidation;
      if (!ok2xx(first) && refusedWith !== undefined) given.push([`your ${first.status} to order.created ${object.id}`, refusedWith]);
      let decision: Arrival | null = null;
      if (!later)
        skip(
          'orders.async_acceptance',
          `your POS answered the test order ${object.id} ${ok2xx(first) ? 'at once (its 2xx has no order.async_acceptance: true)' : `with ${first.status}`}: a decision later is not checked`,
        );
      else if (options.waitWebhookSeconds === undefined || !secret)
        skip(
          'orders.async_acceptance',
          `your POS answered the test order ${object.id} with async_acceptance: true; its decision is ${WITHOUT_WAIT}`,
        );
      else {
        const seconds = waitMs / 1000;
        say(
          `Your POS answered the test order ${object.id} with async_acceptance: true: send its signed order.accepted or order.rejected to ${listener.url}/v1/webhooks/pos/{source}, or any path under ${listener.url}; the kit waits ${seconds} s from your answer (the service ${POS_CONFIRMATION_DEFAULT_MS / 1000} s)`,
        );
        decision = await listener.webhook((a) => isDecision(a) && !early.has(a), order.answeredAt! + waitMs - Date.now());
        const before = listener.webhooks().filter((a) => early.has(a)).length;
        const earlyNote = before
          ? `; ${before} decision(s) came before your answer to order.created had come back and were answered 409, as the service would: send it after your 2xx (or send it again on that 409)`
          : '';
        const rule = `Rule: a POS that answers async_acceptance: true sends, signed as every webhook, order.accepted {order_id, prep_time_minutes?} or order.rejected {order_id, reason, posValidation?} to {service}/v1/webhooks/pos/{source}, order_id being the id of the order.created's object (${object.id}), after its 2xx and within POS_CONFIRMATION_TIMEOUT_MS (${POS_CONFIRMATION_DEFAULT_MS / 1000} s; without it the order fails confirmation_timeout)`;
        const prep = decision && webhookType(decision) === 'order.accepted' ? acceptedPrep(decision) : '';
        record(
          'orders.async_acceptance',
          decision !== null && signing(decision, secret).ok && (ok2xx(decision.answer!) || shapeOnly.has(decision)),
          decision
            ? `${told(decision, secret)}${prep}${earlyNote}. ${rule}`
            : `no order.accepted or order.rejected for order ${object.id} came within ${seconds} s of your async_acceptance answer${earlyNote}. ${rule}`,
        );
      }
      for (const arrival of listener.webhooks().filter((a) => webhookType(a) === 'order.rejected')) {
        const said = (JSON.parse(arrival.body.toString('utf8')) as { object?: { posValidation?: unknown } }).object?.posValidation;
        if (said !== undefined) given.push([`your order.rejected for ${object.id}`, said]);
      }
      if (!given.length)
        return skip(
          'orders.pos_validation_shape',
          `your POS refused nothing with a posValidation in this run (${refusalNone(first, later, decision)}): its shape is not checked`,
        );
      const lines = orderLines(object);
      const judged = given.map(([where, value]) => [where, value, posValidationProblems(value, lines)] as const);
      record(
        'orders.pos_validation_shape',
        judged.every(([, , problems]) => problems.length === 0),
        `${judged
          .map(
            ([where, value, problems]) =>
              `${where}: posValidation ${excerpt(Buffer.from(JSON.stringify(value)), 200)} → ${problems.length ? problems.slice(0, 5).join(' | ') : "in Stream's shape"}`,
          )
          .join('; ')}. Rule: ${SHAPE}`,
      );
    },
  ];

  return {
    /** The kit sent its test order. */
    sent: (object: TestOrder['object']) => {
      order = { object };
    },
    /** The POS's first answer to it came. */
    answered: (response: ProviderResponse) => {
      if (order) Object.assign(order, { answer: response, answeredAt: Date.now() });
    },
    answer,
    check,
  };
}

/** Why no posValidation came, in words. */
function refusalNone(first: ProviderResponse, later: boolean, decision: Arrival | null): string {
  if (decision) return `it sent ${webhookType(decision)} without one`;
  if (later) return 'no decision of it came to judge';
  return ok2xx(first) ? 'it took the test order' : `its ${first.status} to the test order has none`;
}

/** An order.accepted's prep_time_minutes out of range, said (the service ignores it and logs it). */
function acceptedPrep(arrival: Arrival): string {
  const object = (JSON.parse(arrival.body.toString('utf8')) as { object?: Record<string, unknown> }).object;
  const answer = kitchenAnswerOf(object);
  return 'ignored' in answer
    ? `; its prep_time_minutes ${JSON.stringify(answer.ignored)} is not whole minutes from ${PREP_MINUTES.min} to ${PREP_MINUTES.max}: the service ignores it`
    : '';
}
