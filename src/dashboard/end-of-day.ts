// The End of day page (owners, admins and managers): one location's local day as each platform's
// statement has it (dailyStatements, the same figures as GET /v1/reports/daily), to match against
// each platform's payout. A table per platform and a total (orders taken, failed by reason,
// canceled by each party, the money in the currency's own format), the expected payout where a
// commission is set, each platform's share of the day, the day's CSV (the REST route, which takes
// the session as it takes a token), and the previous and next day. The day is the location's:
// "today" is today on its clock, and the days run from the organization's first to today.
import { graphql } from './generated/gql.js';
import type { DashboardEndOfDayQuery } from './generated/graphql.js';
import { $, calendarDate, currencyName, h, locale, money, run } from './dom.js';
import { CANCEL_REASON_NAMES, named, REASON_NAMES } from './words.js';
import { COLORS } from './chart.js';

export const EndOfDayQuery = graphql(`
  query DashboardEndOfDay($orgId: ID!, $locationId: ID!, $date: String!) {
    dailyStatements(orgId: $orgId, locationId: $locationId, from: $date, to: $date) {
      date timeZone hours
      platforms { ...DashboardStatementLine }
      totals { ...DashboardStatementLine }
    }
  }
`);
graphql(`
  fragment DashboardStatementLine on StatementLine {
    source currency taken awaiting
    failed failedByReason { reason orders }
    canceledByMerchant canceledByMerchantByReason { reason orders }
    canceledByDsp canceledByDspByReason { reason orders }
    amounts {
      subtotal tax taxWithheldByDsp deliveryFee deliveryFeeTax restaurantTip driverTip discountMerchant discountDsp markup total
    }
    payout { subtotal tax restaurantTip discountMerchant commissionPercent commission payout }
  }
`);

type Statement = DashboardEndOfDayQuery['dailyStatements'][number];
type Line = Statement['platforms'][number];
type Figure = Exclude<keyof Line['amounts'], '__typename'>;

/** What the page needs of the dashboard around it. */
export type EndOfDayContext = {
  orgId: string;
  /** When the organization was made (epoch ms): its first day is the first there is. */
  orgCreatedAt: number;
  locations: () => readonly { id: string; name: string; timezone: string; language: string | null }[];
  platformName: (source: string) => string;
  problem: (message: string | null) => void;
};

/** The money rows, in the order a payout statement lists them. */
const MONEY_ROWS: [Figure, string][] = [
  ['subtotal', 'Items (subtotal)'],
  ['tax', 'Tax'],
  ['taxWithheldByDsp', 'Tax the platform remits'],
  ['deliveryFee', 'Delivery fees'],
  ['deliveryFeeTax', 'Tax on delivery fees'],
  ['restaurantTip', 'Tips to the restaurant'],
  ['driverTip', 'Tips to drivers'],
  ['discountMerchant', 'Discounts you fund'],
  ['discountDsp', 'Discounts the platform funds'],
  ['markup', 'Priced above your menu'],
  ['total', 'Customers paid'],
];

/** A date (YYYY-MM-DD) on a time zone's calendar. */
export function dateIn(at: number, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  } catch {
    return new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  }
}
/** The date `days` after (or before) another. */
export const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The page's address: `#end-of-day`, or with the location and the day, `#end-of-day/loc_…/2026-11-26`. */
export const PAGE = '#end-of-day';
export const isEndOfDay = (hash: string) => hash === PAGE || hash.startsWith(`${PAGE}/`);
const addressOf = (locationId: string, date: string) => `${PAGE}/${encodeURIComponent(locationId)}/${date}`;

