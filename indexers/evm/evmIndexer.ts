// One EVM chain on one network: follows the head, scans USDC/USDT transfers range by range, stores those to
// watched addresses, tracks their confirmations, survives reorgs and signals the session workflows.
import type { Logger } from 'pino';
import type { Sql } from '../../db/client';
import type { ChainDeployment } from '../../domain/chainRegistry';
import { errorFields } from '../../observability/logger';
import { depositsToWatched } from '../core/matchTransfers';
import { trackConfirmations } from '../core/confirmations';
import { loadCursor, saveCursor, type BlockRef, type ChainKey } from '../core/cursor';
import { upsertDeposits } from '../core/depositStore';
import type { ChainMetrics } from '../core/metrics';
import { findCommonAncestor, rewindTo, type ReorgDeps } from '../core/reorg';
import { sleep } from '../core/sleep';
import { flushSignals } from '../core/signalOutbox';
import type { SignalSender } from '../core/signalSender';
import type { WatchSet } from '../core/watchSet';
import type { EvmRpc } from './evmRpc';
import { scanTransfers } from './scanTransfers';

export interface EvmIndexerDeps {
  sql: Sql;
  deployment: ChainDeployment;
  rpc: EvmRpc;
  watches: WatchSet;
  sender: SignalSender;
  metrics: ChainMetrics;
  logger: Logger;
  maxLogRange: number;
  pollIntervalMs: number;
}

export class ChainIdMismatchError extends Error {
  override name = 'ChainIdMismatchError';
}

export class EvmIndexer {
  readonly key: ChainKey;
  readonly watches: WatchSet;
  private cursor: BlockRef | undefined;
  private readonly keepHashes: number;
  private readonly reorgDeps: ReorgDeps;

  constructor(private readonly deps: EvmIndexerDeps) {
    this.key = { chain: deps.deployment.chain, network: deps.deployment.network };
    this.watches = deps.watches;
    // Enough hashes to trace back well past the confirmation depth, the deepest reorg the spec provides for.
    this.keepHashes = Math.max(4 * deps.deployment.confirmations, 64);
    this.reorgDeps = {
      sql: deps.sql,
      key: this.key,
      canonicalHash: async (number) => (await deps.rpc.block(number))?.hash ?? null,
      metrics: deps.metrics,
      logger: deps.logger,
      keepHashes: this.keepHashes,
    };
  }

