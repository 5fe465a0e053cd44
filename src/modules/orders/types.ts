// GraphQL for orders: order, orders (filters, cursor pagination), the live orderUpdated, and
// their counts (orderStats).
import { pageSize } from '../../common/pages.js';
import { filter, pipe } from 'graphql-yoga';
import { builder } from '../../graphql/builder.js';
import { Invalid } from '../../common/errors.js';
import { epochMs } from '../../common/input.js';
import { reachable, reachableRows, seesCustomer } from '../access/index.js';
import type { Context } from '../../graphql/context.js';
import { findOrganization } from '../organizations/service.js';
import { orderEventData, orderObject } from './peers.js';
import { storedDriver, type Driver as DriverShape, type Phone, type VehicleInfo as VehicleShape } from './driver.js';
import { ORDER_STATUSES, STATUSES_SAID } from './states.js';
import type { OrderSnapshot } from '../../common/pubsub.js';
import type { Order as OrderRow, OrderModel, OrderMoneyColumn } from '../../db/client.js';
import { CANCELED_BY, cancellationOf, DSP_CANCEL_REASONS, MERCHANT_CANCEL_REASONS } from './cancellation.js';
import { statementsOf } from '../../db/statements.js';
import { recordsOf } from '../../db/sql/events.js';
import { Money, moneyOf } from '../../graphql/money.js';
import { loaderOf } from '../../graphql/request-scope.js';
import { customerKeysOf } from '../../db/sql/privacy.js';
import { isSealed, openCustomer } from '../privacy/customer.js';
import { ORDER_AMOUNTS, type OrderAmount } from './wire.js';

const OrderStatus = builder.enumType('OrderStatus', { values: ORDER_STATUSES });

// An order's body is parsed once per row, however many of its fields a query asks for.
const sentBodies = new WeakMap<object, Record<string, unknown>>();
const sentOf = (order: Pick<OrderRow, 'body'>): Record<string, unknown> => {
  let sent = sentBodies.get(order);
  if (!sent) {
    const body: unknown = JSON.parse(order.body);
    sent = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    sentBodies.set(order, sent);
  }
  return sent;
};

/** The keys of a page's orders that have a sealed customer, read at once. */
async function sealedKeys(ctx: Context, ids: readonly string[]): Promise<(string | null)[]> {
  const found = await statementsOf(ctx.db).read<{ orderId: string; sealedKey: string }>(customerKeysOf(ids));
  const byOrder = new Map(found.map((key) => [key.orderId, key.sealedKey]));
  return ids.map((id) => byOrder.get(id) ?? null);
}

// The order's body with its customer opened by the order's key (privacy/customer.ts), once per
// row, for the fields that show the customer (the amounts read the body as stored). Once the key
// is gone (erased, expired), the customer is "redacted".
const openedBodies = new WeakMap<object, Promise<Record<string, unknown>>>();
const openedOf = (ctx: Context, order: Pick<OrderRow, 'id' | 'body'>): Promise<Record<string, unknown>> => {
  let opened = openedBodies.get(order);
  if (!opened) {
    const sent = sentOf(order);
    opened = isSealed(sent)
      ? loaderOf(ctx, sealedKeys)
          .load(order.id)
          .then((key) => openCustomer(ctx.services.sealer, sent, key) as Record<string, unknown>)
      : Promise.resolve(sent);
    openedBodies.set(order, opened);
  }
  return opened;
};

/** A line of the cart (an item, or a modifier of one) as the order carries it, in its order's currency. */
type LineShape = { line: Record<string, unknown>; currency: unknown };
const linesOf = (list: unknown, currency: unknown): LineShape[] =>
  Array.isArray(list)
    ? list.filter((line) => typeof line === 'object' && line !== null && !Array.isArray(line)).map((line) => ({ line, currency }))
    : [];
