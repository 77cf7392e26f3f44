// What Tron holds for the ledger's accounts there (docs/settlement.md#reconciliation), through java-tron's HTTP API:
// `deposits:tron` per token, summed over the mode's Tron deposit addresses that may hold it, and `collector:tron`, the
// collector's balance of each token (TRON_DEPOSIT_COLLECTOR_<MODE>, the factory's collector); `deposit_gas:tron`,
// the TRX at the HD deposit addresses the relayer topped up (getaccount); and `relayer:tron`, the relayer's TRX, once
// the signer has recorded its address (relayer_balances): only the signer holds the key it derives from. balanceOf is
// a constant call on the latest state, made as the token contract itself: an account the chain knows, where a
// forwarder may never have been one.
import type { Queryable } from '../../db/client';
import { depositAddressesHolding, hdGasAddresses, recordedRelayerAddress } from '../../db/repositories/reconciliation';
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

async function sumInBatches(addresses: readonly string[], read: (address: string) => Promise<bigint>): Promise<bigint> {
  let total = 0n;
  for (let i = 0; i < addresses.length; i += READS_AT_ONCE)
    for (const amount of await Promise.all(addresses.slice(i, i + READS_AT_ONCE).map(read))) total += amount;
  return total;
}

/** Tron's accounts a run compares, and how to read each: the relayer's only once its address is known. */
export interface TronAccounts {
  accounts: ReconciledAccount[];
  read(): Promise<Array<ReconciledAccount & { amount: bigint }>>;
}

export async function tronAccounts(view: TronView, mode: Mode, sql: Queryable): Promise<TronAccounts> {
  const trx = nativeAsset('tron');
  const relayer = await recordedRelayerAddress(sql, mode, 'tron');
  return {
    accounts: [
      ...view.tokens.flatMap((t) => [
        { account: ACCOUNT.depositsOn('tron'), asset: tokenAsset(t.symbol, 'tron') },
        ...(view.collector ? [{ account: ACCOUNT.collector('tron'), asset: tokenAsset(t.symbol, 'tron') }] : []),
      ]),
      { account: ACCOUNT.depositGasOn('tron'), asset: trx },
      ...(relayer ? [{ account: ACCOUNT.relayer('tron'), asset: trx }] : []),
    ],
    async read() {
      const held: Array<ReconciledAccount & { amount: bigint }> = [];
      for (const token of view.tokens) {
        const asset = tokenAsset(token.symbol, 'tron');
        const balanceOf = (holder: string) => view.api.tokenBalance(token.address, holder, token.address);
        const deposits = await sumInBatches(await depositAddressesHolding(sql, mode, 'tron', token.symbol), balanceOf);
        held.push({ account: ACCOUNT.depositsOn('tron'), asset, amount: deposits });
        if (view.collector) held.push({ account: ACCOUNT.collector('tron'), asset, amount: await balanceOf(view.collector) });
      }
      const gas = await sumInBatches(await hdGasAddresses(sql, mode, 'tron'), (address) => view.api.trxBalance(address));
      held.push({ account: ACCOUNT.depositGasOn('tron'), asset: trx, amount: gas });
      if (relayer) held.push({ account: ACCOUNT.relayer('tron'), asset: trx, amount: await view.api.trxBalance(relayer) });
      return held;
    },
  };
}
