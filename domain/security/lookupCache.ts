// What one process remembers of lookups by key: found and not-found answers alike, each for at most
// `ttlMs`, dropped at once when told the key changed. Invalidations come from elsewhere (Postgres NOTIFY for API
// keys); the TTL bounds how stale an answer can be when one is lost, and while the cache is not live (before
// its invalidations are known to arrive) nothing is kept at all.

/** Keys held at once; the oldest entry makes room, so a client presenting endless unknown keys cannot grow it. */
export const LOOKUP_CACHE_CAPACITY = 10_000;

interface Entry<V> {
  value: V | undefined;
  untilMs: number;
}

export class LookupCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly inFlight = new Map<string, Promise<V | undefined>>();
  /** Bumped by every invalidation: a lookup that started before one may not store what it read. */
  private generation = 0;
  private live = false;

  constructor(
    private readonly ttlMs: number,
    private readonly capacity = LOOKUP_CACHE_CAPACITY,
  ) {}

  /**
   * The cached answer for `key`, or `load`'s. Concurrent misses of one key share one load. A load that an
   * invalidation overtook is answered but not kept: it may have read the row before the change.
   */
  async lookup(key: string, nowMs: number, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const entry = this.entries.get(key);
    if (entry && entry.untilMs > nowMs) return entry.value;
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const generation = this.generation;
    const loading = load().finally(() => {
      if (this.inFlight.get(key) === loading) this.inFlight.delete(key);
    });
    this.inFlight.set(key, loading);
    const value = await loading;
    if (this.live && generation === this.generation) this.store(key, { value, untilMs: nowMs + this.ttlMs });
    return value;
  }

  /** `key` changed: its answer, and any load of it under way, are no longer to be trusted. */
  invalidate(key: string): void {
    this.generation += 1;
    this.entries.delete(key);
    this.inFlight.delete(key);
  }

  /**
   * Whether invalidations are known to arrive. Either way everything held is dropped: going live, because
   * changes made while not listening were never announced; going dead, because none will be from now on.
   */
  setLive(live: boolean): void {
    this.live = live;
    this.generation += 1;
    this.entries.clear();
    this.inFlight.clear();
  }

  private store(key: string, entry: Entry<V>): void {
    // Deleting first moves the key to the end of the Map's insertion order: the eviction order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}
