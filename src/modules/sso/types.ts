// GraphQL for single sign-on (docs/reference.md § Resources).
import { builder } from '../../graphql/builder.js';
import { generateSsoSession } from './service.js';
import { DISPATCH_CHOOSING_ROLES, REDELIVERING_ROLES, ROLES, STATEMENT_READING_ROLES, STORE_CONTROLLING_ROLES } from '../access/index.js';

const Role = builder.enumType('Role', { values: ROLES });

const GenerateSsoSessionInput = builder.inputType('GenerateSsoSessionInput', {
  fields: (t) => ({
    email: t.string({ required: true }),
    fullName: t.string({ required: true }),
    phoneNumber: t.string({ required: true }),
    role: t.field({ type: Role, description: 'Defaults to team_member.' }),
    providerOrgId: t.string({ required: true, description: 'The provider_id the organization was created with.' }),
    providerOrgName: t.string(),
  }),
});

const SsoSessionPayload = builder.objectRef<{ ssoLoginToken: string }>('SsoSessionPayload').implement({
  fields: (t) => ({
    ssoLoginToken: t.exposeString('ssoLoginToken', { description: 'Single use, valid five minutes: open /v1/sso/login?token=…' }),
  }),
});

builder.mutationField('generateSsoSession', (t) =>
  t.withAuth({ scope: 'sso' }).field({
    type: SsoSessionPayload,
    args: {
      partnerId: t.arg.id({ description: 'When given, it must be your own partner id.' }),
      input: t.arg({ type: GenerateSsoSessionInput, required: true }),
    },
    resolve: (_root, { partnerId, input }, ctx) => generateSsoSession(ctx.services, ctx.auth, partnerId ? String(partnerId) : null, input),
  }),
);

const DashboardViewer = builder.objectRef<{ userId: string; orgId: string; role: string }>('DashboardViewer').implement({
  description: 'The merchant user of a dashboard session.',
  fields: (t) => ({
    user: t.prismaField({
      type: 'User',
      resolve: (query, viewer, _args, ctx) => ctx.db.user.findUniqueOrThrow({ ...query, where: { id: viewer.userId } }),
    }),
    organization: t.prismaField({
      type: 'Organization',
      resolve: (query, viewer, _args, ctx) => ctx.db.organization.findUniqueOrThrow({ ...query, where: { id: viewer.orgId } }),
    }),
    canRedeliver: t.boolean({
      description: 'Owners and admins redeliver dead deliveries.',
      resolve: (viewer) => REDELIVERING_ROLES.includes(viewer.role),
    }),
    canControlStores: t.boolean({
      description: 'Owners, admins and managers pause and resume stores, make them busy and take items off sale.',
      resolve: (viewer) => STORE_CONTROLLING_ROLES.includes(viewer.role),
    }),
    canChooseEventProvider: t.boolean({
      description: "Owners and admins choose the event provider that delivers the merchant's own orders.",
      resolve: (viewer) => DISPATCH_CHOOSING_ROLES.includes(viewer.role),
    }),
    canReadEndOfDay: t.boolean({
      description: "Owners, admins and managers read the end of day (dailyStatements): each platform's orders of a day, summed.",
      resolve: (viewer) => STATEMENT_READING_ROLES.includes(viewer.role),
    }),
  }),
});

builder.queryField('me', (t) =>
  t.withAuth({ authenticated: true }).field({
    type: DashboardViewer,
    nullable: true,
    description: 'The signed-in merchant user, when the caller is a dashboard session (its cookie); null for a token.',
    resolve: (_root, _args, ctx) => {
      const session = ctx.auth.dashboard;
      return session ? { userId: session.userId, orgId: ctx.auth.orgId!, role: session.role } : null;
    },
  }),
);
