// The merchant's day at a glance (today, or the day the orders' filter chose): orders taken and failed, counted as a manager counts them
// (a failed order was not taken); the orders per hour, stacked by delivery platform with the
// failed ones apart; and the failed ones by reason. Drawn with the page's own elements and CSS,
// so that its words are the page's size on a phone as on a laptop (an SVG scaled to a phone's
// width wrote them 4 px tall). Read again as orders come in.
import { graphql } from './generated/gql.js';
import type { DashboardStatsQuery } from './generated/graphql.js';
import { h, locale } from './dom.js';
import { named, REASON_NAMES } from './words.js';

export const StatsQuery = graphql(`
  query DashboardStats($orgId: ID!, $from: Float!, $to: Float!) {
    orderStats(orgId: $orgId, from: $from, to: $to) { byHour { hour dspSource orders failed } failures { reason orders } }
  }
`);

const shortDay = new Intl.DateTimeFormat(locale, { weekday: 'short', month: 'short', day: 'numeric' });
/** A day (its midnight) as the chart's sentences say it: "today", else "on Thu, Nov 26"; and its title. */
export function dayWords(from: number, now = new Date()): { day: string; title: string } {
  return from === today(now).from
    ? { day: 'today', title: 'Today at a glance' }
    : { day: `on ${shortDay.format(from)}`, title: `${shortDay.format(from)} at a glance` };
}

/** Today in the browser's time zone: from its midnight, for a day. */
export function today(now = new Date()): { from: number; to: number } {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  return { from: midnight, to: new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1).getTime() };
}

/** Each platform's colour, in the order of their sources. */
export const COLORS = ['#175cd3', '#067647', '#7a5af8', '#0e9384', '#c11574', '#b54708'];
const FAILED = '#b42318';
const hourLabel = new Intl.DateTimeFormat(locale, { hour: 'numeric' });
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Taken and failed orders of the day, and how many came in. */
export function dayTotals(stats: DashboardStatsQuery['orderStats']): { orders: number; taken: number; failed: number } {
  const orders = stats.byHour.reduce((n, c) => n + c.orders, 0);
  const failed = stats.byHour.reduce((n, c) => n + c.failed, 0);
  return { orders, taken: orders - failed, failed };
}

export function drawChart(stats: DashboardStatsQuery['orderStats'], from: number, platformName: (source: string) => string): HTMLElement {
  const { day } = dayWords(from);
  const totals = dayTotals(stats);
  const sources = [...new Set(stats.byHour.map((c) => c.dspSource))].sort();
  const hourOf = (at: number) => Math.round((at - from) / 3600_000);
  const perHour = Array.from({ length: 24 }, (_, hour) => stats.byHour.filter((c) => hourOf(c.hour) === hour));
  const most = Math.max(1, ...perHour.map((counts) => counts.reduce((n, c) => n + c.orders, 0)));
  const segment = (count: number, color: string, attributes: Record<string, string>) =>
    h('span', { class: 'segment', style: `height:${(100 * count) / most}%;background:${color}`, ...attributes });
  const columns = perHour.map((counts, hour) =>
    h(
      'span',
      { class: 'hour', 'data-hour': String(hour) },
      // Failed on top, each platform's taken orders below it.
      ...(counts.some((c) => c.failed)
        ? [
            segment(
              counts.reduce((n, c) => n + c.failed, 0),
              FAILED,
              { 'data-failed': String(counts.reduce((n, c) => n + c.failed, 0)) },
            ),
          ]
        : []),
      ...counts
        .filter((c) => c.orders > c.failed)
        .map((c) =>
          segment(c.orders - c.failed, COLORS[sources.indexOf(c.dspSource) % COLORS.length]!, {
            'data-dsp': c.dspSource,
            'data-taken': String(c.orders - c.failed),
          }),
        ),
    ),
  );
  const busiest = perHour.reduce(
    (best, counts, hour) =>
      counts.reduce((n, c) => n + c.orders, 0) > best.orders ? { hour, orders: counts.reduce((n, c) => n + c.orders, 0) } : best,
    {
      hour: -1,
      orders: 0,
    },
  );
  const summary =
    totals.orders === 0
      ? day === 'today'
        ? 'No orders yet today.'
        : `No orders ${day}.`
      : `${plural(totals.taken, 'order', 'orders')} taken and ${totals.failed} failed ${day}${
          busiest.hour >= 0 ? `; the busiest hour was from ${hourLabel.format(from + busiest.hour * 3600_000)}, with ${busiest.orders}` : ''
        }.`;
  const chart = h(
    'div',
    { class: 'chart', role: 'img', 'aria-label': `Orders per hour ${day}, by delivery platform: ${summary}` },
    h('div', { class: 'bars' }, ...columns),
    h(
      'div',
      { class: 'axis', 'aria-hidden': 'true' },
      ...[0, 6, 12, 18].map((hour) => h('span', {}, hourLabel.format(from + hour * 3600_000))),
    ),
  );
  const legend = h(
    'p',
    { class: 'legend small' },
    ...sources.map((source, i) => h('span', {}, h('i', { style: `background:${COLORS[i % COLORS.length]}` }), ` ${platformName(source)}`)),
    totals.failed ? h('span', {}, h('i', { style: `background:${FAILED}` }), ' Failed') : null,
  );
  return h(
    'div',
    { class: 'day', 'data-orders-today': String(totals.orders), 'data-taken': String(totals.taken), 'data-failed': String(totals.failed) },
    h(
      'p',
      { class: 'totals' },
      h('strong', { class: 'taken' }, plural(totals.taken, 'order', 'orders')),
      ' taken · ',
      h('strong', { class: totals.failed ? 'failed' : '' }, String(totals.failed)),
      ' failed',
    ),
    chart,
    legend,
    h('h3', {}, `Failed ${day}, by reason`),
    stats.failures.length ? failureBars(stats.failures) : h('p', { class: 'small muted' }, `No failed orders ${day}.`),
  );
}

function failureBars(failures: DashboardStatsQuery['orderStats']['failures']): HTMLElement {
  const most = Math.max(...failures.map((f) => f.orders));
  return h(
    'ul',
    { class: 'plain failures' },
    ...failures.map((failure) =>
      h(
        'li',
        { 'data-reason': failure.reason, 'data-orders': String(failure.orders) },
        h('span', { class: 'reason' }, named(REASON_NAMES, failure.reason)),
        h('span', { class: 'meter', 'aria-hidden': 'true' }, h('span', { style: `width:${(100 * failure.orders) / most}%` })),
        h('span', { class: 'n' }, String(failure.orders)),
      ),
    ),
  );
}