const textOf = (value: unknown) => (typeof value === 'string' ? value : null);
const OrderLine = builder.objectRef<LineShape>('OrderLine');
OrderLine.implement({
  description: 'An item of the order, or a modifier of one, as the DSP sent it.',
  fields: (t) => ({
    serviceId: t.string({ nullable: true, description: 'The catalog provider_id.', resolve: ({ line }) => textOf(line.service_id) }),
    name: t.string({ nullable: true, resolve: ({ line }) => textOf(line.name) }),
    quantity: t.int({
      nullable: true,
      resolve: ({ line }) =>
        Number.isInteger(line.quantity) && Math.abs(line.quantity as number) < 2 ** 31 ? (line.quantity as number) : null,
    }),
    price: t.field({ type: Money, nullable: true, description: 'Of one.', resolve: ({ line, currency }) => moneyOf(line.price, currency) }),
    specialInstructions: t.string({ nullable: true, resolve: ({ line }) => textOf(line.special_instructions) }),
    modifiers: t.field({ type: [OrderLine], resolve: ({ line, currency }) => linesOf(line.modifiers, currency) }),
  }),
});

/** The GraphQL name of each of the order's amounts. */
const AMOUNT_FIELDS: Record<OrderAmount, string> = {
  subtotal: 'subtotal',
  tax: 'tax',
  tax_withheld_by_dsp: 'taxWithheldByDsp',
  driver_tip: 'driverTip',
  restaurant_tip: 'restaurantTip',
  delivery_fee: 'deliveryFee',
  delivery_fee_tax: 'deliveryFeeTax',
  total: 'total',
  cash_amount_due: 'cashAmountDue',
};

/** The order's money whole (docs/api-guide.md, "Orders"): its columns' figures and its discounts. */
type AmountsShape = { order: Pick<OrderModel, 'body' | OrderMoneyColumn> };
const OrderDiscount = builder.objectRef<{ discount: Record<string, unknown>; currency: unknown }>('OrderDiscount').implement({
  description: 'A discount: its amount comes off the total (never off prices or the subtotal); who funds it, and the merchant’s part.',
  fields: (t) => ({
    name: t.string({ nullable: true, resolve: ({ discount }) => textOf(discount.name) }),
    amount: t.field({ type: Money, nullable: true, resolve: ({ discount, currency }) => moneyOf(discount.amount, currency) }),
    scope: t.string({ nullable: true, description: 'order, or item.', resolve: ({ discount }) => textOf(discount.scope) }),
    serviceId: t.string({
      nullable: true,
      description: 'Scope item: the item it is for.',
      resolve: ({ discount }) => textOf(discount.service_id),
    }),
    fundedBy: t.string({ nullable: true, description: 'dsp, merchant or shared.', resolve: ({ discount }) => textOf(discount.funded_by) }),
    merchantAmount: t.field({
      type: Money,
      nullable: true,
      description: 'What the merchant pays of it.',
      resolve: ({ discount, currency }) => moneyOf(discount.merchant_amount, currency),
    }),
  }),
});
/** The GraphQL name and the column of each figure of `amounts`, with what it is. */
const FIGURES: [string, OrderMoneyColumn, string][] = [
  ['subtotal', 'subtotal', 'What the items come to (discounts are not taken off it).'],
  ['tax', 'tax', 'Taxes not included in the prices.'],
  ['taxWithheldByDsp', 'taxWithheldByDsp', 'Tax the customer paid that the platform remits itself.'],
  ['deliveryFee', 'deliveryFee', 'The delivery fee.'],
  ['deliveryFeeTax', 'deliveryFeeTax', 'The tax on the delivery fee.'],
  ['restaurantTip', 'restaurantTip', 'The customer’s tip to the store.'],
  ['driverTip', 'driverTip', 'The customer’s tip to the driver.'],
  ['discountsByMerchant', 'discountMerchant', 'What the merchant pays of the discounts.'],
  ['discountsByPlatform', 'discountDsp', 'What the platform pays of the discounts.'],
  ['markup', 'markup', 'What the platform priced the items above the catalog, prices times quantities.'],
  ['total', 'total', 'subtotal + tax + taxWithheldByDsp + deliveryFee + deliveryFeeTax + restaurantTip + driverTip − discounts.'],
];
const OrderAmounts = builder.objectRef<AmountsShape>('OrderAmounts').implement({
  description: "The order's money whole, in its currency: each figure null when the platform gave none.",
  fields: (t) => ({
    ...Object.fromEntries(
      FIGURES.map(([name, column, said]) => [
        name,
        t.field({
          type: Money,
          nullable: true,
          description: said,
          resolve: ({ order }) => moneyOf(order[column] === null ? null : Number(order[column]), sentOf(order).currency),
        }),
      ]),
    ),
    discounts: t.field({
      type: [OrderDiscount],
      description: 'At most 50, order- and item-level.',
      resolve: ({ order }) => {
        const { discounts, currency } = sentOf(order);
        return Array.isArray(discounts)
          ? discounts.filter((d) => typeof d === 'object' && d !== null).map((discount) => ({ discount, currency }))
          : [];
      },
    }),
  }),
});

