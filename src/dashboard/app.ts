// The merchant dashboard, in the order a manager on a busy night needs it: first the stores as they
// are now (open or closed, paused, what is off sale) with the controls to stop them (./stores.ts:
// owners, admins and managers pause stores, make them busy and take items off sale), then every order (./orders.ts:
// filtered, paged, with the total; each opens to its detail, ./order-detail.ts), then the day at a
// glance (./chart.ts), then the messages that failed for good (owners and admins redeliver them),
// the connections, and who delivers the merchant's own orders (./dispatch.ts). Owners, admins and
// managers have a second page, the End of day (./end-of-day.ts, at #end-of-day). On a laptop the
// orders take the wide column and the rest stands beside them. Everything is named in the
// manager's words (./words.ts): platforms and POS by their display names, never an id.
//
// It reads through /graphql with the session cookie, and stays current through two graphql-ws
// subscriptions: orderUpdated (each order as it changes) and organizationChanged (each location,
// onboarding or dead message as it changes, taking its place on the page: nothing is read again).
// No framework: the page is small, and the DOM is written with textContent only (./dom.ts).
import { createClient } from 'graphql-ws';
import { graphql } from './generated/gql.js';
import type {
  DashboardChangesSubscription,
  DashboardOverviewQuery,
  DashboardDeliveriesQuery,
  DashboardViewerQuery,
} from './generated/graphql.js';
import type { Location } from './stores.js';
import { ORDER_STATUSES } from '../modules/orders/states.js';
import { $, badge, calendarDate, currencyName, h, money, run, SignedOut, timeOfDay, when } from './dom.js';
import { itemNames, keepItemLists, openingState, stoppedState, storeControls, takeOffSale } from './stores.js';
import { dayWords, drawChart, StatsQuery, today } from './chart.js';
import { openOrder, type DetailContext } from './order-detail.js';
import { showDispatch } from './dispatch.js';
import { isEndOfDay, showEndOfDay, type EndOfDayContext } from './end-of-day.js';
import {
  dayRange,
  filterVariables,
  matches,
  OrderCountQuery,
  OrdersQuery,
  ordersTable,
  PAGE_SIZE,
  type Filter,
  type Order,
  type RowContext,
} from './orders.js';
import { messageName, named, STATE_NAMES, STATUS_NAMES, type Naming } from './words.js';

