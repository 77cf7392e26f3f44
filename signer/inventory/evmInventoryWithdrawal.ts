// One EVM chain's held-inventory withdrawals, on the signer (docs/settlement.md#held-inventory): the relayer, the
// collector's sweeper, calls DepositCollector.rebalance(token, amount), which pays only the owner-set
// rebalanceAddress. Each advance is one resumable pass over the inventory_withdrawals row and its chain intent
// rebalance:<chain>:<id>, written ahead: what is on chain or in the row decides what the next pass does.
import { erc20Abi, type Address, type Hex, type PublicClient } from 'viem';
import * as depositCollector from '../../contracts/artifacts/depositCollector';
import type { Sql } from '../../db/client';
import { heldInventoryBalances } from '../../db/repositories/heldInventory';
import { setWithdrawalFailed, setWithdrawalSubmitted, type InventoryWithdrawal } from '../../db/repositories/inventoryWithdrawals';
import type { TokenDeployment } from '../../domain/chains/chainRegistry';
import type { Chain } from '../../domain/chains/chains';
import { gasPaidWei } from '../../domain/chains/gasPaid';
import { evmCallDifference } from '../../domain/chainWrites/intentCall';
import { collectorRebalanceCall } from '../../domain/chainWrites/rebalanceCall';
import { withdrawalShortfall } from '../../domain/inventory/withdrawableAmount';
import { inventoryWithdrawalIntentId } from '../../domain/ledger/inventoryPostings';
import { relayerGasPaid } from '../../domain/ledger/ledger';
import type { Mode } from '../../domain/wire/session';
import type { EvmChainWriter } from '../chainWrites/evmChainWriter';
import { refuseAlteredCall } from '../chainWrites/intentCallCheck';
import { loadWithdrawal, recordWithdrawalOutcome, type WithdrawalAnswer } from './withdrawalRow';

export interface EvmInventoryWithdrawalDeps {
  sql: Sql;
  mode: Mode;
  chain: Chain;
  client: PublicClient;
  writer: EvmChainWriter;
  /** EVM_DEPOSIT_COLLECTOR_<MODE>: the factory's collector, which the relayer sweeps into. */
  collector: Address;
  tokens: readonly TokenDeployment[];
  confirmations: number;
  /** INVENTORY_REBALANCE_ADDRESS_<CHAIN>_<MODE>, as the signer was configured. */
  rebalanceAddress: string | undefined;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function createEvmInventoryWithdrawal(deps: EvmInventoryWithdrawalDeps) {
  const { sql } = deps;

  /** Why the withdrawal may not be written, judged before anything is signed; undefined when it may. */
  async function refusal(withdrawal: InventoryWithdrawal, token: TokenDeployment): Promise<string | undefined> {
    const variable = `INVENTORY_REBALANCE_ADDRESS_${deps.chain.toUpperCase()}_${deps.mode.toUpperCase()}`;
    if (!deps.rebalanceAddress) return `the signer has no ${variable}`;
    if (!same(withdrawal.toAddress, deps.rebalanceAddress))
      return `it names ${withdrawal.toAddress}, but the signer's ${variable} is ${deps.rebalanceAddress}`;
    const onContract = await deps.client.readContract({
      address: deps.collector,
      abi: depositCollector.abi,
      functionName: 'rebalanceAddress',
    });
    if (!same(onContract, deps.rebalanceAddress))
      return `the collector's rebalanceAddress is ${onContract}, not ${variable} ${deps.rebalanceAddress}: its owner sets it with setRebalanceAddress`;
    // Only what the collector held at the chain's depth is withdrawn: a sweep a reorganisation can still drop is not.
    const head = await deps.client.getBlockNumber({ cacheTime: 0 });
    const settled = head >= BigInt(deps.confirmations - 1) ? head - BigInt(deps.confirmations - 1) : 0n;
    const held = await deps.client.readContract({
      address: token.address as Address,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [deps.collector],
      blockNumber: settled,
    });
    const ledger = (await heldInventoryBalances(sql, deps.mode)).find(
      (b) => b.pair.chain === deps.chain && b.pair.token === withdrawal.token,
    );
    return withdrawalShortfall(withdrawal, { ledger: ledger?.collector ?? 0n, chain: held });
  }

  async function advance(id: string): Promise<WithdrawalAnswer> {
    const { withdrawal, token } = await loadWithdrawal(sql, deps, id);
    if (withdrawal.status === 'sent') return { status: 'sent', txHash: withdrawal.txHash ?? '' };
    if (withdrawal.status === 'failed') return { status: 'failed', reason: withdrawal.failure ?? 'failed' };
    const intentId = inventoryWithdrawalIntentId(deps.chain, withdrawal.id);
    const call = collectorRebalanceCall({ collector: deps.collector, tokenAddress: token.address, amount: withdrawal.amount });
    if (withdrawal.status === 'requested') {
      const why = await refusal(withdrawal, token);
      if (why) {
        await setWithdrawalFailed(sql, withdrawal.id, `refused: ${why}`);
        return { status: 'failed', reason: `refused: ${why}` };
      }
      await deps.writer.prepare(intentId, call);
      await setWithdrawalSubmitted(sql, withdrawal.id, intentId);
    }
    await refuseAlteredCall(sql, intentId, { kind: 'inventory-rebalance', chain: deps.chain, mode: deps.mode }, (intent) =>
      evmCallDifference(intent.call, call),
    );
    const { intent, deferred } = await deps.writer.advance(intentId);
    if (intent.status !== 'failed' && intent.status !== 'finalized')
      return deferred === undefined ? { status: 'pending' } : { status: 'pending', deferred };
    const hash = intent.signature as Hex;
    const receipt = await deps.client.getTransactionReceipt({ hash });
    const gas = relayerGasPaid(intentId, deps.mode, deps.chain, gasPaidWei(receipt));
    const reverted = `the rebalance ${hash} reverted`;
    return recordWithdrawalOutcome(sql, withdrawal, { landed: intent.status === 'finalized', txId: hash, failure: reverted, gas });
  }

  return { advance };
}
