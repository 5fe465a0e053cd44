// A location's stores as the merchant stops, slows and starts them: whether its hours have it open
// ("Open · closes 10:00 PM", "Closed · opens Tue 11:00 AM", on the location's own clock in the
// viewer's convention), whether it is busy (minutes more per order, until when), what is paused
// (by us, until when, or by the delivery platform), what is off sale, the closed days ahead; and, for owners, admins
// and managers, the controls: pause for 15 minutes, an hour or until resumed, resume, busy +10 /
// +20 / +30 minutes for the next hour and its end, and a searchable list of the catalog's items and modifiers to switch off and on. Each control's
// accessible name says what it does ("Pause orders for 15 minutes", "Take Onion Rings off sale"),
// within a group named for its location.
import { graphql } from './generated/gql.js';
import type { DashboardOverviewQuery } from './generated/graphql.js';
import { action, badge, calendarDate, clock, clockIn, h, locale, run, time } from './dom.js';

export type Location = DashboardOverviewQuery['organizationLocations']['locations'][number];

const Pause = graphql(`
  mutation DashboardPause($input: PauseStoresInput!) { pauseStores(input: $input) { locations { id pausedUntil } } }
`);
const Resume = graphql(`
  mutation DashboardResume($input: ResumeStoresInput!) { resumeStores(input: $input) { locations { id pausedUntil } } }
`);
const SetBusy = graphql(`
  mutation DashboardBusy($input: SetLocationBusyInput!) { setLocationBusy(input: $input) { locationId extraPrepMinutes untilMs } }
`);
const EndBusy = graphql(`
  mutation DashboardEndBusy($input: EndLocationBusyInput!) { endLocationBusy(input: $input) { locationId extraPrepMinutes } }
`);
const SetAvailability = graphql(`
  mutation DashboardAvailability($input: SetItemAvailabilityInput!) { setItemAvailability(input: $input) { unavailable { itemId untilMs } } }
`);

/** The dashboard's busy buttons: minutes more per order, for BUSY_FOR_MS. */
const BUSY_EXTRAS = [10, 20, 30];
const BUSY_FOR_MS = 3600_000;

/** When something stopped resumes by itself, in words. */
const untilWords = (until: number | null | undefined) =>
  until === -1 || until === null || until === undefined
    ? 'until resumed'
    : `until ${until - Date.now() < 20 * 3600_000 ? clock.format(until) : time.format(until)}`;

/** A location's items and modifiers by name, from its catalog. */
export const itemNames = (location: Location) =>
  new Map([...(location.catalog[0]?.items ?? []), ...(location.catalog[0]?.modifiers ?? [])].map((i) => [i.providerId, i.name]));

/** An instant on a location's clock, in the viewer's convention: the time alone today (there),
 * with the weekday within the week ahead, with the date beyond. */
function onItsClock(at: number, timeZone: string): string {
  const zoned = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, { timeZone, ...options }).format(at);
  const clockText = clockIn(at, timeZone);
  const day = (when: number) => new Intl.DateTimeFormat('en-CA', { timeZone }).format(when);
  if (day(at) === day(Date.now())) return clockText;
  return `${zoned(at - Date.now() < 6.5 * 86_400_000 ? { weekday: 'short' } : { weekday: 'short', day: 'numeric', month: 'short' })} ${clockText}`;
}

/** Whether the location's hours have it open now, and until or from when. */
export function openingState(location: Location): HTMLElement {
  const text = location.openNow
    ? `Open${location.closesAt ? ` · closes ${onItsClock(location.closesAt, location.timezone)}` : ''}`
    : `Closed${location.opensAt ? ` · opens ${onItsClock(location.opensAt, location.timezone)}` : ''}`;
  return h('p', { class: `small opening ${location.openNow ? 'open' : 'closed'}`, 'data-open': String(location.openNow) }, text);
}

/** A busy location in words: "Busy · 20 min more per order (35 min) until 8:30 PM". */
function busyState(location: Location): HTMLElement | null {
  const busy = location.busy;
  if (!busy) return null;
  const quoted = location.prepTimeMinutes ? ` (${location.prepTimeMinutes + busy.extraPrepMinutes} min)` : '';
  return h(
    'p',
    { class: 'small busy', 'data-busy-location': location.id, 'data-extra-minutes': String(busy.extraPrepMinutes) },
    badge('busy', 'Busy'),
    ` ${busy.extraPrepMinutes} min more per order${quoted} ${busy.untilMs ? untilWords(busy.untilMs) : 'until ended'}`,
  );
}

