// The orders: filtered by status, location, platform and day, newest first, a page of 50 at a
// time with "Show more" and the total the filters match (every order reachable, however busy the
// night); each day under its own heading and each order at its time, named by the number its
// customer was given and their first name, with its status, why it failed in a sentence, its
// delivery and its total in its location's money. Each row opens the order (./order-detail.ts).
import { graphql } from './generated/gql.js';
import type { DashboardOrderFragment, OrderStatus } from './generated/graphql.js';
import { badge, clock, clockIn, dayHeading, dayStart, h, money } from './dom.js';
import { deliveryShown, vehicleText } from './delivery.js';
import { FULFILLMENT_NAMES, failureSentence, named, outOfStock, STATUS_NAMES, type Naming } from './words.js';

graphql(`
  fragment DashboardOrder on Order {
    id dspOrderId dspOrderNumber dspSource status deliveryStatus fulfillmentType locationId failureReason failureDetails createdAt updatedAt
    customer { name }
    driver { name vehicleInfo { make model color licensePlate } }
    total { amount currency }
    prepTimeMinutes estimatedReadyTime
  }
`);
// A page of 50 with these fields stays within the GraphQL cost bound partners have too
// (docs/api-guide.md, "Limits": 5,000, a page's fields counted once per order asked for), which
// counts a fragment spread as one level more: the page spells out the fields of DashboardOrder
// (the subscription's), and the type check holds the two alike (each page's orders are kept as
// DashboardOrder). The next page is asked for with the page's cursor, so that an order arriving
// meanwhile moves nothing from one page to the next.
export const OrdersQuery = graphql(`
  query DashboardOrders($orgId: ID!, $status: OrderStatus, $locationId: ID, $dspSource: String, $from: Float, $to: Float, $after: ID) {
    orders(orgId: $orgId, status: $status, locationId: $locationId, dspSource: $dspSource, from: $from, to: $to, first: 50, after: $after) {
      totalCount
      nextCursor
      orders {
        id dspOrderId dspOrderNumber dspSource status deliveryStatus fulfillmentType locationId failureReason failureDetails createdAt updatedAt
        customer { name }
        driver { name vehicleInfo { make model color licensePlate } }
        total { amount currency }
        prepTimeMinutes estimatedReadyTime
      }
    }
  }
`);
export const OrderCountQuery = graphql(`
  query DashboardOrderCount($orgId: ID!, $status: OrderStatus, $locationId: ID, $dspSource: String, $from: Float, $to: Float) {
    orders(orgId: $orgId, status: $status, locationId: $locationId, dspSource: $dspSource, from: $from, to: $to, first: 1) { totalCount }
  }
`);
/** The orders of a page (the query's `first`). */
export const PAGE_SIZE = 50;

export type Order = DashboardOrderFragment;
/** The filters as the form holds them; '' is any. `day` is a date of the viewer's (YYYY-MM-DD). */
export type Filter = { status: string; locationId: string; dspSource: string; day: string };

/** A day of the viewer's calendar as the instants it spans (its own midnight to the next). */
export function dayRange(day: string): { from: number; to: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  return { from: new Date(year, month, date).getTime(), to: new Date(year, month, date + 1).getTime() };
}

/** The filters as the query's variables. */
export function filterVariables(filter: Filter) {
  const range = dayRange(filter.day);
  return {
    status: (filter.status || null) as OrderStatus | null,
    locationId: filter.locationId || null,
    dspSource: filter.dspSource || null,
    from: range?.from ?? null,
    to: range?.to ?? null,
  };
}

/** Whether an order (as a live update brings it) is one the filters show. */
export function matches(order: Order, filter: Filter): boolean {
  const range = dayRange(filter.day);
  return (
    (!filter.status || order.status === filter.status) &&
    (!filter.locationId || order.locationId === filter.locationId) &&
    (!filter.dspSource || order.dspSource === filter.dspSource) &&
    (!range || (order.createdAt >= range.from && order.createdAt < range.to))
  );
}

/** An order as its customer knows it: "#4821 · Jamie"; the first name alone, or the time, when the platform gave no number. */
export function orderName(number: string | null | undefined, customer: string | null | undefined, createdAt: number): string {
  const first = customer?.trim().split(/\s+/)[0] || null;
  if (number) return first ? `${number} · ${first}` : number;
  return first ? `for ${first}` : `of ${clock.format(createdAt)}`;
}

/** What a row needs from the page: names of platforms and locations, and the words of failures. */
export type RowContext = {
  platformName: (source: string) => string;
  locationName: (id: string | null | undefined) => string;
  /** A location's time zone (its clock tells when an order is to be ready). */
  timeZone: (locationId: string | null | undefined) => string | null;
  /** The control that takes a failed order's out-of-stock items off sale, where the viewer may. */
  takeOffSale: (order: Order, itemIds: string[]) => HTMLElement | null;
  language: (locationId: string | null | undefined) => string | null;
  naming: (order: Order) => Naming;
};

