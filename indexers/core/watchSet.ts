// The deposit addresses one chain/network indexer matches transfers against, held in memory. A NOTIFY on
// channel `deposit_watches` names the watch that was written (db/migrations/0001_baseline.sql); before the next scan the set
// reads just those rows, so a new session costs one row however many are open. A full reload runs when the
// listening connection (re)connects, since notifications sent while it was down are lost, periodically as the
// net under any other loss, and when a change may take an address away (another watch could then own it);
// it is also what drops expired watches.
// Watches the indexer has not yet re-scanned for (db/migrations/0001_baseline.sql) are kept apart as `toBackfill`: blocks it
// scanned between the watch being written and the set hearing of it were matched without them.
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

interface WatchRow {
  session_id: string;
  address: string;
  watch_until: Date;
  indexed_from: bigint | null;
  backfilled: boolean;
}

export class WatchSet implements WatchMatcher {
  private watches = new Map<string, Watch>();
  /** Each loaded session's address key: a changed watch must find the entry it replaces. */
  private addressOf = new Map<string, string>();
  private backfill = new Map<string, WatchToBackfill>();
  /** Sessions whose watch was written since the set last read it. */
  private changed = new Set<string>();
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

  /** The next refresh reloads every watch. */
  markStale(): void {
    this.stale = true;
  }

  /** The next refresh reads this session's watch alone. */
  markChanged(sessionId: string): void {
    this.changed.add(sessionId);
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
    if (this.stale || now - this.loadedAt >= this.options.reloadMs) return this.reload(now);
    if (this.changed.size === 0) return;
    const sessionIds = [...this.changed];
    // Cleared before the query: a notification arriving while it runs is read on the next refresh.
    this.changed.clear();
    let rows: WatchRow[];
    try {
      rows = await this.sql<WatchRow[]>`
        select session_id, address, watch_until, indexed_from, backfilled_at is not null as backfilled from deposit_watches
        where chain = ${this.key.chain} and network = ${this.key.network} and session_id = any(${this.sql.array(sessionIds)}::text[])`;
    } catch (error) {
      for (const sessionId of sessionIds) this.changed.add(sessionId);
      throw error;
    }
    const since = new Date(now - this.options.graceMs);
    for (const row of rows) if (!this.apply(row, since)) return this.reload(now);
  }

  private async reload(now: number): Promise<void> {
    // Cleared before the query: a notification arriving while it runs makes the next refresh read again.
    this.stale = false;
    this.changed.clear();
    try {
      const since = new Date(now - this.options.graceMs);
      const rows = await this.sql<WatchRow[]>`
        select session_id, address, watch_until, indexed_from, backfilled_at is not null as backfilled from deposit_watches
        where chain = ${this.key.chain} and network = ${this.key.network} and watch_until > ${since}`;
      this.watches = new Map();
      this.addressOf = new Map();
      this.backfill = new Map();
      for (const row of rows) this.apply(row, since);
      this.loadedAt = now;
    } catch (error) {
      this.stale = true;
      throw error;
    }
  }

  /**
   * Brings one row into the set as a full reload would. false when that takes the other watches: the row no
   * longer holds an address it held (moved, ended or cut short), and another session might own it after all.
   */
  private apply(row: WatchRow, since: Date): boolean {
    const key = this.options.normalize(row.address);
    const previous = this.addressOf.get(row.session_id);
    const held = this.watches.get(key);
    const open = row.watch_until > since;
    if (previous !== undefined && previous !== key) return false;
    if (held?.sessionId === row.session_id && (!open || row.watch_until < held.watchUntil)) return false;
    if (!open) {
      this.addressOf.delete(row.session_id);
      return true;
    }
    const watch = { sessionId: row.session_id, address: row.address, watchUntil: row.watch_until };
    // One address belongs to one session; should two ever share it, the later deadline wins.
    if (!held || held.sessionId === row.session_id || held.watchUntil < row.watch_until) this.watches.set(key, watch);
    this.addressOf.set(row.session_id, key);
    if (!row.backfilled) this.backfill.set(key, { ...watch, indexedFrom: row.indexed_from });
    else if (this.backfill.get(key)?.sessionId === row.session_id) this.backfill.delete(key);
    return true;
  }
}

function openAt<T extends Watch>(watch: T | undefined, at: Date): T | undefined {
  return watch && watch.watchUntil.getTime() >= at.getTime() ? watch : undefined;
}

/**
 * One LISTEN connection for all sets of the process. The payload `<chain>:<network>:<session_id>` names the watch
 * written; every (re)connect marks all sets stale, since notifications sent while disconnected are lost.
 */
export async function listenForWatchChanges(sql: Sql, sets: readonly WatchSet[]): Promise<{ unlisten(): Promise<void> }> {
  const subscription = await sql.listen(
    'deposit_watches',
    (payload) => {
      for (const set of sets) {
        const prefix = `${set.key.chain}:${set.key.network}:`;
        if (payload.startsWith(prefix)) set.markChanged(payload.slice(prefix.length));
      }
    },
    () => {
      for (const set of sets) set.markStale();
    },
  );
  return { unlisten: () => subscription.unlisten() };
}
