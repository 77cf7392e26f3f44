// What an EVM chain holds for the ledger's accounts there other than the collector (docs/settlement.md#reconciliation):
// `deposits:<chain>` per token, summed over the mode's deposit addresses that may hold it; `deposit_gas:<chain>`, the
// native coin at the HD deposit addresses the relayer sent gas to; and `relayer:<chain>`, the relayer's native coin,
// once the signer has recorded its address. Read at the chain's confirmation depth, as deposits are credited and
// sweeps posted only that deep, in batches of a few calls at once.
import type { Address, PublicClient } from 'viem';
import { erc20Abi } from 'viem';
import type { Queryable } from '../../db/client';
import { depositAddressesHolding, hdGasAddresses, recordedRelayerAddress } from '../../db/repositories/reconciliation';
import type { Chain, TokenSymbol } from '../../domain/chains/chains';
import { ACCOUNT, nativeAsset, tokenAsset } from '../../domain/ledger/ledger';
import type { ReconciledAccount } from '../../domain/ledger/reconciliation';
import type { Mode } from '../../domain/wire/session';

/** An EVM chain the mode's sessions take deposits on: its node and the tokens the indexer watches there. */
export interface EvmChainView {
  chain: Chain;
  client: PublicClient;
  tokens: ReadonlyArray<{ symbol: TokenSymbol; address: Address }>;
  confirmations: number;
}

/** Addresses read at once: a node rate-limits a burst of thousands. */
const READS_AT_ONCE = 8;

/** The chain's accounts a run compares, and how to read each: the relayer's only once its address is known. */
export interface EvmChainAccounts {
  accounts: ReconciledAccount[];
  read(): Promise<Array<ReconciledAccount & { amount: bigint }>>;
}

async function sumInBatches(addresses: readonly string[], read: (address: Address) => Promise<bigint>): Promise<bigint> {
  let total = 0n;
  for (let i = 0; i < addresses.length; i += READS_AT_ONCE) {
    const held = await Promise.all(addresses.slice(i, i + READS_AT_ONCE).map((address) => read(address as Address)));
    total += held.reduce((sum, amount) => sum + amount, 0n);
  }
  return total;
}

export async function evmChainAccounts(view: EvmChainView, mode: Mode, sql: Queryable): Promise<EvmChainAccounts> {
  const native = nativeAsset(view.chain);
  const relayer = await recordedRelayerAddress(sql, mode, view.chain);
  const accounts: ReconciledAccount[] = [
    ...view.tokens.map((t) => ({ account: ACCOUNT.depositsOn(view.chain), asset: tokenAsset(t.symbol, view.chain) })),
    { account: ACCOUNT.depositGasOn(view.chain), asset: native },
    ...(relayer ? [{ account: ACCOUNT.relayer(view.chain), asset: native }] : []),
  ];
  return {
    accounts,
    async read() {
      const head = await view.client.getBlockNumber({ cacheTime: 0 });
      const depth = BigInt(view.confirmations - 1);
      const blockNumber = head > depth ? head - depth : 0n;
      const coins = (address: Address) => view.client.getBalance({ address, blockNumber });
      const deposits = await Promise.all(
        view.tokens.map(async (token) => ({
          account: ACCOUNT.depositsOn(view.chain),
          asset: tokenAsset(token.symbol, view.chain),
          amount: await sumInBatches(await depositAddressesHolding(sql, mode, view.chain, token.symbol), (holder) =>
            view.client.readContract({ address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [holder], blockNumber }),
          ),
        })),
      );
      const gas = {
        account: ACCOUNT.depositGasOn(view.chain),
        asset: native,
        amount: await sumInBatches(await hdGasAddresses(sql, mode, view.chain), coins),
      };
      const relayerCoins = relayer
        ? [{ account: ACCOUNT.relayer(view.chain), asset: native, amount: await coins(relayer as Address) }]
        : [];
      return [...deposits, gas, ...relayerCoins];
    },
  };
}
