// GraphQL for orders: order, orders (filters, cursor pagination), the live orderUpdated, and the
// deliveries (outbox messages) of the caller with redelivery of dead ones.
import { filter, pipe } from 'graphql-yoga';
import { builder } from '../../graphql/builder.js';
import { Invalid } from '../../errors.js';
import { epochMs } from '../../input.js';
import { reachable, reachableRows, assertMayRedeliver } from '../access/index.js';
import { findOrganization } from '../organizations/service.js';
import { orderObject } from './service.js';
import { ORDER_STATUSES } from './states.js';
import type { OrderSnapshot } from '../../graphql/pubsub.js';
import type { Order as OrderRow } from '../../db/client.js';
import { redeliver } from '../../delivery/deliveries.js';

const OrderStatus = builder.enumType('OrderStatus', { values: ORDER_STATUSES });

builder.prismaObject('Order', {
  description: 'An order from a DSP (SPEC.md 2.11).',
  fields: (t) => ({
    id: t.exposeID('id'),
    orgId: t.exposeID('orgId', { nullable: true }),
    locationId: t.exposeID('locationId', { nullable: true }),
    dspSource: t.exposeString('dspSource'),
    dspStoreId: t.exposeString('dspStoreId'),
    dspOrderId: t.exposeString('dspOrderId'),
    status: t.exposeString('status', { description: 'CONTRACT.md 2a.' }),
    deliveryStatus: t.exposeString('deliveryStatus'),
    fulfillmentType: t.exposeString('fulfillmentType', { nullable: true }),
    posOrderId: t.exposeString('posOrderId', { nullable: true }),
    failureReason: t.exposeString('failureReason', {
      nullable: true,
      description:
        'Why the order will not be made: location_not_found, restaurant_not_accepting_orders, item_not_found, item_unavailable, price_mismatch, invalid_cart, pos_rejected or pos_unreachable.',
    }),
    failureDetails: t.exposeString('failureDetails', {
      nullable: true,
      description: 'The same as a sentence, naming the first offending item or modifier.',
    }),
    driver: t.field({ type: 'JSON', nullable: true, resolve: (o) => (o.driver ? (JSON.parse(o.driver) as unknown) : null) }),
    order: t.field({ type: 'JSON', description: 'The order object as sent to the POS.', resolve: (o) => orderObject(o) }),
    createdAt: t.float({ description: 'Epoch milliseconds.', resolve: (o) => o.createdAt.getTime() }),
    updatedAt: t.float({ description: 'Epoch milliseconds.', resolve: (o) => o.updatedAt.getTime() }),
  }),
});

builder.queryField('order', (t) =>
  t.prismaField({
    type: 'Order',
    authScopes: { scope: 'user' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const order = await ctx.db.order.findFirst({ ...query, where: { id: String(id), ...reachableRows(ctx.auth!) } });
      return reachable(ctx.auth!, order, `order ${id}`);
    },
  }),
);

const OrdersPage = builder.objectRef<{ where: Record<string, unknown>; first: number; after: string | null }>('OrdersPage').implement({
  fields: (t) => ({
    orders: t.prismaField({
      type: ['Order'],
      resolve: (query, page, _args, ctx) =>
        ctx.db.order.findMany({
          ...query,
          where: page.where,
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          take: page.first,
          ...(page.after ? { cursor: { id: page.after }, skip: 1 } : {}),
        }),
    }),
    nextCursor: t.string({
      nullable: true,
      description: 'Pass as `after` for the next page; null on the last page.',
      resolve: async (page, _args, ctx) => {
        const rows = await ctx.db.order.findMany({
          where: page.where,
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          take: page.first + 1,
          select: { id: true },
          ...(page.after ? { cursor: { id: page.after }, skip: 1 } : {}),
        });
        return rows.length > page.first ? rows[page.first - 1]!.id : null;
      },
    }),
  }),
});

