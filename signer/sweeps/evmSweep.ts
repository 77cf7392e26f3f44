// The EVM side of sweeps (forwarderSweep.ts): balances and receipts through the chain's RPC endpoint, the call written
// as an EVM chain intent and signed by the EVM chain writer with the relayer's nonce, and what moved read from the
// receipt's Swept events, the fee from its gas used and effective price. The chain's HD deposit addresses from
// before the forwarders are swept in the same plan, one sweep each (evmHdSweep.ts).
import { encodeFunctionData, erc20Abi, parseEventLogs, type Address, type Hash, type Hex } from 'viem';
import * as depositFactory from '../../contracts/artifacts/depositFactory';
import { insertEvmChainIntent } from '../../db/repositories/chainIntents';
import { sweptAmounts, type EvmChain } from '../../domain/sweeps/evmSweepPlan';
import { createEvmChainWriter } from '../chainWrites/evmChainWriter';
import { createEvmHdSweep, type EvmHdSweepDeps } from './evmHdSweep';
import { createForwarderSweep, type ForwarderSweepSettings } from './forwarderSweep';
import { gasPaidWei } from '../../domain/chains/gasPaid';

export interface EvmSweepDeps extends EvmHdSweepDeps, Omit<ForwarderSweepSettings, 'sql' | 'mode'> {
  chain: EvmChain;
}

export function createEvmSweep(deps: EvmSweepDeps) {
  const writer = createEvmChainWriter(deps);
  const balanceOf = (token: string, owner: string) =>
    deps.client.readContract({ address: token as Address, abi: erc20Abi, functionName: 'balanceOf', args: [owner as Address] });
  return createForwarderSweep(
    deps,
    {
      chain: deps.chain,
      balanceOf,
      insertIntent: (sql, id, token, batch) =>
        insertEvmChainIntent(sql, {
          id,
          chain: deps.chain,
          mode: deps.mode,
          sender: deps.account.address,
          call: {
            to: batch.factory,
            data: encodeFunctionData({
              abi: depositFactory.abi,
              functionName: 'sweepMany',
              args: [batch.addresses.map((a) => a.salt as Hex), token as Address],
            }),
            value: '0',
          },
        }),
      advance: (id) => writer.advance(id),
      async landed(sweep, intent) {
        const receipt = await deps.client.getTransactionReceipt({ hash: intent.signature as Hash });
        const events =
          intent.status === 'failed' ? [] : parseEventLogs({ abi: depositFactory.abi, eventName: 'Swept', logs: receipt.logs });
        const swept = sweptAmounts(
          events.map((log) => ({
            emitter: log.address,
            forwarder: log.args.forwarder,
            token: log.args.token,
            amount: log.args.amount,
            logIndex: log.logIndex,
          })),
          sweep.factory ?? '',
          sweep.tokenAddress,
        );
        return {
          blockNumber: receipt.blockNumber,
          lastLogIndex: swept.lastLogIndex,
          moved: swept.total,
          perAddress: swept.perAddress,
          fee: gasPaidWei(receipt),
        };
      },
    },
    createEvmHdSweep(deps, writer, balanceOf),
  );
}
