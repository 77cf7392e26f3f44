// The Tron side of forwarder sweeps (forwarderSweep.ts): the TVM runs the same DepositFactory, so a sweep is the same
// sweepMany(salts, token) call, written as a Tron chain intent and signed by the Tron chain writer (raw_data built
// here, the relayer's key in this process). Balances are constant calls of balanceOf; what moved is read from the Swept
// entries of the solidified TransactionInfo's `log`, and the fee is the sun the transaction burned for energy and
// bandwidth, as the writer recorded it. Before a batch is written the plan simulates its sweepMany as a constant call
// from the relayer (/wallet/triggerconstantcontract), the same selector and parameter the intent will hold, so that a
// forwarder whose transfer reverts is left out (forwarderSweep.ts). Its fee limit is the energy it needs (the measured
// estimate or the node's run of it, domain/chains/tronEnergy.ts) at the network's price, with a margin, at most
// TRON_SWEEP_FEE_LIMIT_TRX; before it is first signed, a relayer whose energy and TRX cannot cover that leaves it
// waiting (tronRelayerResources.ts) rather than running out of energy on chain. Tron HD deposit addresses from before the
// forwarders are swept in the same plan, one sweep each (tronHdSweep.ts).
import { encodeAbiParameters, type Hex } from 'viem';
import type { EvmSweepBatch } from '../../domain/sweeps/evmSweepPlan';
import { insertTronChainIntent } from '../../db/repositories/chainIntents';
import { findCollectorSweep } from '../../db/repositories/collectorSweeps';
import { tronForwarderSweepDifference } from '../../domain/chainWrites/tronIntentCall';
import { refuseAlteredCall } from '../chainWrites/intentCallCheck';
import { tronAddressFromEvmHex, tronAddressToEvmHex } from '../../domain/addresses/tron';
import { sweptAmounts } from '../../domain/sweeps/evmSweepPlan';
import { tronSweptLogs } from '../../domain/sweeps/tronSweptLogs';
import { createTronChainWriter, type TronChainWriterDeps } from '../chainWrites/tronChainWriter';
import { createForwarderSweep, type ForwarderSweepSettings } from './forwarderSweep';
import { createTronHdSweep, type TronHdSweepDeps } from './tronHdSweep';
import { forwarderSweepEnergy, tronFeeLimitSun } from '../../domain/chains/tronEnergy';
import { holdSweepForResources } from './tronRelayerResources';

export interface TronSweepDeps extends TronChainWriterDeps, Omit<ForwarderSweepSettings, 'sql' | 'mode'>, TronHdSweepDeps {
  /** Most sun one sweepMany may burn (TRON_SWEEP_FEE_LIMIT_TRX): past it the call runs out of energy and reverts. */
  feeLimitSun: bigint;
}

const SWEEP_MANY = 'sweepMany(bytes32[],address)';

/** The batch's sweepMany(salts, token) as a TriggerSmartContract carries it: what is simulated is what is signed. */
const sweepManyCall = (token: string, batch: EvmSweepBatch) => ({
  contract: batch.factory,
  functionSelector: SWEEP_MANY,
  parameter: encodeAbiParameters(
    [{ type: 'bytes32[]' }, { type: 'address' }],
    [batch.addresses.map((a) => a.salt as Hex), tronAddressToEvmHex(token)],
  ).slice(2),
});

export function createTronSweep(deps: TronSweepDeps) {
  const writer = createTronChainWriter(deps);
  return createForwarderSweep(
    deps,
    {
      chain: 'tron',
      balanceOf: (token, owner) => deps.api.tokenBalance(token, owner, deps.relayer.address),
      async insertIntent(sql, id, token, batch) {
        const call = sweepManyCall(token, batch);
        const prices = await deps.api.chainPrices();
        const simulated = await deps.api.callEnergy(deps.relayer.address, call.contract, call.functionSelector, call.parameter);
        const energy = forwarderSweepEnergy(batch.addresses.length, prices, simulated);
        await insertTronChainIntent(sql, {
          id,
          mode: deps.mode,
          sender: deps.relayer.address,
          call: { ...call, feeLimit: tronFeeLimitSun(energy, prices, deps.feeLimitSun).toString(), callValue: '0' },
        });
      },
      simulate(token, batch) {
        const call = sweepManyCall(token, batch);
        return deps.api.simulateCall(deps.relayer.address, call.contract, call.functionSelector, call.parameter);
      },
      async advance(id) {
        const sweep = await findCollectorSweep(deps.sql, id);
        if (!sweep?.factory) throw new Error(`no forwarder sweep ${id}`);
        const planned = {
          factory: sweep.factory,
          tokenAddress: sweep.tokenAddress,
          salts: sweep.addresses.map((a) => a.salt ?? ''),
          maxFeeLimitSun: deps.feeLimitSun,
        };
        await refuseAlteredCall(deps.sql, id, { kind: 'forwarder-sweep', chain: 'tron', mode: deps.mode }, ({ tronCall }) =>
          tronForwarderSweepDifference(tronCall, planned),
        );
        const held = await holdSweepForResources(deps, id);
        return held ?? writer.advance(id);
      },
      async landed(sweep, intent) {
        const blockNumber = intent.blockNumber ?? 0n;
        const fee = intent.feePaid ?? 0n;
        if (intent.status === 'failed') return { blockNumber, lastLogIndex: undefined, moved: 0n, perAddress: new Map(), fee };
        const { logs, firstLogIndex } = await deps.api.solidifiedLogs(intent.signature ?? '', blockNumber);
        const swept = sweptAmounts(
          tronSweptLogs(logs, firstLogIndex),
          tronAddressToEvmHex(sweep.factory ?? ''),
          tronAddressToEvmHex(sweep.tokenAddress),
        );
        // Sweep rows keep Tron addresses as deposit_addresses does: base58.
        const perAddress = new Map([...swept.perAddress].map(([address, amount]) => [tronAddressFromEvmHex(address), amount]));
        return { blockNumber, lastLogIndex: swept.lastLogIndex, moved: swept.total, perAddress, fee };
      },
    },
    createTronHdSweep(deps, writer),
  );
}