const percentFormat = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 });
/** A percentage as the viewer writes it ("15%", "12.5 %"). */
const percentOf = (value: number) => percentFormat.format(value / 100);
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Reads the day the address names (else today at the first location) and draws it. */
export async function showEndOfDay(context: EndOfDayContext, hash: string): Promise<void> {
  const locations = context.locations();
  const [, wantedLocation, wantedDate] = hash.split('/');
  const location = locations.find((l) => l.id === decodeURIComponent(wantedLocation ?? '')) ?? locations[0];
  const page = $('end-of-day-body');
  if (!location) {
    page.replaceChildren(h('p', { class: 'muted' }, 'No locations yet: your partner adds them from your point of sale.'));
    return;
  }
  const today = dateIn(Date.now(), location.timezone);
  const first = dateIn(context.orgCreatedAt, location.timezone);
  const date = wantedDate && /^\d{4}-\d{2}-\d{2}$/.test(wantedDate) && wantedDate >= first && wantedDate <= today ? wantedDate : today;
  // Each choice is an address of its own (the browser's Back returns to the day before).
  const go = (locationId: string, day: string) => {
    window.location.hash = addressOf(locationId, day);
  };

  const choose = h(
    'form',
    { class: 'eod-choose', 'aria-label': 'Choose the location and the day' },
    h(
      'label',
      {},
      'Location ',
      chooser(
        h('select', { id: 'eod-location' }, ...locations.map((l) => h('option', { value: l.id }, l.name))) as HTMLSelectElement,
        location.id,
        (value) => go(value, dateIn(Date.now(), locations.find((l) => l.id === value)!.timezone)),
      ),
    ),
    h(
      'label',
      {},
      'Day ',
      chooser(h('input', { type: 'date', id: 'eod-date', min: first, max: today }) as HTMLInputElement, date, (value) => {
        // A day out of range reads today (showEndOfDay).
        if (value) go(location.id, value);
      }),
    ),
  );
  choose.addEventListener('submit', (event) => event.preventDefault());
  const step = (days: number, label: string, text: string) => {
    const target = addDays(date, days);
    const button = h(
      'button',
      { type: 'button', class: 'quiet', 'aria-label': `${label}: ${calendarDate(target)}` },
      ...(days < 0 ? [h('span', { 'aria-hidden': 'true' }, '‹ '), text] : [text, h('span', { 'aria-hidden': 'true' }, ' ›')]),
    ) as HTMLButtonElement;
    button.disabled = target < first || target > today;
    button.dataset.date = target;
    button.addEventListener('click', () => go(location.id, target));
    return button;
  };
  const download = h(
    'button',
    { type: 'button', class: 'download', 'aria-label': `Download CSV of ${calendarDate(date)} at ${location.name}` },
    'Download CSV',
  ) as HTMLButtonElement;
  download.addEventListener('click', () => {
    download.disabled = true;
    void downloadCsv(context.orgId, location.id, location.name, date)
      .then(
        () => context.problem(null),
        (error: unknown) => context.problem(`Could not download: ${(error as Error).message}`),
      )
      .finally(() => {
        download.disabled = false;
      });
  });
  const { dailyStatements } = await run(EndOfDayQuery, { orgId: context.orgId, locationId: location.id, date });
  const statement = dailyStatements[0]!;
  page.replaceChildren(
    h(
      'div',
      { class: 'eod-controls' },
      choose,
      h('div', { class: 'eod-steps' }, step(-1, 'Previous day', 'Previous day'), step(1, 'Next day', 'Next day')),
      download,
    ),
    h(
      'h3',
      { id: 'eod-title', 'data-date': date, 'data-location-id': location.id },
      `${date === today ? 'Today, ' : ''}${calendarDate(date)} · ${location.name}`,
    ),
    ...(statement.hours === 24
      ? []
      : [h('p', { class: 'small muted' }, `A day of ${statement.hours} hours: the clocks changed at ${location.name}.`)]),
    statementView(statement, location.language, context.platformName),
  );
}

/** A form control set to `value` that calls `changed` with its new value. */
function chooser<T extends HTMLInputElement | HTMLSelectElement>(control: T, value: string, changed: (value: string) => void): T {
  control.value = value;
  control.addEventListener('change', () => changed(control.value));
  return control;
}

/** The day's table, its payouts and its shares, one set per currency: the location's own first
 * (the most orders taken), then any other an order came in (one in euros at a dollar store failed,
 * and is counted there). */
function statementView(statement: Statement, language: string | null, platformName: (source: string) => string): HTMLElement {
  if (!statement.totals.length) return h('p', { class: 'empty-title', 'data-empty': 'true' }, 'No orders this day.');
  const totals = [...statement.totals].sort((a, b) => b.taken - a.taken || String(a.currency).localeCompare(String(b.currency)));
  return h(
    'div',
    { class: 'eod-statements' },
    ...totals.map((total, i) => {
      const lines = statement.platforms.filter((line) => line.currency === total.currency);
      return h(
        'div',
        { class: 'eod-statement', 'data-currency': total.currency ?? '' },
        i > 0 ? h('h4', { class: 'eod-currency' }, `Orders in ${total.currency ? currencyName(total.currency) : 'no currency'}`) : null,
        dayTable(lines, total, language, platformName),
        total.taken ? shares(lines, total, language, platformName) : null,
      );
    }),
  );
}

