// Solana on one network: follows the confirmed slot, reads every block of each slot range, stores the USDC/USDT
// credits to watched wallets, tracks their depth in slots, survives forks and signals the session workflows.
// The cursor is the last processed block (slot + blockhash); skipped slots above it are remembered in memory only,
// so a restart reads them again, which costs a call each and changes nothing.
import type { Logger } from 'pino';
import type { Sql } from '../../db/client';
import type { ChainDeployment } from '../../domain/chainRegistry';
import type { TokenSymbol } from '../../domain/chains';
import { errorFields } from '../../observability/logger';
import { trackConfirmations } from '../core/confirmations';
import { loadCursor, saveCursor, type BlockRef, type ChainKey } from '../core/cursor';
import { upsertDeposits, type NewDeposit } from '../core/depositStore';
import type { ChainMetrics } from '../core/metrics';
import { findCommonAncestor, rewindTo, type ReorgDeps } from '../core/reorg';
import { flushSignals } from '../core/signalOutbox';
import type { SignalSender } from '../core/signalSender';
import { sleep } from '../core/sleep';
import type { WatchSet } from '../core/watchSet';
import { scanBlocks } from './scanBlocks';
import type { SolanaBlock, SolanaRpc } from './solanaRpc';
import { tokenCredits } from './tokenBalanceDeltas';

export interface SolanaIndexerDeps {
  sql: Sql;
  deployment: ChainDeployment;
  rpc: SolanaRpc;
  watches: WatchSet;
  sender: SignalSender;
  metrics: ChainMetrics;
  logger: Logger;
  /** Most slots read per tick (and per database transaction). */
  maxSlotsPerRange: number;
  /** getBlock calls in flight at once while reading a range. */
  fetchConcurrency: number;
  pollIntervalMs: number;
}

export class ClusterMismatchError extends Error {
  override name = 'ClusterMismatchError';
}

/** mainnet-beta's genesis hash (`solana genesis-hash -um`). */
export const MAINNET_GENESIS_HASH = '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d';

/** How far below the start slot a block is looked for when the start slot itself was skipped. */
const START_SEARCH_SLOTS = 200n;

export class SolanaIndexer {
  readonly key: ChainKey;
  readonly watches: WatchSet;
  private cursor: BlockRef | undefined;
  /** Highest slot known processed: the cursor's block, or skipped slots above it. */
  private scannedThrough = 0n;
  private readonly keepHashes: number;
  private readonly reorgDeps: ReorgDeps;
  private readonly symbolByMint: Map<string, TokenSymbol>;
  private readonly mints: ReadonlySet<string>;

  constructor(private readonly deps: SolanaIndexerDeps) {
    this.key = { chain: deps.deployment.chain, network: deps.deployment.network };
    this.watches = deps.watches;
    this.keepHashes = Math.max(4 * deps.deployment.confirmations, 64);
    this.symbolByMint = new Map(deps.deployment.tokens.map((token) => [token.address, token.symbol]));
    this.mints = new Set(this.symbolByMint.keys());
    this.reorgDeps = {
      sql: deps.sql,
      key: this.key,
      canonicalHash: (slot) => this.canonicalHash(slot),
      metrics: deps.metrics,
      logger: deps.logger,
      keepHashes: this.keepHashes,
    };
  }

  /**
   * A mainnet indexer must talk to mainnet-beta; a testnet one must never talk to mainnet (it would credit real
   * money to test sessions). A local test cluster has a genesis of its own, so testnet accepts any other.
   */
  async verifyCluster(): Promise<void> {
    const genesis = await this.deps.rpc.genesisHash();
    const wrong = this.key.network === 'mainnet' ? genesis !== MAINNET_GENESIS_HASH : genesis === MAINNET_GENESIS_HASH;
    if (wrong) throw new ClusterMismatchError(`${this.key.chain}:${this.key.network} RPC reports genesis hash ${genesis}`);
  }

  /** One step: scan, track confirmations, send pending signals. Resolves true when more slots are waiting. */
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

