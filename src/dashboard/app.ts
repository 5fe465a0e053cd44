// The merchant dashboard: the organization's day at a glance (./chart.ts), its orders (each opens
// to its detail, ./order-detail.ts), locations with their DSP connections, last menu publish and
// what is stopped (./stores.ts: owners, admins and managers pause stores and take items off
// sale), onboardings, who delivers the merchant's own orders (./dispatch.ts: owners and admins
// choose) and, for owners and admins, failed deliveries to redeliver. It reads through
// /graphql with the session cookie, and stays current through two graphql-ws subscriptions:
// orderUpdated (each order as it changes) and organizationChanged (each location, onboarding or
// dead delivery as it changes, taking its place on the page: nothing is read again). No
// framework: the page is small, and the DOM is written with textContent only (./dom.ts).
import { createClient } from 'graphql-ws';
import { graphql } from './generated/gql.js';
import type {
  DashboardChangesSubscription,
  DashboardOrderFragment,
  DashboardOverviewQuery,
  DashboardDeliveriesQuery,
  DashboardViewerQuery,
  OrderStatus,
} from './generated/graphql.js';
import type { Location } from './stores.js';
import { ORDER_STATUSES } from '../modules/orders/states.js';
import { $, badge, h, money, run, SignedOut, time, words } from './dom.js';
import { keepItemLists, openingState, stoppedState, storeControls } from './stores.js';
import { drawChart, StatsQuery, today } from './chart.js';
import { openOrder } from './order-detail.js';
import { deliveryShown } from './delivery.js';
import { showDispatch } from './dispatch.js';

const ViewerQuery = graphql(`
  query DashboardViewer {
    me { canRedeliver canControlStores canChooseEventProvider user { email fullName role } organization { id name } }
  }
`);
graphql(`
  fragment DashboardLocation on Location {
    id
    name
    timezone
    openNow opensAt closesAt
    closedDays { date name }
    offSale { itemId untilMs }
    catalog { defaultLanguage items { providerId name } modifiers { providerId name } }
    dsps { id name source status pausedUntil dspStatus publishes(last: 1) { status menuProviderIds catalogVersion error createdAt } }
  }
`);
graphql(`
  fragment DashboardOnboarding on Onboarding { id type source status }
`);
graphql(`
  fragment DashboardDelivery on Delivery { id kind source status attempts lastStatus lastError createdAt }
`);
const OverviewQuery = graphql(`
  query DashboardOverview($orgId: ID!) {
    organization(id: $orgId) { onboardings { ...DashboardOnboarding } }
    organizationLocations(orgId: $orgId) { locations { ...DashboardLocation } }
  }
`);
const DeliveriesQuery = graphql(`
  query DashboardDeliveries {
    deliveries(status: "dead", first: 50) { ...DashboardDelivery }
  }
`);
graphql(`
  fragment DashboardOrder on Order {
    id dspOrderId dspSource status deliveryStatus fulfillmentType locationId driver { name } failureReason failureDetails createdAt updatedAt
    total { amount currency }
  }
`);
// The newest 40: a page of them with their fields stays within the GraphQL cost bound that
// partners have too (docs/api-guide.md, "Limits"; 50 with their totals would not).
const OrdersQuery = graphql(`
  query DashboardOrders($orgId: ID!, $locationId: ID, $status: OrderStatus) {
    orders(orgId: $orgId, locationId: $locationId, status: $status, first: 40) { orders { ...DashboardOrder } }
  }
`);
const OrderUpdates = graphql(`
  subscription DashboardOrderUpdates($orgId: ID!) { orderUpdated(orgId: $orgId) { ...DashboardOrder } }
`);
const OrganizationChanges = graphql(`
  subscription DashboardChanges($orgId: ID!) {
    organizationChanged(orgId: $orgId) {
      kind
      id
      location { ...DashboardLocation }
      onboarding { ...DashboardOnboarding }
      delivery { ...DashboardDelivery }
    }
  }
`);
const RedeliverMutation = graphql(`
  mutation DashboardRedeliver($id: ID!) { redeliver(id: $id) { id status } }
`);

type Viewer = NonNullable<DashboardViewerQuery['me']>;
type State = {
  viewer: Viewer;
  overview: DashboardOverviewQuery | null;
  deliveries: DashboardDeliveriesQuery['deliveries'];
  orders: Map<string, DashboardOrderFragment>;
  filter: { locationId: string; status: string };
};

/** Where an object with this id is in a list: its place, or the end for a new one. */
const indexOf = (list: readonly { id: string }[], id: string) => {
  const at = list.findIndex((item) => item.id === id);
  return at === -1 ? list.length : at;
};

function showProblem(message: string | null): void {
  const problem = $('problem');
  problem.hidden = message === null;
  problem.textContent = message ?? '';
}

