// What a chain family (EVM, Tron, Solana) tells the shared indexer loop (chainIndexer.ts): where the head is,
// which block stands at a height, and which watched deposits a range of heights holds. Heights are block
// numbers on EVM and Tron, slots on Solana.
import type { BlockRef } from './cursor';
import type { NewDeposit } from './depositStore';
import type { WatchMatcher } from './watchSet';

/** A block as its header describes it: what a node reports when asked for one, or pushes as a new head. */
export interface BlockHeader {
  number: bigint;
  hash: string;
  parentHash: string;
  timestamp: bigint;
}

export type RangeScan =
  /** The block the range was to continue (`after`) is no longer canonical. */
  | { kind: 'reorg' }
  /** The node's answers did not fit together (the chain moved between calls, or pooled nodes disagree): read again. */
  | { kind: 'unsettled' }
  | {
      kind: 'scanned';
      deposits: NewDeposit[];
      /** The newest block read; undefined when every height read was empty (skipped slots). */
      newest: BlockRef | undefined;
      /** The highest height read. */
      through: bigint;
      /** false when the node could not answer for every height asked: wait before asking again. */
      complete: boolean;
    };

export interface RangeRequest {
  /** The block the range must continue; absent for a backfill, which re-reads heights already passed. */
  after?: BlockRef;
  from: bigint;
  to: bigint;
}

export class NetworkMismatchError extends Error {
  override name = 'NetworkMismatchError';
}

export interface ChainReader {
  /** Most heights one scanRange call reads (a provider's log-range limit, or a memory bound). */
  readonly maxRange: number;
  /**
   * The head is read in a range of its own, which this reader asks for by block hash: a pooled node that has not
   * imported it yet then errs, where asked for a range reaching it, it would answer short (see logChainReader).
   */
  readonly readsHeadAlone?: boolean;
  /** Rejects with NetworkMismatchError when the node serves another chain or network: crediting would be wrong. */
  verifyNetwork(): Promise<void>;
  head(): Promise<bigint>;
  /** The hash of the canonical block at `height`; null when there is none. Throws when the node cannot tell yet. */
  canonicalHash(height: bigint): Promise<string | null>;
  /** 'unknown' when the node cannot answer for the cursor's height yet (a lagging endpoint): decide nothing. */
  cursorStatus(cursor: BlockRef): Promise<'canonical' | 'replaced' | 'unknown'>;
  /** The block to start from when no cursor is stored: the newest at or below `height`. */
  startBlock(height: bigint): Promise<BlockRef>;
  scanRange(range: RangeRequest, watches: WatchMatcher): Promise<RangeScan>;
  /**
   * The block of a header the node pushed as its new head, read by the header's hash: the header already says
   * where the head is, which block stands there and what it continues, so only its transfers are asked for.
   * Absent where the reader cannot ask by hash, so a lagging pooled node could answer short.
   */
  scanPushedBlock?(header: BlockHeader, watches: WatchMatcher): Promise<RangeScan>;
}
