// An order opened: its items with their modifiers and notes, its customer as far as the viewer's
// role may see (the service decides), its delivery (who carries it, their vehicle, when they are
// expected) and its timeline: each recorded change of the order, in words. Only orders that are
// delivered show a delivery. The order is named as its customer knows it (its number and first
// name), never by an id.
import { graphql } from './generated/gql.js';
import type { DashboardOrderDetailQuery } from './generated/graphql.js';
import { badge, clock, h, money, run, when } from './dom.js';
import { DELIVERY_STEPS, deliveryShown, vehicleText } from './delivery.js';
import { cancellationSentence, FULFILLMENT_NAMES, failureSentence, named, REASON_NAMES, STATUS_NAMES, type Naming } from './words.js';
import { kitchenLine, orderName } from './orders.js';

const DetailQuery = graphql(`
  query DashboardOrderDetail($id: ID!) {
    order(id: $id) {
      id dspOrderNumber dspSource dspStoreId locationId status deliveryStatus fulfillmentType failureReason failureDetails order createdAt
      total { amount currency }
      amounts {
        subtotal { amount } tax { amount } taxWithheldByDsp { amount } deliveryFee { amount } deliveryFeeTax { amount }
        restaurantTip { amount } driverTip { amount } markup { amount } total { amount }
        discounts { name amount { amount } fundedBy merchantAmount { amount } }
      }
      cancellation { by reason details }
      eventProvider estimatedDropoffTime estimatedReadyTime
      driver { name source phone { number code } vehicleInfo { make model color licensePlate } }
      customer { name phone maskedPhoneCode }
      timeline { at what status deliveryStatus failureReason driverName note }
    }
  }
`);

type Detail = DashboardOrderDetailQuery['order'];
type Line = { name?: string; service_id?: string; quantity?: number; price?: number; special_instructions?: string; modifiers?: Line[] };
type Entry = Detail['timeline'][number];

/** What the detail needs from the page: the names of things, and how its location writes money. */
export type DetailContext = {
  naming: (order: { locationId?: string | null; dspSource: string; total?: { currency: string } | null }) => Naming;
  language: (locationId: string | null | undefined) => string | null;
  providerName: (source: string) => string;
  /** A location's time zone (its clock tells when an order is to be ready). */
  timeZone: (locationId: string | null | undefined) => string | null;
};

/** The fulfillment types a driver delivers: only these show a delivery status. */
const DELIVERED = new Set(['delivery', 'merchant_managed_delivery']);
const STEP_WORDS = new Map(DELIVERY_STEPS);

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
        h('span', {}, `${line.quantity ?? 1} × ${line.name ?? 'an item'}`),
        line.price ? h('span', { class: 'small muted price', 'data-price': String(line.price) }, ` ${price(line.price)}`) : null,
        line.special_instructions ? h('span', { class: 'small muted note' }, ` “${line.special_instructions}”`) : null,
        lines(line.modifiers, price, depth + 1),
      ),
    ),
  );
}

/** The names the cart itself gives its items and modifiers, at any depth. */
function lineNames(items: Line[] | undefined, names = new Map<string, string>()): Map<string, string> {
  for (const line of items ?? []) {
    if (line.service_id && line.name) names.set(line.service_id, line.name);
    lineNames(line.modifiers, names);
  }
  return names;
}

/** A timeline entry in words: what this change did, against the one before it. */
export function happened(entry: Entry, before: Entry | undefined, names: { platform: string; pos: string }): string {
  if (entry.what === 'order.created') return `Placed on ${names.platform}`;
  if (entry.what === 'order.accepted') return `Taken by ${names.pos}`;
  if (entry.what === 'order.failed') return `Failed: ${named(REASON_NAMES, entry.failureReason).toLowerCase()}`;
  const said: string[] = [];
  if (entry.status && entry.status !== (before?.status ?? 'in_progress')) said.push(named(STATUS_NAMES, entry.status));
  if (entry.deliveryStatus && entry.deliveryStatus !== (before?.deliveryStatus ?? 'pending'))
    said.push(STEP_WORDS.get(entry.deliveryStatus) ?? named({}, entry.deliveryStatus));
  const driver = entry.driverName && entry.driverName !== before?.driverName ? ` (${entry.driverName})` : '';
  return `${said.join(' · ') || 'Updated'}${driver}`;
}

/** The delivery in a line: its step, and who carries it in what, and when they are expected. */
function deliveryLine(order: Detail, context: DetailContext): HTMLElement {
  const vehicle = vehicleText(order.driver?.vehicleInfo);
  const shown = deliveryShown({
    ...order,
    driver: order.driver ? { name: order.driver.name, vehicle } : null,
    platform: context.providerName(order.dspSource),
  });
  const driver = shown.driver ? order.driver : null;
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
    order.eventProvider ? h('span', { class: 'muted' }, ` · by ${context.providerName(order.eventProvider)}`) : null,
  );
}

/** Who pays a discount, in words. */
const FUNDERS: Record<string, string> = { merchant: 'paid by the restaurant', shared: 'shared' };

