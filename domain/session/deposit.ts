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

export const depositKey = (d: DepositRef): string => `${d.chain}:${d.txHash}:${d.logIndex}`;
