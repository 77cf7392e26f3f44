// One chain on one network, whatever its family: follows the head, scans range by range through the family's
// ChainReader, stores deposits to watched addresses together with the cursor, tracks their confirmations,
// survives reorgs and signals the session workflows. Watches the indexer learnt of late are backfilled first.
import type { Logger } from 'pino';
import type { Sql } from '../../db/client';
import type { ChainDeployment } from '../../domain/chains/chainRegistry';
import { errorFields } from '../../observability/logger';
import { NetworkMismatchError, type BlockHeader, type ChainReader, type RangeScan } from './chainReader';
import { trackConfirmations } from './confirmations';
import { loadCursor, saveCursor, type BlockRef, type ChainKey } from './cursor';
import { upsertDeposits, type NewDeposit } from './depositStore';
import type { HeadNotifications } from './headNotifications';
import type { ChainMetrics } from './metrics';
import { findCommonAncestor, rewindTo, type ReorgDeps } from './reorg';
import { flushSignals } from './signalOutbox';
import type { SignalSender } from './signalSender';
import { sleep } from './sleep';
import type { WatchSet } from './watchSet';

export interface ChainIndexerDeps {
  sql: Sql;
  deployment: ChainDeployment;
  reader: ChainReader;
  watches: WatchSet;
  sender: SignalSender;
  metrics: ChainMetrics;
  logger: Logger;
  /** The pause between ticks when nothing more is waiting: about the chain's block time. */
  pollIntervalMs: number;
  /** New heads pushed by the node (EVM websocket): a tick starts as soon as one arrives. */
  heads?: HeadNotifications;
  /** The pause while `heads` delivers: polling is then only the safety net for a silent subscription. */
  subscribedPollIntervalMs?: number;
}

export class ChainIndexer {
  readonly key: ChainKey;
  readonly watches: WatchSet;
  private cursor: BlockRef | undefined;
  /** Highest height known processed: the cursor's block, or empty heights (skipped slots) above it. */
  private scannedThrough = 0n;
  private readonly keepHashes: number;
  private readonly reorgDeps: ReorgDeps;

  constructor(private readonly deps: ChainIndexerDeps) {
    this.key = { chain: deps.deployment.chain, network: deps.deployment.network };
    this.watches = deps.watches;
    // Enough hashes to trace back well past the confirmation depth, the deepest reorg docs/api.md#chains-and-tokens provides for.
    this.keepHashes = Math.max(4 * deps.deployment.confirmations, 64);
    this.reorgDeps = {
      sql: deps.sql,
      key: this.key,
      canonicalHash: (height) => deps.reader.canonicalHash(height),
      metrics: deps.metrics,
      logger: deps.logger,
      keepHashes: this.keepHashes,
    };
  }

  verifyNetwork(): Promise<void> {
    return this.deps.reader.verifyNetwork();
  }

  /**
   * One step: scan, track confirmations, send pending signals. Resolves true when more blocks are waiting, so
   * the loop goes on without pausing. Signals go out even when the chain side failed, so a flaky RPC provider
   * never holds back news the indexer already has.
   */
  async tick(): Promise<boolean> {
    let more = false;
    let failure: unknown;
    try {
      more = await this.advance();
    } catch (error) {
      failure = error;
    }
    try {
      await flushSignals({
        sql: this.deps.sql,
        key: this.key,
        sender: this.deps.sender,
        metrics: this.deps.metrics,
        logger: this.deps.logger,
      });
    } catch (error) {
      failure ??= error;
    }
    if (failure !== undefined) throw failure;
    this.deps.metrics.lastTickAt = new Date();
    return more;
  }

  /** Ticks until `signal` aborts; a tick in progress completes, so its cursor and deposits are stored together. */
  async run(signal: AbortSignal): Promise<void> {
    const { logger, metrics, pollIntervalMs, heads } = this.deps;
    try {
      while (!signal.aborted) {
        try {
          await this.verifyNetwork();
          break;
        } catch (error) {
          if (error instanceof NetworkMismatchError) throw error;
          logger.warn({ err: errorFields(error), ...this.key }, 'network check failed; retrying');
          await sleep(pollIntervalMs, signal);
        }
      }
      while (!signal.aborted) {
        let more = false;
        try {
          more = await this.tick();
        } catch (error) {
          metrics.tickErrors += 1;
          logger.warn({ err: errorFields(error), ...this.key }, 'indexer tick failed; retrying');
        }
        if (more) continue;
        const pause = heads?.live ? (this.deps.subscribedPollIntervalMs ?? pollIntervalMs) : pollIntervalMs;
        await (heads ? heads.wait(pause, signal) : sleep(pause, signal));
      }
    } finally {
      heads?.close();
    }
  }

