// A kitchen's pace, pure: the minutes a location quotes (its POS's prep time, with a busy extra
// while it is busy) and the bounds of each. The order path reads them (orders/kitchen.ts), the
// store events tell them (./service.ts), the locations keep what a POS lists (locations/peers.ts).

/** A prep time is whole minutes in this range; anything else a POS sends is ignored (logged). */
export const PREP_MINUTES = { min: 1, max: 240 } as const;
/** A busy location's extra minutes, whole, in this range. */
export const BUSY_EXTRA_MINUTES = { min: 5, max: 120 } as const;

/** Whole minutes in range, or null. */
export const prepMinutesOf = (value: unknown): number | null =>
  Number.isInteger(value) && (value as number) >= PREP_MINUTES.min && (value as number) <= PREP_MINUTES.max ? (value as number) : null;

/** A location's pace as kept: its base prep time, and its busy extra with its end (null: until ended). */
export type Pace = { prepTimeMinutes: number | null; busyExtraMinutes: number | null; busyUntil: Date | null };

/** The busy extra that applies now: none once its end has passed (an end passes by itself, as a
 * pause's does: no timer, no event). */
export const busyExtraNow = (pace: Pace, now: number): number =>
  pace.busyExtraMinutes && (!pace.busyUntil || pace.busyUntil.getTime() > now) ? pace.busyExtraMinutes : 0;

/** A location's quote now: its base prep time plus the busy extra that applies. Null when it has
 * neither. */
export function locationQuote(pace: Pace, now: number): number | null {
  const busy = busyExtraNow(pace, now);
  if (pace.prepTimeMinutes === null && !busy) return null;
  return (pace.prepTimeMinutes ?? 0) + busy;
}
