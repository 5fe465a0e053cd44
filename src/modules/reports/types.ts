// GraphQL for the end of day: dailyStatements and setPlatformCommission.
import { builder } from '../../graphql/builder.js';
import { SUMMED } from '../../db/sql/reports.js';
import type { Payout } from './payout.js';
import { dailyStatements, setPlatformCommission, type ByReason, type DailyStatement, type Figures, type StatementLine } from './service.js';

/** What each summed figure is, as the guides say it. */
const FIGURES_SAID: Record<(typeof SUMMED)[number], string> = {
  subtotal: 'What the items came to.',
  tax: 'Taxes not included in the prices.',
  taxWithheldByDsp: 'Tax the customers paid that the platform remits itself.',
  deliveryFee: 'Delivery fees.',
  deliveryFeeTax: 'Tax on the delivery fees.',
  restaurantTip: "The customers' tips to the store.",
  driverTip: "The customers' tips to drivers.",
  discountMerchant: 'Discounts the merchant funds (its part of shared ones included).',
  discountDsp: 'Discounts the platform funds.',
  markup: 'What the items were priced above the catalog.',
  total: "What the platform's customers paid.",
};

const StatementFigures = builder.objectRef<Figures>('StatementFigures').implement({
  description:
    "A day's taken orders summed: whole numbers of the currency's smallest unit (cents for usd). Failed, canceled and awaiting orders are counted, not summed.",
  fields: (t) => Object.fromEntries(SUMMED.map((column) => [column, t.exposeInt(column, { description: FIGURES_SAID[column] })])) as never,
});

const ReasonCount = builder.objectRef<ByReason[number]>('ReasonCount').implement({
  fields: (t) => ({
    reason: t.exposeString('reason', { nullable: true, description: 'The reason, as a code; null: none was given.' }),
    orders: t.exposeInt('orders'),
  }),
});

const ExpectedPayout = builder.objectRef<Payout>('ExpectedPayout').implement({
  description:
    "What the platform is expected to pay out: subtotal + tax + restaurantTip − discountMerchant − commission, each figure named, in the currency's smallest unit.",
  fields: (t) => ({
    subtotal: t.exposeInt('subtotal'),
    tax: t.exposeInt('tax'),
    restaurantTip: t.exposeInt('restaurantTip'),
    discountMerchant: t.exposeInt('discountMerchant'),
    commissionPercent: t.exposeFloat('commissionPercent', { description: 'The rate set for the platform (12.5 is 12.5 %).' }),
    commission: t.exposeInt('commission', { description: 'subtotal × the rate, rounded half away from zero.' }),
    payout: t.exposeInt('payout'),
  }),
});

const StatementLineRef = builder.objectRef<StatementLine>('StatementLine').implement({
  description: "One platform's day in one currency, or (source null) every platform's together.",
  fields: (t) => ({
    source: t.exposeString('source', { nullable: true, description: "The platform (a DSP's source); null in a total." }),
    currency: t.exposeString('currency', { nullable: true, description: 'Lower-case ISO 4217; null for orders sent without one.' }),
    taken: t.exposeInt('taken', { description: 'Orders taken (on their way or completed): the ones summed.' }),
    awaiting: t.exposeInt('awaiting', { description: 'Orders whose POS had not decided yet.' }),
    failed: t.exposeInt('failed'),
    failedByReason: t.field({ type: [ReasonCount], resolve: (line) => line.failedByReason }),
    canceledByMerchant: t.exposeInt('canceledByMerchant', { description: 'Orders the restaurant canceled.' }),
    canceledByMerchantByReason: t.field({ type: [ReasonCount], resolve: (line) => line.canceledByMerchantByReason }),
    canceledByDsp: t.exposeInt('canceledByDsp', { description: 'Orders the platform canceled.' }),
    canceledByDspByReason: t.field({ type: [ReasonCount], resolve: (line) => line.canceledByDspByReason }),
    amounts: t.field({ type: StatementFigures, resolve: (line) => line.amounts }),
    payout: t.field({
      type: ExpectedPayout,
      nullable: true,
      description: 'The expected payout, when a commission is set for the platform (setPlatformCommission); null in a total.',
      resolve: (line) => line.payout,
    }),
  }),
});

const DailyStatementRef = builder.objectRef<DailyStatement>('DailyStatement').implement({
  description: "A location's local day: each platform's orders counted and summed, and their total.",
  fields: (t) => ({
    date: t.exposeString('date', { description: 'YYYY-MM-DD on the location’s clock.' }),
    locationId: t.exposeID('locationId'),
    timeZone: t.exposeString('timeZone', { description: 'The location’s IANA time zone.' }),
    startsAt: t.exposeFloat('startsAt', { description: 'Its first instant, epoch milliseconds.' }),
    endsAt: t.exposeFloat('endsAt', { description: 'The next day’s first instant, epoch milliseconds.' }),
    hours: t.exposeFloat('hours', { description: '24; 23 or 25 on a day the clocks change.' }),
    platforms: t.field({ type: [StatementLineRef], description: 'One line per platform and currency.', resolve: (s) => s.platforms }),
    totals: t.field({ type: [StatementLineRef], description: 'Every platform together, one line per currency.', resolve: (s) => s.totals }),
  }),
});

builder.queryField('dailyStatements', (t) =>
  t.withAuth({ scope: 'user' }).field({
    type: [DailyStatementRef],
    description:
      "A location's end of day, one statement per local day from `from` to `to` (YYYY-MM-DD, 1 to 31 days, in the location's time zone): orders taken, failed and canceled per platform, and the taken ones summed. Dashboard sessions: owners, admins and managers.",
    args: {
      orgId: t.arg.id({ required: true }),
      locationId: t.arg.id({ required: true }),
      from: t.arg.string({ required: true }),
      to: t.arg.string({ required: true }),
    },
    resolve: (_root, args, ctx) =>
      dailyStatements(ctx.services, ctx.auth, {
        orgId: String(args.orgId),
        locationId: String(args.locationId),
        from: args.from,
        to: args.to,
      }),
  }),
);

const SetPlatformCommissionInput = builder.inputType('SetPlatformCommissionInput', {
  fields: (t) => ({
    orgId: t.id({ required: true }),
    source: t.string({ required: true, description: 'A registered delivery platform (DSP).' }),
    commissionPercent: t.float({ required: true, description: 'From 0 to 100, at most two decimals (12.5 is 12.5 %).' }),
  }),
});

const PlatformCommissionRef = builder
  .objectRef<{ orgId: string; source: string; commissionPercent: number }>('PlatformCommission')
  .implement({
    fields: (t) => ({
      orgId: t.exposeID('orgId'),
      source: t.exposeString('source'),
      commissionPercent: t.exposeFloat('commissionPercent'),
    }),
  });

builder.mutationField('setPlatformCommission', (t) =>
  t.withAuth({ scope: 'onboarding' }).field({
    type: PlatformCommissionRef,
    description:
      "Set what a delivery platform keeps of the organization's orders: the daily statements' expected payout takes it off the platform's subtotal.",
    args: { input: t.arg({ type: SetPlatformCommissionInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      setPlatformCommission(ctx.services, ctx.auth, {
        orgId: String(input.orgId),
        source: input.source,
        commissionPercent: input.commissionPercent,
      }),
  }),
);
