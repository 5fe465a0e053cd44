// GraphQL for onboarding: initialize, status, complete, and the live onboardingUpdated.
import { builder } from '../../graphql/builder.js';
import { OrganizationChange } from '../organizations/types.js';
import { completeOnboarding, findOnboarding, initializeOnboarding, onboardingStatus, showOnboarding } from './service.js';
import { ONBOARDING_TYPES, type Onboarding as OnboardingShape } from './states.js';

const OnboardingType = builder.enumType('OnboardingType', { values: ONBOARDING_TYPES });

export const Onboarding = builder.objectRef<OnboardingShape>('Onboarding').implement({
  description: 'One OAuth integration attempt of an organization with a POS or DSP.',
  fields: (t) => ({
    id: t.exposeID('id'),
    orgId: t.exposeID('orgId'),
    merchantId: t.exposeID('orgId'),
    type: t.field({ type: OnboardingType, resolve: (o) => o.type }),
    status: t.exposeString('status', { description: 'pending until the code is exchanged, then active.' }),
    partnerId: t.exposeID('partnerId'),
    partnerOrgId: t.exposeString('partnerOrgId'),
    source: t.exposeString('source'),
    entryUrl: t.exposeString('entryUrl', { description: 'Send the merchant here to start the OAuth authorization.' }),
    returnUrl: t.exposeString('returnUrl'),
    integrationId: t.exposeString('integrationId', { nullable: true }),
  }),
});

builder.objectField(OrganizationChange, 'onboarding', (t) =>
  t.withAuth({ scope: 'onboarding' }).field({
    type: Onboarding,
    nullable: true,
    description: 'For an onboarding that changed: the onboarding as it is now.',
    resolve: async (change, _args, ctx) =>
      change.kind === 'onboarding' ? showOnboarding(ctx.services, await findOnboarding(ctx.services, ctx.auth, change.id)) : null,
  }),
);

const InitializeOnboardingInput = builder.inputType('InitializeOnboardingInput', {
  fields: (t) => ({
    orgId: t.id({ required: true }),
    source: t.string({ required: true, description: 'The slug of a registered POS or DSP provider.' }),
    type: t.field({ type: OnboardingType, required: true }),
    returnUrl: t.string({ required: true, description: 'Where the browser returns with code and onboarding_id.' }),
  }),
});

const InitializeOnboardingPayload = builder.objectRef<{ onboarding: OnboardingShape }>('InitializeOnboardingPayload').implement({
  fields: (t) => ({ onboarding: t.field({ type: Onboarding, resolve: (p) => p.onboarding }) }),
});

builder.mutationField('initializeOnboarding', (t) =>
  t.withAuth({ scope: 'onboarding' }).field({
    type: InitializeOnboardingPayload,
    args: { input: t.arg({ type: InitializeOnboardingInput, required: true }) },
    resolve: async (_root, { input }, ctx) => ({
      onboarding: await initializeOnboarding(ctx.services, ctx.auth, { ...input, orgId: String(input.orgId) }),
    }),
  }),
);

builder.queryField('onboarding', (t) =>
  t.withAuth({ scope: 'onboarding' }).field({
    type: Onboarding,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => onboardingStatus(ctx.services, ctx.auth, String(id)),
  }),
);

const CompleteOnboardingInput = builder.inputType('CompleteOnboardingInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    code: t.string({ required: true, description: 'The code the callback added to return_url.' }),
  }),
});

builder.mutationField('completeOnboarding', (t) =>
  t.withAuth({ scope: 'onboarding' }).field({
    type: Onboarding,
    args: { input: t.arg({ type: CompleteOnboardingInput, required: true }) },
    resolve: (_root, { input }, ctx) => completeOnboarding(ctx.services, ctx.auth, String(input.id), input.code),
  }),
);

builder.subscriptionType({});
builder.subscriptionField('onboardingUpdated', (t) =>
  t.withAuth({ scope: 'onboarding' }).field({
    type: Onboarding,
    description: 'The onboarding, each time its status changes.',
    args: { id: t.arg.id({ required: true }) },
    subscribe: async (_root, { id }, ctx) => {
      await findOnboarding(ctx.services, ctx.auth, String(id));
      return ctx.services.pubsub.subscribe('onboardingUpdated', String(id));
    },
    resolve: async (event: { id: string }, _args, ctx) =>
      showOnboarding(ctx.services, await findOnboarding(ctx.services, ctx.auth, event.id)),
  }),
);

builder.prismaObjectField('Organization', 'onboardings', (t) =>
  t.field({
    type: [Onboarding],
    description: "The organization's onboardings, newest first (at most 50).",
    resolve: async (org, _args, ctx) => {
      const rows = await ctx.db.onboarding.findMany({ where: { orgId: org.id }, orderBy: { createdAt: 'desc' }, take: 50 });
      return Promise.all(rows.map((row) => showOnboarding(ctx.services, row)));
    },
  }),
);
