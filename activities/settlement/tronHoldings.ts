// What Tron holds for the ledger's accounts there (docs/settlement.md#reconciliation), through java-tron's HTTP API:
// `deposits:tron` per token, summed over the mode's Tron deposit addresses that may hold it, and `collector:tron`, the
// collector's balance of each token (TRON_DEPOSIT_COLLECTOR_<MODE>, the factory's collector); and `deposit_gas:tron`,
// the TRX at the HD deposit addresses the relayer topped up (getaccount). balanceOf is a
// constant call on the latest state, made as the token contract itself: an account the chain knows, where a
// forwarder may never have been one and the relayer's address is the signer's.
import type { Queryable } from '../../db/client';
import { depositAddressesHolding, hdGasAddresses } from '../../db/repositories/reconciliation';
import type { TokenSymbol } from '../../domain/chains/chains';
import { ACCOUNT, nativeAsset, tokenAsset } from '../../domain/ledger/ledger';
import type { ReconciledAccount } from '../../domain/ledger/reconciliation';
import type { Mode } from '../../domain/wire/session';
import type { TronWalletApi } from '../http/tronWalletApi';

/** Tron as the mode's reconciliation reads it: the HTTP API, the tokens the indexer watches, and the collector. */
export interface TronView {
  api: Pick<TronWalletApi, 'tokenBalance' | 'trxBalance'>;
  tokens: ReadonlyArray<{ symbol: TokenSymbol; address: string }>;
  /** TRON_DEPOSIT_COLLECTOR_<MODE>; without it collector:tron is not compared. */
  collector?: string;
}

/** Addresses read at once: a node rate-limits a burst of thousands. */
const READS_AT_ONCE = 8;

export function tronAccounts(view: TronView): ReconciledAccount[] {
  return [
    ...view.tokens.flatMap((t) => [
      { account: ACCOUNT.depositsOn('tron'), asset: tokenAsset(t.symbol, 'tron') },
      ...(view.collector ? [{ account: ACCOUNT.collector('tron'), asset: tokenAsset(t.symbol, 'tron') }] : []),
    ]),
    { account: ACCOUNT.depositGasOn('tron'), asset: nativeAsset('tron') },
  ];
}

async function sumInBatches(addresses: readonly string[], read: (address: string) => Promise<bigint>): Promise<bigint> {
  let total = 0n;
  for (let i = 0; i < addresses.length; i += READS_AT_ONCE)
    for (const amount of await Promise.all(addresses.slice(i, i + READS_AT_ONCE).map(read))) total += amount;
  return total;
}

export async function tronHoldings(view: TronView, mode: Mode, sql: Queryable): Promise<Array<ReconciledAccount & { amount: bigint }>> {
  const held: Array<ReconciledAccount & { amount: bigint }> = [];
  for (const token of view.tokens) {
    const asset = tokenAsset(token.symbol, 'tron');
    const balanceOf = (holder: string) => view.api.tokenBalance(token.address, holder, token.address);
    const deposits = await sumInBatches(await depositAddressesHolding(sql, mode, 'tron', token.symbol), balanceOf);
    held.push({ account: ACCOUNT.depositsOn('tron'), asset, amount: deposits });
    if (view.collector) held.push({ account: ACCOUNT.collector('tron'), asset, amount: await balanceOf(view.collector) });
  }
  const gas = await sumInBatches(await hdGasAddresses(sql, mode, 'tron'), (address) => view.api.trxBalance(address));
  return [...held, { account: ACCOUNT.depositGasOn('tron'), asset: nativeAsset('tron'), amount: gas }];
}
