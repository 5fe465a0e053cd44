// Every move of the order state machine, allowed and refused (docs/reference.md § Order states),
// and the guides' lists of statuses held to the machine's.
import fs from 'node:fs';
import {
  decide,
  decideDelivery,
  DELIVERY_STATUSES,
  deliveryOnMove,
  DRIVER_ASSIGNED,
  FINAL_STATUSES,
  FULFILLMENT_TYPES,
  MERCHANT_DELIVERED,
  NEW,
  ORDER_STATUSES,
  AWAITING,
  OPEN,
  POS_STATUSES,
  MOVES_SAID,
  STATUSES_SAID,
  statusesWhere,
  taken,
  takesFirst,
  type DeliveryReport,
  type DeliveryVerdict,
  type OrderEvent,
  type OrderStatus,
} from './states.js';

const open = ['in_progress', 'ready_for_pickup', 'out_for_delivery'] as const;
const final = ['completed', 'failed', 'merchant_canceled', 'dsp_canceled'] as const;

/** Where the POS may take an open order with order.updated; every other target is refused. */
const posMayMove: Record<(typeof open)[number], OrderStatus[]> = {
  in_progress: ['ready_for_pickup', 'out_for_delivery', 'completed', 'merchant_canceled', 'failed'],
  ready_for_pickup: ['out_for_delivery', 'completed', 'merchant_canceled', 'failed'],
  out_for_delivery: ['completed', 'merchant_canceled', 'failed'],
};

describe('a POS status update', () => {
  for (const from of open) {
    for (const to of ORDER_STATUSES) {
      const expected = to === from ? { to: null } : posMayMove[from].includes(to) ? { to } : { refused: 'invalidTransition' };
      test(`${from} → ${to}: ${JSON.stringify(expected)}`, () => expect(decide(from, { kind: 'posUpdate', status: to })).toEqual(expected));
    }
  }
  test('never moves an order back', () => {
    expect(decide('ready_for_pickup', { kind: 'posUpdate', status: 'in_progress' })).toEqual({ refused: 'invalidTransition' });
    expect(decide('out_for_delivery', { kind: 'posUpdate', status: 'ready_for_pickup' })).toEqual({ refused: 'invalidTransition' });
  });
  test.each(final)('a %s order is not modifiable, whatever the status sent', (from) => {
    for (const to of ORDER_STATUSES) expect(decide(from, { kind: 'posUpdate', status: to })).toEqual({ refused: 'notModifiable' });
  });
});

describe("the DSP's cancellation", () => {
  test.each(open)('cancels a %s order', (from) => expect(decide(from, { kind: 'dspCancel' })).toEqual({ to: 'dsp_canceled' }));
  test.each(['completed', 'failed', 'merchant_canceled'])('leaves a %s order as it is, refused', (from) =>
    expect(decide(from, { kind: 'dspCancel' })).toEqual({ refused: 'notModifiable' }),
  );
  test('sent again, it applies to the order it canceled, and moves nothing (a retry is no conflict)', () =>
    expect(decide('dsp_canceled', { kind: 'dspCancel' })).toEqual({ to: null }));
});

describe("the POS's answer to the order we sent", () => {
  test.each(open)('taken: a %s order keeps its status', (from) => expect(decide(from, { kind: 'posTook' })).toEqual({ to: null }));
  test('taken on a redelivery after a refusal: the failed order is open again', () =>
    expect(decide('failed', { kind: 'posTook' })).toEqual({ to: 'in_progress' }));
  test.each(['completed', 'merchant_canceled', 'dsp_canceled'])('taken: a %s order keeps its status', (from) =>
    expect(decide(from, { kind: 'posTook' })).toEqual({ refused: 'notModifiable' }),
  );
  test.each(open)('refused: a %s order fails', (from) => expect(decide(from, { kind: 'posRefused' })).toEqual({ to: 'failed' }));
  test.each(final)('refused: a %s order keeps its status (a cancellation that came first wins)', (from) =>
    expect(decide(from, { kind: 'posRefused' })).toEqual({ refused: 'notModifiable' }),
  );
});

test('statusesWhere gives exactly the statuses decide lets an event move from', () => {
  const events: OrderEvent[] = [
    { kind: 'posTook' },
    { kind: 'posRefused' },
    { kind: 'dspCancel' },
    { kind: 'posUpdate', status: 'completed' },
  ];
  expect(statusesWhere({ kind: 'posTook' }, null)).toEqual([...open]);
  expect(statusesWhere({ kind: 'posTook' }, 'in_progress')).toEqual(['failed']);
  expect(statusesWhere({ kind: 'posRefused' }, 'failed')).toEqual([...open]);
  for (const event of events) {
    for (const status of ORDER_STATUSES) {
      const verdict = decide(status, event);
      if ('to' in verdict) expect(statusesWhere(event, verdict.to)).toContain(status);
    }
  }
});