/** How an order was canceled: by whom, why, and when. */
type CancellationShape = { by: string | null; reason: string | null; details: string | null; at: number | null };
const OrderCancellation = builder.objectRef<CancellationShape>('OrderCancellation').implement({
  description: 'Who canceled the order, why (when they said) and when.',
  fields: (t) => ({
    by: t.exposeString('by', { nullable: true, description: `${CANCELED_BY.join(' or ')}.` }),
    reason: t.exposeString('reason', {
      nullable: true,
      description: `The restaurant's: ${MERCHANT_CANCEL_REASONS.join(', ')}; the platform's: ${DSP_CANCEL_REASONS.join(', ')}. Null when it said none.`,
    }),
    details: t.exposeString('details', { nullable: true, description: 'The restaurant’s sentence about it.' }),
    at: t.float({ nullable: true, description: 'Epoch milliseconds.', resolve: (c) => c.at }),
  }),
});

builder.prismaObject('Order', {
  description: 'An order from a DSP.',
  fields: (t) => ({
    id: t.exposeID('id'),
    orgId: t.exposeID('orgId', { nullable: true }),
    locationId: t.exposeID('locationId', { nullable: true }),
    dspSource: t.exposeString('dspSource'),
    dspStoreId: t.exposeString('dspStoreId'),
    dspOrderId: t.exposeString('dspOrderId'),
    dspOrderNumber: t.string({
      nullable: true,
      description:
        'The number the DSP gave the customer for the order (dsp_order_number, e.g. #4821): what the customer says at the counter.',
      resolve: (o) => textOf(sentOf(o).dsp_order_number),
    }),
    status: t.exposeString('status', {
      description: `${STATUSES_SAID}.`,
    }),
    deliveryStatus: t.exposeString('deliveryStatus', {
      description:
        'pending → pending_driver_confirmation → enroute_to_pickup → arrived_at_pickup → enroute_to_dropoff → arrived_at_dropoff → delivered, as its event provider reports it (forward only).',
    }),
    fulfillmentType: t.exposeString('fulfillmentType', { nullable: true }),
    eventProvider: t.exposeString('eventProvider', {
      nullable: true,
      description: 'The event provider a merchant-delivered order was confirmed to: the one that delivers it.',
    }),
    posOrderId: t.exposeString('posOrderId', { nullable: true }),
    prepTimeMinutes: t.exposeInt('prepTimeMinutes', {
      nullable: true,
      description: "The kitchen's minutes for it: its POS's answer, never below its location's quote (busy extra included).",
    }),
    estimatedReadyTime: t.float({
      nullable: true,
      description: 'When it is to be ready, epoch ms: when its POS took it plus its prep time.',
      resolve: (o) => o.estimatedReadyAt?.getTime() ?? null,
    }),
    failureReason: t.exposeString('failureReason', {
      nullable: true,
      description:
        'Why the order will not be made: location_not_found, restaurant_not_accepting_orders, item_not_found, item_unavailable, price_mismatch, invalid_cart, pos_rejected or pos_unreachable.',
    }),
    failureDetails: t.exposeString('failureDetails', {
      nullable: true,
      description: 'The same as a sentence, naming the first offending item or modifier.',
    }),
    driver: t.field({
      type: Driver,
      nullable: true,
      description: 'The driver its event provider assigned.',
      resolve: (o) => storedDriver(o.driver),
    }),
    estimatedDropoffTime: t.float({
      nullable: true,
      description: 'When its event provider expects the driver at the customer, epoch milliseconds.',
      resolve: (o) => o.estimatedDropoffAt?.getTime() ?? null,
    }),
    currency: t.string({
      nullable: true,
      description: "Lower-case ISO 4217 code: the order's (its location's when the DSP named none).",
      resolve: (o) => textOf(sentOf(o).currency),
    }),
    ...Object.fromEntries(
      ORDER_AMOUNTS.map((wire) => [
        AMOUNT_FIELDS[wire],
        t.field({
          type: Money,
          nullable: true,
          description: `The order's ${wire.replace(/_/g, ' ')} (${wire}); null when it gives none.`,
          resolve: (o) => moneyOf(sentOf(o)[wire], sentOf(o).currency),
        }),
      ]),
    ),
    eventData: t.field({
      type: 'JSON',
      description:
        "The order as its partner events carry it (their `data`, in the wire's names): its ids and states, its money whole, its markup and a cancellation's party and reason. GET /v1/orders/{id} answers it.",
      resolve: (o) => orderEventData({ ...(o as unknown as OrderRow), markup: Number(o.markup) }, sentOf(o)),
    }),
    amounts: t.field({
      type: OrderAmounts,
      description: "The order's money whole: each figure, the discounts and who funds them, the markup.",
      resolve: (order) => ({ order }),
    }),
    cancellation: t.field({
      type: OrderCancellation,
      nullable: true,
      description: 'How a canceled order was canceled (merchant_canceled or dsp_canceled); null for any other.',
      resolve: (o) => cancellationOf(o),
    }),
    items: t.field({
      type: [OrderLine],
      description: 'The cart: each item with its nested modifiers, prices in the order’s currency.',
      resolve: async (o, _args, ctx) => linesOf((await openedOf(ctx, o)).items, sentOf(o).currency),
    }),
    order: t.field({
      type: 'JSON',
      description: 'The order object as sent to the POS (its customer as far as the caller may see, as in `customer`).',
      resolve: async (o, _args, ctx) => {
        const opened = await openedOf(ctx, o);
        const object = orderObject(o, opened);
        if (seesCustomer(ctx.auth!)) return object;
        const shown = customerOf(opened, false);
        const customer = shown ? { name: shown.name, masked_phone_code: shown.maskedPhoneCode } : null;
        return { ...object, customer, customers: customer ? [customer] : [] };
      },
    }),
    customer: t.field({
      type: OrderCustomer,
      nullable: true,
      description: "The customer, as far as the caller may see: a dashboard's team members see a first name and initial, no number.",
      resolve: async (o, _args, ctx) => customerOf(await openedOf(ctx, o), seesCustomer(ctx.auth!)),
    }),
    timeline: t.field({
      type: [TimelineEntry],
      description: 'What happened to the order, oldest first: each of its recorded changes.',
      resolve: (o, _args, ctx) => timelineOf(ctx, o),
    }),
    createdAt: t.float({ description: 'Epoch milliseconds.', resolve: (o) => o.createdAt.getTime() }),
    updatedAt: t.float({ description: 'Epoch milliseconds.', resolve: (o) => o.updatedAt.getTime() }),
  }),
});