function signedOut(): void {
  document.body.replaceChildren(
    h(
      'main',
      { class: 'signed-out' },
      h('h1', {}, 'You are signed out'),
      h('p', {}, 'Your session has ended. Open the dashboard again from your ordering partner.'),
    ),
  );
}

/** The language of a location's catalog: its money is written as there (./dom.ts, money). */
const languageOf = (state: State, locationId: string | null | undefined): string | null =>
  state.overview?.organizationLocations.locations.find((l) => l.id === locationId)?.catalog[0]?.defaultLanguage ?? null;

function renderOrders(state: State): void {
  const locations = new Map((state.overview?.organizationLocations.locations ?? []).map((l) => [l.id, l.name]));
  const { locationId, status } = state.filter;
  const orders = [...state.orders.values()]
    .filter((o) => (!locationId || o.locationId === locationId) && (!status || o.status === status))
    .sort((a, b) => b.createdAt - a.createdAt);
  const container = $('orders');
  if (!orders.length) {
    const filtered = locationId || status;
    container.replaceChildren(
      h(
        'div',
        { class: 'empty' },
        h('p', { class: 'empty-title' }, filtered ? 'No orders match these filters' : 'No orders yet'),
        h(
          'p',
          { class: 'muted' },
          filtered ? 'Clear a filter to see more.' : 'Orders from your delivery platforms appear here the moment they arrive.',
        ),
      ),
    );
    return;
  }
  const head = h(
    'tr',
    {},
    ...['Placed', 'Order', 'Location', 'Type', 'Status', 'Delivery', 'Driver', 'Total'].map((title) => h('th', { scope: 'col' }, title)),
  );
  const rows = orders.map((order) => {
    const shown = deliveryShown({ ...order, driverName: order.driver?.name ?? null });
    const cell = (label: string, ...content: (Node | string)[]) => h('td', { 'data-label': label }, ...content);
    return h(
      'tr',
      { 'data-order-id': order.id, 'data-dsp-order-id': order.dspOrderId, 'data-status': order.status },
      cell('Placed', h('time', { datetime: new Date(order.createdAt).toISOString() }, time.format(order.createdAt))),
      cell(
        'Order',
        h('button', { type: 'button', class: 'link open-order', 'data-open-order': order.id }, order.dspOrderId),
        h('span', { class: 'muted small' }, ` ${order.dspSource}`),
      ),
      cell('Location', (order.locationId && locations.get(order.locationId)) ?? '–'),
      cell('Type', words(order.fulfillmentType ?? '–')),
      cell(
        'Status',
        badge(order.status),
        // Why a failed order failed, in words, with the sentence that names what was wrong.
        ...(order.failureReason
          ? [
              h(
                'div',
                { class: 'small failure', 'data-failure-reason': order.failureReason, title: order.failureDetails ?? '' },
                words(order.failureReason),
              ),
              ...(order.failureDetails ? [h('div', { class: 'muted small' }, order.failureDetails)] : []),
            ]
          : []),
      ),
      // A driver's progress, for orders a driver delivers; a pickup has none.
      cell('Delivery', h('span', { 'data-delivery': order.deliveryStatus }, shown.delivery)),
      cell('Driver', shown.driver ?? '–'),
      cell('Total', money(order.total, languageOf(state, order.locationId))),
    );
  });
  container.replaceChildren(h('table', { class: 'orders-table' }, h('thead', {}, head), h('tbody', {}, ...rows)));
}

/** Draws the locations again; `changed` reads the page again after a store control was used. */
function renderLocations(state: State, changed: () => Promise<void>): void {
  const locations = state.overview?.organizationLocations.locations ?? [];
  const select = $<HTMLSelectElement>('filter-location');
  const chosen = select.value;
  select.replaceChildren(h('option', { value: '' }, 'All locations'), ...locations.map((l) => h('option', { value: l.id }, l.name)));
  select.value = locations.some((l) => l.id === chosen) ? chosen : '';
  const restoreFocus = keepItemLists();
  $('locations').replaceChildren(
    ...(locations.length
      ? locations.map((location) => locationCard(state, location, changed))
      : [h('p', { class: 'muted' }, 'No locations yet: your partner adds them from your point of sale.')]),
  );
  restoreFocus();
  whenHoursChange(locations, changed);
}

/** Read the page again when a location next opens or closes by its hours: "Open" turns to
 * "Closed" at its time, with no change to hear of. */
let hoursTimer: ReturnType<typeof setTimeout> | undefined;
function whenHoursChange(locations: readonly Location[], reload: () => Promise<void>): void {
  clearTimeout(hoursTimer);
  const next = Math.min(...locations.flatMap((l) => [l.opensAt, l.closesAt]).filter((at): at is number => typeof at === 'number'));
  if (Number.isFinite(next))
    hoursTimer = setTimeout(() => void reload().catch(() => undefined), Math.min(Math.max(next - Date.now(), 0) + 1000, 2 ** 31 - 1));
}