  private async advance(): Promise<boolean> {
    const pushed = this.deps.heads?.take() ?? [];
    if (this.cursor && pushed.length > 0) {
      await this.refreshWatches();
      const followed = await this.followPushedHeads(this.cursor, pushed);
      if (followed) return this.trackDepth(followed, false);
    }
    return this.advanceToHead();
  }

  /**
   * Reads the blocks of pushed headers that continue the cursor one after another, each by its hash alone, and
   * returns the new cursor. undefined at the first header that does not (a head missed, a reorg, a reader that
   * cannot): the head path then reads the node's head and the range up to it, and finds the reorg if any.
   */
  private async followPushedHeads(cursor: BlockRef, pushed: readonly BlockHeader[]): Promise<BlockRef | undefined> {
    const { reader, metrics } = this.deps;
    if (!reader.scanPushedBlock) return undefined;
    let after = cursor;
    for (const header of pushed) {
      if (header.number !== this.scannedThrough + 1n || header.parentHash !== after.hash) return undefined;
      const scan = await reader.scanPushedBlock(header, this.watches);
      if (scan.kind !== 'scanned' || !scan.newest) return undefined;
      // The node itself announced this head: depth is counted from it as from a head it reports when asked.
      metrics.head = header.number;
      await this.store(scan.deposits, scan.newest);
      after = scan.newest;
    }
    return after;
  }

  private async advanceToHead(): Promise<boolean> {
    const { reader, metrics } = this.deps;
    const head = await reader.head();
    metrics.head = head;
    const cursor = this.cursor ?? (await this.loadOrStartCursor(head));
    await this.refreshWatches();
    if (head <= this.scannedThrough) {
      // Nothing new, but the cursor block itself may have been replaced (a reorg to the same or a lower height).
      const status = await reader.cursorStatus(cursor);
      if (status === 'replaced') return this.recoverFromReorg(cursor.number - 1n);
      if (status === 'unknown') return false;
      return this.trackDepth(cursor, false);
    }
    const from = this.scannedThrough + 1n;
    const last = this.scannedThrough + BigInt(reader.maxRange);
    const to = head < last ? head : last;
    // A reader that asks for the head by hash reads it alone, right after the blocks below it.
    const headAlone = reader.readsHeadAlone === true && to === head && to > from;
    let step = await this.scanStep(cursor, from, headAlone ? head - 1n : to);
    if (headAlone && step.kind === 'scanned' && step.complete && this.scannedThrough === head - 1n) {
      step = await this.scanStep(this.cursor ?? cursor, head, head);
    }
    if (step.kind === 'reorg') return this.recoverFromReorg((this.cursor ?? cursor).number - 1n);
    return this.trackDepth(this.cursor ?? cursor, step.kind === 'scanned' && step.complete && this.scannedThrough < head);
  }

  /** After the cursor exists: a watch written from now on records it (db/migrations/0001_baseline.sql), so none falls between. */
  private async refreshWatches(): Promise<void> {
    await this.watches.refreshIfNeeded();
    await this.backfill();
  }

  /** Depth counts heights, empty ones included: the tip is the highest height processed. */
  private async trackDepth(cursor: BlockRef, more: boolean): Promise<boolean> {
    const tip = { number: this.scannedThrough, hash: cursor.hash };
    const reorgedAt = await trackConfirmations(
      {
        sql: this.deps.sql,
        key: this.key,
        required: this.deps.deployment.confirmations,
        canonicalHash: this.reorgDeps.canonicalHash,
        metrics: this.deps.metrics,
        recheckDepth: this.keepHashes,
      },
      tip,
    );
    if (reorgedAt !== undefined && reorgedAt <= tip.number) {
      await this.recoverFromReorg(reorgedAt - 1n);
      return true;
    }
    return more;
  }