const DriverPhone = builder.objectRef<Phone>('DriverPhone').implement({
  fields: (t) => ({
    number: t.exposeString('number'),
    code: t.exposeString('code', { nullable: true, description: 'The country calling code, e.g. +1.' }),
  }),
});
const VehicleInfo = builder.objectRef<VehicleShape>('VehicleInfo').implement({
  fields: (t) => ({
    make: t.exposeString('make', { nullable: true }),
    model: t.exposeString('model', { nullable: true }),
    color: t.exposeString('color', { nullable: true }),
    licensePlate: t.exposeString('licensePlate', { nullable: true }),
  }),
});
const Driver = builder.objectRef<DriverShape>('Driver').implement({
  description: "A merchant-delivered order's driver, as its event provider assigned it.",
  fields: (t) => ({
    name: t.exposeString('name'),
    phone: t.field({ type: DriverPhone, nullable: true, resolve: (d) => d.phone }),
    source: t.exposeString('source', { nullable: true, description: 'The fleet or company the driver drives for.' }),
    vehicleInfo: t.field({ type: VehicleInfo, nullable: true, resolve: (d) => d.vehicleInfo }),
  }),
});

type CustomerShape = { name: string | null; phone: string | null; maskedPhoneCode: string | null; loyaltyId: string | null };
const OrderCustomer = builder.objectRef<CustomerShape>('OrderCustomer').implement({
  fields: (t) => ({
    name: t.exposeString('name', { nullable: true }),
    phone: t.exposeString('phone', { nullable: true }),
    maskedPhoneCode: t.exposeString('maskedPhoneCode', { nullable: true }),
    loyaltyId: t.exposeString('loyaltyId', { nullable: true }),
  }),
});

