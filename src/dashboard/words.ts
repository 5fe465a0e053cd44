// The dashboard in a manager's words: the service's values (statuses, fulfillment types, failure
// reasons, the kinds of message) by the names a restaurant uses, and a failed order's reason as a
// sentence with the names of its items and stores and times on the viewer's clock. Pure: what it
// needs to name and format comes in `Naming`, so ./words.test.ts reads as a table of cases.

/** An order's status as a manager says it. */
export const STATUS_NAMES: Record<string, string> = {
  awaiting_confirmation: 'Waiting for the kitchen',
  in_progress: 'Preparing',
  ready_for_pickup: 'Ready for pickup',
  out_for_delivery: 'Out for delivery',
  completed: 'Completed',
  failed: 'Failed',
  merchant_canceled: 'Canceled by the restaurant',
  dsp_canceled: 'Canceled by the platform',
};

/** How the customer gets the food. */
export const FULFILLMENT_NAMES: Record<string, string> = {
  pickup: 'Pickup',
  delivery: 'Delivery',
  merchant_managed_delivery: 'Your delivery',
  curbside: 'Curbside',
  drive_thru: 'Drive-thru',
  dine_in: 'Dine-in',
};

/** Why an order failed, in a few words (the filter's and the chart's). */
export const REASON_NAMES: Record<string, string> = {
  location_not_found: 'Store not linked',
  restaurant_not_accepting_orders: 'Not taking orders',
  item_not_found: 'Item not on the menu',
  item_unavailable: 'Item off sale',
  price_mismatch: 'Price below the menu',
  invalid_cart: 'Order not valid',
  pos_rejected: 'Refused by the POS',
  pos_unreachable: 'POS not answering',
  confirmation_timeout: 'POS did not decide',
};

/** A delivery platform's store connection, a menu publish, an onboarding. */
export const STATE_NAMES: Record<string, string> = {
  APPROVED: 'Connected',
  PENDING: 'Waiting for approval',
  REJECTED: 'Refused',
  DISCONNECTED: 'Disconnected',
  published: 'Published',
  publishing: 'Publishing',
  pending: 'Waiting',
  failed: 'Failed',
  invalid: 'Not valid',
  active: 'Connected',
  reauthorization_required: 'Needs reconnecting',
  replaced: 'Replaced',
  dead: 'Failed',
  delivered: 'Delivered',
  paused: 'Paused',
};

/** A message to a POS, a platform or a delivery company, by what it carried. */
const MESSAGE_NAMES: Record<string, string> = {
  'order.created': 'New order',
  'order.updated': 'Order change',
  'order.confirmed': 'Delivery request',
  'menu.publish': 'Menu',
  'location.connect': 'Store connection',
  'location.disconnect': 'Store disconnection',
  'location.order.accept': 'Order accepted notice',
  'location.order.fail': 'Order failed notice',
  'location.order.notify_status_change': 'Order status notice',
  notification: 'Notification',
};

/** Any of the above by its table, else the value with its underscores as spaces, capitalized. */
export const named = (table: Record<string, string>, value: string | null | undefined): string => {
  if (!value) return '—';
  const known = table[value];
  if (known) return known;
  const spaced = value.replace(/[_.]/g, ' ').toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
};
export const messageName = (kind: string) => named(MESSAGE_NAMES, kind);

/** What the words need to name things and write times and money, on the viewer's side. */
export type Naming = {
  /** The catalog's name of an item or modifier, by its POS id. */
  item: (id: string) => string | null;
  /** A store of a delivery platform, by the platform's store id: its name. */
  store: (id: string) => string | null;
  /** The order's platform, by name ("Sandbox Eats"). */
  platform: string;
  /** The restaurant's POS, by name. */
  pos: string;
  /** An instant on the viewer's clock ("9:45 PM", with the day when not today). */
  clock: (ms: number) => string;
  /** A time of day the service wrote 24-hour ("19:40"), in the viewer's convention ("7:40 PM"). */
  time: (hour: number, minute: number) => string;
  /** A calendar date ("Thu, Nov 26"). */
  date: (isoDate: string) => string;
  /** An amount of the order's currency, in minor units. */
  money: (amount: number) => string;
  /** A currency by its code ("US dollars"). */
  currency: (code: string) => string;
};

