// The EVM side of sweeps (forwarderSweep.ts): balances and receipts through the chain's RPC endpoint, the call written
// as an EVM chain intent and signed by the EVM chain writer with the relayer's nonce, and what moved read from the
// receipt's Swept events, the fee from its gas used and effective price. The chain's HD deposit addresses from
// before the forwarders are swept in the same plan, one sweep each (evmHdSweep.ts).
import {
  BaseError,
  encodeFunctionData,
  erc20Abi,
  ExecutionRevertedError,
  isHex,
  parseEventLogs,
  RpcRequestError,
  type Address,
  type Hash,
  type Hex,
} from 'viem';
import type { EvmSweepBatch } from '../../domain/sweeps/evmSweepPlan';
import * as depositFactory from '../../contracts/artifacts/depositFactory';
import { insertEvmChainIntent } from '../../db/repositories/chainIntents';
import { findCollectorSweep } from '../../db/repositories/collectorSweeps';
import { forwarderSweepCallDifference } from '../../domain/chainWrites/intentCall';
import { sweptAmounts, type EvmChain } from '../../domain/sweeps/evmSweepPlan';
import { createEvmChainWriter } from '../chainWrites/evmChainWriter';
import { refuseAlteredCall } from '../chainWrites/intentCallCheck';
import { createEvmHdSweep, type EvmHdSweepDeps } from './evmHdSweep';
import { createForwarderSweep, type ForwarderSweepSettings } from './forwarderSweep';
import { gasPaidWei } from '../../domain/chains/gasPaid';

export interface EvmSweepDeps extends EvmHdSweepDeps, Omit<ForwarderSweepSettings, 'sql' | 'mode'> {
  chain: EvmChain;
}

/**
 * Why a call reverted, when the node says it did: "execution reverted" (code 3, geth and most providers), or an
 * error carrying the revert's return data (Hardhat's -32603). Anything else, a timeout or an outage, is no verdict
 * on the addresses, and undefined.
 */
function revertOf(error: unknown): string | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const cause = error.walk(
    (e) => e instanceof ExecutionRevertedError || (e instanceof RpcRequestError && isHex((e.data as { data?: unknown } | undefined)?.data)),
  );
  return cause instanceof BaseError ? cause.details || cause.shortMessage : undefined;
}

export function createEvmSweep(deps: EvmSweepDeps) {
  const writer = createEvmChainWriter(deps);
  const balanceOf = (token: string, owner: string) =>
    deps.client.readContract({ address: token as Address, abi: erc20Abi, functionName: 'balanceOf', args: [owner as Address] });
  const sweepMany = (token: string, batch: EvmSweepBatch) => ({
    to: batch.factory as Address,
    data: encodeFunctionData({
      abi: depositFactory.abi,
      functionName: 'sweepMany',
      args: [batch.addresses.map((a) => a.salt as Hex), token as Address],
    }),
  });
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
          call: { ...sweepMany(token, batch), value: '0' },
        }),
      async simulate(token, batch) {
        try {
          await deps.client.call({ account: deps.account.address, ...sweepMany(token, batch) });
          return undefined;
        } catch (error) {
          const reason = revertOf(error);
          if (reason === undefined) throw error;
          return reason;
        }
      },
      async advance(id) {
        const sweep = await findCollectorSweep(deps.sql, id);
        if (!sweep?.factory) throw new Error(`no forwarder sweep ${id}`);
        const planned = { factory: sweep.factory, tokenAddress: sweep.tokenAddress, salts: sweep.addresses.map((a) => a.salt ?? '') };
        await refuseAlteredCall(deps.sql, id, { kind: 'forwarder-sweep', chain: deps.chain, mode: deps.mode }, ({ call }) =>
          forwarderSweepCallDifference(call, planned),
        );
        return writer.advance(id);
      },
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