function locationCard(state: State, location: Location, changed: () => Promise<void>): HTMLElement {
  const connections = location.dsps.map((dsp) => {
    const last = dsp.publishes[0];
    const publish = last
      ? h(
          'div',
          { class: 'publish', 'data-publish-status': last.status },
          h('span', {}, 'Menu publish '),
          badge(last.status),
          h(
            'span',
            { class: 'muted small' },
            ` catalog v${last.catalogVersion} · ${last.menuProviderIds.length} menu${last.menuProviderIds.length === 1 ? '' : 's'} · ${time.format(last.createdAt)}`,
          ),
          last.error ? h('p', { class: 'error small' }, last.error) : null,
        )
      : h('div', { class: 'publish muted small' }, 'No menu published yet');
    return h(
      'li',
      { 'data-dsp-connection': dsp.id },
      h('div', {}, h('strong', {}, dsp.name), h('span', { class: 'muted small' }, ` ${dsp.source}`), ' ', badge(dsp.status)),
      publish,
    );
  });
  return h(
    'article',
    { class: 'card', 'data-location-id': location.id },
    h('h3', {}, location.name),
    openingState(location),
    connections.length ? h('ul', { class: 'plain' }, ...connections) : h('p', { class: 'muted small' }, 'No delivery platform connected'),
    stoppedState(location),
    state.viewer.canControlStores && connections.length
      ? storeControls(state.viewer.organization.id, location, changed, (message) => showProblem(message))
      : null,
  );
}

function renderOnboardings(state: State): void {
  const onboardings = state.overview?.organization.onboardings ?? [];
  $('onboardings').replaceChildren(
    onboardings.length
      ? h(
          'ul',
          { class: 'plain' },
          ...onboardings.map((o) =>
            h(
              'li',
              { 'data-onboarding-id': o.id },
              h('strong', {}, o.source),
              h('span', { class: 'muted small' }, ` ${o.type.toUpperCase()} `),
              badge(o.status),
              ...(o.status === 'reauthorization_required'
                ? [
                    h(
                      'p',
                      { class: 'small' },
                      `${o.source} no longer accepts this account's authorization: connect it again; its orders wait until then.`,
                    ),
                  ]
                : []),
            ),
          ),
        )
      : h('p', { class: 'muted' }, 'No connections yet.'),
  );
}

function renderDeliveries(state: State, redeliver: (id: string) => Promise<void>): void {
  $('deliveries-section').hidden = !state.viewer.canRedeliver;
  if (!state.viewer.canRedeliver) return;
  $('deliveries').replaceChildren(
    state.deliveries.length
      ? h(
          'ul',
          { class: 'plain' },
          ...state.deliveries.map((d) => {
            const button = h('button', { type: 'button', class: 'redeliver' }, 'Redeliver') as HTMLButtonElement;
            button.addEventListener('click', () => {
              button.disabled = true;
              button.textContent = 'Sending…';
              void redeliver(d.id);
            });
            return h(
              'li',
              { class: 'delivery', 'data-delivery-id': d.id },
              h(
                'div',
                {},
                h('strong', {}, words(d.kind)),
                h(
                  'span',
                  { class: 'muted small' },
                  ` to ${d.source} · ${d.attempts} attempt${d.attempts === 1 ? '' : 's'} · ${time.format(d.createdAt)}`,
                ),
              ),
              h('p', { class: 'error small' }, d.lastError ?? 'no answer'),
              button,
            );
          }),
        )
      : h('p', { class: 'muted' }, 'Nothing failed. Deliveries that keep failing appear here.'),
  );
}