/** The order's money whole, each figure it has in the currency's format: what is added, what is
 * taken off (its discounts, and who pays them), and its total. */
function moneyOf(amounts: Detail['amounts'], price: (amount: unknown) => string | null, platform: string): HTMLElement {
  const row = (label: string, amount: number | null | undefined, data: string) =>
    amount ? h('tr', { 'data-amount': data }, h('th', { scope: 'row' }, label), h('td', {}, price(amount) ?? '')) : null;
  const funder = (d: Detail['amounts']['discounts'][number]) =>
    d.fundedBy === 'dsp'
      ? `paid by ${platform}`
      : d.fundedBy === 'shared'
        ? `shared: the restaurant pays ${price(d.merchantAmount?.amount) ?? '—'}`
        : (FUNDERS[d.fundedBy ?? ''] ?? '');
  return h(
    'table',
    { class: 'amounts small' },
    h(
      'tbody',
      {},
      row('Subtotal', amounts.subtotal?.amount, 'subtotal'),
      row('Tax', amounts.tax?.amount, 'tax'),
      row('Tax the platform pays itself', amounts.taxWithheldByDsp?.amount, 'tax_withheld_by_dsp'),
      row('Delivery fee', amounts.deliveryFee?.amount, 'delivery_fee'),
      row('Delivery fee tax', amounts.deliveryFeeTax?.amount, 'delivery_fee_tax'),
      row('Tip to the restaurant', amounts.restaurantTip?.amount, 'restaurant_tip'),
      row('Tip to the driver', amounts.driverTip?.amount, 'driver_tip'),
      ...amounts.discounts.map((d) =>
        h(
          'tr',
          { 'data-amount': 'discount' },
          h('th', { scope: 'row' }, `${d.name ?? 'Discount'} (${funder(d)})`),
          h('td', {}, `−${price(d.amount?.amount) ?? ''}`),
        ),
      ),
      row(`Markup of ${platform}, in the prices`, amounts.markup?.amount, 'markup'),
      row('Total', amounts.total?.amount, 'total'),
    ),
  );
}

function detailOf(order: Detail, context: DetailContext): HTMLElement {
  const sent = (order.order ?? {}) as { items?: Line[]; special_instructions?: string; currency?: unknown };
  const language = context.language(order.locationId);
  const delivered = DELIVERED.has(order.fulfillmentType ?? '');
  const price = (amount: unknown) =>
    typeof amount === 'number' && typeof sent.currency === 'string' ? money({ amount, currency: sent.currency }, language) : null;
  const base = context.naming(order);
  const cartNames = lineNames(sent.items);
  const naming: Naming = { ...base, item: (id) => base.item(id) ?? cartNames.get(id) ?? null };
  const title = orderName(order.dspOrderNumber, order.customer?.name, order.createdAt);
  return h(
    'div',
    { class: 'detail', 'data-order-detail': order.id },
    h('h2', { id: 'order-dialog-title' }, `Order ${title}`),
    h(
      'p',
      {},
      badge(order.status, named(STATUS_NAMES, order.status)),
      ` ${named(FULFILLMENT_NAMES, order.fulfillmentType)} · ${base.platform} · placed ${when(order.createdAt)} · ${money(order.total, language)}`,
    ),
    kitchenLine(order, base.pos, context.timeZone(order.locationId)),
    delivered ? deliveryLine(order, context) : null,
    order.failureReason
      ? h('p', { class: 'small error failure-sentence' }, failureSentence(order.failureReason, order.failureDetails, naming))
      : null,
    order.cancellation ? h('p', { class: 'small error', 'data-cancellation': '' }, cancellationSentence(order.cancellation, base)) : null,
    h('h3', {}, 'Items'),
    lines(sent.items, price) ?? h('p', { class: 'muted small' }, 'No items.'),
    h('h3', {}, 'Money'),
    moneyOf(order.amounts, price, base.platform),
    sent.special_instructions ? h('p', { class: 'small note' }, `Note: ${sent.special_instructions}`) : null,
    h('h3', {}, 'Customer'),
    order.customer
      ? h(
          'p',
          { class: 'customer', 'data-customer': '' },
          order.customer.name ?? '—',
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
      ...order.timeline.map((entry, index) =>
        h(
          'li',
          { 'data-timeline': entry.what },
          h('time', { datetime: new Date(entry.at).toISOString() }, when(entry.at)),
          ` ${happened(entry, order.timeline[index - 1], base)}`,
          entry.note ? h('div', { class: 'small muted', 'data-note': '' }, entry.note) : null,
        ),
      ),
    ),
  );
}

/** Opens an order in the page's dialog. */
export async function openOrder(id: string, context: DetailContext): Promise<void> {
  const dialog = document.getElementById('order-dialog') as HTMLDialogElement;
  const { order } = await run(DetailQuery, { id });
  const close = h('button', { type: 'button', class: 'quiet close' }, 'Close');
  close.addEventListener('click', () => dialog.close());
  dialog.replaceChildren(detailOf(order, context), close);
  if (!dialog.open) dialog.showModal();
}
