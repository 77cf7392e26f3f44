// What happens to an EVM deposit after the treasury has paid the merchant: the inventory path that carries the
// deposit's USDC back to the treasury (docs/settlement.md#r6-inventory-on-its-own-clock), as the stack runs it. The
// demo triggers the schedules at once, as `checkout-admin sweep now` does, where `npm start` waits for their
// intervals (SWEEP_INTERVAL_SECONDS, TRANSFER_INTERVAL_SECONDS), and mines blocks in the background as a chain produces
// them, since the sweep, the swap and the burn wait for their depth. A USDT deposit is swapped to USDC in the
// collector through the local Uniswap V3 pool first (docs/settlement.md#usdt-swaps). Each step reads what landed from
// the chains themselves: the factory's Swept event, the collector's Swapped and Burned events, the attestation
// stand-in's answer, the treasury's balance; and after each, where the money is.
import type { Client } from '@temporalio/client';
import { erc20Abi, type Address, type Hash } from 'viem';
import { createAttestationClient } from '../../signer/cctp/attestationClient';
import * as depositCollector from '../../contracts/artifacts/depositCollector';
import * as depositFactory from '../../contracts/artifacts/depositFactory';
import { depositSalt } from '../../domain/addresses/depositSalt';
import type { CctpSourceChain } from '../../domain/cctp/domains';
import { CHAIN_FACTS } from '../../domain/chains/chains';
import { transferScheduleId, transferWorkflowId } from '../../domain/cctp/transferWorkflowIds';
import { swapScheduleId } from '../../domain/swaps/swapWorkflowIds';
import { evmSweepScheduleId } from '../../domain/taskQueues';
import type { DevChain } from '../../toolchain/localChain/devChain';
import type { transferUsdc } from '../../workflows/cctpTransfer';

/** Blocks mined per beat while the path runs: 40 a second, so a 64-block depth takes under two seconds. */
const BLOCKS_PER_BEAT = 4;
const BEAT_MS = 100;
/** Each step's bound: the sweep and transfer workflows poll every 10 s at most between their stages. */
const STEP_TIMEOUT_MS = 60_000;
/** A schedule run that came too early (its input not yet at depth) ends idle: the step triggers again after this. */
const RETRIGGER_MS = 5_000;

export interface InventoryContext {
  temporal: Client;
  devChain: DevChain;
  attestationUrl: string;
  /** What the session was paid in: USDT is swapped to USDC before the burn. */
  token: 'USDC' | 'USDT';
  sessionId: string;
  /** The session's forwarder deposit address on the local chain. */
  depositAddress: Address;
  /** When the deposit reached its required confirmations: the path's clock starts there. */
  depositConfirmedAt: number;
  treasuryUsdc(): Promise<bigint>;
  merchantUsdc(): Promise<bigint>;
  formatUsdc(baseUnits: bigint): string;
  say(line: string): void;
  detail(label: string, value: string): void;
}

/** When the treasury showed the refill, and the gas the collector's swap used (a USDT path only). */
export interface InventoryPathResult {
  refilledAt: number;
  swapGas: bigint | undefined;
}

export async function followInventoryPath(context: InventoryContext): Promise<InventoryPathResult> {
  const { devChain, say, detail, formatUsdc } = context;
  const treasuryBefore = await context.treasuryUsdc();
  await showBalances(context, 'balances before');
  const miner = startMining(devChain);
  try {
    const sweptAt = await sweep(context);
    await showBalances(context, 'balances after');
    const swapped = context.token === 'USDT' ? await swap(context, sweptAt) : undefined;
    if (swapped) await showBalances(context, 'balances after');
    const burnTx = await burn(context, swapped?.block ?? sweptAt);
    await showBalances(context, 'balances after');
    await attestation(context, burnTx);
    const treasuryAfter = await waitFor(async () => {
      const balance = await context.treasuryUsdc();
      return balance > treasuryBefore ? balance : undefined;
    }, 'receive_message to mint on the local Solana chain');
    const refilledAt = Date.now();
    say(`refill: receive_message on the local Solana chain minted ${formatUsdc(treasuryAfter - treasuryBefore)} USDC to the treasury`);
    detail('treasury before', `${formatUsdc(treasuryBefore)} USDC`);
    detail('treasury after', `${formatUsdc(treasuryAfter)} USDC`);
    detail(
      'deposit confirmed → refill',
      `${((refilledAt - context.depositConfirmedAt) / 1000).toFixed(1)} s (schedules triggered at once, blocks mined in the background)`,
    );
    await showBalances(context, 'balances after');
    await runsFinished(context);
    return { refilledAt, swapGas: swapped?.gas };
  } finally {
    await miner.stop();
  }
}