async function start(): Promise<void> {
  let viewer: Viewer | null | undefined;
  try {
    viewer = (await run(ViewerQuery)).me;
  } catch (error) {
    if (error instanceof SignedOut) return signedOut();
    throw error;
  }
  if (!viewer) return signedOut();
  const orgId = viewer.organization.id;
  const state: State = { viewer, overview: null, deliveries: [], orders: new Map(), filter: { locationId: '', status: '' } };
  document.title = `${viewer.organization.name} · Dashboard`;
  $('org-name').textContent = viewer.organization.name;
  $('user').textContent = `${viewer.user.fullName ?? viewer.user.email} · ${words(viewer.user.role)}`;
  const statusSelect = $<HTMLSelectElement>('filter-status');
  statusSelect.append(...ORDER_STATUSES.map((s) => h('option', { value: s }, words(s))));

  const guard = (work: () => Promise<void>) =>
    work().then(
      () => showProblem(null),
      (error: unknown) => (error instanceof SignedOut ? signedOut() : showProblem(`Could not refresh: ${(error as Error).message}`)),
    );
  const loadOrders = async () => {
    const { locationId, status } = state.filter;
    const page = await run(OrdersQuery, { orgId, locationId: locationId || null, status: (status || null) as OrderStatus | null });
    state.orders = new Map(page.orders.orders.map((o) => [o.id, o]));
    renderOrders(state);
  };
  const loadOverview = async () => {
    const [overview, deliveries] = await Promise.all([
      run(OverviewQuery, { orgId }),
      viewer.canRedeliver ? run(DeliveriesQuery) : Promise.resolve({ deliveries: [] }),
    ]);
    state.overview = overview;
    state.deliveries = deliveries.deliveries;
    renderLocations(state, loadOverview);
    renderOnboardings(state);
    renderDeliveries(state, redeliver);
    renderOrders(state);
    await showDispatch(orgId, viewer.canChooseEventProvider, showProblem);
  };
  // Today's orders at a glance, read again (at most once a second) as orders come in.
  let chartTimer: ReturnType<typeof setTimeout> | undefined;
  const loadChart = async () => {
    const day = today();
    const stats = await run(StatsQuery, { orgId, from: day.from, to: day.to });
    $('day').replaceChildren(drawChart(stats.orderStats, day.from));
  };
  const chartSoon = () => {
    clearTimeout(chartTimer);
    chartTimer = setTimeout(() => void guard(loadChart), 1000);
  };
  $('orders').addEventListener('click', (event) => {
    const id = (event.target as HTMLElement).closest<HTMLElement>('[data-open-order]')?.dataset.openOrder;
    if (id) void guard(() => openOrder(id, (locationId) => languageOf(state, locationId)));
  });
  const redeliver = async (id: string) => {
    await guard(async () => {
      await run(RedeliverMutation, { id });
      await loadOverview();
    });
  };

  for (const [select, key] of [
    [$<HTMLSelectElement>('filter-location'), 'locationId'],
    [statusSelect, 'status'],
  ] as const) {
    select.addEventListener('change', () => {
      state.filter[key] = select.value;
      void guard(loadOrders);
    });
  }

  // Live: after every (re)connection everything is read again, so nothing missed while
  // disconnected stays missing; between, each event updates its part.
  const live = $('live');
  const client = createClient({
    url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
    lazy: false,
    retryAttempts: Infinity,
    on: {
      connected: () => {
        live.dataset.state = 'live';
        live.textContent = 'Live';
        void guard(async () => {
          await Promise.all([loadOverview(), loadOrders(), loadChart()]);
          document.body.dataset.loaded = 'true';
        });
      },
      closed: () => {
        live.dataset.state = 'reconnecting';
        live.textContent = 'Reconnecting…';
      },
    },
  });
  client.subscribe<{ orderUpdated: DashboardOrderFragment }>(
    { query: OrderUpdates.toString(), variables: { orgId } },
    {
      next: ({ data }) => {
        if (!data) return;
        // Two instances publish through Redis in the order they publish, not the order they
        // wrote: a change older than the one shown is not shown over it.
        const shown = state.orders.get(data.orderUpdated.id);
        if (shown && shown.updatedAt > data.orderUpdated.updatedAt) return;
        state.orders.set(data.orderUpdated.id, data.orderUpdated);
        renderOrders(state);
        chartSoon();
      },
      error: () => undefined,
      complete: () => undefined,
    },
  );
  client.subscribe<DashboardChangesSubscription>(
    { query: OrganizationChanges.toString(), variables: { orgId } },
    {
      // Each change carries what changed as it is now: it takes that object's place, and only
      // its part is drawn again.
      next: ({ data }) => {
        if (!data || !state.overview) return;
        const change = data.organizationChanged;
        if (change.kind === 'location') {
          const locations = state.overview.organizationLocations.locations.filter((l) => l.id !== change.id);
          if (change.location) locations.splice(indexOf(state.overview.organizationLocations.locations, change.id), 0, change.location);
          state.overview.organizationLocations.locations = locations;
          renderLocations(state, loadOverview);
          renderOrders(state);
        } else if (change.kind === 'onboarding' && change.onboarding) {
          const onboardings = state.overview.organization.onboardings.filter((o) => o.id !== change.id);
          onboardings.splice(indexOf(state.overview.organization.onboardings, change.id), 0, change.onboarding);
          state.overview.organization.onboardings = onboardings;
          renderOnboardings(state);
        } else if (change.kind === 'delivery' && state.viewer.canRedeliver) {
          const others = state.deliveries.filter((d) => d.id !== change.id);
          // Only dead deliveries are listed: one sent again leaves the list.
          state.deliveries = change.delivery?.status === 'dead' ? [change.delivery, ...others] : others;
          renderDeliveries(state, redeliver);
        }
      },
      error: () => undefined,
      complete: () => undefined,
    },
  );
}

void start().catch((error: unknown) => showProblem(`The dashboard could not start: ${(error as Error).message}`));
