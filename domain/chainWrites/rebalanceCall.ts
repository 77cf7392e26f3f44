// What an inventory withdrawal's chain intent may call, rebuilt from its inventory_withdrawals row
// (docs/settlement.md#held-inventory): the configured collector's rebalance(token, amount), the row's token and
// amount, nothing sent. The contract pays only its owner-set rebalanceAddress, so the call names no payee.
import { encodeFunctionData, type Address } from 'viem';
import * as depositCollector from '../../contracts/artifacts/depositCollector';
import type { EvmCall } from './intentCall';

export function collectorRebalanceCall(withdrawal: { collector: string; tokenAddress: string; amount: bigint }): EvmCall {
  return {
    to: withdrawal.collector,
    data: encodeFunctionData({
      abi: depositCollector.abi,
      functionName: 'rebalance',
      args: [withdrawal.tokenAddress as Address, withdrawal.amount],
    }),
    value: '0',
  };
}
