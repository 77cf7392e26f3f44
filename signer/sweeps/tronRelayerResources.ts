// Before a Tron forwarder sweep is first signed, the relayer's energy and TRX are read (getaccountresource,
// getaccount) against what its fee limit was made for (domain/chains/tronEnergy.ts): energy staked by the relayer or
// delegated to it (rented from a provider, or from the operator's own staking account) is spent first, the rest burned
// from its TRX. When they cannot cover it, the sweep is not signed: it waits, pass after pass, with the reason, a
// warning and checkout_tron_sweeps_awaiting_energy{mode}, rather than running out of energy on chain and burning
// what it had (docs/settlement.md#tron-energy). Once signed, a sweep is followed whatever the relayer holds.
import { log, metricMeter } from '@temporalio/activity';
import type { Sql } from '../../db/client';
import { findChainIntent, isTronTransfer } from '../../db/repositories/chainIntents';
import { callBandwidthBytes, energyOfFeeLimit, judgeTronResources } from '../../domain/chains/tronEnergy';
import type { Mode } from '../../domain/wire/session';
import type { TronWalletApi } from '../../activities/http/tronWalletApi';
import type { TronRelayer } from '../chainWrites/tronRelayer';
import type { TronWriteProgress } from '../chainWrites/tronChainWriter';

export interface TronResourceDeps {
  sql: Sql;
  mode: Mode;
  api: Pick<TronWalletApi, 'chainPrices' | 'accountResources'>;
  relayer: Pick<TronRelayer, 'address'>;
}

/** The pass's answer when the unsigned sweep `id` must wait for energy or TRX; undefined when it may be signed. */
export async function holdSweepForResources(deps: TronResourceDeps, id: string): Promise<TronWriteProgress | undefined> {
  const intent = await findChainIntent(deps.sql, id);
  if (intent?.status !== 'prepared' || !intent.tronCall || isTronTransfer(intent.tronCall)) return undefined;
  const call = intent.tronCall;
  const prices = await deps.api.chainPrices();
  const held = await deps.api.accountResources(deps.relayer.address);
  const verdict = judgeTronResources(
    { energy: energyOfFeeLimit(BigInt(call.feeLimit), prices), bandwidthBytes: callBandwidthBytes(call.parameter) },
    {
      energyAvailable: held.energyLimit > held.energyUsed ? held.energyLimit - held.energyUsed : 0n,
      trxBalanceSun: held.trxBalanceSun,
      bandwidthAvailable: held.bandwidthAvailable,
    },
    prices,
  );
  if (verdict.kind === 'enough') return undefined;
  metricMeter
    .createCounter(
      'checkout_tron_sweeps_awaiting_energy',
      'passes',
      "Tron sweep passes not signed: the relayer's energy and TRX cannot cover the sweep's energy",
    )
    .add(1, { mode: deps.mode });
  log.warn('Tron sweep waits: the relayer cannot pay its energy', { intentId: id, mode: deps.mode, reason: verdict.reason });
  return { intent, deferred: verdict.reason };
}
