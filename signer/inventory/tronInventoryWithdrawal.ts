// Tron's held-inventory withdrawals, on the signer (docs/settlement.md#held-inventory): the Tron relayer, the factory's
// sweeper, calls the TVM collector's rebalance(token, amount), which pays only its owner-set rebalanceAddress. As on
// bsc (evmInventoryWithdrawal.ts) each advance is one resumable pass over the inventory_withdrawals row and its chain
// intent rebalance:tron:<id>, written ahead and signed, sent and followed by the Tron chain writer until solidified.
import { encodeAbiParameters } from 'viem';
import type { TronWalletApi } from '../../activities/http/tronWalletApi';
import { findChainIntent, insertTronChainIntent, type TronCall } from '../../db/repositories/chainIntents';
import { heldInventoryBalances } from '../../db/repositories/heldInventory';
import { setWithdrawalFailed, setWithdrawalSubmitted, type InventoryWithdrawal } from '../../db/repositories/inventoryWithdrawals';
import { tronAddressToEvmHex } from '../../domain/addresses/tron';
import type { TokenDeployment } from '../../domain/chains/chainRegistry';
import { collectorRebalanceEnergy, tronFeeLimitSun } from '../../domain/chains/tronEnergy';
import { tronRebalanceDifference } from '../../domain/chainWrites/tronIntentCall';
import { withdrawalShortfall } from '../../domain/inventory/withdrawableAmount';
import { inventoryWithdrawalIntentId } from '../../domain/ledger/inventoryPostings';
import { relayerGasPaid } from '../../domain/ledger/ledger';
import { refuseAlteredCall } from '../chainWrites/intentCallCheck';
import { createTronChainWriter, type TronChainWriterDeps } from '../chainWrites/tronChainWriter';
import { holdSweepForResources } from '../sweeps/tronRelayerResources';
import { loadWithdrawal, recordWithdrawalOutcome, type WithdrawalAnswer } from './withdrawalRow';

const REBALANCE = 'rebalance(address,uint256)';

export interface TronInventoryWithdrawalDeps extends TronChainWriterDeps {
  api: TronWalletApi;
  /** TRON_DEPOSIT_COLLECTOR_<MODE>: the Tron factory's collector, which its sweeps fill. */
  collector: string;
  tokens: readonly TokenDeployment[];
  /** Most sun the call may burn (TRON_SWEEP_FEE_LIMIT_TRX, as a sweepMany's). */
  feeLimitSun: bigint;
  /** INVENTORY_REBALANCE_ADDRESS_TRON_<MODE>, as the signer was configured. */
  rebalanceAddress: string | undefined;
}

export function createTronInventoryWithdrawal(deps: TronInventoryWithdrawalDeps) {
  const { sql, api } = deps;
  const writer = createTronChainWriter(deps);
  const parameterOf = (token: TokenDeployment, amount: bigint) =>
    encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [tronAddressToEvmHex(token.address), amount]).slice(2);

  /** Why the withdrawal may not be written, judged before anything is signed; undefined when it may. */
  async function refusal(withdrawal: InventoryWithdrawal, token: TokenDeployment): Promise<string | undefined> {
    const variable = `INVENTORY_REBALANCE_ADDRESS_TRON_${deps.mode.toUpperCase()}`;
    if (!deps.rebalanceAddress) return `the signer has no ${variable}`;
    if (withdrawal.toAddress !== deps.rebalanceAddress)
      return `it names ${withdrawal.toAddress}, but the signer's ${variable} is ${deps.rebalanceAddress}`;
    const onContract = await api.addressView(deps.collector, 'rebalanceAddress()');
    if (onContract !== deps.rebalanceAddress)
      return `the collector's rebalanceAddress is ${onContract}, not ${variable} ${deps.rebalanceAddress}: its owner sets it with setRebalanceAddress`;
    // The ledger counts only solidified sweeps, so what it holds cannot be undone by a fork; the chain must still hold it now.
    const ledger = (await heldInventoryBalances(sql, deps.mode)).find((b) => b.pair.chain === 'tron' && b.pair.token === withdrawal.token);
    return withdrawalShortfall(withdrawal, {
      ledger: ledger?.collector ?? 0n,
      chain: await api.tokenBalance(token.address, deps.collector, deps.relayer.address),
    });
  }

  async function call(token: TokenDeployment, amount: bigint): Promise<TronCall> {
    const parameter = parameterOf(token, amount);
    const prices = await api.chainPrices();
    const energy = collectorRebalanceEnergy(prices, await api.callEnergy(deps.relayer.address, deps.collector, REBALANCE, parameter));
    return {
      contract: deps.collector,
      functionSelector: REBALANCE,
      parameter,
      feeLimit: tronFeeLimitSun(energy, prices, deps.feeLimitSun).toString(),
      callValue: '0',
    };
  }

  async function advance(id: string): Promise<WithdrawalAnswer> {
    const { withdrawal, token } = await loadWithdrawal(sql, { ...deps, chain: 'tron' }, id);
    if (withdrawal.status === 'sent') return { status: 'sent', txHash: withdrawal.txHash ?? '' };
    if (withdrawal.status === 'failed') return { status: 'failed', reason: withdrawal.failure ?? 'failed' };
    const intentId = inventoryWithdrawalIntentId('tron', withdrawal.id);
    if (withdrawal.status === 'requested') {
      const why = await refusal(withdrawal, token);
      if (why) {
        await setWithdrawalFailed(sql, withdrawal.id, `refused: ${why}`);
        return { status: 'failed', reason: `refused: ${why}` };
      }
      if (!(await findChainIntent(sql, intentId)))
        await insertTronChainIntent(sql, {
          id: intentId,
          mode: deps.mode,
          sender: deps.relayer.address,
          call: await call(token, withdrawal.amount),
        });
      await setWithdrawalSubmitted(sql, withdrawal.id, intentId);
    }
    await refuseAlteredCall(sql, intentId, { kind: 'inventory-rebalance', chain: 'tron', mode: deps.mode }, ({ tronCall }) =>
      tronRebalanceDifference(tronCall, {
        collector: deps.collector,
        tokenAddress: token.address,
        amount: withdrawal.amount,
        maxFeeLimitSun: deps.feeLimitSun,
      }),
    );
    const waiting = await holdSweepForResources(deps, intentId);
    if (waiting) return waiting.deferred === undefined ? { status: 'pending' } : { status: 'pending', deferred: waiting.deferred };
    const { intent, deferred } = await writer.advance(intentId);
    if (intent.status !== 'failed' && intent.status !== 'finalized')
      return deferred === undefined ? { status: 'pending' } : { status: 'pending', deferred };
    const txId = intent.signature ?? '';
    const gas = relayerGasPaid(intentId, deps.mode, 'tron', intent.feePaid ?? 0n);
    const reverted = `the rebalance ${txId} failed on chain`;
    return recordWithdrawalOutcome(sql, withdrawal, { landed: intent.status === 'finalized', txId: txId, failure: reverted, gas });
  }

  return { advance };
}