/** Triggers the chain's sweep schedule and waits for the factory's Swept event of the session's salt. */
async function sweep(context: InventoryContext): Promise<bigint> {
  const { devChain, temporal, say, detail } = context;
  const scheduleId = evmSweepScheduleId({ chain: devChain.chain, token: context.token, mode: 'test' });
  await temporal.schedule.getHandle(scheduleId).trigger();
  say(`sweep: ${scheduleId} triggered (as checkout-admin sweep now does)`);
  const swept = await waitFor(async () => {
    const [event] = await devChain.local.publicClient.getContractEvents({
      address: devChain.depositContracts.factory,
      abi: depositFactory.abi,
      eventName: 'Swept',
      args: { salt: depositSalt(context.sessionId) },
      fromBlock: 0n,
    });
    return event;
  }, "the relayer's sweepMany");
  detail(
    'sweep tx',
    `${swept.transactionHash} in block #${swept.blockNumber}: sweepMany by the relayer ${devChain.depositContracts.relayer.address}`,
  );
  detail(
    'swept',
    `${context.formatUsdc(swept.args.amount ?? 0n)} ${context.token} from ${context.depositAddress} (clone deployed in the same call) to the collector ${devChain.depositContracts.collector}`,
  );
  return swept.blockNumber;
}

/** The collector's swap of the swept USDT to USDC, with its gas. */
async function swap(context: InventoryContext, fromBlock: bigint): Promise<{ block: bigint; gas: bigint }> {
  const { devChain, detail, formatUsdc } = context;
  const swapped = await collectorEvent(context, 'swap', 'Swapped', fromBlock);
  const receipt = await devChain.local.publicClient.getTransactionReceipt({ hash: swapped.transactionHash });
  detail(
    'swap tx',
    `${swapped.transactionHash} in block #${swapped.blockNumber}: DepositCollector.swap → SwapRouter02 ${devChain.swapContracts.router} exactInputSingle, gas used ${receipt.gasUsed}`,
  );
  const amountIn = swapped.args.amountIn ?? 0n;
  const amountOut = swapped.args.amountOut ?? 0n;
  detail(
    'swapped',
    `${formatUsdc(amountIn)} USDT for ${formatUsdc(amountOut)} USDC in the local USDT/USDC pool (1:1 less ${formatUsdc(amountIn - amountOut)}: its fee tier and price impact)`,
  );
  return { block: swapped.blockNumber, gas: receipt.gasUsed };
}

/** The collector's burn of its USDC through the TokenMessengerV2 stand-in. */
async function burn(context: InventoryContext, fromBlock: bigint): Promise<Hash> {
  const { detail } = context;
  const burned = await collectorEvent(context, 'burn', 'Burned', fromBlock);
  detail(
    'burn tx',
    `${burned.transactionHash} in block #${burned.blockNumber}: DepositCollector.burn → TokenMessengerV2 (stand-in) depositForBurn`,
  );
  detail(
    'burned',
    `${context.formatUsdc(burned.args.amount ?? 0n)} USDC to domain 5 (Solana), mint recipient ${burned.args.mintRecipient}, max fee ${burned.args.maxFee}`,
  );
  return burned.transactionHash;
}

/**
 * Once what the collector received (the sweep, or the swap) is at the chain's confirmation depth, where the signer
 * reads the collector's balance, triggers the step's schedule (the swap's or the transfer's) until the collector emits
 * the step's event.
 */
async function collectorEvent<E extends 'Swapped' | 'Burned'>(
  context: InventoryContext,
  step: 'swap' | 'burn',
  eventName: E,
  fromBlock: bigint,
) {
  const { devChain, say } = context;
  const chain = devChain.chain as CctpSourceChain;
  const scheduleId = step === 'swap' ? swapScheduleId(chain, 'test') : transferScheduleId(chain, 'test');
  await settled(context, fromBlock);
  say(`${step}: ${scheduleId} triggered`);
  return retriggering(
    context,
    scheduleId,
    async () => {
      const [event] = await devChain.local.publicClient.getContractEvents({
        address: devChain.depositContracts.collector,
        abi: depositCollector.abi,
        eventName,
        fromBlock,
      });
      return event;
    },
    `the collector's ${step}`,
  );
}