builder.queryField('orders', (t) =>
  t.field({
    type: OrdersPage,
    description: "An organization's orders, newest first.",
    authScopes: { scope: 'user' },
    args: {
      orgId: t.arg.id({ required: true }),
      status: t.arg({ type: OrderStatus }),
      locationId: t.arg.id(),
      from: t.arg.float({ description: 'Created at or after (epoch ms).' }),
      to: t.arg.float({ description: 'Created before (epoch ms).' }),
      first: t.arg.int({ defaultValue: 20, description: '1 to 100.' }),
      after: t.arg.id({ description: 'The nextCursor of the previous page.' }),
    },
    resolve: async (_root, args, ctx) => {
      const org = await findOrganization(ctx.services, ctx.auth!, String(args.orgId));
      const first = args.first ?? 20;
      if (first < 1 || first > 100) throw new Invalid('first must be from 1 to 100');
      const from = args.from == null ? null : new Date(epochMs(args.from, 'from'));
      const to = args.to == null ? null : new Date(epochMs(args.to, 'to'));
      return {
        first,
        after: args.after ? String(args.after) : null,
        where: {
          orgId: org.id,
          ...(args.status ? { status: args.status } : {}),
          ...(args.locationId ? { locationId: String(args.locationId) } : {}),
          ...(from || to ? { createdAt: { ...(from ? { gte: from } : {}), ...(to ? { lt: to } : {}) } } : {}),
        },
      };
    },
  }),
);

builder.subscriptionField('orderUpdated', (t) =>
  t.prismaField({
    type: 'Order',
    description: "An organization's order, each time it changes (optionally of one location).",
    authScopes: { scope: 'user' },
    args: { orgId: t.arg.id({ required: true }), locationId: t.arg.id() },
    subscribe: async (_root, { orgId, locationId }, ctx) => {
      const org = await findOrganization(ctx.services, ctx.auth!, String(orgId));
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
      ({ ...event, createdAt: new Date(event.createdAt), updatedAt: new Date(event.updatedAt) }) as OrderRow,
  }),
);

builder.prismaObject('OutboxMessage', {
  name: 'Delivery',
  description: 'A message to a POS, DSP or event provider, and how its delivery is going.',
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.exposeString('kind'),
    source: t.exposeString('source'),
    status: t.exposeString('status', { description: 'pending, delivered or dead.' }),
    attempts: t.exposeInt('attempts'),
    lastStatus: t.exposeInt('lastStatus', { nullable: true }),
    lastError: t.exposeString('lastError', { nullable: true }),
    idempotencyKey: t.exposeString('idempotencyKey'),
    createdAt: t.float({ resolve: (m) => m.createdAt.getTime() }),
    deliveredAt: t.float({ nullable: true, resolve: (m) => m.deliveredAt?.getTime() ?? null }),
  }),
});

builder.queryField('deliveries', (t) =>
  t.prismaField({
    type: ['OutboxMessage'],
    description: 'Your deliveries, newest first: by default the dead ones, to redeliver.',
    authScopes: { authenticated: true },
    args: { status: t.arg.string({ defaultValue: 'dead' }), first: t.arg.int({ defaultValue: 50 }) },
    resolve: (query, _root, args, ctx) =>
      ctx.db.outboxMessage.findMany({
        ...query,
        where: { ...reachableRows(ctx.auth!), status: args.status ?? 'dead' },
        orderBy: { createdAt: 'desc' },
        take: Math.min(Math.max(args.first ?? 50, 1), 200),
      }),
  }),
);

builder.mutationField('redeliver', (t) =>
  t.prismaField({
    type: 'OutboxMessage',
    description: 'Send a dead delivery again, from a fresh attempt count (same idempotency key).',
    authScopes: { authenticated: true },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      assertMayRedeliver(ctx.auth!);
      const message = reachable(
        ctx.auth!,
        await ctx.db.outboxMessage.findFirst({ where: { id: String(id), ...reachableRows(ctx.auth!) } }),
        `delivery ${id}`,
      );
      await redeliver(ctx.services, message.id);
      if (message.orgId) ctx.services.pubsub.publish('organizationChanged', message.orgId, { kind: 'delivery', id: message.id });
      return ctx.db.outboxMessage.findUniqueOrThrow({ ...query, where: { id: message.id } });
    },
  }),
);