/** The order's customer (its body opened); whole, or a first name and initial with no number. */
function customerOf(opened: Record<string, unknown>, whole: boolean): CustomerShape | null {
  const customer = opened.customer as Record<string, unknown> | undefined;
  if (!customer || typeof customer !== 'object') return null;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const name = text(customer.name);
  if (whole)
    return {
      name,
      phone: text(customer.phone),
      maskedPhoneCode: text(customer.masked_phone_code),
      loyaltyId: text(customer.provider_loyalty_id),
    };
  const [first, last] = (name ?? '').split(/\s+/);
  return {
    name: first ? `${first}${last ? ` ${last[0]}.` : ''}` : null,
    phone: null,
    maskedPhoneCode: text(customer.masked_phone_code),
    loyaltyId: null,
  };
}

type TimelineShape = {
  at: number;
  what: string;
  status: string | null;
  deliveryStatus: string | null;
  failureReason: string | null;
  driverName: string | null;
  note: string | null;
};
const TimelineEntry = builder.objectRef<TimelineShape>('OrderTimelineEntry').implement({
  fields: (t) => ({
    at: t.float({ description: 'Epoch milliseconds.', resolve: (e) => e.at }),
    what: t.exposeString('what', {
      description:
        'The change: order.created (placed), order.accepted (the POS took it), order.updated (its status, delivery or driver moved), order.failed.',
    }),
    status: t.exposeString('status', { nullable: true, description: 'Its status after the change.' }),
    deliveryStatus: t.exposeString('deliveryStatus', { nullable: true }),
    failureReason: t.exposeString('failureReason', { nullable: true }),
    driverName: t.exposeString('driverName', { nullable: true }),
    note: t.exposeString('note', {
      nullable: true,
      description: 'What the fields do not say, in a sentence: why a merchant-delivered order went to no event provider.',
    }),
  }),
});

/** The order's timeline: its recorded changes, oldest first (kept as long as partner events are,
 * 30 days, whatever became of the messages they sent). */
async function timelineOf(ctx: Context, order: Pick<OrderRow, 'id'>): Promise<TimelineShape[]> {
  const records = await statementsOf(ctx.db).read<{ type: string; data: string; createdAt: Date }>(recordsOf(order.id));
  return records.map((record) => {
    const data = JSON.parse(record.data) as {
      status?: string;
      delivery_status?: string;
      failure_reason?: string;
      driver?: { name?: string };
      note?: string;
    };
    return {
      at: record.createdAt.getTime(),
      what: record.type,
      status: data.status ?? null,
      deliveryStatus: data.delivery_status ?? null,
      failureReason: data.failure_reason ?? null,
      driverName: data.driver?.name ?? null,
      note: data.note ?? null,
    };
  });
}