const ISO_TIME = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/;
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/g;
// An ISO instant, or a time of day as the service writes one on a location's clock ("07:00"): one
// pass, so that neither is read again inside the other.
const TIME = new RegExp(`(${ISO_TIME.source})|(?<![\\d:])([01]\\d|2[0-3]):([0-5]\\d)(?![\\d:])`, 'g');
const TIME_ZONE = /\b(?:Africa|America|Asia|Atlantic|Australia|Europe|Indian|Pacific)\/([A-Za-z_]+)(?:\/([A-Za-z_]+))?/g;

// An id, as the service writes one after "item", "modifier" or "store": not a plain word (it has
// a digit, "_" or "-"), so that "the item is" stays as it is.
const ID = '([\\w.-]*[\\d_-][\\w.-]*)';
const ITEM_ID = new RegExp(`\\b(item|modifier) ${ID}`, 'g');
const STORE_ID = new RegExp(`\\bstore ${ID}`, 'g');

/** Ids of the service's words in a sentence, by their names; times and dates on the viewer's clock. */
function plain(text: string, naming: Naming): string {
  return text
    .replace(TIME, (_all, iso?: string, hour?: string, minute?: string) =>
      iso ? naming.clock(Date.parse(iso)) : naming.time(Number(hour), Number(minute)),
    )
    .replace(ISO_DATE, (iso) => naming.date(iso))
    .replace(TIME_ZONE, (_zone, city: string, sub?: string) => `${(sub ?? city).replace(/_/g, ' ')} time`)
    .replace(ITEM_ID, (_all, what: string, id: string) => naming.item(id) ?? (what === 'item' ? 'an item' : 'an option'))
    .replace(STORE_ID, (_all, id: string) => naming.store(id) ?? 'the store')
    .replace(/\bits DSP\b/g, naming.platform)
    .replace(/\bthe POS\b/g, naming.pos);
}

/** The first letter up. */
const sentence = (text: string) => {
  const trimmed = text.trim().replace(/\.$/, '');
  return `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}.`;
};

/** The POS's own words in its refusal, as the service keeps it ("400 the kitchen is closed", or
 * its JSON error body's `message`), when it gave any. */
function posWords(answer: string): string | null {
  const text = answer.replace(/^\d{3}\b\s*/, '').trim();
  let said: unknown = text;
  if (text.startsWith('{')) {
    try {
      const body = JSON.parse(text) as { message?: unknown; error?: unknown };
      said = body.message ?? body.error;
    } catch {
      said = null;
    }
  }
  return typeof said === 'string' && said && said.length <= 160 ? said : null;
}