  /** Scans [from, to] continuing `after`, storing what it found with the cursor. */
  private async scanStep(after: BlockRef, from: bigint, to: bigint): Promise<RangeScan> {
    const scan = await this.deps.reader.scanRange({ after, from, to }, this.watches);
    if (scan.kind === 'unsettled') {
      // Empty heights above the cursor are read again too: one of them may hold a block after all.
      this.scannedThrough = after.number;
    } else if (scan.kind === 'scanned') {
      if (scan.newest) await this.store(scan.deposits, scan.newest);
      this.scannedThrough = scan.through;
    }
    return scan;
  }

  /**
   * Re-reads, for watches the set learnt of after blocks were scanned without them, the heights from the cursor
   * at the time each was written up to what is processed now. Only those watches are matched, so nothing the
   * forward scan stored is read twice; the stamp and the deposits are stored in one transaction.
   */
  private async backfill(): Promise<void> {
    const pending = this.watches.toBackfill;
    if (pending.length === 0) return;
    const through = this.scannedThrough;
    const starts = pending.map((watch) => watch.indexedFrom ?? through).filter((from) => from < through);
    const deposits: NewDeposit[] = [];
    if (starts.length > 0) {
      const matcher = this.watches.matcherFor(pending);
      const lowest = starts.reduce((a, b) => (a < b ? a : b));
      for (let from = lowest + 1n; from <= through;) {
        const last = from + BigInt(this.deps.reader.maxRange) - 1n;
        const scan = await this.deps.reader.scanRange({ from, to: last < through ? last : through }, matcher);
        if (scan.kind !== 'scanned' || !scan.complete)
          throw new BackfillIncompleteError(
            `${this.key.chain}:${this.key.network}: backfill read of ${from}… did not complete; retrying next tick`,
          );
        deposits.push(...scan.deposits);
        from = scan.through + 1n;
      }
    }
    const written = await this.deps.sql.begin(async (tx) => {
      const count = await upsertDeposits(tx, this.key, deposits);
      await this.watches.recordBackfilled(tx, pending);
      return count;
    });
    this.watches.backfilled(pending);
    this.deps.metrics.depositsDetected += written;
    this.deps.metrics.depositsBackfilled += written;
    if (starts.length > 0) {
      this.deps.logger.info(
        { ...this.key, watches: pending.length, through: through.toString(), found: written },
        'backfilled watches written after blocks were scanned',
      );
    }
  }

  private async loadOrStartCursor(head: bigint): Promise<BlockRef> {
    const stored = await loadCursor(this.deps.sql, this.key);
    if (stored) {
      this.setCursor(stored);
      return stored;
    }
    // First start: from the configured height, else from the oldest one a deposit could still be unconfirmed in.
    const required = BigInt(this.deps.deployment.confirmations);
    const firstHeight = this.deps.deployment.startBlock ?? (head > required ? head - required + 1n : 1n);
    const start = await this.deps.reader.startBlock(firstHeight > 0n ? firstHeight - 1n : 0n);
    await saveCursor(this.deps.sql, this.key, start, this.keepHashes);
    this.setCursor(start);
    return start;
  }

  /** A range's deposits and the cursor move in one transaction: either both are stored or neither. */
  private async store(deposits: NewDeposit[], next: BlockRef): Promise<void> {
    const written = await this.deps.sql.begin(async (tx) => {
      const count = await upsertDeposits(tx, this.key, deposits);
      await saveCursor(tx, this.key, next, this.keepHashes);
      return count;
    });
    this.deps.metrics.depositsDetected += written;
    this.setCursor(next);
  }

  private async recoverFromReorg(below: bigint): Promise<boolean> {
    const ancestor = await findCommonAncestor(this.reorgDeps, below);
    await rewindTo(this.reorgDeps, ancestor);
    this.setCursor(ancestor);
    return true;
  }

  private setCursor(block: BlockRef): void {
    this.cursor = block;
    this.scannedThrough = block.number;
    this.deps.metrics.cursor = block.number;
  }
}

export class BackfillIncompleteError extends Error {
  override name = 'BackfillIncompleteError';
}
