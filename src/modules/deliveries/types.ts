// GraphQL for deliveries (the outbox's messages to peers and partners' endpoints): the caller's
// deliveries, the one a dashboard hears of, and redelivery of a dead one.
import { pageSize } from '../../common/pages.js';
import { builder } from '../../graphql/builder.js';
import { reachable, reachableRows, assertMayRedeliver } from '../access/index.js';
import { recordChange } from '../../changes/record.js';
import { OrganizationChange } from '../organizations/types.js';
import { redeliver } from './service.js';

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

builder.objectField(OrganizationChange, 'delivery', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'OutboxMessage',
    nullable: true,
    description: 'For a delivery that died or was sent again: the delivery as it is now.',
    resolve: (query, change, _args, ctx) =>
      change.kind === 'delivery'
        ? ctx.db.outboxMessage.findFirst({ ...query, where: { id: change.id, ...reachableRows(ctx.auth) } })
        : null,
  }),
);

builder.queryField('deliveries', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: ['OutboxMessage'],
    description: 'Your deliveries, newest first: by default the dead ones, to redeliver.',
    args: { status: t.arg.string({ defaultValue: 'dead' }), first: t.arg.int({ defaultValue: 50 }) },
    resolve: (query, _root, args, ctx) =>
      ctx.db.outboxMessage.findMany({
        ...query,
        where: { ...reachableRows(ctx.auth), status: args.status ?? 'dead' },
        orderBy: { createdAt: 'desc' },
        take: pageSize(args.first, { name: 'first', default: 50, max: 200 }),
      }),
  }),
);

builder.mutationField('redeliver', (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: 'OutboxMessage',
    description: 'Send a dead delivery again, from a fresh attempt count (same idempotency key).',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      assertMayRedeliver(ctx.auth);
      const message = reachable(
        ctx.auth,
        await ctx.db.outboxMessage.findFirst({ where: { id: String(id), ...reachableRows(ctx.auth) } }),
        `delivery ${id}`,
      );
      // Its dashboards see it leave the dead letters (no partner hears of a redelivery).
      await redeliver(ctx.services, message.id, (run) =>
        recordChange(run, ctx.services, { type: null, owner: message, subject: { kind: 'delivery', id: message.id } }),
      );
      return ctx.db.outboxMessage.findUniqueOrThrow({ ...query, where: { id: message.id } });
    },
  }),
);
