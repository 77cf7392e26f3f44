// The relayer's gas on a chain, read by the signer at every sweep run and kept in Postgres (db/migrations/0001_baseline.sql), so the
// API can show it as a gauge (checkout_relayer_gas_balance) without RPC calls or the relayer's address: a relayer
// out of gas stops every sweep and burn on its chain, and the alert should come before that, not after. The address
// kept with it is how reconciliation finds relayer:<chain> on chain (activities/settlement/evmChainHoldings.ts,
// tronHoldings.ts): only the signer holds the key it derives from.
import { recordRelayerBalance } from '../../db/repositories/relayerBalances';
import type { TronRelayer } from '../chainWrites/tronRelayer';
import type { TronWalletApi } from '../../activities/http/tronWalletApi';
import type { EvmSweepDeps } from './evmSweep';
import type { TronSweepDeps } from './tronSweep';

export async function observeRelayerBalance(deps: Pick<EvmSweepDeps, 'sql' | 'client' | 'account' | 'chain' | 'mode'>): Promise<void> {
  const balanceWei = await deps.client.getBalance({ address: deps.account.address });
  await recordRelayerBalance(deps.sql, {
    chain: deps.chain,
    mode: deps.mode,
    address: deps.account.address,
    balanceWei,
    observedAt: new Date(),
  });
}

/** The Tron relayer's TRX, in sun, on the latest state (getaccount); its address base58 as tronHoldings reads it. */
export async function observeTronRelayerBalance(
  deps: Pick<TronSweepDeps, 'sql' | 'mode'> & { api: Pick<TronWalletApi, 'trxBalance'>; relayer: Pick<TronRelayer, 'address'> },
): Promise<void> {
  const balanceSun = await deps.api.trxBalance(deps.relayer.address);
  await recordRelayerBalance(deps.sql, {
    chain: 'tron',
    mode: deps.mode,
    address: deps.relayer.address,
    balanceWei: balanceSun,
    observedAt: new Date(),
  });
}
