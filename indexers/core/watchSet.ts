// The deposit addresses one chain/network indexer matches transfers against, held in memory. A NOTIFY on
// channel `deposit_watches` (trigger of migration 0002) marks the set stale and it is reloaded before the next
// scan; a periodic full reload covers notifications lost while the listening connection was down.
// Watches the indexer has not yet re-scanned for (migration 0007) are kept apart as `toBackfill`: blocks it
// scanned between the watch being written and the set being reloaded were matched without them.
import type { Queryable, Sql } from '../../db/client';
import type { ChainKey } from './cursor';

export interface Watch {
  sessionId: string;
  /** As stored in deposit_watches. */
  address: string;
  watchUntil: Date;
}

/** What a range scan matches recipients against: the whole set, or only the watches being backfilled. */
export interface WatchMatcher {
  /** The watch for `address` that was open at `at` (a block's time), if any. */
  match(address: string, at: Date): Watch | undefined;
}

export interface WatchToBackfill extends Watch {
  /** The indexer's cursor when the watch was written: deposits to it lie above. null: no cursor existed yet. */
  indexedFrom: bigint | null;
}

export interface WatchSetOptions {
  reloadMs: number;
  /** Watches that ended this long ago still load, so a lagging indexer still matches deposits made in time. */
  graceMs: number;
  /** Key under which addresses are compared: lowercase for EVM hex, identity for case-sensitive base58. */
  normalize(address: string): string;
  now?: () => number;
}

export class WatchSet implements WatchMatcher {
  private watches = new Map<string, Watch>();
  private backfill = new Map<string, WatchToBackfill>();
  private stale = true;
  private loadedAt = 0;

  constructor(
    private readonly sql: Sql,
    readonly key: ChainKey,
    private readonly options: WatchSetOptions,
  ) {}

  get size(): number {
    return this.watches.size;
  }

  markStale(): void {
    this.stale = true;
  }

  match(address: string, at: Date): Watch | undefined {
    return openAt(this.watches.get(this.options.normalize(address)), at);
  }

  /** Loaded watches whose earlier blocks have not been re-scanned yet. */
  get toBackfill(): readonly WatchToBackfill[] {
    return [...this.backfill.values()];
  }

  /** Matches only `watches`: a backfill must not re-read deposits that the forward scan already stored. */
  matcherFor(watches: readonly WatchToBackfill[]): WatchMatcher {
    const byAddress = new Map(watches.map((watch) => [this.options.normalize(watch.address), watch]));
    return { match: (address, at) => openAt(byAddress.get(this.options.normalize(address)), at) };
  }

  /** Stamps the watches backfilled; call it in the transaction that stores what the backfill found. */
  async recordBackfilled(tx: Queryable, watches: readonly WatchToBackfill[]): Promise<void> {
    if (watches.length === 0) return;
    // One array parameter: a first start may stamp every open watch at once, beyond the protocol's 65,535 parameters.
    await tx`
      update deposit_watches set backfilled_at = now()
      where chain = ${this.key.chain} and session_id = any(${tx.array(watches.map((watch) => watch.sessionId))}::text[]) and backfilled_at is null`;
  }

  /** After the backfill's transaction committed: they are covered like every other watch from now on. */
  backfilled(watches: readonly WatchToBackfill[]): void {
    for (const watch of watches) this.backfill.delete(this.options.normalize(watch.address));
  }

  async refreshIfNeeded(): Promise<void> {
    const now = (this.options.now ?? Date.now)();
    if (!this.stale && now - this.loadedAt < this.options.reloadMs) return;
    // Cleared before the query: a notification arriving while it runs makes the next scan reload again.
    this.stale = false;
    try {
      const since = new Date(now - this.options.graceMs);
      const rows = await this.sql<{ session_id: string; address: string; watch_until: Date; indexed_from: bigint | null; backfilled: boolean }[]>`
        select session_id, address, watch_until, indexed_from, backfilled_at is not null as backfilled from deposit_watches
        where chain = ${this.key.chain} and network = ${this.key.network} and watch_until > ${since}`;
      const next = new Map<string, Watch>();
      const backfill = new Map<string, WatchToBackfill>();
      for (const row of rows) {
        const normalized = this.options.normalize(row.address);
        const watch = { sessionId: row.session_id, address: row.address, watchUntil: row.watch_until };
        const existing = next.get(normalized);
        // One address belongs to one session; should two ever share it, the later deadline wins.
        if (!existing || existing.watchUntil < row.watch_until) next.set(normalized, watch);
        if (!row.backfilled) backfill.set(normalized, { ...watch, indexedFrom: row.indexed_from });
      }
      this.watches = next;
      this.backfill = backfill;
      this.loadedAt = now;
    } catch (error) {
      this.stale = true;
      throw error;
    }
  }
}

function openAt<T extends Watch>(watch: T | undefined, at: Date): T | undefined {
  return watch && watch.watchUntil.getTime() >= at.getTime() ? watch : undefined;
}

/**
 * One LISTEN connection for all sets of the process. The payload is `<chain>:<network>`; every (re)connect
 * marks all sets stale, since notifications sent while disconnected are lost.
 */
export async function listenForWatchChanges(sql: Sql, sets: readonly WatchSet[]): Promise<{ unlisten(): Promise<void> }> {
  const subscription = await sql.listen(
    'deposit_watches',
    (payload) => {
      for (const set of sets) if (payload === `${set.key.chain}:${set.key.network}`) set.markStale();
    },
    () => {
      for (const set of sets) set.markStale();
    },
  );
  return { unlisten: () => subscription.unlisten() };
}