/** Rules for the sentences the service writes, most specific first; anything else is made plain. */
const RULES: { match: RegExp; say: (m: RegExpMatchArray, naming: Naming) => string }[] = [
  {
    match: /^store (\S+) is paused until resumed$/,
    say: () => 'Orders were paused at the time',
  },
  {
    // On the location's clock ("Thu, Nov 26, 14:00 (America/Chicago)"), or, said before, in UTC.
    match: /^store (\S+) is paused until (.+)$/,
    say: (m, n) => `Orders were paused until ${plain(m[2]!, n)}`,
  },
  { match: /^store (\S+) is paused by its DSP$/, say: (_m, n) => `${n.platform} had paused the store` },
  { match: /^store (\S+) is bound to no location$/, say: (_m, n) => `This ${n.platform} store is not linked to one of your locations` },
  { match: /^the location of store (\S+) was deleted$/, say: () => 'This location was removed' },
  {
    match: /^the order is in (\w+), its location's catalog in (\w+)$/,
    say: (m, n) => `The order was in ${n.currency(m[1]!)}; this location's prices are in ${n.currency(m[2]!)}`,
  },
  {
    match: /^(item|modifier) (\S+) is priced (\d+), below the catalog's (\d+)$/,
    say: (m, n) =>
      `${n.item(m[2]!) ?? `An ${m[1] === 'item' ? 'item' : 'option'}`} was priced ${n.money(Number(m[3]))}, below your menu's ${n.money(Number(m[4]))}`,
  },
  {
    match: /^(item|modifier) (\S+): quantity must be a whole number above 0, not (.*)$/,
    say: (m, n) =>
      `The quantity of ${n.item(m[2]!) ?? `an ${m[1] === 'item' ? 'item' : 'option'}`} was ${m[3]}, not a whole number above 0`,
  },
  {
    match: /^(item|modifier) (\S+): (\d+) chosen from modifier group (\S+), which takes (\d+) to (.+)$/,
    say: (m, n) => `${n.item(m[2]!) ?? 'An item'} had ${m[3]} options chosen from a group that takes ${m[5]} to ${m[6]}`,
  },
  { match: /^(item|modifier) (\S+) is off sale$/, say: (m, n) => `${n.item(m[2]!) ?? 'An item'} was off sale` },
  {
    match: /^(item|modifier) (\S+) is not on the menus this store received$/,
    say: (m, n) => `${n.item(m[2]!) ?? `An ${m[1] === 'item' ? 'item' : 'option'}`} is not on this store's menus`,
  },
  {
    match: /^(items is not a list|items\[\d+\] has no service_id|.*: modifiers(?:\[\d+\] has no service_id| is not a list))$/,
    say: (_m, n) => `${n.platform} sent a cart that could not be read`,
  },
  {
    match: /^the POS refused the order: (.*)$/s,
    say: (m, n) => {
      const said = posWords(m[1]!);
      return `${n.pos} refused the order${said ? `: “${said}”` : ''}`;
    },
  },
  { match: /^the POS did not take the order within the attempts/, say: (_m, n) => `${n.pos} did not answer, however often it was tried` },
  {
    match: /^subtotal is (\d+), but the items come to (\d+)$/,
    say: (m, n) => `${n.platform} sent a subtotal of ${n.money(Number(m[1]))}, but the items come to ${n.money(Number(m[2]))}`,
  },
  {
    match: /^total is (\d+), but .* come to (\d+)$/,
    say: (m, n) => `${n.platform} sent a total of ${n.money(Number(m[1]))}, but its figures come to ${n.money(Number(m[2]))}`,
  },
  {
    match: /^the POS has none of: (.*)$/s,
    say: (m, n) => {
      const names = shortages(m[1]!).map(({ id, name }) => n.item(id) ?? name);
      return `${n.pos} is out of ${names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]}`;
    },
  },
  {
    match: /^the POS said it would decide later and did not within (\d+) s$/,
    say: (m, n) => `${n.pos} said it would decide on the order and did not within ${m[1]} seconds`,
  },
];

/** Why an order was canceled, in a manager's words (the service's codes). */
export const CANCEL_REASON_NAMES: Record<string, string> = {
  out_of_stock: 'out of stock',
  kitchen_closed: 'the kitchen was closed',
  too_busy: 'too busy',
  customer_request: 'the customer asked',
  courier_unavailable: 'no courier available',
  fraud: 'suspected fraud',
  delay: 'a delay',
  other: 'another reason',
};

/** A canceled order's cancellation as a sentence: "Canceled by the restaurant: out of stock." */
export function cancellationSentence(
  cancellation: { by?: string | null; reason?: string | null; details?: string | null },
  naming: Pick<Naming, 'platform'>,
): string {
  const by = cancellation.by === 'merchant' ? 'the restaurant' : naming.platform;
  const why = cancellation.reason ? `: ${named(CANCEL_REASON_NAMES, cancellation.reason)}` : '';
  return `Canceled by ${by}${why}${cancellation.details ? ` (“${cancellation.details}”)` : ''}.`;
}

/** The lines the POS named out of stock, as the service lists them: "Fries (item_us_fries), …". */
function shortages(list: string): { id: string; name: string }[] {
  return [...list.matchAll(/(.*?) \(([^()]+)\)(?:, |$)/g)].map((m) => ({ name: m[1]!, id: m[2]! }));
}

/** The items and modifiers a failed order's POS said it has none of (to take off sale), by id. */
export function outOfStock(reason: string | null | undefined, details: string | null | undefined): string[] {
  const list = reason === 'item_unavailable' ? details?.match(/^the POS has none of: (.*)$/s)?.[1] : undefined;
  return list ? shortages(list).map((s) => s.id) : [];
}

/** Why a failed order failed, as a sentence: "Onion Rings was off sale." */
export function failureSentence(reason: string | null | undefined, details: string | null | undefined, naming: Naming): string {
  if (!details) return `${named(REASON_NAMES, reason)}.`;
  for (const rule of RULES) {
    const match = details.match(rule.match);
    if (match) return sentence(rule.say(match, naming));
  }
  return sentence(plain(details, naming));
}
