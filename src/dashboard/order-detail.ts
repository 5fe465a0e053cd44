// An order opened: its items with their modifiers and notes, its customer as far as the
// viewer's role may see (the service decides), its delivery (who carries it, their vehicle, when
// they are expected) and its timeline: each recorded change of the order, in words. Only orders
// that are delivered show a delivery.
import { graphql } from './generated/gql.js';
import type { DashboardOrderDetailQuery } from './generated/graphql.js';
import { badge, clock, h, money, run, time, words } from './dom.js';
import { deliveryShown } from './delivery.js';

const DetailQuery = graphql(`
  query DashboardOrderDetail($id: ID!) {
    order(id: $id) {
      id dspOrderId dspSource locationId status deliveryStatus fulfillmentType failureReason failureDetails order createdAt
      total { amount currency }
      eventProvider estimatedDropoffTime
      driver { name source phone { number code } vehicleInfo { make model color licensePlate } }
      customer { name phone maskedPhoneCode }
      timeline { at what status deliveryStatus failureReason driverName note }
    }
  }
`);

type Detail = DashboardOrderDetailQuery['order'];
type Line = { name?: string; service_id?: string; quantity?: number; price?: number; special_instructions?: string; modifiers?: Line[] };

/** The fulfillment types a driver delivers: only these show a delivery status. */
const DELIVERED = new Set(['delivery', 'merchant_managed_delivery']);

/** The cart, each line with its price when it has one (in the order's currency, as its location writes it). */
function lines(items: Line[] | undefined, price: (amount: unknown) => string | null, depth = 0): HTMLElement | null {
  if (!items?.length) return null;
  return h(
    'ul',
    { class: depth ? 'plain modifiers' : 'plain lines' },
    ...items.map((line) =>
      h(
        'li',
        { 'data-line': line.service_id ?? '' },
        h('span', {}, `${line.quantity ?? 1} × ${line.name ?? line.service_id ?? 'item'}`),
        line.price ? h('span', { class: 'small muted price', 'data-price': String(line.price) }, ` ${price(line.price)}`) : null,
        line.special_instructions ? h('span', { class: 'small muted note' }, ` “${line.special_instructions}”`) : null,
        lines(line.modifiers, price, depth + 1),
      ),
    ),
  );
}

/** A timeline entry in words: what happened to the order. */
function happened(entry: Detail['timeline'][number], delivered: boolean): string {
  if (entry.what === 'order.created') return 'placed';
  if (entry.what === 'order.accepted') return 'accepted by the restaurant';
  if (entry.what === 'order.failed') return `failed${entry.failureReason ? `: ${words(entry.failureReason)}` : ''}`;
  const road = delivered && entry.deliveryStatus && entry.deliveryStatus !== 'pending' ? `, delivery ${words(entry.deliveryStatus)}` : '';
  const driver = entry.driverName ? ` (${entry.driverName})` : '';
  return `${words(entry.status ?? 'updated')}${road}${driver}`;
}

/** The delivery in a line: its step, and who carries it in what, and when they are expected. */
function deliveryLine(order: Detail): HTMLElement {
  const shown = deliveryShown({ ...order, driverName: order.driver?.name ?? null });
  const driver = shown.driver ? order.driver : null;
  const vehicle = driver?.vehicleInfo
    ? [driver.vehicleInfo.color, driver.vehicleInfo.make, driver.vehicleInfo.model].filter(Boolean).join(' ') +
      (driver.vehicleInfo.licensePlate ? ` (${driver.vehicleInfo.licensePlate})` : '')
    : '';
  const phone = driver?.phone ? ` ${[driver.phone.code, driver.phone.number].filter(Boolean).join(' ')}` : '';
  const expected =
    order.estimatedDropoffTime && shown.driver && order.status !== 'completed'
      ? ` · expected ${clock.format(order.estimatedDropoffTime)}`
      : '';
  return h(
    'p',
    { class: 'small', 'data-delivery-status': order.deliveryStatus },
    `Delivery: ${shown.delivery}${expected}`,
    driver ? h('span', { 'data-driver': '' }, ` · ${driver.name}${phone}${vehicle ? ` · ${vehicle}` : ''}`) : null,
    order.eventProvider ? h('span', { class: 'muted' }, ` · by ${order.eventProvider}`) : null,
  );
}

function detailOf(order: Detail, language: string | null): HTMLElement {
  const sent = (order.order ?? {}) as { items?: Line[]; special_instructions?: string; currency?: unknown };
  const delivered = DELIVERED.has(order.fulfillmentType ?? '');
  const price = (amount: unknown) =>
    typeof amount === 'number' && typeof sent.currency === 'string' ? money({ amount, currency: sent.currency }, language) : null;
  return h(
    'div',
    { class: 'detail', 'data-order-detail': order.id },
    h('h2', {}, `Order ${order.dspOrderId}`),
    h(
      'p',
      {},
      badge(order.status),
      ` ${words(order.fulfillmentType ?? '')} · ${order.dspSource} · ${time.format(order.createdAt)} · ${money(order.total, language)}`,
    ),
    delivered ? deliveryLine(order) : null,
    order.failureReason ? h('p', { class: 'small error' }, `${words(order.failureReason)}: ${order.failureDetails ?? ''}`) : null,
    h('h3', {}, 'Items'),
    lines(sent.items, price) ?? h('p', { class: 'muted small' }, 'No items.'),
    sent.special_instructions ? h('p', { class: 'small note' }, `Note: ${sent.special_instructions}`) : null,
    h('h3', {}, 'Customer'),
    order.customer
      ? h(
          'p',
          { class: 'customer', 'data-customer': '' },
          order.customer.name ?? '–',
          order.customer.phone
            ? ` · ${order.customer.phone}`
            : order.customer.maskedPhoneCode
              ? ` · code ${order.customer.maskedPhoneCode}`
              : '',
        )
      : h('p', { class: 'muted small' }, 'Not given.'),
    h('h3', {}, 'Timeline'),
    h(
      'ol',
      { class: 'timeline' },
      ...order.timeline.map((entry) =>
        h(
          'li',
          { 'data-timeline': entry.what },
          h('time', { datetime: new Date(entry.at).toISOString() }, time.format(entry.at)),
          ` ${happened(entry, delivered)}`,
          entry.note ? h('div', { class: 'small muted', 'data-note': '' }, entry.note) : null,
        ),
      ),
    ),
  );
}

/** Opens an order in the page's dialog; `languageOf` names the language its location writes money in. */
export async function openOrder(id: string, languageOf: (locationId: string | null | undefined) => string | null): Promise<void> {
  const dialog = document.getElementById('order-dialog') as HTMLDialogElement;
  const { order } = await run(DetailQuery, { id });
  const close = h('button', { type: 'button', class: 'quiet close' }, 'Close');
  close.addEventListener('click', () => dialog.close());
  dialog.replaceChildren(detailOf(order, languageOf(order.locationId)), close);
  if (!dialog.open) dialog.showModal();
}