test('a decision later: held from an open order, decided only while held, overdue only then', () => {
  const cases: [string, OrderEvent, ReturnType<typeof decide>][] = [
    ['in_progress', { kind: 'posDefers' }, { to: AWAITING }],
    ['failed', { kind: 'posDefers' }, { to: AWAITING }],
    ['completed', { kind: 'posDefers' }, { refused: 'notModifiable' }],
    [AWAITING, { kind: 'posDecides', accepted: true }, { to: 'in_progress' }],
    [AWAITING, { kind: 'posDecides', accepted: false }, { to: 'failed' }],
    [AWAITING, { kind: 'decisionOverdue' }, { to: 'failed' }],
    ['in_progress', { kind: 'posDecides', accepted: true }, { refused: 'invalidTransition' }],
    ['failed', { kind: 'posDecides', accepted: false }, { refused: 'notModifiable' }],
    ['dsp_canceled', { kind: 'decisionOverdue' }, { refused: 'notModifiable' }],
    [AWAITING, { kind: 'posTook' }, { refused: 'invalidTransition' }],
    [AWAITING, { kind: 'posRefused' }, { refused: 'invalidTransition' }],
    [AWAITING, { kind: 'dspCancel' }, { to: 'dsp_canceled' }],
    // Moved on by its POS: decided, taken (takesFirst, below); cancelled, it is refused (order.rejected).
    [AWAITING, { kind: 'posUpdate', status: 'ready_for_pickup' }, { to: 'ready_for_pickup' }],
    [AWAITING, { kind: 'posUpdate', status: 'out_for_delivery' }, { to: 'out_for_delivery' }],
    [AWAITING, { kind: 'posUpdate', status: 'completed' }, { to: 'completed' }],
    [AWAITING, { kind: 'posUpdate', status: 'merchant_canceled' }, { refused: 'invalidTransition' }],
    [AWAITING, { kind: 'posUpdate', status: 'failed' }, { to: 'failed' }],
  ];
  for (const [status, event, verdict] of cases) expect([status, event, decide(status, event)]).toEqual([status, event, verdict]);
});

test("a POS's move records its taking first where its answer is not read yet, or its decision later not made", () => {
  const cases: [string, number, OrderStatus, boolean][] = [
    // Its answer not read: its DSP heard nothing of the order.
    ['in_progress', 0, 'ready_for_pickup', true],
    ['in_progress', 0, 'completed', true],
    ['in_progress', 0, 'merchant_canceled', true],
    ['in_progress', 0, 'failed', true],
    // Taken: its accept was the first thing its DSP heard.
    ['in_progress', 1, 'ready_for_pickup', false],
    ['in_progress', 2, 'completed', false],
    ['ready_for_pickup', 2, 'completed', false],
    // Moved on already: its taking is not recorded again, whatever its DSP was told.
    ['ready_for_pickup', 0, 'completed', false],
    ['out_for_delivery', 0, 'completed', false],
    // Held for its decision (a refused order sent again and held has been told its fail).
    [AWAITING, 0, 'ready_for_pickup', true],
    [AWAITING, 1, 'out_for_delivery', true],
    [AWAITING, 0, 'failed', false],
  ];
  for (const [status, eventSequence, to, takes] of cases)
    expect([status, eventSequence, to, takesFirst({ status, eventSequence }, to)]).toEqual([status, eventSequence, to, takes]);
  expect(OPEN.filter((status) => taken({ status, eventSequence: 1 }))).toEqual([...open]);
  expect(ORDER_STATUSES.filter((status) => taken({ status, eventSequence: 0 }))).toEqual([]);
  expect(ORDER_STATUSES.filter((status) => taken({ status, eventSequence: 3 }))).toEqual([...open]);
});

test('an unknown status is treated as open by nothing: it cannot be moved by a POS update', () => {
  expect(decide('archived', { kind: 'posUpdate', status: 'completed' })).toEqual({ refused: 'invalidTransition' });
});