/** What a location's stores show of being stopped or slowed: busy, each store's pause, the platform's own, what is off sale, closed days. */
export function stoppedState(location: Location, platformName: (source: string) => string): HTMLElement {
  const paused = location.dsps.filter((d) => d.pausedUntil !== null || d.dspStatus === 'paused');
  const names = itemNames(location);
  return h(
    'div',
    { class: 'stopped', 'data-stopped-location': location.id },
    busyState(location),
    ...paused.map((d) =>
      h(
        'p',
        { class: 'small paused', 'data-paused-store': d.id },
        badge('paused', 'Paused'),
        d.dspStatus === 'paused' && d.pausedUntil === null
          ? ` by ${platformName(d.source)}: no orders come from there`
          : ` ${untilWords(d.pausedUntil)} on ${platformName(d.source)}`,
      ),
    ),
    location.offSale.length
      ? h(
          'p',
          { class: 'small off-sale' },
          h('strong', {}, 'Off sale: '),
          location.offSale
            .map((i) => `${names.get(i.itemId) ?? 'an item no longer in the catalog'} (${untilWords(i.untilMs ?? -1)})`)
            .join(', '),
        )
      : null,
    location.closedDays.length
      ? h(
          'p',
          { class: 'small muted closed-days' },
          `Closed ${location.closedDays.map((d) => `${calendarDate(d.date)} (${d.name})`).join(', ')}`,
        )
      : null,
  );
}

/** The controls of a location's stores, for a viewer who may use them. `changed` reads the page again. */
export function storeControls(
  orgId: string,
  location: Location,
  changed: () => Promise<void>,
  problem: (message: string) => void,
): HTMLElement {
  const guarded = (work: () => Promise<unknown>) => async () => {
    try {
      await work();
      await changed();
    } catch (error) {
      problem((error as Error).message);
    }
  };
  const pause = (minutes: number | null) =>
    guarded(() =>
      run(Pause, { input: { orgId, locationId: location.id, ...(minutes ? { untilMs: Date.now() + minutes * 60_000 } : {}) } }),
    );
  const anyPaused = location.dsps.some((d) => d.pausedUntil !== null);
  const controls = h(
    'div',
    { class: 'controls', 'data-controls-location': location.id, role: 'group', 'aria-label': `Pause orders at ${location.name}` },
    h('span', { class: 'small muted', 'aria-hidden': 'true' }, 'Pause:'),
    action('15 minutes', { class: 'quiet pause-15', 'aria-label': 'Pause orders for 15 minutes' }, pause(15)),
    action('1 hour', { class: 'quiet pause-60', 'aria-label': 'Pause orders for 1 hour' }, pause(60)),
    action('Until resumed', { class: 'quiet pause-open', 'aria-label': 'Pause orders until resumed' }, pause(null)),
    anyPaused
      ? action(
          'Resume',
          { class: 'resume', 'aria-label': 'Resume orders now' },
          guarded(() => run(Resume, { input: { orgId, locationId: location.id } })),
        )
      : null,
  );
  const busy = (extra: number) =>
    guarded(() => run(SetBusy, { input: { orgId, locationId: location.id, extraPrepMinutes: extra, untilMs: Date.now() + BUSY_FOR_MS } }));
  // Beside Pause, the gentler lever: orders keep coming, each quoted more minutes, for the next hour
  // (a rush passes; a busy spell forgotten would quote long times all week). Pressed again, the
  // hour starts again with the minutes chosen.
  const slower = h(
    'div',
    {
      class: 'controls busy-controls',
      'data-busy-controls-location': location.id,
      role: 'group',
      'aria-label': `Busy at ${location.name}: more minutes per order for the next hour`,
    },
    h('span', { class: 'small muted', 'aria-hidden': 'true' }, 'Busy:'),
    ...BUSY_EXTRAS.map((extra) =>
      action(
        `+${extra} min`,
        {
          class: `quiet busy-${extra}`,
          'aria-label': `Busy +${extra} min per order for the next hour`,
        },
        busy(extra),
      ),
    ),
    location.busy
      ? action(
          'End busy',
          { class: 'end-busy', 'aria-label': 'End busy: back to the usual prep time' },
          guarded(() => run(EndBusy, { input: { orgId, locationId: location.id } })),
        )
      : null,
  );
  const levers = h('div', { class: 'levers' }, controls, slower);
  const items = [...(location.catalog[0]?.items ?? []), ...(location.catalog[0]?.modifiers ?? [])];
  if (!items.length) return levers;
  const off = new Set(location.offSale.map((i) => i.itemId));
  const search = h('input', {
    type: 'search',
    placeholder: 'Find an item',
    class: 'item-search',
    'aria-label': `Find an item of ${location.name}`,
  }) as HTMLInputElement;
  const list = h(
    'ul',
    { class: 'plain items' },
    ...items.map((item) => {
      const available = !off.has(item.providerId);
      const name = item.name ?? 'Unnamed item';
      return h(
        'li',
        { 'data-item-id': item.providerId, 'data-available': String(available) },
        h('span', {}, name),
        action(
          available ? 'Take off sale' : 'Back on sale',
          {
            class: available ? 'quiet switch-off' : 'switch-on',
            'aria-label': available ? `Take off sale: ${name}` : `Back on sale: ${name}`,
          },
          guarded(() =>
            run(SetAvailability, { input: { orgId, locationId: location.id, itemIds: [item.providerId], available: !available } }),
          ),
        ),
      );
    }),
  );
  // The card is drawn again at every change (a switch made here or anywhere): the list stays open
  // and filtered as the merchant left it (keepItemLists notes how, just before the redraw).
  const filter = () => {
    const wanted = search.value.trim().toLowerCase();
    for (const row of list.children) (row as HTMLElement).hidden = !!wanted && !row.textContent!.toLowerCase().includes(wanted);
  };
  search.value = searches.get(location.id) ?? '';
  filter();
  search.addEventListener('input', filter);
  const switcher = h(
    'details',
    { class: 'item-switcher' },
    h('summary', {}, `Take items off sale (${items.length} items and options)`),
    search,
    list,
  ) as HTMLDetailsElement;
  switcher.open = opened.has(location.id);
  return h('div', {}, levers, switcher);
}

