// Busy: slower, not closed (docs/api-guide.md, "Stopping and restarting orders"). A location's orders keep coming, each
// quoted `extra_prep_minutes` more (orders/kitchen.ts reads the location's quote at intake); each
// bound DSP store is told its new prep time (location.prep_time.update, in order with the store's
// other events and menus), and told the base again when the busy spell is ended early. An end at
// `until` passes by itself (./pace.ts compares it with the clock): nothing is sent then, on any
// instance, across restarts. Set by a partner, the merchant's dashboard, or its POS.
import type { Services } from '../../services.js';
import { Invalid } from '../../common/errors.js';
import type { AuthInfo } from '../../common/scopes.js';
import type { Location as LocationRow } from '../../db/client.js';
import { statementsOf } from '../../db/statements.js';
import { tables } from '../../db/tables.js';
import { boundStores } from '../../db/sql/stores.js';
import { endOf } from './rules.js';
import { BUSY_EXTRA_MINUTES, locationQuote, type Pace } from './pace.js';
import { locationChanged, locationInReach, storeEvent } from './service.js';

/** A location's busy spell as it is shown: its extra minutes and end, and the quote with them. */
export type Busy = { locationId: string; extraPrepMinutes: number | null; untilMs: number | null; prepTimeMinutes: number | null };

type BusyLocation = Pick<LocationRow, 'id' | 'orgId' | 'partnerId'> & Pace;

/** Extra minutes as sent: whole, from BUSY_EXTRA_MINUTES.min to .max, or 400 naming the field. */
export function extraMinutesOf(value: unknown, field: string): number {
  if (!Number.isInteger(value) || (value as number) < BUSY_EXTRA_MINUTES.min || (value as number) > BUSY_EXTRA_MINUTES.max)
    throw new Invalid(`${field} must be whole minutes from ${BUSY_EXTRA_MINUTES.min} to ${BUSY_EXTRA_MINUTES.max}`);
  return value as number;
}

/** A location made busy (or its busy spell changed): kept, each bound store told its quote, the
 * partner told (location.busy). */
export async function busyLocation(services: Services, location: BusyLocation, extra: number, until: Date | null): Promise<Busy> {
  const pace = { ...location, busyExtraMinutes: extra, busyUntil: until };
  const quote = locationQuote(pace, Date.now());
  await tell(services, location, pace, 'location.busy', quote, until);
  return { locationId: location.id, extraPrepMinutes: extra, untilMs: until?.getTime() ?? null, prepTimeMinutes: quote };
}

/** A busy spell ended on request: each bound store told the base again (when there is one), the
 * partner told (location.busy.ended). A location not busy is answered as it is. */
export async function endLocationBusy(services: Services, location: BusyLocation): Promise<Busy> {
  const pace = { ...location, busyExtraMinutes: null, busyUntil: null };
  if (location.busyExtraMinutes !== null) await tell(services, location, pace, 'location.busy.ended', location.prepTimeMinutes, null);
  return { locationId: location.id, extraPrepMinutes: null, untilMs: null, prepTimeMinutes: location.prepTimeMinutes };
}

async function tell(
  services: Services,
  location: BusyLocation,
  pace: Pace,
  type: 'location.busy' | 'location.busy.ended',
  quote: number | null,
  until: Date | null,
): Promise<void> {
  const stores = await boundStores(statementsOf(services.db), location.id);
  await statementsOf(services.db).transaction(async (run) => {
    await run(tables.location.update(location.id, { busyExtraMinutes: pace.busyExtraMinutes, busyUntil: pace.busyUntil }));
    const told = [];
    // With no prep time to quote (no base, the spell ended), the stores keep their own.
    if (quote !== null)
      for (const store of stores) told.push(await storeEvent(run, store, 'location.prep_time.update', { prepTimeMinutes: quote, until }));
    const data =
      type === 'location.busy'
        ? { extraPrepMinutes: pace.busyExtraMinutes, untilMs: until?.getTime() ?? null, prepTimeMinutes: quote }
        : { prepTimeMinutes: quote };
    await locationChanged(run, services, location, type, data, told);
  });
}

/** A partner's or the merchant's call: busy with `extraPrepMinutes` more, until `untilMs` or ended. */
export async function setLocationBusy(
  services: Services,
  auth: AuthInfo,
  input: { orgId: string; locationId: string; extraPrepMinutes: number; untilMs?: number | null },
): Promise<Busy> {
  const extra = extraMinutesOf(input.extraPrepMinutes, 'extra_prep_minutes');
  const until = endOf(input.untilMs, 'until_ms');
  return busyLocation(services, await locationInReach(services, auth, input.orgId, input.locationId), extra, until);
}

export async function endBusy(services: Services, auth: AuthInfo, input: { orgId: string; locationId: string }): Promise<Busy> {
  return endLocationBusy(services, await locationInReach(services, auth, input.orgId, input.locationId));
}

/** A location's busy spell now: none once its end has passed. */
export const busyShown = (location: Pace, now = Date.now()) =>
  location.busyExtraMinutes && (!location.busyUntil || location.busyUntil.getTime() > now)
    ? { extraPrepMinutes: location.busyExtraMinutes, untilMs: location.busyUntil?.getTime() ?? null }
    : null;