builder.queryField('order', (t) =>
  t.withAuth({ scope: 'user' }).prismaField({
    type: 'Order',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const order = await ctx.db.order.findFirst({ ...query, where: { id: String(id), ...reachableRows(ctx.auth) } });
      return reachable(ctx.auth, order, `order ${id}`);
    },
  }),
);

/** A page of an organization's orders. Its orders are read once, one row past the page: that
 * row says whether there is a next page, so `nextCursor` costs no second query when `orders` is
 * asked for too. (Pothos's prismaConnection would change the type partners already use.) */
type OrdersPageShape = { where: Record<string, unknown>; first: number; after: string | null; ids?: Promise<string[]> };

const pageQuery = (page: OrdersPageShape) => ({
  where: page.where,
  orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }],
  take: page.first + 1,
  ...(page.after ? { cursor: { id: page.after }, skip: 1 } : {}),
});

const pageIds = (ctx: Context, page: OrdersPageShape) =>
  ctx.db.order.findMany({ ...pageQuery(page), select: { id: true } }).then((found) => found.map((order) => order.id));

const OrdersPage = builder.objectRef<OrdersPageShape>('OrdersPage').implement({
  fields: (t) => ({
    orders: t.prismaField({
      type: ['Order'],
      resolve: (query, page, _args, ctx) => {
        const rows = ctx.db.order.findMany({ ...query, ...pageQuery(page) });
        // The ids, unless the selection left them out (then `nextCursor` reads them itself).
        page.ids ??= rows.then((found) =>
          found.every((order) => typeof order.id === 'string') ? found.map((order) => order.id) : pageIds(ctx, page),
        );
        return rows.then((found) => found.slice(0, page.first));
      },
    }),
    totalCount: t.int({
      description: 'How many orders the filters match in all, across every page.',
      resolve: (page, _args, ctx) => ctx.db.order.count({ where: page.where }),
    }),
    nextCursor: t.string({
      nullable: true,
      description: 'Pass as `after` for the next page; null on the last page.',
      resolve: async (page, _args, ctx) => {
        page.ids ??= pageIds(ctx, page);
        const ids = await page.ids;
        return ids.length > page.first ? ids[page.first - 1]! : null;
      },
    }),
  }),
});

builder.queryField('orders', (t) =>
  t.withAuth({ scope: 'user' }).field({
    type: OrdersPage,
    description: "An organization's orders, newest first.",
    args: {
      orgId: t.arg.id({ required: true }),
      status: t.arg({ type: OrderStatus }),
      locationId: t.arg.id(),
      dspSource: t.arg.string({ description: 'Of one delivery platform (its source).' }),
      from: t.arg.float({ description: 'Created at or after (epoch ms).' }),
      to: t.arg.float({ description: 'Created before (epoch ms).' }),
      first: t.arg.int({ defaultValue: 20, description: '1 to 100.' }),
      after: t.arg.id({ description: 'The nextCursor of the previous page.' }),
    },
    resolve: async (_root, args, ctx) => {
      const org = await findOrganization(ctx.services, ctx.auth, String(args.orgId));
      const first = pageSize(args.first, { name: 'first', default: 20, max: 100 });
      const from = args.from == null ? null : new Date(epochMs(args.from, 'from'));
      const to = args.to == null ? null : new Date(epochMs(args.to, 'to'));
      return {
        first,
        after: args.after ? String(args.after) : null,
        where: {
          orgId: org.id,
          ...(args.status ? { status: args.status } : {}),
          ...(args.locationId ? { locationId: String(args.locationId) } : {}),
          ...(args.dspSource ? { dspSource: args.dspSource } : {}),
          ...(from || to ? { createdAt: { ...(from ? { gte: from } : {}), ...(to ? { lt: to } : {}) } } : {}),
        },
      };
    },
  }),
);