  /** Ticks until `signal` aborts; a tick in progress completes, so its cursor and deposits are stored together. */
  async run(signal: AbortSignal): Promise<void> {
    const { logger, metrics, pollIntervalMs } = this.deps;
    while (!signal.aborted) {
      try {
        await this.verifyCluster();
        break;
      } catch (error) {
        if (error instanceof ClusterMismatchError) throw error;
        logger.warn({ err: errorFields(error), ...this.key }, 'cluster check failed; retrying');
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
      if (!more) await sleep(pollIntervalMs, signal);
    }
  }

  private async advance(): Promise<boolean> {
    const { rpc, metrics } = this.deps;
    await this.watches.refreshIfNeeded();
    const head = await rpc.slot();
    metrics.head = head;
    const cursor = this.cursor ?? (await this.loadOrStartCursor(head));
    let more = false;
    if (head <= this.scannedThrough) {
      // Nothing new, but the cursor block itself may have been replaced or dropped.
      const verdict = await this.checkCursor(cursor);
      if (verdict === 'reorg') return this.recoverFromReorg(cursor.number - 1n);
      if (verdict === 'wait') return false;
    } else {
      const scanned = await this.scanNextRange(cursor, head);
      if (scanned === 'reorg') return this.recoverFromReorg(cursor.number - 1n);
      more = scanned === 'more';
    }
    // Depth counts slots, skipped ones included: the tip is the highest slot processed.
    const tip = { number: this.scannedThrough, hash: (this.cursor ?? cursor).hash };
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

  /**
   * The blockhash the cluster has at `slot`, null for a skipped slot. A node that cannot answer yet (behind the
   * slot, e.g. another endpoint of a pool) throws: no deposit is withdrawn on a missing answer.
   */
  private async canonicalHash(slot: bigint): Promise<string | null> {
    const content = await this.deps.rpc.blockhash(slot);
    if (content.kind === 'unavailable') throw new Error(`${this.key.chain}:${this.key.network}: slot ${slot} not available from the node yet`);
    return content.kind === 'block' ? content.block : null;
  }

  private async checkCursor(cursor: BlockRef): Promise<'ok' | 'reorg' | 'wait'> {
    const content = await this.deps.rpc.blockhash(cursor.number);
    if (content.kind === 'unavailable') return 'wait';
    return content.kind === 'block' && content.block === cursor.hash ? 'ok' : 'reorg';
  }

  private async loadOrStartCursor(head: bigint): Promise<BlockRef> {
    const stored = await loadCursor(this.deps.sql, this.key);
    if (stored) {
      this.setCursor(stored);
      return stored;
    }
    // First start: from the configured slot, else from the oldest slot a deposit could still be unconfirmed in.
    const required = BigInt(this.deps.deployment.confirmations);
    const firstSlot = this.deps.deployment.startBlock ?? (head > required ? head - required + 1n : 1n);
    const below = firstSlot > 0n ? firstSlot - 1n : 0n;
    // The cursor must be a block; the slot just below the start may have been skipped.
    for (let slot = below; slot >= 0n && slot + START_SEARCH_SLOTS > below; slot--) {
      const content = await this.deps.rpc.blockhash(slot);
      // Starting below the configured slot would index what the operator excluded: wait for the node instead.
      if (content.kind === 'unavailable') throw new Error(`${this.key.chain}:${this.key.network}: start slot ${slot} not available from the node yet`);
      if (content.kind === 'skipped') continue;
      const start = { number: slot, hash: content.block };
      await saveCursor(this.deps.sql, this.key, start, this.keepHashes);
      this.setCursor(start);
      return start;
    }
    throw new Error(`${this.key.chain}:${this.key.network}: no block at or below start slot ${below}`);
  }

  /** 'reorg': the chain no longer continues from the cursor. 'more': slots beyond this range are waiting. */
  private async scanNextRange(cursor: BlockRef, head: bigint): Promise<'reorg' | 'more' | 'done'> {
    const from = this.scannedThrough + 1n;
    const last = this.scannedThrough + BigInt(this.deps.maxSlotsPerRange);
    const to = head < last ? head : last;
    const slots = await scanBlocks(this.deps.rpc, from, to, this.deps.fetchConcurrency);
    let parent = cursor;
    let through = this.scannedThrough;
    const deposits: NewDeposit[] = [];
    for (const scanned of slots) {
      if (scanned.kind === 'skipped') {
        through = scanned.slot;
        continue;
      }
      const { block } = scanned;
      if (block.parentSlot !== parent.number || block.previousBlockhash !== parent.hash) {
        // Blocks of one range may come from different forks when the cluster switched between the calls:
        // keep what links up and read the rest next tick.
        if (parent !== cursor) break;
        const verdict = await this.checkCursor(cursor);
        if (verdict === 'reorg') return 'reorg';
        if (verdict === 'ok') {
          // The cursor block stands, yet its successor names another parent: a slot read as skipped has a block
          // after all, or the node is switching forks. Read everything above the cursor again.
          this.deps.metrics.parentHashAnomalies += 1;
          this.deps.logger.warn({ ...this.key, slot: block.slot.toString(), parentSlot: block.parentSlot.toString() }, 'block does not continue the cursor');
        }
        this.scannedThrough = cursor.number;
        return 'done';
      }
      deposits.push(...this.matchWatched(block));
      parent = { number: block.slot, hash: block.blockhash };
      through = scanned.slot;
    }
    if (parent !== cursor) {
      const next = parent;
      const written = await this.deps.sql.begin(async (tx) => {
        const count = await upsertDeposits(tx, this.key, deposits);
        await saveCursor(tx, this.key, next, this.keepHashes);
        return count;
      });
      this.deps.metrics.depositsDetected += written;
      this.setCursor(next);
    }
    this.scannedThrough = through;
    return slots.length === Number(to - from + 1n) && to < head ? 'more' : 'done';
  }

  private matchWatched(block: SolanaBlock): NewDeposit[] {
    // A block without a time estimate is matched as of now: a watch open now was open then.
    const at = block.blockTime === null ? new Date() : new Date(Number(block.blockTime) * 1000);
    const isWatched = (owner: string) => this.watches.match(owner, at) !== undefined;
    const deposits: NewDeposit[] = [];
    for (const tx of block.transactions) {
      for (const credit of tokenCredits(tx, this.mints, isWatched)) {
        const watch = this.watches.match(credit.owner, at);
        const token = this.symbolByMint.get(credit.mint);
        if (!watch || !token) continue;
        deposits.push({
          sessionId: watch.sessionId,
          token,
          txHash: tx.signature,
          logIndex: credit.accountIndex,
          amount: credit.amount,
          fromAddress: credit.from,
          toAddress: credit.owner,
          blockNumber: block.slot,
          blockHash: block.blockhash,
        });
      }
    }
    return deposits;
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
