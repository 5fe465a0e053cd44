// Entries remembered for a few seconds: what saves a query on every request for facts that change
// rarely (a live session, a provider's registration). A change is seen at once by the instance
// that makes it (it deletes the entry) and by the other instances within the time to live.
export class Expiring<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly max = 10_000,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > Date.now()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: K, value: V): void {
    // A crude bound: clearing costs one query per live key, never unbounded memory.
    if (this.entries.size >= this.max) this.entries.clear();
    this.entries.set(key, { value, until: Date.now() + this.ttlMs });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}

/** One Expiring per owner (a database client), so that services sharing a process (tests, the
 * benchmark) never see each other's entries. */
export function expiringPer<Owner extends object, K, V>(ttlMs: number): (owner: Owner) => Expiring<K, V> {
  const all = new WeakMap<Owner, Expiring<K, V>>();
  return (owner) => all.get(owner) ?? all.set(owner, new Expiring<K, V>(ttlMs)).get(owner)!;
}
