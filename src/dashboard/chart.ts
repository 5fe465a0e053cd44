// The merchant's day at a glance, drawn rather than tabled: today's orders per hour, stacked by
// delivery platform, and the day's failed orders by reason. Plain SVG written with the DOM (no
// chart library: two kinds of bar do not need one). Read again as orders come in.
import { graphql } from './generated/gql.js';
import type { DashboardStatsQuery } from './generated/graphql.js';
import { h, svg, words } from './dom.js';

export const StatsQuery = graphql(`
  query DashboardStats($orgId: ID!, $from: Float!, $to: Float!) {
    orderStats(orgId: $orgId, from: $from, to: $to) { byHour { hour dspSource orders } failures { reason orders } }
  }
`);

/** Today in the browser's time zone: from its midnight, for a day. */
export function today(now = new Date()): { from: number; to: number } {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate()).getTime();
  return { from: midnight, to: midnight + 24 * 3600_000 };
}

const COLORS = ['#175cd3', '#067647', '#b54708', '#7a5af8', '#c11574', '#0e9384'];
// Drawn in these units, scaled to the page's width: about one unit a pixel on a laptop.
const WIDTH = 1000;
const HEIGHT = 150;
const LEFT = 28;
const BOTTOM = 20;

export function drawChart(stats: DashboardStatsQuery['orderStats'], from: number): HTMLElement {
  const sources = [...new Set(stats.byHour.map((c) => c.dspSource))].sort();
  const perHour = Array.from({ length: 24 }, (_, hour) => stats.byHour.filter((c) => Math.round((c.hour - from) / 3600_000) === hour));
  const most = Math.max(1, ...perHour.map((counts) => counts.reduce((n, c) => n + c.orders, 0)));
  const slot = (WIDTH - LEFT) / 24;
  const scale = (HEIGHT - BOTTOM - 8) / most;
  const bars: SVGElement[] = [];
  perHour.forEach((counts, hour) => {
    let y = HEIGHT - BOTTOM;
    for (const count of counts) {
      const height = count.orders * scale;
      y -= height;
      bars.push(
        svg(
          'rect',
          {
            x: LEFT + hour * slot + 2,
            y,
            width: slot - 4,
            height,
            fill: COLORS[sources.indexOf(count.dspSource) % COLORS.length]!,
            'data-hour': hour,
            'data-dsp': count.dspSource,
            'data-orders': count.orders,
          },
          svg('title', {}, `${String(hour).padStart(2, '0')}:00 · ${count.dspSource}: ${count.orders}`),
        ),
      );
    }
  });
  const hours = [0, 6, 12, 18].map((hour) =>
    svg('text', { x: LEFT + hour * slot, y: HEIGHT - 5, class: 'axis' }, `${String(hour).padStart(2, '0')}:00`),
  );
  const axis = [
    svg('line', { x1: LEFT, y1: HEIGHT - BOTTOM, x2: WIDTH, y2: HEIGHT - BOTTOM, class: 'axis-line' }),
    svg('text', { x: 0, y: HEIGHT - BOTTOM - most * scale + 4, class: 'axis' }, String(most)),
  ];
  const chart = svg(
    'svg',
    { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', class: 'chart', 'aria-label': 'Orders per hour today, by delivery platform' },
    ...axis,
    ...hours,
    ...bars,
  );
  const legend = h(
    'p',
    { class: 'legend small' },
    ...sources.map((source, i) => h('span', {}, h('i', { style: `background:${COLORS[i % COLORS.length]}` }), ` ${source} `)),
  );
  const failures = stats.failures.length ? failureBars(stats.failures) : h('p', { class: 'small muted' }, 'No failed orders today.');
  const total = stats.byHour.reduce((n, c) => n + c.orders, 0);
  return h(
    'div',
    { class: 'day', 'data-orders-today': String(total) },
    h('p', { class: 'small muted' }, `${total} order${total === 1 ? '' : 's'} today`),
    chart,
    legend,
    h('h3', {}, 'Failed today, by reason'),
    failures,
  );
}

function failureBars(failures: DashboardStatsQuery['orderStats']['failures']): SVGElement {
  const most = Math.max(...failures.map((f) => f.orders));
  const row = 22;
  return svg(
    'svg',
    { viewBox: `0 0 ${WIDTH} ${failures.length * row}`, role: 'img', class: 'failures', 'aria-label': 'Failed orders today, by reason' },
    ...failures.flatMap((failure, i) => [
      svg('text', { x: 0, y: i * row + 15, class: 'axis' }, words(failure.reason)),
      svg('rect', {
        x: 220,
        y: i * row + 4,
        width: Math.max(2, ((WIDTH - 280) * failure.orders) / most),
        height: 14,
        fill: '#b42318',
        'data-reason': failure.reason,
        'data-orders': failure.orders,
      }),
      svg('text', { x: 226 + ((WIDTH - 280) * failure.orders) / most, y: i * row + 15, class: 'axis' }, String(failure.orders)),
    ]),
  );
}
