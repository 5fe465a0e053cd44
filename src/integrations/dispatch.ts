// Which registered event provider delivers a merchant-delivered order (docs/event-providers.md,
// "Registration, and which orders you get"): the one its organization names, else the
// deployment's when exactly one is registered; else none, and the order's timeline says why (its
// POS delivers it, as before).

/** What the database says of a location's organization and the registered event providers. */
export type DispatchCandidates = {
  /** The POS's id of the location: what order.confirmed names as `location_id`. */
  locationId: string;
  /** The event provider the organization names, and the kind of the registration of that name
   * (null: none is registered by it). */
  named: string | null;
  namedKind: string | null;
  /** How many event providers are registered, and the first of them by name. */
  registered: number | string;
  only: string | null;
};

/** The event provider that delivers the order, or why there is none. */
export function dispatcherOf(candidates: Omit<DispatchCandidates, 'locationId'>): { source: string } | { none: string } {
  if (candidates.named) {
    if (candidates.namedKind === 'event_provider') return { source: candidates.named };
    return { none: `the organization names ${candidates.named}, which is not a registered event provider` };
  }
  const registered = Number(candidates.registered);
  if (registered === 1 && candidates.only) return { source: candidates.only };
  if (registered === 0) return { none: 'no event provider is registered' };
  return { none: `the organization names no event provider and ${registered} are registered` };
}
