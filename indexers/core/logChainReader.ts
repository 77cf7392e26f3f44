// The ChainReader of the chains whose token transfers are event logs (EVM, and Tron through its JSON-RPC
// facade): a range costs its first and last headers plus one filtered log query, whatever the number of watched
// addresses, and a block whose header the node pushed costs the log query alone; block numbers are heights and
// every height holds a block.
import type { Logger } from 'pino';
import { NetworkMismatchError, type BlockHeader, type ChainReader, type RangeRequest, type RangeScan } from './chainReader';
import type { ChainKey } from './cursor';
import { depositsToWatched, type ObservedTransfer } from './matchTransfers';
import type { ChainMetrics } from './metrics';
import type { WatchMatcher } from './watchSet';

/** The node calls besides the log query; EvmRpc and TronRpc both have them. */
export interface LogChainNode {
  chainId(): Promise<number>;
  blockNumber(): Promise<bigint>;
  /** null when the node has no block at that height. */
  block(height: bigint): Promise<BlockHeader | null>;
}

export interface LogChainReaderOptions {
  key: ChainKey;
  node: LogChainNode;
  /**
   * The USDC/USDT transfers of [from, to], oldest first. With `byBlockHash`, a one-block range comes with the
   * block's hash to ask by (EIP-234): a pooled node lagging behind that block then errs rather than answering an
   * empty list, as it does for a range beyond its head. The loop reads the head alone, so the newest block,
   * the one a lagging node lacks, is always asked for that way.
   */
  transfers(from: bigint, to: bigint, blockHash: string | undefined): Promise<ObservedTransfer[]>;
  byBlockHash: boolean;
  /** The chain id the node must report; undefined accepts any. */
  expectedChainId: number | undefined;
  formatChainId(id: number): string;
  /** Most blocks one log query spans (providers cap it). */
  maxRange: number;
  metrics: ChainMetrics;
  logger: Logger;
  /**
   * When the cursor block is still canonical yet the next block names another parent. 'continue': trust the
   * cursor (Hardhat leaves a zero parentHash on the blocks hardhat_mine reserves; real EVM nodes never do this).
   * 'reread': the answers came from pooled nodes on different forks (public Tron gateways); read again later.
   */
  onParentMismatch: 'continue' | 'reread';
}

export function createLogChainReader(options: LogChainReaderOptions): ChainReader {
  const { key, node } = options;
  return {
    maxRange: options.maxRange,
    readsHeadAlone: options.byBlockHash,
    // A mainnet indexer pointed at a test network's node (or the reverse) would credit worthless tokens: refuse.
    async verifyNetwork() {
      const actual = await node.chainId();
      if (options.expectedChainId !== undefined && actual !== options.expectedChainId) {
        throw new NetworkMismatchError(
          `${key.chain}:${key.network} RPC reports chain id ${options.formatChainId(actual)}, expected ${options.formatChainId(options.expectedChainId)}`,
        );
      }
    },
    head: () => node.blockNumber(),
    canonicalHash: async (height) => (await node.block(height))?.hash ?? null,
    async cursorStatus(cursor) {
      return (await node.block(cursor.number))?.hash === cursor.hash ? 'canonical' : 'replaced';
    },
    async startBlock(height) {
      const block = await node.block(height);
      if (!block) throw new Error(`${key.chain}:${key.network}: start block ${height} not found`);
      return { number: height, hash: block.hash };
    },
    scanRange: (range, watches) => scanLogRange(options, range, watches),
    ...(options.byBlockHash
      ? { scanPushedBlock: (header: BlockHeader, watches: WatchMatcher) => scanPushedBlock(options, header, watches) }
      : {}),
  };
}

async function scanPushedBlock(context: LogChainReaderOptions, header: BlockHeader, watches: WatchMatcher): Promise<RangeScan> {
  const transfers = await context.transfers(header.number, header.number, header.hash);
  // Asked by hash, every log must be that block's; a node answering otherwise is not to be trusted with it.
  if (transfers.some((t) => t.blockNumber !== header.number || t.blockHash !== header.hash)) return { kind: 'unsettled' };
  return {
    kind: 'scanned',
    deposits: depositsToWatched(transfers, watches, new Date(Number(header.timestamp) * 1000)),
    newest: { number: header.number, hash: header.hash },
    through: header.number,
    complete: true,
  };
}

async function scanLogRange(context: LogChainReaderOptions, range: RangeRequest, watches: WatchMatcher): Promise<RangeScan> {
  const { node } = context;
  const { from, to, after } = range;
  const first = await node.block(from);
  if (!first) return { kind: 'unsettled' };
  if (after && first.parentHash !== after.hash) {
    const atCursor = await node.block(after.number);
    if (atCursor?.hash !== after.hash) return { kind: 'reorg' };
    context.metrics.parentHashAnomalies += 1;
    context.logger.warn(
      { ...context.key, block: from.toString(), parentHash: first.parentHash },
      'node reports a parent hash that is not the block below it',
    );
    if (context.onParentMismatch === 'reread') return { kind: 'unsettled' };
  }
  const last = to === from ? first : await node.block(to);
  if (!last) return { kind: 'unsettled' };
  const transfers = await context.transfers(from, to, context.byBlockHash && from === to ? first.hash : undefined);
  // Logs from another fork than the headers just read: the chain moved between the calls. Read it again
  // after a pause, once the node has settled.
  const moved = transfers.some(
    (t) => (t.blockNumber === from && t.blockHash !== first.hash) || (t.blockNumber === to && t.blockHash !== last.hash),
  );
  if (moved) return { kind: 'unsettled' };
  return {
    kind: 'scanned',
    deposits: depositsToWatched(transfers, watches, new Date(Number(first.timestamp) * 1000)),
    newest: { number: to, hash: last.hash },
    through: to,
    complete: true,
  };
}
