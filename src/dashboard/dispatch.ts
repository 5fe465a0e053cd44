// Who delivers the merchant's own (merchant-delivered) orders: the event provider in use, and, for
// owners and admins, the choice of one of the registered event providers or the deployment's.
import { graphql } from './generated/gql.js';
import { h, run } from './dom.js';

const DispatchQuery = graphql(`
  query DashboardDispatch($orgId: ID!) {
    organization(id: $orgId) { eventProvider eventProviderInUse eventProviderChoices }
  }
`);
const SetEventProvider = graphql(`
  mutation DashboardSetEventProvider($input: SetEventProviderInput!) { setEventProvider(input: $input) { eventProvider } }
`);

/** Draws the section; a viewer who may choose gets the choice, saved at once. */
export async function showDispatch(
  orgId: string,
  mayChoose: boolean,
  problem: (message: string | null) => void,
  providerName: (source: string) => string,
): Promise<void> {
  const { organization } = await run(DispatchQuery, { orgId });
  const inUse = organization.eventProviderInUse;
  const said = h(
    'p',
    { class: 'small', 'data-event-provider-in-use': inUse ?? '' },
    inUse ? `Your own deliveries are driven by ${providerName(inUse)}.` : 'No delivery company: your restaurant delivers its own orders.',
  );
  if (!mayChoose) return void document.getElementById('dispatch')!.replaceChildren(said);
  const select = h(
    'select',
    { id: 'event-provider' },
    h('option', { value: '' }, 'The service’s default'),
    ...organization.eventProviderChoices.map((source) => h('option', { value: source }, providerName(source))),
  ) as HTMLSelectElement;
  select.value = organization.eventProvider ?? '';
  select.addEventListener('change', () => {
    select.disabled = true;
    void run(SetEventProvider, { input: { orgId, source: select.value || null } })
      .then(() => showDispatch(orgId, mayChoose, problem, providerName))
      .then(
        () => problem(null),
        (error: unknown) => problem(`Could not change the delivery company: ${(error as Error).message}`),
      )
      .finally(() => {
        select.disabled = false;
      });
  });
  document.getElementById('dispatch')!.replaceChildren(said, h('label', { class: 'small' }, 'Delivery company ', select));
}