describe('the named states, as docs/reference.md § Order states has them', () => {
  test('a new order is in progress: open, and its POS may move it on', () => {
    expect(NEW).toBe('in_progress');
    expect(FINAL_STATUSES.has(NEW)).toBe(false);
    expect(decide(NEW, { kind: 'posUpdate', status: 'ready_for_pickup' })).toEqual({ to: 'ready_for_pickup' });
  });
  test('the final statuses are exactly those nothing changes (the DSP’s cancellation again changes nothing either)', () => {
    expect([...FINAL_STATUSES].sort()).toEqual([...final].sort());
    for (const status of ORDER_STATUSES)
      expect(decide(status, { kind: 'dspCancel' })).toEqual(
        status === 'dsp_canceled' ? { to: null } : FINAL_STATUSES.has(status) ? { refused: 'notModifiable' } : { to: 'dsp_canceled' },
      );
  });
  test('a delivery with a driver assigned is on its way to the pickup', () => {
    expect(DRIVER_ASSIGNED).toBe('enroute_to_pickup');
    expect(DELIVERY_STATUSES.indexOf(DRIVER_ASSIGNED)).toBe(DELIVERY_STATUSES.indexOf('pending_driver_confirmation') + 1);
  });
  test('an order the merchant delivers is of the fulfillment merchant_managed_delivery', () => {
    expect(MERCHANT_DELIVERED).toBe('merchant_managed_delivery');
    expect(FULFILLMENT_TYPES).toContain(MERCHANT_DELIVERED);
  });
});

describe("the event provider's report of the delivery", () => {
  const step = (deliveryStatus: (typeof DELIVERY_STATUSES)[number]): DeliveryReport => ({ kind: 'deliveryStatus', deliveryStatus });
  const driver = (driverChanged: boolean): DeliveryReport => ({ kind: 'driverAssigned', driverChanged });
  const cases: [string, { status: string; deliveryStatus: string }, DeliveryReport, DeliveryVerdict][] = [
    [
      'a driver: on the way to pick up',
      { status: 'in_progress', deliveryStatus: 'pending' },
      driver(true),
      { deliveryStatus: 'enroute_to_pickup', to: null },
    ],
    [
      'a driver while one is being confirmed',
      { status: 'ready_for_pickup', deliveryStatus: 'pending_driver_confirmation' },
      driver(true),
      { deliveryStatus: 'enroute_to_pickup', to: null },
    ],
    [
      'another driver further along: the delivery stays where it is',
      { status: 'out_for_delivery', deliveryStatus: 'arrived_at_dropoff' },
      driver(true),
      { deliveryStatus: 'arrived_at_dropoff', to: null },
    ],
    ['the same driver again: nothing', { status: 'in_progress', deliveryStatus: 'enroute_to_pickup' }, driver(false), { unchanged: true }],
    [
      'the driver it was offered, now assigned: on the way',
      { status: 'in_progress', deliveryStatus: 'pending_driver_confirmation' },
      driver(false),
      { deliveryStatus: 'enroute_to_pickup', to: null },
    ],
    ['a driver for a final order', { status: 'completed', deliveryStatus: 'delivered' }, driver(true), { refused: 'notModifiable' }],
    [
      'its driver again, the order final',
      { status: 'dsp_canceled', deliveryStatus: 'enroute_to_pickup' },
      driver(false),
      { unchanged: true },
    ],
    [
      'delivered again, the order completed: nothing',
      { status: 'completed', deliveryStatus: 'delivered' },
      step('delivered'),
      { unchanged: true },
    ],
    [
      'its step again, the order canceled: nothing',
      { status: 'merchant_canceled', deliveryStatus: 'arrived_at_pickup' },
      step('arrived_at_pickup'),
      { unchanged: true },
    ],
    [
      'arrived at the restaurant',
      { status: 'in_progress', deliveryStatus: 'enroute_to_pickup' },
      step('arrived_at_pickup'),
      { deliveryStatus: 'arrived_at_pickup', to: null },
    ],
    [
      'on the way to the customer: out for delivery',
      { status: 'ready_for_pickup', deliveryStatus: 'arrived_at_pickup' },
      step('enroute_to_dropoff'),
      { deliveryStatus: 'enroute_to_dropoff', to: 'out_for_delivery' },
    ],
    [
      'a step skipped is still forward, and the order goes out with it',
      { status: 'in_progress', deliveryStatus: 'enroute_to_pickup' },
      step('arrived_at_dropoff'),
      { deliveryStatus: 'arrived_at_dropoff', to: 'out_for_delivery' },
    ],
    [
      'at the door of an order already out: its status stays',
      { status: 'out_for_delivery', deliveryStatus: 'enroute_to_dropoff' },
      step('arrived_at_dropoff'),
      { deliveryStatus: 'arrived_at_dropoff', to: null },
    ],
    [
      'delivered: completed',
      { status: 'out_for_delivery', deliveryStatus: 'arrived_at_dropoff' },
      step('delivered'),
      { deliveryStatus: 'delivered', to: 'completed' },
    ],
    [
      'the step it has: nothing',
      { status: 'in_progress', deliveryStatus: 'arrived_at_pickup' },
      step('arrived_at_pickup'),
      { unchanged: true },
    ],
    [
      'a step back',
      { status: 'out_for_delivery', deliveryStatus: 'enroute_to_dropoff' },
      step('arrived_at_pickup'),
      { refused: 'invalidTransition' },
    ],
    ['back to pending', { status: 'in_progress', deliveryStatus: 'enroute_to_pickup' }, step('pending'), { refused: 'invalidTransition' }],
  ];
  test.each(cases)('%s', (_case, order, report, expected) => expect(decideDelivery(order, report)).toEqual(expected));

  test.each(final)('a %s order takes no step but the one it has', (status) => {
    for (const deliveryStatus of DELIVERY_STATUSES)
      expect(decideDelivery({ status, deliveryStatus: 'enroute_to_pickup' }, step(deliveryStatus))).toEqual(
        deliveryStatus === 'enroute_to_pickup' ? { unchanged: true } : { refused: 'notModifiable' },
      );
  });
});