/** The kitchen's pace, while it has the order: when it is to be ready ("Ready about 7:40 PM", on its
 * location's clock), or that the kitchen (`pos`, its POS's name) has yet to say yes. The order's
 * row and its detail say it alike. */
export function kitchenLine(
  order: { status: string; estimatedReadyTime?: number | null },
  pos: string,
  timeZone: string | null,
): HTMLElement | null {
  if (order.status === 'awaiting_confirmation') return h('p', { class: 'small muted awaiting' }, `${pos} has yet to accept it`);
  if (order.status !== 'in_progress' || !order.estimatedReadyTime) return null;
  return h(
    'p',
    { class: 'small ready', 'data-ready-at': String(order.estimatedReadyTime) },
    `Ready about ${clockIn(order.estimatedReadyTime, timeZone)}`,
  );
}

function row(order: Order, context: RowContext): HTMLElement {
  const platform = context.platformName(order.dspSource);
  // The car by its looks here; its plate is in the order's detail.
  const vehicle = vehicleText(order.driver?.vehicleInfo ? { ...order.driver.vehicleInfo, licensePlate: null } : null);
  const shown = deliveryShown({ ...order, driver: order.driver ? { name: order.driver.name, vehicle } : null, platform });
  const name = orderName(order.dspOrderNumber, order.customer?.name, order.createdAt);
  const cell = (label: string, attributes: Record<string, string>, ...content: (Node | string | null)[]) =>
    h('td', { 'data-label': label, ...attributes }, ...content);
  return h(
    'tr',
    { 'data-order-id': order.id, 'data-dsp-order-id': order.dspOrderId ?? '', 'data-status': order.status },
    cell('Time', { class: 'time' }, h('time', { datetime: new Date(order.createdAt).toISOString() }, clock.format(order.createdAt))),
    cell(
      'Order',
      { class: 'order' },
      h('button', { type: 'button', class: 'link open-order', 'data-open-order': order.id, 'aria-label': `Open order ${name}` }, name),
      // On a laptop how it is fulfilled stands here, under the order (its column is the phone's).
      h(
        'span',
        { class: 'platform muted small' },
        h('span', { class: 'kind' }, `${named(FULFILLMENT_NAMES, order.fulfillmentType)} · `),
        platform,
      ),
    ),
    cell('Location', { class: 'location' }, context.locationName(order.locationId)),
    cell('Type', { class: 'type' }, named(FULFILLMENT_NAMES, order.fulfillmentType)),
    // A failed order has no delivery: its reason takes the delivery's column too.
    cell(
      'Status',
      order.status === 'failed' && shown.delivery === '—' ? { class: 'status', colspan: '2' } : { class: 'status' },
      badge(order.status, named(STATUS_NAMES, order.status)),
      kitchenLine(order, context.naming(order).pos, context.timeZone(order.locationId)),
      // Why a failed order failed, as a sentence that names what was wrong.
      order.failureReason
        ? h(
            'p',
            { class: 'small failure', 'data-failure-reason': order.failureReason },
            failureSentence(order.failureReason, order.failureDetails, context.naming(order)),
          )
        : null,
      order.status === 'failed' ? context.takeOffSale(order, outOfStock(order.failureReason, order.failureDetails)) : null,
    ),
    order.status === 'failed' && shown.delivery === '—'
      ? null
      : cell(
          'Delivery',
          { class: shown.delivery === '—' ? 'delivery none' : 'delivery' },
          h('span', { 'data-delivery': order.deliveryStatus }, shown.delivery),
          shown.driver ? h('span', { class: 'driver small muted', 'data-driver': '' }, shown.driver) : null,
        ),
    cell('Total', { class: 'total' }, money(order.total, context.language(order.locationId))),
  );
}

/** The orders, newest first, under a heading for each day. */
export function ordersTable(orders: Order[], context: RowContext): HTMLElement {
  const head = h(
    'thead',
    {},
    h(
      'tr',
      {},
      ...['Time', 'Order', 'Location', 'Type', 'Status', 'Delivery', 'Total'].map((title) =>
        h('th', { scope: 'col', class: title.toLowerCase() }, title),
      ),
    ),
  );
  const days: HTMLElement[] = [];
  let day: number | null = null;
  let rows: HTMLElement[] = [];
  const close = () => {
    if (day === null) return;
    days.push(
      h(
        'tbody',
        { 'data-day': String(day) },
        h('tr', { class: 'day-row' }, h('th', { scope: 'colgroup', colspan: '7' }, dayHeading(day))),
        ...rows,
      ),
    );
  };
  for (const order of orders) {
    const start = dayStart(order.createdAt);
    if (start !== day) {
      close();
      day = start;
      rows = [];
    }
    rows.push(row(order, context));
  }
  close();
  return h('table', { class: 'orders-table' }, h('caption', { class: 'visually-hidden' }, 'Orders, newest first'), head, ...days);
}