/**
 * A failed order's "take these off sale": the items its POS said it has none of, off sale at the
 * order's location (every platform's store) in one step, until put back. Those already off sale
 * are said so; once all are, the button is gone.
 */
export function takeOffSale(
  orgId: string,
  location: Location,
  itemIds: readonly string[],
  changed: () => Promise<void>,
  problem: (message: string) => void,
): HTMLElement | null {
  if (!itemIds.length) return null;
  const off = new Set(location.offSale.map((i) => i.itemId));
  const names = itemNames(location);
  const listed = itemIds.map((id) => names.get(id) ?? 'an item').join(', ');
  if (itemIds.every((id) => off.has(id)))
    return h('span', { class: 'small muted taken-off-sale', 'data-taken-off-sale': itemIds.join(' ') }, `Off sale now: ${listed}`);
  return action(
    `Take ${listed} off sale`,
    { class: 'quiet take-off-sale', 'data-take-off-sale': itemIds.join(' '), 'aria-label': `Take ${listed} off sale at ${location.name}` },
    async () => {
      try {
        await run(SetAvailability, { input: { orgId, locationId: location.id, itemIds: [...itemIds], available: false } });
        await changed();
      } catch (error) {
        problem((error as Error).message);
      }
    },
  );
}

/**
 * A live update redraws the cards while the merchant may be using an item list. Call before the
 * redraw: it notes which lists are open and what each is searched for as the page shows them now
 * (a list opened a moment ago has not fired its toggle event yet), and answers what to call after
 * it, which gives a search being typed its focus and caret back, or the next keystrokes would go
 * nowhere.
 */
export function keepItemLists(): () => void {
  for (const switcher of document.querySelectorAll<HTMLDetailsElement>('details.item-switcher')) {
    const locationId = switcher.closest<HTMLElement>('[data-location-id]')?.dataset.locationId;
    if (!locationId) continue;
    if (switcher.open) opened.add(locationId);
    else opened.delete(locationId);
    searches.set(locationId, switcher.querySelector<HTMLInputElement>('input.item-search')?.value ?? '');
  }
  const active = document.activeElement;
  if (!(active instanceof HTMLInputElement) || !active.classList.contains('item-search')) return () => {};
  const locationId = active.closest<HTMLElement>('[data-location-id]')?.dataset.locationId;
  const { selectionStart, selectionEnd } = active;
  return () => {
    const again = document.querySelector<HTMLInputElement>(`[data-location-id="${locationId}"] input.item-search`);
    again?.focus();
    again?.setSelectionRange(selectionStart, selectionEnd);
  };
}

/** Which locations' item lists are open, and what each was searched for, across redraws. */
const opened = new Set<string>();
const searches = new Map<string, string>();