  /** A mainnet indexer pointed at a testnet node (or the reverse) would credit worthless tokens: refuse. */
  async verifyChainId(): Promise<void> {
    const expected = this.deps.deployment.chainId;
    const actual = await this.deps.rpc.chainId();
    if (expected !== undefined && actual !== expected) {
      throw new ChainIdMismatchError(`${this.key.chain}:${this.key.network} RPC reports chain id ${actual}, expected ${expected}`);
    }
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
      await flushSignals({ sql: this.deps.sql, key: this.key, sender: this.deps.sender, metrics: this.deps.metrics, logger: this.deps.logger });
    } catch (error) {
      failure ??= error;
    }
    if (failure !== undefined) throw failure;
    this.deps.metrics.lastTickAt = new Date();
    return more;
  }

  private async advance(): Promise<boolean> {
    const { rpc, metrics } = this.deps;
    await this.deps.watches.refreshIfNeeded();
    const head = await rpc.blockNumber();
    metrics.head = head;
    const cursor = this.cursor ?? (await this.loadOrStartCursor(head));
    let more = false;
    if (head <= cursor.number) {
      // Nothing new, but the cursor block itself may have been replaced (a reorg to the same or a lower height).
      const tip = await rpc.block(cursor.number);
      if (tip?.hash !== cursor.hash) return this.recoverFromReorg(cursor.number - 1n);
    } else {
      const scanned = await this.scanNextRange(cursor, head);
      if (scanned === 'reorg') return this.recoverFromReorg(cursor.number - 1n);
      more = scanned === 'more';
    }
    const tip = this.cursor ?? cursor;
    const reorgedAt = await trackConfirmations(
      {
        sql: this.deps.sql,
        key: this.key,
        required: this.deps.deployment.confirmations,
        canonicalHash: this.reorgDeps.canonicalHash,
        metrics,
        recheckDepth: this.keepHashes,
      },
      tip,
    );
    if (reorgedAt !== undefined && reorgedAt <= tip.number) {
      await this.recoverFromReorg(reorgedAt - 1n);
      more = true;
    }
    return more;
  }

  /** Ticks until `signal` aborts; a tick in progress completes, so its cursor and deposits are stored together. */
  async run(signal: AbortSignal): Promise<void> {
    const { logger, metrics, pollIntervalMs } = this.deps;
    while (!signal.aborted) {
      try {
        await this.verifyChainId();
        break;
      } catch (error) {
        if (error instanceof ChainIdMismatchError) throw error;
        logger.warn({ err: errorFields(error), chain: this.key.chain, network: this.key.network }, 'chain id check failed; retrying');
        await sleep(pollIntervalMs, signal);
      }
    }
    while (!signal.aborted) {
      let more = false;
      try {
        more = await this.tick();
      } catch (error) {
        metrics.tickErrors += 1;
        logger.warn({ err: errorFields(error), chain: this.key.chain, network: this.key.network }, 'indexer tick failed; retrying');
      }
      if (!more) await sleep(pollIntervalMs, signal);
    }
  }

  private async loadOrStartCursor(head: bigint): Promise<BlockRef> {
    const stored = await loadCursor(this.deps.sql, this.key);
    if (stored) {
      this.setCursor(stored);
      return stored;
    }
    // First start: from the configured block, else from the oldest block a deposit could still be unconfirmed in.
    const required = BigInt(this.deps.deployment.confirmations);
    const firstBlock = this.deps.deployment.startBlock ?? (head > required ? head - required + 1n : 1n);
    const number = firstBlock > 0n ? firstBlock - 1n : 0n;
    const block = await this.deps.rpc.block(number);
    if (!block) throw new Error(`${this.key.chain}:${this.key.network}: start block ${number} not found`);
    const start = { number, hash: block.hash };
    await saveCursor(this.deps.sql, this.key, start, this.keepHashes);
    this.setCursor(start);
    return start;
  }

  /** 'reorg': the chain no longer continues from the cursor. 'more': blocks beyond this range are waiting. */
  private async scanNextRange(cursor: BlockRef, head: bigint): Promise<'reorg' | 'more' | 'done'> {
    const { rpc, deployment } = this.deps;
    const from = cursor.number + 1n;
    const to = head < cursor.number + BigInt(this.deps.maxLogRange) ? head : cursor.number + BigInt(this.deps.maxLogRange);
    const first = await rpc.block(from);
    if (!first) return 'done';
    if (first.parentHash !== cursor.hash) {
      const atCursor = await rpc.block(cursor.number);
      if (atCursor?.hash !== cursor.hash) return 'reorg';
      // The node still has the cursor block yet names another parent for the next one. Real chains never do;
      // Hardhat leaves a zero parentHash on blocks that hardhat_mine reserves. The cursor block is what matters,
      // so scanning goes on (and each deposit's block is checked again before it is confirmed).
      this.deps.metrics.parentHashAnomalies += 1;
      this.deps.logger.warn({ ...this.key, block: from.toString(), parentHash: first.parentHash }, 'node reports a parent hash that is not the block below it');
    }
    const last = to === from ? first : await rpc.block(to);
    if (!last) return 'done';
    const transfers = await scanTransfers(rpc, deployment.tokens, from, to);
    // Logs from another fork than the headers just read: the chain moved between the calls. Read it again
    // after a pause, once the node has settled.
    const moved = transfers.some((t) => (t.blockNumber === from && t.blockHash !== first.hash) || (t.blockNumber === to && t.blockHash !== last.hash));
    if (moved) return 'done';
    const deposits = depositsToWatched(transfers, this.deps.watches, new Date(Number(first.timestamp) * 1000));
    const next = { number: to, hash: last.hash };
    const written = await this.deps.sql.begin(async (tx) => {
      const count = await upsertDeposits(tx, this.key, deposits);
      await saveCursor(tx, this.key, next, this.keepHashes);
      return count;
    });
    this.deps.metrics.depositsDetected += written;
    this.setCursor(next);
    return to < head ? 'more' : 'done';
  }

  private async recoverFromReorg(below: bigint): Promise<boolean> {
    const ancestor = await findCommonAncestor(this.reorgDeps, below);
    await rewindTo(this.reorgDeps, ancestor);
    this.setCursor(ancestor);
    return true;
  }

  private setCursor(block: BlockRef): void {
    this.cursor = block;
    this.deps.metrics.cursor = block.number;
  }
}
