// The time rules of stores that stop and start (./service.ts), pure: when a pause or a time off
// sale may end, whether a pause applies at a moment and how its end is shown, whether an item is
// off sale. An end passes by itself: the order intake asks these rules with its clock
// (orders/intake.ts), so no timer runs when it does.
import { Invalid } from '../../common/errors.js';
import { sentEpochMs } from '../../common/input.js';

/** How far ahead a pause or an item's time off sale may end. */
export const LONGEST_STOP_MS = 366 * 86_400_000;

/** An end given as epoch ms: absent is null (until undone); otherwise epoch milliseconds (not
 * seconds: common/input.ts) in the future, at most LONGEST_STOP_MS ahead, or 400 naming the field. */
export function endOf(value: unknown, field: string, now = Date.now()): Date | null {
  if (value === undefined || value === null) return null;
  const end = sentEpochMs(value, field);
  if (end <= now) throw new Invalid(`${field} must be in the future`);
  if (end > now + LONGEST_STOP_MS) throw new Invalid(`${field} may be at most ${LONGEST_STOP_MS / 86_400_000} days ahead`);
  return new Date(end);
}

/** Whether a pause applies now (by us, until its end). */
export const pausedNow = (store: { pausedAt: Date | null; pausedUntil: Date | null }, now = Date.now()) =>
  store.pausedAt !== null && (store.pausedUntil === null || store.pausedUntil.getTime() > now);

/** A pause's end as partners see it: null when not paused (or its end passed), -1 until resumed. */
export const pausedUntilShown = (store: { pausedAt: Date | null; pausedUntil: Date | null }, now = Date.now()): number | null =>
  pausedNow(store, now) ? (store.pausedUntil?.getTime() ?? -1) : null;

/** A location's items off sale by id, with their ends (null: until put back). */
export type OffSale = ReadonlyMap<string, number | null>;

/** Whether an item is off sale now: until put back, or until an end not yet passed (an item not
 * listed never was, as if its end were long past). */
export const isOffSale = (items: OffSale, id: string, now = Date.now()) => {
  const until = items.get(id);
  return until === null || (until ?? 0) > now;
};
