// A token transfer to a session's deposit address, as the indexers observe it and the session ledger
// keeps it. Indexers, activities and the workflow share these shapes.
import type { Chain, TokenSymbol } from '../chains/chains';

/** A deposit is identified across signals by chain, transaction hash and log (or instruction) index. */
export interface DepositRef {
  chain: Chain;
  txHash: string;
  logIndex: number;
}

export interface DepositObservation extends DepositRef {
  token: TokenSymbol;
  /** Base units of the token on this chain, as an integer string. */
  amount: string;
  toAddress: string;
  fromAddress: string;
  blockNumber: string;
  blockHash: string;
}

export interface DepositConfirmations extends DepositRef {
  confirmations: number;
}

/** Carries the whole observation, so a confirmation still credits the deposit if its detection was lost. */
export interface ConfirmedDeposit extends DepositObservation {
  confirmations: number;
}

export type DepositStage = 'detected' | 'confirmed' | 'reorged';

export interface DepositState extends DepositObservation {
  stage: DepositStage;
  confirmations: number;
  /** Not creditable to the session (arrived after it closed, or in another token or chain): kept for a refund. */
  late: boolean;
}

/**
 * What a deposit is (token, amount, addresses) and where it was mined, as opposed to which one it is (its DepositRef).
 * Only the indexer's row says it: a signal names the deposit, and the workflow reads these facts from the row.
 */
export type DepositFacts = Omit<DepositObservation, keyof DepositRef>;

export function depositFacts(d: DepositFacts): DepositFacts {
  const { token, amount, toAddress, fromAddress, blockNumber, blockHash } = d;
  return { token, amount, toAddress, fromAddress, blockNumber, blockHash };
}

/** The deposit a signal names, as the indexer's row says it is: only the key comes from the signal. */
export function asRecorded(signalled: DepositRef, recorded: DepositFacts): DepositObservation {
  return { chain: signalled.chain, txHash: signalled.txHash, logIndex: signalled.logIndex, ...depositFacts(recorded) };
}

/** Whether two accounts of one deposit agree on the transfer (its block may differ after a reorg). */
export const sameTransfer = (a: DepositFacts, b: DepositFacts): boolean =>
  a.token === b.token && a.amount === b.amount && a.toAddress === b.toAddress && a.fromAddress === b.fromAddress;

export const depositKey = (d: DepositRef): string => `${d.chain}:${d.txHash}:${d.logIndex}`;