function dayTable(lines: Line[], total: Line, language: string | null, platformName: (source: string) => string): HTMLElement {
  const columns = [...lines, total];
  const amount = (value: number) => money({ amount: value, currency: total.currency ?? 'usd' }, language);
  const row = (label: string, cells: (line: Line) => string, attributes: Record<string, string> = {}) =>
    h(
      'tr',
      attributes,
      h('th', { scope: 'row' }, label),
      ...columns.map((line) => h('td', { 'data-source': line.source ?? 'total' }, cells(line))),
    );
  const reasons = (pick: (line: Line) => Line['failedByReason'], names: Record<string, string>, kind: string) => {
    const all = [...new Set(columns.flatMap((line) => pick(line).map((r) => r.reason)))];
    return all.map((reason) =>
      row(
        capitalized(reason ? named(names, reason) : 'No reason given'),
        (line) => String(pick(line).find((r) => r.reason === reason)?.orders ?? 0),
        { class: 'reason', 'data-row': `${kind}:${reason ?? ''}` },
      ),
    );
  };
  // A payout of nothing taken says nothing.
  const payouts = total.taken > 0 && lines.some((line) => line.payout);
  const section = (title: string) =>
    h('tr', { class: 'group' }, h('th', { scope: 'rowgroup', colspan: String(columns.length + 1) }, title));
  return h(
    'div',
    { class: 'eod-table-wrap' },
    h(
      'table',
      { class: 'eod-table', 'data-currency': total.currency ?? '' },
      h(
        'caption',
        { class: 'visually-hidden' },
        `The day per platform and in total${total.currency ? `, in ${total.currency.toUpperCase()}` : ''}`,
      ),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('td', {}),
          ...columns.map((line) =>
            h('th', { scope: 'col', 'data-source': line.source ?? 'total' }, line.source ? platformName(line.source) : 'Total'),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        section('Orders'),
        row('Taken', (line) => String(line.taken), { 'data-row': 'taken' }),
        columns.some((line) => line.awaiting)
          ? row('Waiting for the POS', (line) => String(line.awaiting), { 'data-row': 'awaiting' })
          : null,
        row('Failed', (line) => String(line.failed), { 'data-row': 'failed' }),
        ...reasons((line) => line.failedByReason, REASON_NAMES, 'failed'),
        row('Canceled by the restaurant', (line) => String(line.canceledByMerchant), { 'data-row': 'canceledByMerchant' }),
        ...reasons((line) => line.canceledByMerchantByReason, CANCEL_REASON_NAMES, 'canceledByMerchant'),
        row('Canceled by the platform', (line) => String(line.canceledByDsp), { 'data-row': 'canceledByDsp' }),
        ...reasons((line) => line.canceledByDspByReason, CANCEL_REASON_NAMES, 'canceledByDsp'),
        // Only taken orders are summed: with none, there is no money to show.
        ...(total.taken
          ? [
              section('Money of the orders taken'),
              ...MONEY_ROWS.map(([figure, label]) => row(label, (line) => amount(line.amounts[figure]), { 'data-row': figure })),
            ]
          : []),
        ...(payouts
          ? [
              section('Expected payout'),
              row(
                'Commission',
                (line) => (line.payout ? `${amount(line.payout.commission)} (${percentOf(line.payout.commissionPercent)})` : '—'),
                {
                  'data-row': 'commission',
                },
              ),
              row('Expected payout', (line) => (line.payout ? amount(line.payout.payout) : '—'), { 'data-row': 'payout', class: 'payout' }),
            ]
          : []),
      ),
    ),
    payouts
      ? h(
          'p',
          { class: 'small muted' },
          'Expected payout: items + tax + tips to the restaurant − discounts you fund − the platform’s commission on the items. A platform with no commission set has none.',
        )
      : null,
  );
}

/** Each platform's share of what customers paid (and of the orders taken), as bars with their words. */
function shares(lines: Line[], total: Line, language: string | null, platformName: (source: string) => string): HTMLElement {
  const amount = (value: number) => money({ amount: value, currency: total.currency ?? 'usd' }, language);
  const percent = (part: number, whole: number) => (whole ? Math.round((100 * part) / whole) : 0);
  const said = lines.map(
    (line) =>
      `${platformName(line.source!)} ${percentOf(percent(line.amounts.total, total.amounts.total))} (${amount(line.amounts.total)}, ${plural(line.taken, 'order', 'orders')})`,
  );
  return h(
    'figure',
    { class: 'eod-shares' },
    h('figcaption', {}, h('h4', {}, 'Each platform’s share of the day')),
    h(
      'div',
      { role: 'img', 'aria-label': `Share of what customers paid: ${said.join('; ')}.` },
      ...lines.map((line, i) =>
        h(
          'div',
          { class: 'share', 'data-source': line.source!, 'data-percent': String(percent(line.amounts.total, total.amounts.total)) },
          h('span', { class: 'share-name' }, platformName(line.source!)),
          h(
            'span',
            { class: 'share-meter', 'aria-hidden': 'true' },
            h('span', {
              class: 'share-fill',
              style: `width:${percent(line.amounts.total, total.amounts.total)}%;background:${COLORS[i % COLORS.length]}`,
            }),
          ),
          h(
            'span',
            { class: 'share-words' },
            `${percentOf(percent(line.amounts.total, total.amounts.total))} · ${amount(line.amounts.total)} · ${plural(line.taken, 'order', 'orders')}`,
          ),
        ),
      ),
    ),
  );
}

/** The day's CSV (one row per order, then each platform and the total) as the REST route writes
 * it, saved as a file named for the location and the day. */
async function downloadCsv(orgId: string, locationId: string, locationName: string, date: string): Promise<void> {
  const query = new URLSearchParams({ org_id: orgId, location_id: locationId, from: date, to: date });
  const response = await fetch(`/v1/reports/daily?${query}`, { credentials: 'same-origin', headers: { accept: 'text/csv' } });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null;
    throw new Error(body?.message ?? `the service answered ${response.status}`);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = h('a', { href: url, download: `end-of-day-${locationName.replace(/[^\p{L}\p{N}]+/gu, '-')}-${date}.csv`, hidden: '' });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
