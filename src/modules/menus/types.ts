// GraphQL for menu assignment (docs/reference.md § Resources).
import { builder } from '../../graphql/builder.js';
import { assignMenus } from './service.js';

const AssignMenusInput = builder.inputType('AssignMenusInput', {
  fields: (t) => ({
    orgId: t.id({ required: true }),
    dspLocationId: t.id({ required: true, description: "The id of a DSP connection (an entry of an organization location's dsps)." }),
    menuProviderIds: t.stringList({ required: true, description: 'The full set of menus; empty restores the default (all menus).' }),
  }),
});

const AssignMenusPayload = builder.objectRef<{ storeId: string; menuIds: string[] }>('AssignMenusPayload').implement({
  fields: (t) => ({ dspLocationId: t.exposeID('storeId'), menuProviderIds: t.exposeStringList('menuIds') }),
});

builder.mutationField('assignMenus', (t) =>
  t.withAuth({ scope: 'onboarding' }).field({
    type: AssignMenusPayload,
    args: { input: t.arg({ type: AssignMenusInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      assignMenus(ctx.services, ctx.auth, {
        orgId: String(input.orgId),
        storeId: String(input.dspLocationId),
        menuIds: input.menuProviderIds,
      }),
  }),
);
