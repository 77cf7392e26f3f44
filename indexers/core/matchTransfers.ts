// Token transfers (as log-based chains report them) → the deposits of watched addresses they represent.
import type { TokenSymbol } from '../../domain/chains/chains';
import type { NewDeposit } from './depositStore';
import type { WatchMatcher } from './watchSet';

/** A token transfer as a log-based family decodes it, addresses and hashes in the form the service stores them. */
export interface ObservedTransfer {
  token: TokenSymbol;
  /** EIP-55 on EVM chains; base58check `T…` on Tron. */
  from: string;
  to: string;
  /** Base units of the token on this chain (18 decimals on bsc): never a JS number. */
  amount: bigint;
  /** 0x-prefixed on EVM chains; on Tron the transaction id, 64 lowercase hex characters without 0x. */
  txHash: string;
  logIndex: number;
  blockNumber: bigint;
  blockHash: string;
}

export function depositsToWatched(transfers: readonly ObservedTransfer[], watches: WatchMatcher, rangeStart: Date): NewDeposit[] {
  const deposits: NewDeposit[] = [];
  for (const transfer of transfers) {
    // Zero-value transfers move no money; they are the address-poisoning spam every deposit address receives.
    if (transfer.amount === 0n) continue;
    const watch = watches.match(transfer.to, rangeStart);
    if (!watch) continue;
    deposits.push({
      sessionId: watch.sessionId,
      token: transfer.token,
      txHash: transfer.txHash,
      logIndex: transfer.logIndex,
      amount: transfer.amount,
      fromAddress: transfer.from,
      toAddress: transfer.to,
      blockNumber: transfer.blockNumber,
      blockHash: transfer.blockHash,
    });
  }
  return deposits;
}
