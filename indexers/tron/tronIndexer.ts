// Tron on one network: follows the head, scans USDT/USDC TRC-20 transfers range by range, stores those to
// watched `T…` addresses, tracks their confirmations (19, spec 2.8), survives reorgs and signals the session
// workflows. The same loop as the EVM indexer over the same core/ (cursor, deposits, confirmations, reorg,
// outbox), with Tron's JSON-RPC facade, its base58 addresses and its genesis-derived chain ids.
import type { Logger } from 'pino';
import type { Sql } from '../../db/client';
import type { ChainDeployment } from '../../domain/chainRegistry';
import type { Network } from '../../domain/tokenContracts';
import { errorFields } from '../../observability/logger';
import { depositsToWatched } from '../core/matchTransfers';
import { trackConfirmations } from '../core/confirmations';
import { loadCursor, saveCursor, type BlockRef, type ChainKey } from '../core/cursor';
import { upsertDeposits } from '../core/depositStore';
import type { ChainMetrics } from '../core/metrics';
import { findCommonAncestor, rewindTo, type ReorgDeps } from '../core/reorg';
import { flushSignals } from '../core/signalOutbox';
import type { SignalSender } from '../core/signalSender';
import { sleep } from '../core/sleep';
import type { WatchSet } from '../core/watchSet';
import { scanTransfers } from './scanTransfers';
import type { TronRpc } from './tronRpc';

/**
 * What java-tron's eth_chainId answers: the last 4 bytes of the genesis block id (mainnet 0x2b6653dc, Nile
 * 0xcd8690dc, per the java-tron JSON-RPC reference). The registry leaves Tron's chain id undefined because
 * spec 2.8 gives none; CHAIN_ID_TRON_<NETWORK> still overrides these.
 */
export const TRON_CHAIN_IDS: Record<Network, number> = { mainnet: 0x2b6653dc, testnet: 0xcd8690dc };

export interface TronIndexerDeps {
  sql: Sql;
  deployment: ChainDeployment;
  rpc: TronRpc;
  watches: WatchSet;
  sender: SignalSender;
  metrics: ChainMetrics;
  logger: Logger;
  maxLogRange: number;
  pollIntervalMs: number;
}

export class TronChainIdMismatchError extends Error {
  override name = 'TronChainIdMismatchError';
}

export class TronIndexer {
  readonly key: ChainKey;
  readonly watches: WatchSet;
  private cursor: BlockRef | undefined;
  private readonly keepHashes: number;
  private readonly reorgDeps: ReorgDeps;

  constructor(private readonly deps: TronIndexerDeps) {
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

  /** A mainnet indexer pointed at a Nile node (or the reverse) would credit worthless tokens: refuse. */
  async verifyChainId(): Promise<void> {
    const expected = this.deps.deployment.chainId ?? TRON_CHAIN_IDS[this.key.network];
    const actual = await this.deps.rpc.chainId();
    if (actual !== expected) {
      throw new TronChainIdMismatchError(`tron:${this.key.network} RPC reports chain id 0x${actual.toString(16)}, expected 0x${expected.toString(16)}`);
    }
  }

  /**
   * One step: scan, track confirmations, send pending signals. Resolves true when more blocks are waiting.
   * Signals go out even when the chain side failed, so a flaky node never holds back news already stored.
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

  /** Ticks until `signal` aborts; a tick in progress completes, so its cursor and deposits are stored together. */
  async run(signal: AbortSignal): Promise<void> {
    const { logger, metrics, pollIntervalMs } = this.deps;
    while (!signal.aborted) {
      try {
        await this.verifyChainId();
        break;
      } catch (error) {
        if (error instanceof TronChainIdMismatchError) throw error;
        logger.warn({ err: errorFields(error), ...this.key }, 'chain id check failed; retrying');
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
    if (!block) throw new Error(`tron:${this.key.network}: start block ${number} not found`);
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
      // The cursor block is canonical yet the next one names another parent: the answers came from two nodes on
      // different forks (public gateways balance requests across nodes). Read again next tick.
      this.deps.metrics.parentHashAnomalies += 1;
      return 'done';
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
