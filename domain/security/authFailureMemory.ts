// What one API process remembers about the per-address budget of failed authentications. The
// count itself is in Postgres, shared by every replica; this memory is what lets a replica refuse an
// address over budget without touching the database at all, and still serve a key it has seen succeed.

/** Addresses (and key hashes) held at once; the oldest entry makes room, so an attacker cannot grow it. */
export const MEMORY_CAPACITY = 10_000;
/** How long a key that authenticated stays vouched for on this replica after its last success. */
export const PROVEN_KEY_TTL_MS = 60 * 60_000;

/** Entries that expire, the least recently set evicted first once `capacity` is reached. */
class ExpiringSet {
  private readonly until = new Map<string, number>();
  constructor(private readonly capacity: number) {}

  set(entry: string, untilMs: number): void {
    // Deleting first moves the entry to the end of the Map's insertion order: the eviction order.
    this.until.delete(entry);
    this.until.set(entry, untilMs);
    if (this.until.size > this.capacity) this.until.delete(this.until.keys().next().value!);
  }

  has(entry: string, nowMs: number): boolean {
    const until = this.until.get(entry);
    if (until === undefined) return false;
    if (until > nowMs) return true;
    this.until.delete(entry);
    return false;
  }

  /** Milliseconds left, or 0 when the entry is absent or expired. */
  remainingMs(entry: string, nowMs: number): number {
    return this.has(entry, nowMs) ? this.until.get(entry)! - nowMs : 0;
  }
}

export class AuthFailureMemory {
  private readonly blocked: ExpiringSet;
  private readonly proven: ExpiringSet;

  constructor(capacity = MEMORY_CAPACITY) {
    this.blocked = new ExpiringSet(capacity);
    this.proven = new ExpiringSet(capacity);
  }

  /** The address spent its budget; the database says the window ends at `untilMs`. */
  block(address: string, untilMs: number): void {
    this.blocked.set(address, untilMs);
  }

  /** Whole seconds until `address` may try again (at least 1), or undefined when it is not blocked here. */
  blockedForSeconds(address: string, nowMs: number): number | undefined {
    const remaining = this.blocked.remainingMs(address, nowMs);
    return remaining > 0 ? Math.max(1, Math.ceil(remaining / 1000)) : undefined;
  }

  /** A key (by its hash) authenticated on this replica. */
  prove(keyHash: string, nowMs: number): void {
    this.proven.set(keyHash, nowMs + PROVEN_KEY_TTL_MS);
  }

  isProven(keyHash: string, nowMs: number): boolean {
    return this.proven.has(keyHash, nowMs);
  }
}
