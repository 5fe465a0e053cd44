// What every part of the dashboard writes the page with: elements made with textContent only (so
// nothing from the data is ever parsed as markup), the viewer's own locale and clock for times and
// dates (never an ISO string), money in its currency's own format, and the one way it asks
// /graphql (with the session cookie).
import type { TypedDocumentString } from './generated/graphql.js';
import { majorUnits } from '../common/money.js';

export const locale = navigator.language;
export const time = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
export const clock = new Intl.DateTimeFormat(locale, { timeStyle: 'short' });
const clocks = new Map<string, Intl.DateTimeFormat>();
/** An instant on a location's clock, in the viewer's convention (12- or 24-hour) as every time of
 * the page: "7:40 PM". An unknown zone is read as the viewer's own. */
export function clockIn(at: number, timeZone: string | null | undefined): string {
  const zone = timeZone ?? '';
  let format = clocks.get(zone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat(locale, { timeStyle: 'short', ...(zone ? { timeZone: zone } : {}) });
    } catch {
      format = clock;
    }
    clocks.set(zone, format);
  }
  return format.format(at);
}
/** A time of day as a sentence of the service writes it (24-hour "14:00"), in the viewer's convention. */
export const timeOfDay = (hour: number, minute: number) => clockIn(Date.UTC(2000, 0, 1, hour, minute), 'UTC');
const weekdayDate = new Intl.DateTimeFormat(locale, { weekday: 'long', month: 'long', day: 'numeric' });
const shortDate = new Intl.DateTimeFormat(locale, { weekday: 'short', month: 'short', day: 'numeric', timeZone: 'UTC' });
const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });

/** The viewer's midnight of the day of `at`. */
export const dayStart = (at: number) => {
  const d = new Date(at);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
};
/** The days from today to the day of `at` (0 today, -1 yesterday), on the viewer's calendar. */
const daysFromToday = (at: number) => Math.round((dayStart(at) - dayStart(Date.now())) / 86_400_000);

/** An instant as the viewer reads it: the time alone today, with the date on another day. */
export const when = (at: number) => (daysFromToday(at) === 0 ? clock.format(at) : time.format(at));

/** A day of orders as its heading says it: "Today, Thursday, November 26". */
export function dayHeading(at: number): string {
  const days = daysFromToday(at);
  const date = weekdayDate.format(at);
  if (days === 0 || days === -1) {
    const word = relative.format(days, 'day');
    return `${word.charAt(0).toUpperCase()}${word.slice(1)}, ${date}`;
  }
  return date;
}

/** A calendar date (YYYY-MM-DD, a day of the location's) as the viewer writes it: "Thu, Nov 26". */
export const calendarDate = (iso: string) => {
  const at = Date.parse(`${iso}T12:00:00Z`);
  return Number.isNaN(at) ? iso : shortDate.format(at);
};

/** A currency by its name, as a sentence says an amount of it ("euros", "US dollars"): the name
 * Intl gives it when it writes two of it. */
export function currencyName(code: string): string {
  try {
    const parts = new Intl.NumberFormat(locale, { style: 'currency', currency: code.toUpperCase(), currencyDisplay: 'name' }).formatToParts(
      2,
    );
    return parts.find((part) => part.type === 'currency')?.value ?? code.toUpperCase();
  } catch {
    return code.toUpperCase();
  }
}

/**
 * An amount (a whole number of its currency's smallest unit, docs/reference.md § Money) in its
 * currency's own format: as the language of its location's catalog writes it, else as the
 * viewer's does: usd 2500 at an en-US location is $25.00, eur 2500 at a de-DE one 25,00 €, jpy 2500
 * at a ja-JP one ￥2,500. The decimals are the platform's (Intl) for the currency, the same data the
 * service reads amounts by; the amount goes to Intl as exact decimal text, never as a float.
 */
export function money(value: { amount: number; currency: string } | null | undefined, language?: string | null): string {
  if (!value) return '—';
  for (const tag of [language, locale]) {
    if (!tag) continue;
    try {
      const format = new Intl.NumberFormat(tag, { style: 'currency', currency: value.currency.toUpperCase() });
      const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
      return format.format(majorUnits(value.amount, digits) as Intl.StringNumericLiteral);
    } catch {
      // A language tag the browser does not know: the next.
    }
  }
  return `${value.amount} ${value.currency}`;
}

/** An element with attributes and children (text is set as text, never as markup). */
export function h(
  tag: string,
  attributes: Record<string, string | undefined> = {},
  ...children: (Node | string | null | undefined)[]
): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) if (value !== undefined) element.setAttribute(name, value);
  for (const child of children) if (child !== null && child !== undefined) element.append(child);
  return element;
}

/** An SVG element (the chart's). */
export function svg(tag: string, attributes: Record<string, string | number> = {}, ...children: (Node | string)[]): SVGElement {
  const element = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  for (const child of children) element.append(child);
  return element;
}

/** A value's badge: coloured by the value, saying it in words. */
export const badge = (value: string, text: string) => h('span', { class: `badge badge-${value.toLowerCase()}` }, text);
export const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

/** A button that runs `work` once per click, disabled while it runs. */
export function action(label: string, attributes: Record<string, string>, work: () => Promise<void>): HTMLButtonElement {
  const button = h('button', { type: 'button', ...attributes }, label) as HTMLButtonElement;
  button.addEventListener('click', () => {
    button.disabled = true;
    void work().finally(() => {
      button.disabled = false;
    });
  });
  return button;
}

export class SignedOut extends Error {}

export async function run<R, V>(document: TypedDocumentString<R, V>, variables?: V): Promise<R> {
  const response = await fetch('/graphql', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
    body: JSON.stringify({ query: document.toString(), variables }),
  });
  const body = (await response.json()) as { data?: R; errors?: { message: string; extensions?: { code?: string } }[] };
  const code = body.errors?.[0]?.extensions?.code;
  if (response.status === 401 || code === 'session_expired' || code === 'unauthenticated') throw new SignedOut();
  if (body.errors?.length) throw new Error(body.errors[0]!.message);
  return body.data!;
}
