// Sweeps Tron HD deposit addresses (sessions from before the Tron forwarders, deposit_addresses.tron_scheme = 'hd')
// into the collector, on the signer, as evmHdSweep.ts does on the EVM chains: it alone holds the deposit seed the
// address's key derives from (m/44'/195'/0'/0/<index>) and the relayer key that pays. The plan writes one sweep per
// address, its TRC-20 transfer(collector, amount) fixed as the Tron chain intent sweep-hd:tron:<id> with the address
// as sender and as its fee limit the transfer's energy (domain/chains/tronEnergy.ts: the measured estimate or the
// node's run of it) at the network's price with a margin, at most TRON_HD_SWEEP_FEE_LIMIT_TRX. Each advance is one
// resumable step: the relayer's TRX payment topup:tron:<id> of the fee limit less what the address holds (none when it holds enough; the fee limit is
// fixed in the call, so a re-signed transfer needs no more); then the transfer, signed by the address's key through
// the same Tron chain writer; then, once solidified, what the token's Transfer logs moved and the sun it burned.
import { bytesToHex } from '@noble/hashes/utils.js';
import { encodeAbiParameters } from 'viem';
import {
  findChainIntent,
  insertTronChainIntent,
  isTronTransfer,
  type ChainIntent,
  type TronCall,
} from '../../db/repositories/chainIntents';
import { hdSweepDerivationIndex, type CollectorSweep } from '../../db/repositories/collectorSweeps';
import { tronAddressToEvmHex } from '../../domain/addresses/tron';
import { hdSweptAmount } from '../../domain/sweeps/evmHdSweep';
import { tronHdSweepTopUp } from '../../domain/sweeps/tronHdSweep';
import { tronTransferLogs } from '../../domain/sweeps/tronSweptLogs';
import { tronHdTransferDifference, tronTopUpDifference } from '../../domain/chainWrites/tronIntentCall';
import { refuseAlteredCall } from '../chainWrites/intentCallCheck';
import { createTronChainWriter, type TronChainWriter, type TronChainWriterDeps } from '../chainWrites/tronChainWriter';
import { tronRelayer, type TronRelayer } from '../chainWrites/tronRelayer';
import { deriveTronPrivateKey } from '../../domain/addresses/hdDerivation';
import { hdTransferEnergy, tronFeeLimitSun } from '../../domain/chains/tronEnergy';
import { topUpIntentId } from './evmHdSweep';
import { progressOutcome, recordedOutcome, type EvmSweepOutcome, type HdSweeps } from './forwarderSweep';
import { planHdSweeps, recordHdTopUp, recordHdTransfer } from './hdSweep';

const TRANSFER = 'transfer(address,uint256)';

/** What HD sweeps need of the Tron sweep's settings. */
export interface TronHdSweepDeps extends TronChainWriterDeps {
  /** The most an HD address's transfer's fee limit may be, which its top-up pays it (TRON_HD_SWEEP_FEE_LIMIT_TRX). */
  hdFeeLimitSun: bigint;
  /** The mode's deposit seed (DEPOSIT_MNEMONIC_<MODE>): an HD address's key derives from it and the session's index. */
  depositSeed?: Uint8Array | undefined;
  /** Where HD sweeps send the tokens (TRON_DEPOSIT_COLLECTOR_<MODE>); unset: HD addresses are not swept. */
  collector?: string | undefined;
}

