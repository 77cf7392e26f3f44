// Whether a payout is backed by money the indexer saw arrive (docs/settlement.md#r3-paid-on-the-indexers-facts). The
// workflow's signals and its own rows are not proof: anyone who can reach the Temporal frontend can send a signal,
// and anyone holding the worker's credentials can write the workflow's tables. Only the indexer's deposit facts
// count, and only those to the session's own deposit address, on its mode's network, in the payment's token, at the
// chain's full depth.
import { CHAIN_FACTS, type Chain, type TokenSymbol } from '../chains/chains';
import { toMicroUnits } from '../session/sessionLedger';
import type { Network } from '../chains/tokenContracts';
import type { Mode } from '../wire/session';

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
  /**
   * USD micro-units the signer's refund payments return of the session's deposits in this token and chain
   * (docs/refunds.md#payment): money that left by a refund does not back a payout.
   */
  refundedUsdMicros?: bigint;
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
  const backed =
    toMicroUnits(
      deposits.reduce((sum, f) => sum + f.amount, 0n),
      terms.decimals,
    ) - (terms.refundedUsdMicros ?? 0n);
  if (backed >= payoutUsdcBaseUnits) return { kind: 'backed', deposits };
  const shallow = toSession.filter((f) => f.stage !== 'reorged' && !deposits.includes(f)).length;
  const waiting = shallow > 0 ? ` (${shallow} more not yet ${requiredConfirmations} confirmations deep)` : '';
  return {
    kind: 'refused',
    reason: `payment ${paymentId}: the indexer's confirmed ${token} deposits to its ${chain} ${network} deposit address add up to ${backed} USDC base units${waiting}${terms.refundedUsdMicros ? ` once ${terms.refundedUsdMicros} refunded is taken off` : ''}, less than the payout of ${payoutUsdcBaseUnits}; not paid`,
  };
}

/**
 * Whether the payout asks the chain itself, not only the indexer's record of it: every live payout, whose money is
 * real whatever its size; a test one above the threshold.
 */
export const needsChainReread = (mode: Mode, payoutUsdcBaseUnits: bigint, rereadAboveUsdcBaseUnits: bigint): boolean =>
  mode === 'live' || payoutUsdcBaseUnits > rereadAboveUsdcBaseUnits;

/** A URL as a provider is told apart: `https://node/` and `https://node` are the same endpoint. */
function endpoint(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/** The distinct endpoints of a chain's RPC URLs, in their order; the first is the one the indexer asks first. */
export const distinctRpcUrls = (rpcUrls: readonly string[]): string[] => [...new Set(rpcUrls.map(endpoint))];

/**
 * The RPC URL a payout's re-read asks: the last distinct one other than the indexer's first, so that a provider that
 * lies to the indexer is not the one asked to confirm it. A live payout has no other (undefined) unless a second URL
 * is configured; a test one falls back to the indexer's own, as a check of the row against its node.
 */
export function rereadRpcUrl(mode: Mode, rpcUrls: readonly string[]): string | undefined {
  const [indexers, ...others] = distinctRpcUrls(rpcUrls);
  return others.at(-1) ?? (mode === 'live' ? undefined : indexers);
}

/** A chain of the live routes whose deposits the signer could not re-read from a second provider, and what to set. */
export interface LiveRereadGap {
  chain: Chain;
  variable: string;
}

/**
 * The chains of SETTLEMENT_LIVE_ROUTES a live payout could not be re-read on from a provider other than the indexer's:
 * an EVM or Solana chain with fewer than two distinct mainnet RPC URLs, Tron without its HTTP API (another interface
 * than the JSON-RPC its indexer reads). Each chain once, in the routes' order.
 */
export function liveRereadGaps(
  liveChains: readonly Chain[],
  mainnet: { rpcUrls(chain: Chain): readonly string[]; tronHttpApi: boolean },
): LiveRereadGap[] {
  return [...new Set(liveChains)].flatMap((chain): LiveRereadGap[] => {
    if (CHAIN_FACTS[chain].family === 'tron') return mainnet.tronHttpApi ? [] : [{ chain, variable: 'TRON_HTTP_API_URL_MAINNET' }];
    return rereadRpcUrl('live', mainnet.rpcUrls(chain)) === undefined
      ? [{ chain, variable: `RPC_URLS_${chain.toUpperCase()}_MAINNET` }]
      : [];
  });
}

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
