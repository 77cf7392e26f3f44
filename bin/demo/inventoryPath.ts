// What happens to an EVM deposit after the treasury has paid the merchant: the inventory path that carries the
// deposit's USDC back to the treasury (docs/settlement.md#r6-inventory-on-its-own-clock), as the stack runs it. The
// demo triggers the two schedules at once, as `checkout-admin sweep now` does, where `npm start` waits for their
// intervals (SWEEP_INTERVAL_SECONDS, TRANSFER_INTERVAL_SECONDS), and mines blocks in the background as a chain produces
// them, since the sweep and the burn wait for their depth. Each step reads what landed from the chains themselves:
// the factory's Swept event, the collector's Burned event, the attestation stand-in's answer, the treasury's balance.
import type { Client } from '@temporalio/client';
import type { Address, Hash } from 'viem';
import { createAttestationClient } from '../../signer/cctp/attestationClient';
import * as depositCollector from '../../contracts/artifacts/depositCollector';
import * as depositFactory from '../../contracts/artifacts/depositFactory';
import { depositSalt } from '../../domain/addresses/depositSalt';
import type { CctpSourceChain } from '../../domain/cctp/domains';
import { transferScheduleId } from '../../domain/cctp/transferWorkflowIds';
import { evmSweepScheduleId } from '../../domain/taskQueues';
import type { DevChain } from '../../toolchain/localChain/devChain';

/** Blocks mined per beat while the path runs: 40 a second, so a 64-block depth takes under two seconds. */
const BLOCKS_PER_BEAT = 4;
const BEAT_MS = 100;
/** Each step's bound: the sweep and transfer workflows poll every 10 s at most between their stages. */
const STEP_TIMEOUT_MS = 60_000;

export interface InventoryContext {
  temporal: Client;
  devChain: DevChain;
  attestationUrl: string;
  sessionId: string;
  /** The session's forwarder deposit address on the local chain. */
  depositAddress: Address;
  /** When the deposit reached its required confirmations: the path's clock starts there. */
  depositConfirmedAt: number;
  treasuryUsdc(): Promise<bigint>;
  formatUsdc(baseUnits: bigint): string;
  say(line: string): void;
  detail(label: string, value: string): void;
}

export async function followInventoryPath(context: InventoryContext): Promise<void> {
  const { devChain, say, detail, formatUsdc } = context;
  const treasuryBefore = await context.treasuryUsdc();
  const miner = startMining(devChain);
  try {
    const sweptAt = await sweep(context);
    const burnTx = await burn(context, sweptAt);
    await attestation(context, burnTx);
    const treasuryAfter = await waitFor(async () => {
      const balance = await context.treasuryUsdc();
      return balance > treasuryBefore ? balance : undefined;
    }, 'receive_message to mint on the local Solana chain');
    say(`refill: receive_message on the local Solana chain minted ${formatUsdc(treasuryAfter - treasuryBefore)} USDC to the treasury`);
    detail('treasury before', `${formatUsdc(treasuryBefore)} USDC`);
    detail('treasury after', `${formatUsdc(treasuryAfter)} USDC`);
    detail(
      'deposit confirmed → refill',
      `${((Date.now() - context.depositConfirmedAt) / 1000).toFixed(1)} s (schedules triggered at once, blocks mined in the background)`,
    );
  } finally {
    await miner.stop();
  }
}

/** Triggers the chain's sweep schedule and waits for the factory's Swept event of the session's salt. */
async function sweep(context: InventoryContext): Promise<bigint> {
  const { devChain, temporal, say, detail } = context;
  const scheduleId = evmSweepScheduleId({ chain: devChain.chain, token: 'USDC', mode: 'test' });
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
    `${context.formatUsdc(swept.args.amount ?? 0n)} USDC from ${context.depositAddress} (clone deployed in the same call) to the collector ${devChain.depositContracts.collector}`,
  );
  return swept.blockNumber;
}

/**
 * Triggers the chain's transfer schedule until the collector burns: a run that comes before the sweep has landed
 * finds the collector short of TRANSFER_MINIMUM_USDC and does nothing.
 */
async function burn(context: InventoryContext, fromBlock: bigint): Promise<Hash> {
  const { devChain, temporal, say, detail } = context;
  const scheduleId = transferScheduleId(devChain.chain as CctpSourceChain, 'test');
  say(`burn: ${scheduleId} triggered`);
  let triggeredAt = 0;
  const burned = await waitFor(async () => {
    if (Date.now() - triggeredAt > 5_000) {
      await temporal.schedule.getHandle(scheduleId).trigger();
      triggeredAt = Date.now();
    }
    const [event] = await devChain.local.publicClient.getContractEvents({
      address: devChain.depositContracts.collector,
      abi: depositCollector.abi,
      eventName: 'Burned',
      fromBlock,
    });
    return event;
  }, "the collector's burn");
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
