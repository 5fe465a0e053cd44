// GraphQL for organizations.
import { builder } from '../../graphql/builder.js';
import { createOrganization, eventProviderInUse, findOrganization, setEventProvider } from './service.js';
import { eventProviderSources, providerNames } from '../../integrations/providers.js';
import type { OrganizationChange as Change } from '../../common/pubsub.js';

builder.prismaObject('User', {
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
    fullName: t.exposeString('fullName', { nullable: true }),
    role: t.exposeString('role'),
  }),
});

builder.prismaObject('Organization', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    providerId: t.exposeString('providerId'),
    eventProvider: t.exposeString('eventProvider', {
      nullable: true,
      description: 'The event provider it named for its merchant-delivered orders (setEventProvider); null: the deployment’s.',
    }),
    eventProviderInUse: t.string({
      nullable: true,
      description:
        'The event provider its merchant-delivered orders go to now: the one it named, else the deployment’s when exactly one is registered; null: none (the restaurant delivers them).',
      resolve: async (org, _args, ctx) => {
        const dispatcher = await eventProviderInUse(ctx.services, org);
        return 'source' in dispatcher ? dispatcher.source : null;
      },
    }),
    eventProviderChoices: t.stringList({
      description: 'The registered event providers it may name (setEventProvider).',
      resolve: (_org, _args, ctx) => eventProviderSources(ctx.services),
    }),
    createdAt: t.field({ type: 'Float', description: 'Epoch milliseconds.', resolve: (org) => org.createdAt.getTime() }),
    users: t.relation('users'),
  }),
});

const ProviderName = builder.objectRef<Awaited<ReturnType<typeof providerNames>>[number]>('ProviderName').implement({
  description: 'A registered POS, delivery platform (DSP) or event provider, and what merchants call it.',
  fields: (t) => ({
    source: t.exposeString('source', { description: 'Its slug: the `source` of onboardings, orders and webhook paths.' }),
    kind: t.exposeString('kind', { description: 'pos, dsp or event_provider.' }),
    name: t.exposeString('name', { description: 'Its display name ("Uber Eats"); its source when it was registered without one.' }),
  }),
});

builder.queryField('providers', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: [ProviderName],
    description: 'The registered providers by source, with the names merchants know them by (the dashboard shows these).',
    resolve: (_root, _args, ctx) => providerNames(ctx.services),
  }),
);

const CreateOrganizationUser = builder.inputType('CreateOrganizationUser', {
  fields: (t) => ({
    email: t.string({ required: true }),
    firstName: t.string(),
    lastName: t.string(),
  }),
});

const CreateOrganizationInput = builder.inputType('CreateOrganizationInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    providerId: t.string({ required: true, description: "The partner's own id for this merchant." }),
    user: t.field({ type: CreateOrganizationUser, required: true }),
  }),
});

const CreateOrganizationPayload = builder.objectRef<{ orgId: string; userId: string }>('CreateOrganizationPayload').implement({
  fields: (t) => ({
    orgId: t.exposeID('orgId'),
    userId: t.exposeID('userId'),
  }),
});

builder.mutationField('createOrganization', (t) =>
  t.withAuth({ scope: 'user' }).field({
    type: CreateOrganizationPayload,
    description: 'Create an organization (merchant) with its first user.',
    args: { input: t.arg({ type: CreateOrganizationInput, required: true }) },
    resolve: (_root, { input }, ctx) => createOrganization(ctx.services, ctx.auth, input),
  }),
);

const SetEventProviderInput = builder.inputType('SetEventProviderInput', {
  fields: (t) => ({
    orgId: t.id({ required: true }),
    source: t.string({ description: 'A registered event provider; null: the deployment’s, when exactly one is registered.' }),
  }),
});

const SetEventProviderPayload = builder.objectRef<{ orgId: string; eventProvider: string | null }>('SetEventProviderPayload').implement({
  fields: (t) => ({
    orgId: t.exposeID('orgId'),
    eventProvider: t.exposeString('eventProvider', { nullable: true }),
  }),
});

builder.mutationField('setEventProvider', (t) =>
  t.withAuth({ scope: 'onboarding' }).field({
    type: SetEventProviderPayload,
    description:
      "Name the event provider (a dispatch company) that delivers the organization's merchant-delivered orders from now on; null: the deployment's.",
    args: { input: t.arg({ type: SetEventProviderInput, required: true }) },
    resolve: (_root, { input }, ctx) => setEventProvider(ctx.services, ctx.auth, String(input.orgId), input.source),
  }),
);

builder.queryField('organization', (t) =>
  t.withAuth({ scope: 'user' }).prismaField({
    type: 'Organization',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const org = await findOrganization(ctx.services, ctx.auth, String(id));
      return ctx.db.organization.findUniqueOrThrow({ ...query, where: { id: org.id } });
    },
  }),
);

/** The modules whose objects change add them as fields (`location`, `onboarding`, `delivery`):
 * a subscriber gets the changed object as it is now, with no query of its own. */
export const OrganizationChange = builder.objectRef<Change>('OrganizationChange').implement({
  description: 'Something of an organization changed: what, and (in the field of its kind) how it is now.',
  fields: (t) => ({
    kind: t.exposeString('kind', { description: 'location, onboarding or delivery.' }),
    id: t.exposeID('id', { description: 'The location, onboarding or delivery that changed.' }),
    type: t.exposeString('type', {
      nullable: true,
      description: "The change's event type (location.paused, menu.publish.succeeded, …); null for what only dashboards hear of.",
    }),
  }),
});

builder.subscriptionField('organizationChanged', (t) =>
  t.withAuth({ scope: 'user' }).field({
    type: OrganizationChange,
    description:
      "An organization's onboardings, locations and DSP bindings, menu publishes and dead or redelivered deliveries, each time one changes (orders have orderUpdated).",
    args: { orgId: t.arg.id({ required: true }) },
    subscribe: async (_root, { orgId }, ctx) =>
      ctx.services.pubsub.subscribe('organizationChanged', (await findOrganization(ctx.services, ctx.auth, String(orgId))).id),
    resolve: (change: Change) => change,
  }),
);
