// Sweeps HD EOA deposit addresses (sessions from before the forwarders) into the collector, on the signer: it alone
// holds the deposit seed the address's key derives from, and the relayer key that pays for its gas.
// The plan writes one sweep per address, its transfer(collector, amount) fixed as the chain intent
// sweep-hd:<chain>:<id> with the address as sender (so the address has its own nonces). Each advance is one
// resumable step: the relayer's top-up topup:<chain>:<id> of exactly what the transfer can cost, less what the
// address holds (none when it holds enough); then the transfer, signed only under the fee the address can pay (a
// rise in fees before it is signed makes another top-up, topup:<chain>:<id>:2, of the difference); then, once final,
// what the token's Transfer events moved and the gas, recorded with their ledger postings.
import {
  encodeFunctionData,
  erc20Abi,
  parseEventLogs,
  parseTransaction,
  toHex,
  type Address,
  type Hash,
  type Hex,
  type LocalAccount,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { findChainIntent, insertEvmChainIntent, type ChainIntent, type EvmCall } from '../../db/repositories/chainIntents';
import { hdSweepDerivationIndex, type CollectorSweep } from '../../db/repositories/collectorSweeps';
import { gasLimitFor } from '../../domain/chainWrites/evmChainIntent';
import { evmCallDifference, hdSweepTransferCall, hdTopUpCallDifference } from '../../domain/chainWrites/intentCall';
import { fundedMaxFeePerGas, hdSweepTopUp, hdSweptAmount } from '../../domain/sweeps/evmHdSweep';
import type { EvmChain } from '../../domain/sweeps/evmSweepPlan';
import { createEvmChainWriter, type EvmChainWriter, type EvmChainWriterDeps } from '../chainWrites/evmChainWriter';
import { refuseAlteredCall } from '../chainWrites/intentCallCheck';
import { deriveEvmPrivateKey } from '../../domain/addresses/hdDerivation';
import { progressOutcome, recordedOutcome, type EvmSweepOutcome, type HdSweeps } from './forwarderSweep';
import { planHdSweeps, recordHdTopUp, recordHdTransfer } from './hdSweep';
import { gasPaidWei } from '../../domain/chains/gasPaid';

export interface EvmHdSweepDeps extends EvmChainWriterDeps {
  chain: EvmChain;
  /** The mode's deposit seed (DEPOSIT_MNEMONIC_<MODE>): an HD address's key derives from it and the session's index. */
  depositSeed?: Uint8Array | undefined;
  /** Where HD sweeps send the tokens (EVM_DEPOSIT_COLLECTOR_<MODE>); unset: HD addresses are not swept. */
  collector?: string | undefined;
}

const transferCall =
  (token: string, collector: string) =>
  (amount: bigint): EvmCall => ({
    to: token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [collector as Address, amount] }),
    value: '0',
  });

/** The chain intent of an HD sweep's `round`th top-up (the first has no number). */
export function topUpIntentId(sweep: Pick<CollectorSweep, 'id' | 'chain'>, round = 1): string {
  const id = `topup:${sweep.chain}:${sweep.id.slice(`sweep-hd:${sweep.chain}:`.length)}`;
  return round === 1 ? id : `${id}:${round}`;
}