const ViewerQuery = graphql(`
  query DashboardViewer {
    me {
      canRedeliver canControlStores canChooseEventProvider canReadEndOfDay
      user { email fullName role }
      organization { id name createdAt }
    }
    providers { source kind name }
  }
`);
graphql(`
  fragment DashboardLocation on Location {
    id
    name
    source
    timezone
    openNow opensAt closesAt
    prepTimeMinutes busy { extraPrepMinutes untilMs }
    closedDays { date name }
    offSale { itemId untilMs }
    catalog { currency defaultLanguage items { providerId name } modifiers { providerId name } }
    dsps { id name source dspStoreId status pausedUntil dspStatus publishes(last: 1) { status menuProviderIds catalogVersion error createdAt } }
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
  /** What merchants call each provider, by source. */
  providers: Map<string, string>;
  overview: DashboardOverviewQuery | null;
  deliveries: DashboardDeliveriesQuery['deliveries'];
  /** The orders read so far for the filters, by id; `nextCursor` reads the page after them. */
  orders: Map<string, Order>;
  nextCursor: string | null;
  /** How many orders the filters match in all (null: not read yet). */
  total: number | null;
  filter: Filter;
  /** The filters the orders read so far were read for (a new choice's read may be on its way). */
  readFor: Filter | null;
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
  document.title = 'Signed out · Dashboard';
  document.body.replaceChildren(
    h(
      'main',
      { class: 'signed-out' },
      h('h1', {}, 'You are signed out'),
      h('p', {}, 'Your session has ended. To sign in again, open the dashboard from your ordering partner’s app or website.'),
    ),
  );
}

const locationsOf = (state: State) => state.overview?.organizationLocations.locations ?? [];
const locationOf = (state: State, id: string | null | undefined) => locationsOf(state).find((l) => l.id === id);
const providerName = (state: State, source: string) => state.providers.get(source) ?? source;

/** The language of a location's catalog: its money is written as there (./dom.ts, money). */
const languageOf = (state: State, locationId: string | null | undefined): string | null =>
  locationOf(state, locationId)?.catalog[0]?.defaultLanguage ?? null;

/** How the words name what an order's failure sentence speaks of. */
function namingOf(state: State, order: { locationId?: string | null; dspSource: string; total?: { currency: string } | null }): Naming {
  const location = locationOf(state, order.locationId);
  const items = location ? itemNames(location) : new Map<string, string | null | undefined>();
  const stores = new Map(locationsOf(state).flatMap((l) => l.dsps.map((d) => [d.dspStoreId, d.name] as const)));
  const currency = order.total?.currency ?? location?.catalog[0]?.currency ?? 'usd';
  return {
    item: (id) => items.get(id) ?? null,
    store: (id) => stores.get(id) ?? null,
    platform: providerName(state, order.dspSource),
    pos: location ? providerName(state, location.source) : 'Your POS',
    clock: when,
    time: timeOfDay,
    date: calendarDate,
    money: (amount) => money({ amount, currency }, languageOf(state, order.locationId)),
    currency: currencyName,
  };
}

const rowContext = (state: State, changed: () => Promise<void>): RowContext => ({
  platformName: (source) => providerName(state, source),
  locationName: (id) => locationOf(state, id)?.name ?? '—',
  timeZone: (id) => locationOf(state, id)?.timezone ?? null,
  // The items a failed order's POS had none of, off sale at its location in one step, for those who may.
  takeOffSale: (order, itemIds) => {
    const location = locationOf(state, order.locationId);
    return location && state.viewer.canControlStores
      ? takeOffSale(state.viewer.organization.id, location, itemIds, changed, (message) => showProblem(message))
      : null;
  },
  language: (id) => languageOf(state, id),
  naming: (order) => namingOf(state, order),
});

const detailContext = (state: State): DetailContext => ({
  naming: (order) => namingOf(state, order),
  language: (id) => languageOf(state, id),
  providerName: (source) => providerName(state, source),
  timeZone: (id) => locationOf(state, id)?.timezone ?? null,
});

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const filtered = (filter: Filter) => Object.values(filter).some(Boolean);

function renderOrders(state: State, more: () => void, changed: () => Promise<void>): void {
  const orders = [...state.orders.values()].filter((o) => matches(o, state.filter)).sort((a, b) => b.createdAt - a.createdAt);
  const total = Math.max(state.total ?? orders.length, orders.length);
  const count = $('orders-count');
  count.dataset.total = String(total);
  count.dataset.shown = String(orders.length);
  count.textContent =
    total === 0
      ? ''
      : orders.length >= total
        ? `${total === 1 ? '1 order' : `All ${total} orders`}${filtered(state.filter) ? ' matching the filters' : ''}`
        : `Showing ${orders.length} of ${total} orders${filtered(state.filter) ? ' matching the filters' : ''}`;
  const container = $('orders');
  // Which filters the list answers (the page's tests wait for it).
  container.dataset.filter = JSON.stringify(state.readFor);
  const left = total - orders.length;
  const next = Math.min(PAGE_SIZE, left);
  const button = h(
    'button',
    { type: 'button', class: 'show-more', 'aria-label': `Show ${next} more orders, of the ${left} not shown` },
    `Show ${next} more`,
  );
  button.addEventListener('click', more);
  if (state.nextCursor && left > 0) $('orders-more').replaceChildren(button);
  else $('orders-more').replaceChildren();
  if (!orders.length) {
    const narrowed = filtered(state.filter);
    container.replaceChildren(
      h(
        'div',
        { class: 'empty' },
        h('p', { class: 'empty-title' }, narrowed ? 'No orders match these filters' : 'No orders yet'),
        h(
          'p',
          { class: 'muted' },
          narrowed ? 'Clear a filter to see more.' : 'Orders from your delivery platforms appear here the moment they arrive.',
        ),
      ),
    );
    return;
  }
  container.replaceChildren(ordersTable(orders, rowContext(state, changed)));
}

/** The filters' choices: the organization's locations and the platforms it is connected to. */
function renderFilterChoices(state: State): void {
  const choose = (id: string, any: string, choices: [value: string, text: string][]) => {
    const select = $<HTMLSelectElement>(id);
    const chosen = select.value;
    select.replaceChildren(h('option', { value: '' }, any), ...choices.map(([value, text]) => h('option', { value }, text)));
    select.value = choices.some(([value]) => value === chosen) ? chosen : '';
  };
  choose(
    'filter-location',
    'All locations',
    locationsOf(state).map((l) => [l.id, l.name]),
  );
  const platforms = new Set([
    ...(state.overview?.organization.onboardings ?? []).filter((o) => o.type === 'dsp').map((o) => o.source),
    ...locationsOf(state).flatMap((l) => l.dsps.map((d) => d.source)),
  ]);
  choose(
    'filter-platform',
    'All platforms',
    [...platforms].sort().map((source) => [source, providerName(state, source)]),
  );
}

/** Draws the locations again; `changed` reads the page again after a store control was used. */
function renderLocations(state: State, changed: () => Promise<void>): void {
  const locations = locationsOf(state);
  renderFilterChoices(state);
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
    // The platform's name says which store it is, unless the location has two on that platform.
    const twin = location.dsps.some((other) => other.id !== dsp.id && other.source === dsp.source);
    return h(
      'li',
      { 'data-dsp-connection': dsp.id },
      h('strong', {}, providerName(state, dsp.source)),
      twin ? h('span', { class: 'small' }, `(${dsp.name})`) : null,
      badge(dsp.status, named(STATE_NAMES, dsp.status)),
      last
        ? h(
            'span',
            { class: 'publish small muted', 'data-publish-status': last.status },
            `menu ${last.status === 'published' ? 'published' : named(STATE_NAMES, last.status).toLowerCase()} ${when(last.createdAt)}`,
            last.error ? h('span', { class: 'error' }, `: ${last.error}`) : null,
          )
        : h('span', { class: 'publish small muted' }, 'no menu published yet'),
    );
  });
  return h(
    'article',
    { class: 'card', 'data-location-id': location.id, 'aria-labelledby': `location-${location.id}` },
    h('h3', { id: `location-${location.id}` }, location.name),
    openingState(location),
    stoppedState(location, (source) => providerName(state, source)),
    state.viewer.canControlStores && connections.length
      ? storeControls(state.viewer.organization.id, location, changed, (message) => showProblem(message))
      : null,
    connections.length
      ? h('ul', { class: 'plain connections' }, ...connections)
      : h('p', { class: 'muted small' }, 'No delivery platform connected'),
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
              h('strong', {}, providerName(state, o.source)),
              h('span', { class: 'muted small' }, ` ${o.type === 'pos' ? 'point of sale' : 'delivery platform'} `),
              badge(o.status, named(STATE_NAMES, o.status)),
              ...(o.status === 'reauthorization_required'
                ? [
                    h(
                      'p',
                      { class: 'small' },
                      `${providerName(state, o.source)} no longer accepts this account's authorization: connect it again; its orders wait until then.`,
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
            const what = `${messageName(d.kind)} to ${providerName(state, d.source)}`;
            const button = h(
              'button',
              { type: 'button', class: 'redeliver', 'aria-label': `Send again: ${what}` },
              'Send again',
            ) as HTMLButtonElement;
            button.addEventListener('click', () => {
              button.disabled = true;
              button.textContent = 'Sending…';
              void redeliver(d.id);
            });
            return h(
              'li',
              { class: 'message', 'data-delivery-id': d.id },
              h(
                'div',
                {},
                h('strong', {}, what),
                h('span', { class: 'muted small' }, ` · ${plural(d.attempts, 'attempt', 'attempts')} · ${when(d.createdAt)}`),
              ),
              h('p', { class: 'error small' }, d.lastError ?? 'no answer'),
              button,
            );
          }),
        )
      : h('p', { class: 'muted' }, 'Nothing failed. Messages to your POS or platforms that keep failing appear here.'),
  );
}

