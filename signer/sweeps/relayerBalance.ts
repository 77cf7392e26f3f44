// The relayer's gas on a chain, read by the signer at every sweep run and kept in Postgres (db/migrations/0001_baseline.sql), so the
// API can show it as a gauge (checkout_relayer_gas_balance) without RPC calls or the relayer's address: a relayer
// out of gas stops every sweep and burn on its chain, and the alert should come before that, not after.
import { recordRelayerBalance } from '../../db/repositories/relayerBalances';
import type { EvmSweepDeps } from './evmSweep';

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