export function createTronHdSweep(deps: TronHdSweepDeps, relayer: TronChainWriter): HdSweeps {
  const { sql, api } = deps;

  /** The address's transfer, its fee limit the energy it needs as the node prices it now. */
  async function transferCall(from: string, token: string, collector: string, amount: bigint): Promise<TronCall> {
    const parameter = encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [tronAddressToEvmHex(collector), amount]).slice(2);
    const prices = await api.chainPrices();
    const energy = hdTransferEnergy(prices, await api.callEnergy(from, token, TRANSFER, parameter));
    return {
      contract: token,
      functionSelector: TRANSFER,
      parameter,
      feeLimit: tronFeeLimitSun(energy, prices, deps.hdFeeLimitSun).toString(),
      callValue: '0',
    };
  }

  const plan: HdSweeps['plan'] = (tx, scope) =>
    planHdSweeps(tx, scope, {
      collector: deps.collector,
      depositSeed: deps.depositSeed,
      balanceOf: (token, owner) => api.tokenBalance(token, owner, deps.relayer.address),
      insertIntent: async (q, id, hd, collector) =>
        insertTronChainIntent(q, {
          id,
          mode: deps.mode,
          sender: hd.address,
          call: await transferCall(hd.address, scope.deployment.address, collector, hd.balance),
        }),
    });

  /** The address's key, derived here for this pass and checked against the swept address; never stored or logged. */
  async function signerOf(sweep: CollectorSweep): Promise<TronRelayer> {
    const index = await hdSweepDerivationIndex(sql, 'tron', sweep.id);
    if (!deps.depositSeed || index === undefined) throw new Error(`no deposit key for HD sweep ${sweep.id} in ${deps.mode} mode`);
    const signer = tronRelayer(bytesToHex(deriveTronPrivateKey(deps.depositSeed, index)));
    const swept = sweep.addresses[0]?.address;
    if (signer.address !== swept) throw new Error(`deposit index ${index} derives ${signer.address}, not the swept address ${swept}`);
    return signer;
  }

  async function recordTopUp(sweep: CollectorSweep, round: number, topUp: ChainIntent): Promise<void> {
    const status = topUp.status === 'finalized' ? 'finalized' : 'failed';
    const sent = status === 'finalized' && topUp.tronCall && isTronTransfer(topUp.tronCall) ? BigInt(topUp.tronCall.amount) : 0n;
    const landed = { id: topUp.id, round, status, txHash: topUp.signature ?? '', blockNumber: topUp.blockNumber ?? 0n } as const;
    await recordHdTopUp(sql, sweep, landed, { sentWei: sent, gasWei: topUp.feePaid ?? 0n });
  }

  /**
   * The top-up, while the transfer is unsigned: write it ahead (none when the address holds the fee limit), advance it
   * until solidified, record it. Answers the pass's outcome while it runs (or once it failed); nothing once the
   * transfer may be signed.
   */
  async function topUp(sweep: CollectorSweep, address: string, feeLimitSun: bigint): Promise<EvmSweepOutcome | undefined> {
    const round = sweep.topupRounds + 1;
    const id = topUpIntentId(sweep, round);
    const intent = await findChainIntent(sql, id);
    if (!intent) {
      const sent = tronHdSweepTopUp(feeLimitSun, await api.trxBalance(address));
      if (sent === 0n) return undefined;
      await relayer.prepare(id, { kind: 'transfer', to: address, amount: sent.toString() });
      return { status: 'pending' };
    }
    await refuseAlteredCall(sql, id, { kind: 'hd-top-up', chain: 'tron', mode: deps.mode }, ({ tronCall }) =>
      tronTopUpDifference(tronCall, address),
    );
    const progress = intent.status === 'finalized' || intent.status === 'failed' ? { intent } : await relayer.advance(id);
    if (progress.intent.status !== 'finalized' && progress.intent.status !== 'failed')
      return progressOutcome(sql, sweep, progress, () => recordedOutcome(sql, sweep.id));
    await recordTopUp(sweep, round, progress.intent);
    return progress.intent.status === 'failed' ? recordedOutcome(sql, sweep.id) : { status: 'pending' };
  }

  /** What the solidified transfer moved (the token's Transfer logs to the collector; none when it reverted) and the sun it burned. */
  async function record(sweep: CollectorSweep, status: 'finalized' | 'failed', intent: ChainIntent): Promise<EvmSweepOutcome> {
    const txHash = intent.signature ?? '';
    const blockNumber = intent.blockNumber ?? 0n;
    const { logs, firstLogIndex } = status === 'failed' ? { logs: [], firstLogIndex: 0 } : await api.solidifiedLogs(txHash, blockNumber);
    const swept = hdSweptAmount(tronTransferLogs(logs, firstLogIndex), {
      token: tronAddressToEvmHex(sweep.tokenAddress),
      from: tronAddressToEvmHex(sweep.addresses[0]?.address ?? ''),
      to: tronAddressToEvmHex(sweep.collector ?? ''),
    });
    return recordHdTransfer(sql, sweep, { status, txHash, blockNumber, ...swept, fee: intent.feePaid ?? 0n });
  }

  /** One step of an unlanded HD sweep: its top-up while the transfer is unsigned, then the transfer. */
  async function advance(sweep: CollectorSweep): Promise<EvmSweepOutcome> {
    const signer = await signerOf(sweep);
    const planned = {
      tokenAddress: sweep.tokenAddress,
      collector: sweep.collector ?? '',
      plannedBaseUnits: sweep.addresses[0]?.plannedBaseUnits ?? 0n,
      maxFeeLimitSun: deps.hdFeeLimitSun,
    };
    await refuseAlteredCall(sql, sweep.id, { kind: 'hd-sweep', chain: 'tron', mode: deps.mode }, ({ tronCall }) =>
      tronHdTransferDifference(tronCall, planned),
    );
    const transfer = await findChainIntent(sql, sweep.id);
    if (!transfer) throw new Error(`HD sweep ${sweep.id} has no chain intent`);
    if (transfer.status === 'prepared') {
      const feeLimit = transfer.tronCall && !isTronTransfer(transfer.tronCall) ? BigInt(transfer.tronCall.feeLimit) : deps.hdFeeLimitSun;
      const waiting = await topUp(sweep, signer.address, feeLimit);
      if (waiting) return waiting;
    }
    const writer = createTronChainWriter({ ...deps, relayer: signer });
    return progressOutcome(sql, sweep, await writer.advance(sweep.id), (status, intent) => record(sweep, status, intent));
  }

  return { plan, advance };
}