export function createEvmHdSweep(
  deps: EvmHdSweepDeps,
  relayer: EvmChainWriter,
  balanceOf: (token: string, owner: string) => Promise<bigint>,
): HdSweeps {
  const { client } = deps;

  const plan: HdSweeps['plan'] = (tx, scope) =>
    planHdSweeps(tx, scope, {
      collector: deps.collector,
      depositSeed: deps.depositSeed,
      balanceOf,
      insertIntent: (q, id, hd, collector) =>
        insertEvmChainIntent(q, {
          id,
          chain: deps.chain,
          mode: deps.mode,
          sender: hd.address,
          call: transferCall(scope.deployment.address, collector)(hd.balance),
        }),
    });

  /** The address's key, derived here for this pass and checked against the swept address; never stored or logged. */
  async function accountOf(sweep: CollectorSweep): Promise<LocalAccount> {
    const index = await hdSweepDerivationIndex(deps.sql, deps.chain, sweep.id);
    if (!deps.depositSeed || index === undefined) throw new Error(`no deposit key for HD sweep ${sweep.id} in ${deps.mode} mode`);
    const account = privateKeyToAccount(toHex(deriveEvmPrivateKey(deps.depositSeed, index)));
    const swept = sweep.addresses[0]?.address;
    if (account.address.toLowerCase() !== swept)
      throw new Error(`deposit index ${index} derives ${account.address}, not the swept address ${swept}`);
    return account;
  }

  /** What the address can pay per gas for its transfer: its balance over the gas limit the transfer is (or will be) signed with. */
  async function fundedCap(account: LocalAccount, transfer: ChainIntent): Promise<bigint> {
    const held = await client.getBalance({ address: account.address });
    let gasLimit: bigint | undefined;
    if (transfer.status === 'prepared' && transfer.call) gasLimit = gasLimitFor(await estimateTransfer(account, transfer.call));
    else if ((transfer.status === 'signed' || transfer.status === 'broadcast') && transfer.wireTransaction)
      gasLimit = parseTransaction(transfer.wireTransaction as Hex).gas;
    if (gasLimit === undefined) return deps.maxFeePerGasCap;
    const funded = fundedMaxFeePerGas(held, gasLimit);
    return funded < deps.maxFeePerGasCap ? funded : deps.maxFeePerGasCap;
  }

  const estimateTransfer = (account: LocalAccount, call: EvmCall) =>
    client.estimateGas({ account: account.address, to: call.to as Address, data: call.data as Hex, value: BigInt(call.value) });

  /** The top-up's landing: what it sent (nothing when it reverted) and the relayer's gas. */
  async function recordTopUp(sweep: CollectorSweep, round: number, topUp: ChainIntent): Promise<void> {
    const receipt = await client.getTransactionReceipt({ hash: topUp.signature as Hash });
    const status = topUp.status === 'finalized' ? 'finalized' : 'failed';
    const landed = {
      sentWei: status === 'finalized' ? BigInt(topUp.call?.value ?? '0') : 0n,
      gasWei: gasPaidWei(receipt),
    };
    await recordHdTopUp(
      deps.sql,
      sweep,
      { id: topUp.id, round, status, txHash: topUp.signature ?? '', blockNumber: receipt.blockNumber },
      landed,
    );
  }

  /**
   * The top-up steps, while the transfer is unsigned: decide the next round and write it ahead (none when the address
   * holds what the transfer costs at today's fees), advance it until final, record it. Answers the pass's outcome
   * while one of them ran (or the top-up reverted); nothing once the transfer may be signed.
   */
  async function topUp(sweep: CollectorSweep, account: LocalAccount, transfer: ChainIntent): Promise<EvmSweepOutcome | undefined> {
    if (!transfer.call) return undefined;
    const round = sweep.topupRounds + 1;
    const id = topUpIntentId(sweep, round);
    const intent = await findChainIntent(deps.sql, id);
    if (!intent) {
      const [estimate, fees, held] = await Promise.all([
        estimateTransfer(account, transfer.call),
        client.estimateFeesPerGas(),
        client.getBalance({ address: account.address }),
      ]);
      const sent = hdSweepTopUp({ gasLimit: gasLimitFor(estimate), fees }, held);
      if (sent === 0n) return undefined;
      await relayer.prepare(id, { to: account.address, data: '0x', value: sent.toString() });
      return { status: 'pending' };
    }
    await refuseAlteredCall(deps.sql, id, { kind: 'hd-top-up', chain: deps.chain, mode: deps.mode }, ({ call }) =>
      hdTopUpCallDifference(call, account.address),
    );
    const progress = intent.status === 'finalized' || intent.status === 'failed' ? { intent } : await relayer.advance(id);
    if (progress.intent.status !== 'finalized' && progress.intent.status !== 'failed') {
      return progressOutcome(deps.sql, sweep, progress, () => recordedOutcome(deps.sql, sweep.id));
    }
    await recordTopUp(sweep, round, progress.intent);
    return progress.intent.status === 'failed' ? recordedOutcome(deps.sql, sweep.id) : { status: 'pending' };
  }

  /** What the landed transfer moved (the token's Transfer events to the collector; none when it reverted) and the address's gas. */
  async function record(sweep: CollectorSweep, status: 'finalized' | 'failed', txHash: string): Promise<EvmSweepOutcome> {
    const receipt = await client.getTransactionReceipt({ hash: txHash as Hash });
    const from = sweep.addresses[0]?.address ?? '';
    const events = status === 'failed' ? [] : parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs });
    const swept = hdSweptAmount(
      events.map((log) => ({ emitter: log.address, from: log.args.from, to: log.args.to, value: log.args.value, logIndex: log.logIndex })),
      { token: sweep.tokenAddress, from, to: sweep.collector ?? '' },
    );
    return recordHdTransfer(deps.sql, sweep, {
      status,
      txHash,
      blockNumber: receipt.blockNumber,
      ...swept,
      fee: gasPaidWei(receipt),
    });
  }

  /** One step of an unlanded HD sweep: its top-up while the transfer is unsigned, then the transfer. */
  async function advance(sweep: CollectorSweep): Promise<EvmSweepOutcome> {
    const account = await accountOf(sweep);
    // Checked before the top-up too: the top-up pays for the stored transfer's gas.
    const planned = hdSweepTransferCall({
      tokenAddress: sweep.tokenAddress,
      collector: sweep.collector ?? '',
      plannedBaseUnits: sweep.addresses[0]?.plannedBaseUnits ?? 0n,
    });
    await refuseAlteredCall(deps.sql, sweep.id, { kind: 'hd-sweep', chain: deps.chain, mode: deps.mode }, ({ call }) =>
      evmCallDifference(call, planned),
    );
    const transfer = await findChainIntent(deps.sql, sweep.id);
    if (!transfer) throw new Error(`HD sweep ${sweep.id} has no chain intent`);
    if (transfer.status === 'prepared') {
      const waiting = await topUp(sweep, account, transfer);
      if (waiting) return waiting;
    }
    const writer = createEvmChainWriter({ ...deps, account, maxFeePerGasCap: await fundedCap(account, transfer) });
    return progressOutcome(deps.sql, sweep, await writer.advance(sweep.id), (status, intent) =>
      record(sweep, status, intent.signature ?? ''),
    );
  }

  return { plan, advance };
}