describe('the delivery status a move leaves', () => {
  test('a merchant-delivered order completed (by its POS) is delivered', () =>
    expect(deliveryOnMove({ fulfillmentType: 'merchant_managed_delivery', deliveryStatus: 'enroute_to_pickup' }, 'completed')).toBe(
      'delivered',
    ));
  test('any other move keeps it', () => {
    expect(deliveryOnMove({ fulfillmentType: 'merchant_managed_delivery', deliveryStatus: 'enroute_to_pickup' }, 'merchant_canceled')).toBe(
      'enroute_to_pickup',
    );
    expect(deliveryOnMove({ fulfillmentType: 'pickup', deliveryStatus: 'pending' }, 'completed')).toBe('pending');
    expect(deliveryOnMove({ fulfillmentType: 'delivery', deliveryStatus: 'pending' }, 'completed')).toBe('pending');
  });
});

test('the descriptions that list the statuses say each one, in the order an order meets them', () => {
  expect(STATUSES_SAID).toBe(
    'in_progress, ready_for_pickup, out_for_delivery, completed; awaiting_confirmation (its POS decides later); or failed, merchant_canceled, dsp_canceled',
  );
  expect(MOVES_SAID).toBe('ready_for_pickup, out_for_delivery, completed');
});

describe('the guides list the statuses the machine has', () => {
  /** The words in backticks of the first passage of a guide after `start`, up to `end`. */
  const named = (guide: string, start: string, end: string) => {
    const text = fs.readFileSync(`docs/${guide}`, 'utf8');
    const from = text.indexOf(start);
    expect(from).toBeGreaterThanOrEqual(0);
    const passage = text.slice(from + start.length, text.indexOf(end, from + start.length));
    return [...passage.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]!);
  };
  test('reference.md: every status, the final ones, every delivery status in order, every fulfillment', () => {
    expect(named('reference.md', '`status`:', 'Final:').sort()).toEqual([...ORDER_STATUSES].sort());
    expect(named('reference.md', 'Final:', ';').sort()).toEqual([...FINAL_STATUSES].sort());
    expect(named('reference.md', '`delivery_status`:', '`fulfillment_type`')).toEqual([...DELIVERY_STATUSES]);
    expect(named('reference.md', '`fulfillment_type`:', '. ')).toEqual([...FULFILLMENT_TYPES]);
  });
  test("what a POS may send, in the POS's guide and in the sandbox's controls", () => {
    const order = (list: readonly string[]) => [...list].sort();
    expect(
      order(
        named('pos-vendors.md', '| `order.updated` | `{order_id, status, cancel_reason?, cancel_details?}` |', '(forward only').slice(3),
      ),
    ).toEqual(order(POS_STATUSES));
    expect(order(named('api-guide.md', '`POST /v1/_sandbox/order-status`', '|\n').slice(1))).toEqual(order(POS_STATUSES));
  });
  test('what an event provider hears, in its guide', () =>
    expect(named('event-providers.md', "each move of the order's `status`", 'A canceled').sort()).toEqual(
      // An order is confirmed to its event provider once taken: it never hears of the wait before.
      ORDER_STATUSES.filter((status) => status !== NEW && status !== AWAITING).sort(),
    ));
});