async function attestation(context: InventoryContext, burnTx: Hash): Promise<void> {
  const iris = createAttestationClient({ baseUrl: context.attestationUrl });
  const lookup = await waitFor(async () => {
    const answer = await iris.messages(context.devChain.cctp.localDomain, burnTx);
    return answer.state === 'complete' ? answer : undefined;
  }, 'the attestation');
  const [message] = lookup.messages;
  if (!message) throw new Error(`the attestation stand-in completed ${burnTx} without a message`);
  context.say(
    `attestation: the loopback stand-in of Circle's Iris (${context.attestationUrl}) attested the burn with the local attester's key`,
  );
  context.detail('nonce', message.nonce);
  context.detail('attestation', `${message.attestation.slice(0, 34)}… (${(message.attestation.length - 2) / 2} bytes)`);
}

/** Where the path's money is now: the collector's tokens on the local chain, the treasury's and merchant's USDC. */
async function showBalances(context: InventoryContext, label: string): Promise<void> {
  const { devChain, formatUsdc } = context;
  const collectorHolds = (token: Address) =>
    devChain.local.publicClient.readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [devChain.depositContracts.collector],
    });
  const [usdt, usdc, treasury, merchant] = await Promise.all([
    collectorHolds(devChain.usdt),
    collectorHolds(devChain.usdc),
    context.treasuryUsdc(),
    context.merchantUsdc(),
  ]);
  context.detail(
    label,
    `collector USDT ${formatUsdc(usdt)}, collector USDC ${formatUsdc(usdc)}, treasury USDC ${formatUsdc(treasury)}, merchant USDC ${formatUsdc(merchant)}`,
  );
}

/**
 * Until the path's schedule runs under way have ended: the sweep and the transfer post to the ledger only once what
 * they did is final, after the treasury already shows the refill.
 */
async function runsFinished(context: InventoryContext): Promise<void> {
  const { temporal, devChain } = context;
  const chain = devChain.chain as CctpSourceChain;
  const scheduleIds = [
    evmSweepScheduleId({ chain, token: context.token, mode: 'test' }),
    ...(context.token === 'USDT' ? [swapScheduleId(chain, 'test')] : []),
    transferScheduleId(chain, 'test'),
  ];
  const runs: string[] = [];
  for (const scheduleId of scheduleIds) {
    const { info } = await temporal.schedule.getHandle(scheduleId).describe();
    runs.push(...info.runningActions.map(({ workflow }) => workflow.workflowId));
  }
  // The transfer run that burned handed the transfer to a workflow of its own, which posts its receive.
  const { info } = await temporal.schedule.getHandle(transferScheduleId(chain, 'test')).describe();
  for (const { action } of info.recentActions) {
    const result = await temporal.workflow.getHandle<typeof transferUsdc>(action.workflow.workflowId).result();
    if (result.kind === 'started' || result.kind === 'in_flight') runs.push(transferWorkflowId(result.transferId));
  }
  await waitFor(async () => {
    const open = await Promise.all(
      // The latest run of each id: one continued as new is followed to its successor.
      runs.map(async (workflowId) => (await temporal.workflow.getHandle(workflowId).describe()).status.name === 'RUNNING'),
    );
    return open.includes(true) ? undefined : true;
  }, 'end of the sweep, swap and transfer runs');
  context.say(`posted: the path's workflows under way (${[...new Set(runs)].join(', ')}) ended, their postings made`);
}

/** Until `block` is at the chain's confirmation depth, where the swap and the transfer read the collector. */
async function settled(context: InventoryContext, block: bigint): Promise<void> {
  const depth = BigInt(CHAIN_FACTS[context.devChain.chain].confirmations - 1);
  await waitFor(async () => ((await context.devChain.local.blockNumber()) >= block + depth ? true : undefined), `block #${block} settled`);
}

/** Triggers `scheduleId` now and again every RETRIGGER_MS until `probe` finds what its run did. */
async function retriggering<T>(
  context: InventoryContext,
  scheduleId: string,
  probe: () => Promise<T | undefined>,
  what: string,
): Promise<T> {
  let triggeredAt = 0;
  return waitFor(async () => {
    if (Date.now() - triggeredAt > RETRIGGER_MS) {
      await context.temporal.schedule.getHandle(scheduleId).trigger();
      triggeredAt = Date.now();
    }
    return probe();
  }, what);
}

async function waitFor<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${STEP_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, BEAT_MS));
  }
}

function startMining(devChain: DevChain): { stop(): Promise<void> } {
  let stopped = false;
  const running = (async () => {
    while (!stopped) {
      await devChain.local.mine(BLOCKS_PER_BEAT);
      await new Promise((resolve) => setTimeout(resolve, BEAT_MS));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await running;
    },
  };
}
