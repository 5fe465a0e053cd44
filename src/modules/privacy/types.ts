// GraphQL for customers' erasure requests.
import { builder } from '../../graphql/builder.js';
import { requestErasure } from './service.js';

const RequestErasureInput = builder.inputType('RequestErasureInput', {
  fields: (t) => ({
    orgId: t.id({ required: true }),
    phone: t.string({ description: 'The customer’s phone, as the DSP sent it (its digits are compared).' }),
    providerLoyaltyId: t.string({ description: 'The customer’s loyalty id at the DSP.' }),
  }),
});
const ErasurePayload = builder.objectRef<{ ordersRedacted: number; ordersPending: number }>('ErasurePayload').implement({
  fields: (t) => ({
    ordersRedacted: t.exposeInt('ordersRedacted', { description: 'Final orders whose customer data was replaced now.' }),
    ordersPending: t.exposeInt('ordersPending', { description: 'Open orders, redacted when each reaches a final state.' }),
  }),
});

builder.mutationField('requestErasure', (t) =>
  t.withAuth({ scope: 'user' }).field({
    type: ErasurePayload,
    description:
      "Erase a customer's data from the organization's orders (name, phone, loyalty id, delivery address): at once for final orders, when they end for open ones.",
    args: { input: t.arg({ type: RequestErasureInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      requestErasure(ctx.services, ctx.auth, {
        orgId: String(input.orgId),
        phone: input.phone,
        providerLoyaltyId: input.providerLoyaltyId,
      }),
  }),
);