async function start(): Promise<void> {
  let viewer: Viewer | null | undefined;
  let providers: DashboardViewerQuery['providers'] = [];
  try {
    const answer = await run(ViewerQuery);
    viewer = answer.me;
    providers = answer.providers;
  } catch (error) {
    if (error instanceof SignedOut) return signedOut();
    throw error;
  }
  if (!viewer) return signedOut();
  const orgId = viewer.organization.id;
  const state: State = {
    viewer,
    providers: new Map(providers.map((p) => [p.source, p.name])),
    overview: null,
    deliveries: [],
    orders: new Map(),
    nextCursor: null,
    total: null,
    filter: { status: '', locationId: '', dspSource: '', day: '' },
    readFor: null,
  };
  document.title = `${viewer.organization.name} · Dashboard`;
  $('org-name').textContent = viewer.organization.name;
  $('user').textContent = `${viewer.user.fullName ?? viewer.user.email} · ${named({}, viewer.user.role)}`;
  $<HTMLSelectElement>('filter-status').append(...ORDER_STATUSES.map((s) => h('option', { value: s }, named(STATUS_NAMES, s))));

  const guard = (work: () => Promise<void>) =>
    work().then(
      () => showProblem(null),
      (error: unknown) => (error instanceof SignedOut ? signedOut() : showProblem(`Could not refresh: ${(error as Error).message}`)),
    );
  // Each read of the orders is numbered: an answer to a filter since changed is not drawn.
  let reading = 0;
  const loadOrders = async () => {
    const asked = ++reading;
    const filter = state.filter;
    const page = await run(OrdersQuery, { orgId, ...filterVariables(filter), after: null });
    if (asked !== reading) return;
    state.readFor = filter;
    state.orders = new Map(page.orders.orders.map((o) => [o.id, o]));
    state.nextCursor = page.orders.nextCursor ?? null;
    state.total = page.orders.totalCount;
    renderOrders(state, showMore, loadOverview);
  };
  const loadMore = async () => {
    const asked = reading;
    const page = await run(OrdersQuery, { orgId, ...filterVariables(state.filter), after: state.nextCursor });
    if (asked !== reading) return;
    for (const order of page.orders.orders) if (!state.orders.has(order.id)) state.orders.set(order.id, order);
    state.nextCursor = page.orders.nextCursor ?? null;
    state.total = page.orders.totalCount;
    renderOrders(state, showMore, loadOverview);
  };
  const showMore = () => void guard(loadMore);
  // The total again (at most once a second) as orders come in or change: an order on a page not
  // read yet may have come into or left the filters.
  let countTimer: ReturnType<typeof setTimeout> | undefined;
  const countSoon = () => {
    clearTimeout(countTimer);
    countTimer = setTimeout(
      () =>
        void guard(async () => {
          const asked = reading;
          const counted = await run(OrderCountQuery, { orgId, ...filterVariables(state.filter) });
          if (asked !== reading) return;
          state.total = counted.orders.totalCount;
          renderOrders(state, showMore, loadOverview);
        }),
      1000,
    );
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
    renderOrders(state, showMore, loadOverview);
    await showDispatch(orgId, viewer.canChooseEventProvider, showProblem, (source) => providerName(state, source));
  };
  // The day's orders at a glance (today's, or the day the filter chose), read again (at most once
  // a second) as orders come in.
  let chartTimer: ReturnType<typeof setTimeout> | undefined;
  const loadChart = async () => {
    const day = dayRange(state.filter.day) ?? today();
    const stats = await run(StatsQuery, { orgId, from: day.from, to: day.to });
    if (day.from !== (dayRange(state.filter.day) ?? today()).from) return;
    $('today-title').textContent = dayWords(day.from).title;
    $('day').replaceChildren(drawChart(stats.orderStats, day.from, (source) => providerName(state, source)));
  };
  const chartSoon = () => {
    clearTimeout(chartTimer);
    chartTimer = setTimeout(() => void guard(loadChart), 1000);
  };
  $('orders').addEventListener('click', (event) => {
    const id = (event.target as HTMLElement).closest<HTMLElement>('[data-open-order]')?.dataset.openOrder;
    if (id) void guard(() => openOrder(id, detailContext(state)));
  });
  // The End of day page, for those who may read it: shown when the address names it, read again
  // (at most once a second) as orders come in.
  const endOfDay: EndOfDayContext = {
    orgId,
    orgCreatedAt: viewer.organization.createdAt,
    locations: () => locationsOf(state).map((l) => ({ id: l.id, name: l.name, timezone: l.timezone, language: languageOf(state, l.id) })),
    platformName: (source) => providerName(state, source),
    problem: showProblem,
  };
  const onEndOfDay = () => viewer.canReadEndOfDay && isEndOfDay(window.location.hash);
  const showPage = () => {
    const shown = onEndOfDay();
    $('overview').hidden = shown;
    $('end-of-day').hidden = !shown;
    for (const [id, current] of [
      ['page-overview', !shown],
      ['page-end-of-day', shown],
    ] as const)
      current ? $(id).setAttribute('aria-current', 'page') : $(id).removeAttribute('aria-current');
    document.title = `${shown ? 'End of day · ' : ''}${viewer.organization.name} · Dashboard`;
    if (shown && state.overview) void guard(() => showEndOfDay(endOfDay, window.location.hash));
  };
  $('pages').hidden = !viewer.canReadEndOfDay;
  window.addEventListener('hashchange', showPage);
  let endOfDayTimer: ReturnType<typeof setTimeout> | undefined;
  const endOfDaySoon = () => {
    if (!onEndOfDay()) return;
    clearTimeout(endOfDayTimer);
    endOfDayTimer = setTimeout(() => onEndOfDay() && void guard(() => showEndOfDay(endOfDay, window.location.hash)), 1000);
  };
  const redeliver = async (id: string) => {
    await guard(async () => {
      await run(RedeliverMutation, { id });
      await loadOverview();
    });
  };

  const filters = $<HTMLFormElement>('filters');
  const controls = {
    status: $<HTMLSelectElement>('filter-status'),
    locationId: $<HTMLSelectElement>('filter-location'),
    dspSource: $<HTMLSelectElement>('filter-platform'),
    day: $<HTMLInputElement>('filter-day'),
  };
  const filterChanged = () => {
    state.filter = {
      status: controls.status.value,
      locationId: controls.locationId.value,
      dspSource: controls.dspSource.value,
      day: controls.day.value,
    };
    void guard(loadOrders);
    void guard(loadChart);
  };
  filters.addEventListener('change', filterChanged);
  filters.addEventListener('submit', (event) => event.preventDefault());
  // After the reset has emptied the controls.
  filters.addEventListener('reset', () => setTimeout(filterChanged));

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
          showPage();
          document.body.dataset.loaded = 'true';
        });
      },
      closed: () => {
        live.dataset.state = 'reconnecting';
        live.textContent = 'Reconnecting…';
      },
    },
  });
  client.subscribe<{ orderUpdated: Order }>(
    { query: OrderUpdates.toString(), variables: { orgId } },
    {
      next: ({ data }) => {
        if (!data) return;
        const order = data.orderUpdated;
        // Two instances publish through Redis in the order they publish, not the order they
        // wrote: a change older than the one shown is not shown over it.
        const shown = state.orders.get(order.id);
        if (shown && shown.updatedAt > order.updatedAt) return;
        // An order older than every one read so far comes with its page, when that is read.
        const oldest = Math.min(...[...state.orders.values()].map((o) => o.createdAt));
        if (!matches(order, state.filter)) state.orders.delete(order.id);
        else if (shown || !state.nextCursor || order.createdAt >= oldest) state.orders.set(order.id, order);
        renderOrders(state, showMore, loadOverview);
        countSoon();
        chartSoon();
        endOfDaySoon();
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
          renderOrders(state, showMore, loadOverview);
        } else if (change.kind === 'onboarding' && change.onboarding) {
          const onboardings = state.overview.organization.onboardings.filter((o) => o.id !== change.id);
          onboardings.splice(indexOf(state.overview.organization.onboardings, change.id), 0, change.onboarding);
          state.overview.organization.onboardings = onboardings;
          renderOnboardings(state);
        } else if (change.kind === 'delivery' && state.viewer.canRedeliver) {
          const others = state.deliveries.filter((d) => d.id !== change.id);
          // Only dead messages are listed: one sent again leaves the list.
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
