// Solana's side of the indexer loop (core/chainIndexer.ts): heights are slots, read one getBlock each; USDC/USDT
// credits to watched wallets' associated token accounts come from pre/post token balances; a fork shows as a block
// that does not name the cursor as its parent (slot and blockhash). Skipped slots are empty heights: the loop
// remembers them in memory only, so a restart reads them again, which costs a call each and changes nothing.
import type { Address } from '@solana/kit';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import type { Logger } from 'pino';
import type { ChainDeployment } from '../../domain/chains/chainRegistry';
import { NetworkMismatchError, type ChainReader, type RangeScan } from '../core/chainReader';
import type { BlockRef } from '../core/cursor';
import type { NewDeposit } from '../core/depositStore';
import type { ChainMetrics } from '../core/metrics';
import type { WatchMatcher } from '../core/watchSet';
import { scanBlocks } from './scanBlocks';
import type { SolanaBlock, SolanaRpc } from './solanaRpc';
import { tokenCredits } from './tokenBalanceDeltas';

export interface SolanaChainReaderDeps {
  deployment: ChainDeployment;
  rpc: SolanaRpc;
  metrics: ChainMetrics;
  logger: Logger;
  /** Most slots read per tick (and per database transaction). */
  maxSlotsPerRange: number;
  /** getBlock calls in flight at once while reading a range. */
  fetchConcurrency: number;
}

/** mainnet-beta's genesis hash (`solana genesis-hash -um`). */
const MAINNET_GENESIS_HASH = '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d';

/** How far below the start slot a block is looked for when the start slot itself was skipped. */
const START_SEARCH_SLOTS = 200n;

export function createSolanaChainReader(deps: SolanaChainReaderDeps): ChainReader {
  const { deployment, rpc } = deps;
  const key = { chain: deployment.chain, network: deployment.network };
  const symbolByMint = new Map(deployment.tokens.map((token) => [token.address, token.symbol]));
  const mints: ReadonlySet<string> = new Set(symbolByMint.keys());
  /** The owner's associated token account of `mint`: the one a wallet's plain transfer creates and the sweep empties. */
  const associatedAccount = async (owner: string, mint: string): Promise<string> =>
    (await findAssociatedTokenPda({ owner: owner as Address, mint: mint as Address, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];

  const cursorStatus = async (cursor: BlockRef) => {
    const content = await rpc.blockhash(cursor.number);
    if (content.kind === 'unavailable') return 'unknown' as const;
    return content.kind === 'block' && content.block === cursor.hash ? ('canonical' as const) : ('replaced' as const);
  };

  return {
    maxRange: deps.maxSlotsPerRange,
    /**
     * A mainnet indexer must talk to mainnet-beta; a testnet one must never talk to mainnet (it would credit real
     * money to test sessions). A local test cluster has a genesis of its own, so testnet accepts any other.
     */
    async verifyNetwork() {
      const genesis = await rpc.genesisHash();
      const wrong = key.network === 'mainnet' ? genesis !== MAINNET_GENESIS_HASH : genesis === MAINNET_GENESIS_HASH;
      if (wrong) throw new NetworkMismatchError(`${key.chain}:${key.network} RPC reports genesis hash ${genesis}`);
    },
    head: () => rpc.slot(),
    /** A node that cannot answer yet (behind the slot, e.g. another endpoint of a pool) throws: nothing is withdrawn on a missing answer. */
    async canonicalHash(slot) {
      const content = await rpc.blockhash(slot);
      if (content.kind === 'unavailable') throw new Error(`${key.chain}:${key.network}: slot ${slot} not available from the node yet`);
      return content.kind === 'block' ? content.block : null;
    },
    cursorStatus,
    async startBlock(below) {
      // The cursor must be a block; the slot just below the start may have been skipped.
      for (let slot = below; slot >= 0n && slot + START_SEARCH_SLOTS > below; slot--) {
        const content = await rpc.blockhash(slot);
        // Starting below the configured slot would index what the operator excluded: wait for the node instead.
        if (content.kind === 'unavailable')
          throw new Error(`${key.chain}:${key.network}: start slot ${slot} not available from the node yet`);
        if (content.kind === 'block') return { number: slot, hash: content.block };
      }
      throw new Error(`${key.chain}:${key.network}: no block at or below start slot ${below}`);
    },
    async scanRange({ after, from, to }, watches): Promise<RangeScan> {
      const slots = await scanBlocks(rpc, from, to, deps.fetchConcurrency);
      let parent = after;
      let newest: BlockRef | undefined;
      let through = from - 1n;
      let linked = true;
      const deposits: NewDeposit[] = [];
      for (const scanned of slots) {
        if (scanned.kind === 'skipped') {
          through = scanned.slot;
          continue;
        }
        const { block } = scanned;
        if (parent && (block.parentSlot !== parent.number || block.previousBlockhash !== parent.hash)) {
          // Blocks of one range may come from different forks when the cluster switched between the calls:
          // keep what links up and read the rest after a pause.
          if (newest) {
            linked = false;
            break;
          }
          const status = after ? await cursorStatus(after) : 'unknown';
          if (status === 'replaced') return { kind: 'reorg' };
          if (status === 'canonical') {
            // The cursor block stands, yet its successor names another parent: a slot read as skipped has a block
            // after all, or the node is switching forks. Everything above the cursor is read again.
            deps.metrics.parentHashAnomalies += 1;
            deps.logger.warn(
              { ...key, slot: block.slot.toString(), parentSlot: block.parentSlot.toString() },
              'block does not continue the cursor',
            );
          }
          return { kind: 'unsettled' };
        }
        deposits.push(...(await matchWatched(block, watches)));
        newest = { number: block.slot, hash: block.blockhash };
        if (after) parent = newest;
        through = scanned.slot;
      }
      return { kind: 'scanned', deposits, newest, through, complete: linked && slots.length === Number(to - from + 1n) };
    },
  };

  /**
   * The credits of the block to watched wallets' associated token accounts. The sweep empties only a deposit address's
   * associated account, so a credit to any other token account the address owns (made with an explicit account) is
   * not a deposit: crediting it would pay the merchant for money no sweep ever returns to the treasury. It stays
   * where it is, logged for the operator (docs/settlement.md#solana-deposits-to-other-token-accounts).
   */
  async function matchWatched(block: SolanaBlock, watches: WatchMatcher): Promise<NewDeposit[]> {
    // A block without a time estimate is matched as of now: a watch open now was open then.
    const at = block.blockTime === null ? new Date() : new Date(Number(block.blockTime) * 1000);
    const deposits: NewDeposit[] = [];
    for (const tx of block.transactions) {
      for (const credit of tokenCredits(tx, mints, (owner) => watches.match(owner, at) !== undefined)) {
        const watch = watches.match(credit.owner, at);
        const token = symbolByMint.get(credit.mint);
        if (!watch || !token) continue;
        if (credit.account !== (await associatedAccount(credit.owner, credit.mint))) {
          deps.logger.warn(
            { ...key, sessionId: watch.sessionId, token, txHash: tx.signature, tokenAccount: credit.account, owner: credit.owner },
            'transfer to a token account of a deposit address other than its associated one: not credited, left in place',
          );
          continue;
        }
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
}
