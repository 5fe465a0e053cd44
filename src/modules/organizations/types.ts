// GraphQL for organizations.
import { builder } from '../../graphql/builder.js';
import { createOrganization, findOrganization } from './service.js';

builder.prismaObject('User', {
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
    role: t.exposeString('role'),
  }),
});

builder.prismaObject('Organization', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    providerId: t.exposeString('providerId'),
    createdAt: t.field({ type: 'Float', description: 'Epoch milliseconds.', resolve: (org) => org.createdAt.getTime() }),
    users: t.relation('users'),
  }),
});

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

const CreateOrganizationPayload = builder.objectRef<{ org_id: string; user_id: string }>('CreateOrganizationPayload').implement({
  fields: (t) => ({
    orgId: t.exposeID('org_id'),
    userId: t.exposeID('user_id'),
  }),
});

builder.mutationField('createOrganization', (t) =>
  t.field({
    type: CreateOrganizationPayload,
    description: 'Create an organization (merchant) with its first user (SPEC.md 2.6).',
    authScopes: { scope: 'user' },
    args: { input: t.arg({ type: CreateOrganizationInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      createOrganization(ctx.services, ctx.auth!, {
        name: input.name,
        provider_id: input.providerId,
        user: { email: input.user.email, first_name: input.user.firstName, last_name: input.user.lastName },
      }),
  }),
);

builder.queryField('organization', (t) =>
  t.prismaField({
    type: 'Organization',
    authScopes: { scope: 'user' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const org = await findOrganization(ctx.services, ctx.auth!, String(id));
      return ctx.db.organization.findUniqueOrThrow({ ...query, where: { id: org.id } });
    },
  }),
);
