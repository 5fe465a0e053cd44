// Values kept in memory, bounded: what saves a query or a parse on every request for facts that
// change rarely (a live session, a provider's registration, for a few seconds) or never (a
// catalog version's offer). A change is seen at once by the instance that makes it (it deletes
// the entry) and by the other instances within the time to live. The one cache of the service:
// every kept value goes through it, per database client (keptPer).
export class Kept<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();

  /** At most `max` entries, the least recently used let go first; each for `ttlMs` (forever when not given). */
  constructor(private readonly options: { max: number; ttlMs?: number }) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.until <= Date.now()) return undefined;
    // Most recently used last: the first in the map is the one to let go.
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.options.max) this.entries.delete(this.entries.keys().next().value!);
    const until = Date.now() + (this.options.ttlMs ?? Number.POSITIVE_INFINITY);
    this.entries.set(key, { value, until });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** The value of `key`, read once while it is kept; a read that fails is not kept (the next one
   * reads again), so a database away for a moment is not remembered. */
  remember<P extends V & Promise<unknown>>(key: K, read: () => P): P {
    const kept = this.get(key);
    if (kept !== undefined) return kept as P;
    const value = read();
    this.set(key, value);
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }
}

/** One Kept per owner (a database client), so that services sharing a process (tests, the
 * benchmark) never see each other's entries. */
export function keptPer<Owner extends object, K, V>(options: { max: number; ttlMs?: number }): (owner: Owner) => Kept<K, V> {
  const all = new WeakMap<Owner, Kept<K, V>>();
  return (owner) => all.get(owner) ?? all.set(owner, new Kept<K, V>(options)).get(owner)!;
}
