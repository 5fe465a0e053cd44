// The orders the conformance kit sends: as a delivery platform sends them (docs/reference.md §
// Resources, the order object), in whole numbers of the currency's smallest unit, their ids
// beginning ord_certify_ so that a provider can tell them from a merchant's. A POS is sent an
// order of the catalog it has just answered (an item on one of its menus, each required choice
// made, at the catalog's prices), read as the service reads a catalog.
import crypto from 'node:crypto';
import { readCatalog, type Catalog, type CatalogEntity } from '../modules/catalog/validate.js';
import { offerIn, type Offer } from '../modules/catalog/offer.js';
import { isCurrency } from '../common/money.js';

/** A test order's id. */
export const certifyOrderId = () => `ord_certify_${crypto.randomBytes(6).toString('hex')}`;

/** A line of an order: an item or a modifier, with its own modifiers. */
export type Line = { service_id: string; name: string; quantity: number; price: number; special_instructions: string; modifiers: Line[] };
const lineTotal = (line: Line): number => line.quantity * (line.price + line.modifiers.reduce((sum, m) => sum + lineTotal(m), 0));

/** An order as a DSP sends it, of these lines (their sums worked out; `tax` given), for the
 * provider's location. */
export function sampleOrder(
  locationId: string,
  fulfillmentType = 'pickup',
  lines: Line[] = [{ service_id: 'item_certify', name: 'Margherita', quantity: 1, price: 1200, special_instructions: '', modifiers: [] }],
  money: { currency?: string; tax?: number } = { currency: 'usd', tax: 99 },
): Record<string, unknown> & { id: string } {
  const id = certifyOrderId();
  const customer = { provider_loyalty_id: 'loy_certify', name: 'Jamie Rivera', phone: '+15125550123', masked_phone_code: '4821' };
  const subtotal = lines.reduce((sum, line) => sum + lineTotal(line), 0);
  const tax = money.tax ?? 0;
  return {
    id,
    dsp_order_id: `dsp_${id}`,
    dsp_order_number: '#4821',
    customer,
    customers: [customer],
    ...(money.currency ? { currency: money.currency } : {}),
    delivery_address: { address_line_1: '500 E 4th St', city: 'Austin', state: 'TX', postal_code: '78701', country: 'US' },
    estimated_fulfillment_time: Date.now() + 30 * 60_000,
    is_future_order: false,
    fulfillment_type: fulfillmentType,
    source: 'certify-dsp',
    status: 'in_progress',
    delivery_status: 'pending',
    subtotal,
    tax,
    driver_tip: 0,
    delivery_fee: 0,
    delivery_fee_tax: 0,
    total: subtotal + tax,
    items: lines,
    unpaid: false,
    cash_amount_due: 0,
    location_id: locationId,
  };
}

const nameOf = (element: CatalogEntity | undefined, id: string) => (typeof element?.name === 'string' ? element.name : id);

/** The modifiers a group's minimum asks for, each with the choices its own groups ask for, at
 * the catalog's prices (a group of min_selections 2 gets two, one each of its first modifiers,
 * or the one twice). Nesting is followed a few levels deep: the service bounds it as well. */
function required(offer: Offer, catalog: Catalog, groups: string[], depth = 0): Line[] {
  const modifiers = new Map(catalog.modifier.map((m) => [m.provider_id, m]));
  return groups.flatMap((groupId) => {
    const group = offer.groups.get(groupId);
    const choices = [...(group?.modifiers ?? [])].filter((id) => offer.modifiers.has(id));
    if (!group || group.min === 0 || !choices.length || depth > 4) return [];
    const counts = new Map<string, number>();
    for (let n = 0; n < group.min; n++) counts.set(choices[n % choices.length]!, (counts.get(choices[n % choices.length]!) ?? 0) + 1);
    return [...counts].map(([id, quantity]) => {
      const offered = offer.modifiers.get(id)!;
      return {
        service_id: id,
        name: nameOf(modifiers.get(id), id),
        quantity,
        price: offered.price,
        special_instructions: '',
        modifiers: required(offer, catalog, offered.groups, depth + 1),
      };
    });
  });
}

/** The tax of a line as the order carries it: the item's exclusive taxes (`inclusive: true` ones
 * are in the price already), each worked out on the line and rounded half away from zero. */
function exclusiveTax(catalog: Catalog, item: CatalogEntity, amount: number): number {
  const taxes = new Map(catalog.tax.map((t) => [t.provider_id, t]));
  const ids = Array.isArray(item.tax_ids) ? item.tax_ids : [];
  return ids.reduce((sum: number, id) => {
    const tax = taxes.get(String(id));
    const rate = typeof tax?.rate === 'number' ? tax.rate : 0;
    return tax && tax.inclusive !== true ? sum + Math.round((amount * rate) / 100) : sum;
  }, 0);
}

/**
 * An order of a catalog as a POS answered it, for its location: the first item on one of its
 * menus (one open whenever the location is, when there is one), quantity 1, with the choices
 * its modifier groups require, at the catalog's prices, in its currency; or why there is none.
 */
export function orderOf(raw: unknown, locationId: string): { object: Record<string, unknown> & { id: string }; items: string } | string {
  const { catalog } = readCatalog(raw);
  const offer = offerIn(catalog, null);
  const onMenus = catalog.item.filter((item) => offer.items.get(item.provider_id)?.menus.length);
  const allDay = onMenus.find((item) => offer.items.get(item.provider_id)!.menus.some((m) => offer.menus.get(m)?.week === null));
  const item = allDay ?? onMenus[0];
  if (!item) return 'its catalog has no item on a menu to order';
  const offered = offer.items.get(item.provider_id)!;
  const line: Line = {
    service_id: item.provider_id,
    name: nameOf(item, item.provider_id),
    quantity: 1,
    price: offered.price,
    special_instructions: '',
    modifiers: required(offer, catalog, offered.groups),
  };
  const currency = isCurrency(catalog.currency) ? catalog.currency : undefined;
  const object = sampleOrder(locationId, 'pickup', [line], { currency, tax: exclusiveTax(catalog, item, lineTotal(line)) });
  const chosen = (lines: Line[]): string =>
    lines
      .map((l) => `${l.quantity > 1 ? `${l.quantity} × ` : ''}${l.service_id}${l.modifiers.length ? ` (${chosen(l.modifiers)})` : ''}`)
      .join(', ');
  return { object, items: `${chosen([line])} at ${object.subtotal}${currency ? ` ${currency}` : ''}` };
}
