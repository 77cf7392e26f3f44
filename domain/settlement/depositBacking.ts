// Whether a payout is backed by money the indexer saw arrive (docs/settlement.md#r3-paid-on-the-indexers-facts). The
// workflow's signals and its own rows are not proof: anyone who can reach the Temporal frontend can send a signal,
// and anyone holding the worker's credentials can write the workflow's tables. Only the indexer's deposit facts
// count, and only those to the session's own deposit address, on its mode's network, in the payment's token, at the
// chain's full depth.
import { CHAIN_FACTS, type Chain, type TokenSymbol } from '../chains/chains';
import { toMicroUnits } from '../session/sessionLedger';
import type { Network } from '../chains/tokenContracts';

/** One deposits row as the indexer wrote it. */
export interface DepositFact {
  chain: Chain;
  network: Network;
  token: string;
  txHash: string;
  logIndex: number;
  toAddress: string;
  amount: bigint;
  stage: 'detected' | 'confirmed' | 'reorged';
  confirmations: number;
  /** The workflow's verdict (the one column of the row the worker's role writes): counted toward the payment's price. */
  credited: boolean;
}

export interface BackingTerms {
  paymentId: string;
  chain: Chain;
  network: Network;
  token: TokenSymbol;
  /** The token's decimals on that chain and network, from the registry the indexer watches with. */
  decimals: number;
  /** The session's deposit address on the chain; null when it never had one there. */
  depositAddress: string | null;
  /** Blocks including the deposit's own (the registry's confirmations). */
  requiredConfirmations: number;
  /** USDC base units (6 decimals). */
  payoutUsdcBaseUnits: bigint;
}

export type BackingVerdict = { kind: 'backed'; deposits: DepositFact[] } | { kind: 'refused'; reason: string };

/** EVM addresses are hex, written in either case; Solana and Tron addresses are base58, where case matters. */
function sameAddress(chain: Chain, a: string, b: string): boolean {
  return CHAIN_FACTS[chain].family === 'evm' ? a.toLowerCase() === b.toLowerCase() : a === b;
}

export function judgeDepositBacking(terms: BackingTerms, facts: readonly DepositFact[]): BackingVerdict {
  const { paymentId, chain, network, token, depositAddress, requiredConfirmations, payoutUsdcBaseUnits } = terms;
  if (depositAddress === null)
    return { kind: 'refused', reason: `payment ${paymentId}'s session has no deposit address on ${chain}; no deposit backs its payout` };
  const toSession = facts.filter(
    (f) => f.chain === chain && f.network === network && f.token === token && sameAddress(chain, f.toAddress, depositAddress),
  );
  const deposits = toSession.filter((f) => f.stage === 'confirmed' && f.confirmations >= requiredConfirmations);
  const backed = toMicroUnits(
    deposits.reduce((sum, f) => sum + f.amount, 0n),
    terms.decimals,
  );
  if (backed >= payoutUsdcBaseUnits) return { kind: 'backed', deposits };
  const shallow = toSession.filter((f) => f.stage !== 'reorged' && !deposits.includes(f)).length;
  const waiting = shallow > 0 ? ` (${shallow} more not yet ${requiredConfirmations} confirmations deep)` : '';
  return {
    kind: 'refused',
    reason: `payment ${paymentId}: the indexer's confirmed ${token} deposits to its ${chain} ${network} deposit address add up to ${backed} USDC base units${waiting}, less than the payout of ${payoutUsdcBaseUnits}; not paid`,
  };
}

/** Above the threshold a payout is worth asking the chain itself, not only the indexer's record of it. */
export const needsChainReread = (payoutUsdcBaseUnits: bigint, rereadAboveUsdcBaseUnits: bigint): boolean =>
  payoutUsdcBaseUnits > rereadAboveUsdcBaseUnits;

/** What a node says one deposit's transaction credited the deposit address, independently of the indexer. */
export type ChainReading =
  | { kind: 'credited'; amount: bigint; confirmations: number }
  /** The node has no record of the transaction (yet): it may trail the indexer's node, or not have been sent it. */
  | { kind: 'unseen' }
  /** The transaction landed and failed: it moved nothing, whatever the indexer recorded. */
  | { kind: 'failed' }
  /** The transaction landed and succeeded, and credits no such token to the deposit address at the recorded index. */
  | { kind: 'uncredited' };

/** One deposit to re-read from a node, as the indexer recorded it. */
export interface DepositToRead {
  txHash: string;
  /** Solana: the receiving token account's index in the transaction; EVM: the Transfer log's index in the block. */
  logIndex: number;
  /** The session's deposit address, the credited owner. */
  owner: string;
  /** The token's mint or contract. */
  token: string;
}

/** Asks a chain's node about a deposit (activities/settlement/*DepositReader.ts). */
export type DepositReader = (deposit: DepositToRead) => Promise<ChainReading>;

/**
 * How long a re-read waits for a node that has not seen a deposit, or not as deep as required
 * (docs/settlement.md#paid-only-on-the-indexers-facts), counted from the settlement's first request for the payout,
 * which follows the indexer's confirmation: a node further behind than this is broken, not slow.
 */
export const REREAD_WAIT_MS = 30 * 60_000;

/**
 * The node agrees; or it trails the indexer's node (it has not seen the transaction, or not as deep), which is waited
 * on for REREAD_WAIT_MS; or it contradicts the indexer (another amount, no such credit, a failed transaction), which
 * no wait changes.
 */
export type ReadingVerdict = { kind: 'agrees' } | { kind: 'wait'; reason: string } | { kind: 'refused'; reason: string };

/** The indexer's amount must be what the chain shows, at the required depth; `waitedMs` since the payout was first asked. */
export function judgeChainReading(
  fact: DepositFact,
  reading: ChainReading,
  requiredConfirmations: number,
  waitedMs: number,
): ReadingVerdict {
  const deposit = `deposit ${fact.txHash}#${fact.logIndex} on ${fact.chain}`;
  const wait = (reason: string): ReadingVerdict =>
    waitedMs < REREAD_WAIT_MS
      ? { kind: 'wait', reason }
      : { kind: 'refused', reason: `${reason}, still after ${REREAD_WAIT_MS / 60_000} minutes of waiting` };
  switch (reading.kind) {
    case 'unseen':
      return wait(`${deposit}: the node has no record of the transaction, though the indexer recorded ${fact.amount}`);
    case 'failed':
      return { kind: 'refused', reason: `${deposit}: the node shows the transaction failed, though the indexer recorded ${fact.amount}` };
    case 'uncredited':
      return {
        kind: 'refused',
        reason: `${deposit}: the node shows no ${fact.token} credit to the deposit address, though the indexer recorded ${fact.amount}`,
      };
    case 'credited':
      if (reading.amount !== fact.amount)
        return {
          kind: 'refused',
          reason: `${deposit}: the node shows ${reading.amount} base units credited, the indexer recorded ${fact.amount}`,
        };
      if (reading.confirmations < requiredConfirmations)
        return wait(`${deposit}: the node shows ${reading.confirmations} confirmations, fewer than the ${requiredConfirmations} required`);
      return { kind: 'agrees' };
  }
}
