// The deposit addresses one chain/network indexer matches transfers against, held in memory. A NOTIFY on
// channel `deposit_watches` (trigger of migration 0002) marks the set stale and it is reloaded before the next
// scan; a periodic full reload covers notifications lost while the listening connection was down.
import type { Sql } from '../../db/client';
import type { ChainKey } from './cursor';

export interface Watch {
  sessionId: string;
  /** As stored in deposit_watches. */
  address: string;
  watchUntil: Date;
}

export interface WatchSetOptions {
  reloadMs: number;
  /** Watches that ended this long ago still load, so a lagging indexer still matches deposits made in time. */
  graceMs: number;
  /** Key under which addresses are compared: lowercase for EVM hex, identity for case-sensitive base58. */
  normalize(address: string): string;
  now?: () => number;
}

export class WatchSet {
  private watches = new Map<string, Watch>();
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

  /** The watch for `address` that was open at `at` (a block's time), if any. */
  match(address: string, at: Date): Watch | undefined {
    const watch = this.watches.get(this.options.normalize(address));
    return watch && watch.watchUntil.getTime() >= at.getTime() ? watch : undefined;
  }

  async refreshIfNeeded(): Promise<void> {
    const now = (this.options.now ?? Date.now)();
    if (!this.stale && now - this.loadedAt < this.options.reloadMs) return;
    // Cleared before the query: a notification arriving while it runs makes the next scan reload again.
    this.stale = false;
    try {
      const since = new Date(now - this.options.graceMs);
      const rows = await this.sql<{ session_id: string; address: string; watch_until: Date }[]>`
        select session_id, address, watch_until from deposit_watches
        where chain = ${this.key.chain} and network = ${this.key.network} and watch_until > ${since}`;
      const next = new Map<string, Watch>();
      for (const row of rows) {
        const normalized = this.options.normalize(row.address);
        const existing = next.get(normalized);
        // One address belongs to one session; should two ever share it, the later deadline wins.
        if (!existing || existing.watchUntil < row.watch_until) {
          next.set(normalized, { sessionId: row.session_id, address: row.address, watchUntil: row.watch_until });
        }
      }
      this.watches = next;
      this.loadedAt = now;
    } catch (error) {
      this.stale = true;
      throw error;
    }
  }
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