builder.subscriptionField('orderUpdated', (t) =>
  t.withAuth({ scope: 'user' }).prismaField({
    type: 'Order',
    description: "An organization's order, each time it changes (optionally of one location).",
    args: { orgId: t.arg.id({ required: true }), locationId: t.arg.id() },
    subscribe: async (_root, { orgId, locationId }, ctx) => {
      const org = await findOrganization(ctx.services, ctx.auth, String(orgId));
      const events = ctx.services.pubsub.subscribe('orderUpdated', org.id);
      // Yoga's filter, not a generator: a subscriber's unsubscribe ends it at once, where a
      // generator waiting for its next event would hold the subscription until one came.
      return locationId
        ? pipe(
            events,
            filter((event) => event.locationId === String(locationId)),
          )
        : events;
    },
    // The order as the change left it, carried by the event (no read, and no later state shown
    // in place of an earlier one).
    resolve: (_query, event: OrderSnapshot) =>
      ({ ...event, createdAt: new Date(event.createdAt), updatedAt: new Date(event.updatedAt) }) as unknown as OrderModel,
  }),
);

type StatsShape = {
  byHour: { hour: number; dspSource: string; orders: number; failed: number }[];
  failures: { reason: string; orders: number }[];
};
const HourCount = builder.objectRef<StatsShape['byHour'][number]>('OrderHourCount').implement({
  fields: (t) => ({
    hour: t.float({ description: 'The hour’s start, epoch ms (from `from`, an hour at a time).', resolve: (c) => c.hour }),
    dspSource: t.exposeString('dspSource'),
    orders: t.exposeInt('orders', { description: 'Every order that came in, taken or failed.' }),
    failed: t.exposeInt('failed', { description: 'Of those, the ones that failed (not taken).' }),
  }),
});
const FailureCount = builder.objectRef<StatsShape['failures'][number]>('OrderFailureCount').implement({
  fields: (t) => ({ reason: t.exposeString('reason'), orders: t.exposeInt('orders') }),
});
const OrderStats = builder.objectRef<StatsShape>('OrderStats').implement({
  fields: (t) => ({
    byHour: t.field({ type: [HourCount], description: 'Orders per hour and DSP.', resolve: (s) => s.byHour }),
    failures: t.field({ type: [FailureCount], description: 'Failed orders by reason, most first.', resolve: (s) => s.failures }),
  }),
});

/** At most two days at a time: a dashboard's "today", in any time zone. */
const LONGEST_STATS_MS = 48 * 3600_000;

builder.queryField('orderStats', (t) =>
  t.withAuth({ scope: 'user' }).field({
    type: OrderStats,
    description:
      "An organization's orders between two times (at most 48 hours apart), counted per hour and DSP, and the failed ones by reason.",
    args: { orgId: t.arg.id({ required: true }), from: t.arg.float({ required: true }), to: t.arg.float({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const org = await findOrganization(ctx.services, ctx.auth, String(args.orgId));
      const from = epochMs(args.from, 'from');
      const to = epochMs(args.to, 'to');
      if (to <= from || to - from > LONGEST_STATS_MS) throw new Invalid('to must be after from, and at most 48 hours after it');
      const orders = await ctx.db.order.findMany({
        where: { orgId: org.id, createdAt: { gte: new Date(from), lt: new Date(to) } },
        select: { createdAt: true, dspSource: true, failureReason: true },
      });
      const byHour = new Map<string, StatsShape['byHour'][number]>();
      const failures = new Map<string, number>();
      for (const order of orders) {
        const hour = from + Math.floor((order.createdAt.getTime() - from) / 3600_000) * 3600_000;
        const key = `${hour} ${order.dspSource}`;
        const counted = byHour.get(key) ?? { hour, dspSource: order.dspSource, orders: 0, failed: 0 };
        counted.orders += 1;
        if (order.failureReason) counted.failed += 1;
        byHour.set(key, counted);
        if (order.failureReason) failures.set(order.failureReason, (failures.get(order.failureReason) ?? 0) + 1);
      }
      return {
        byHour: [...byHour.values()].sort((a, b) => a.hour - b.hour || a.dspSource.localeCompare(b.dspSource)),
        failures: [...failures].map(([reason, n]) => ({ reason, orders: n })).sort((a, b) => b.orders - a.orders),
      };
    },
  }),
);
