// CCTP V2 transfers of USDC from a chain's DepositCollector to the Solana treasury (inventory on its own clock,
// docs/settlement.md#r6-inventory-on-its-own-clock). transferUsdc runs on the schedule transfer_usdc_<chain>_<mode>
// (worker/transferSchedules.ts): it asks the signer to start a transfer when the collector holds enough, and makes
// sure the chain's transfer in flight has its workflow. cctpTransfer (id transfer_<id>) carries one transfer
// through its stages, burned → attested → received; each step is a resumable signer pass (signer/transfers/).
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { ParentClosePolicy, sleep, startChild, workflowInfo } from '@temporalio/workflow';
import type { CctpSourceChain } from '../domain/cctp/domains';
import { transferWorkflowId } from '../domain/cctp/transferWorkflowIds';
import type { Mode } from '../domain/wire/session';
import { transfers } from './sessionActivities';

export interface TransferUsdcInput {
  mode: Mode;
  chain: CctpSourceChain;
}

export type TransferUsdcResult =
  { kind: 'no_route' } | { kind: 'idle'; reason: string } | { kind: 'started' | 'in_flight'; transferId: string };

export interface CctpTransferInput extends TransferUsdcInput {
  transferId: string;
}

export type CctpTransferResult = { kind: 'received'; received: string } | { kind: 'failed'; reason: string } | { kind: 'no_route' };

/** Blocks on the source chain: the burn waits for its confirmations. */
const BURN_POLL = '5 seconds';
/** Fast attestations take seconds, Standard ones 15 minutes or so: a poll every 10 s costs the service nothing. */
const ATTESTATION_POLL = '10 seconds';
/** A submitted receive waits for a few Solana slots. */
const RECEIVE_POLL = '2 seconds';

export async function transferUsdc({ mode, chain }: TransferUsdcInput): Promise<TransferUsdcResult> {
  const answer = await transfers(mode).startCctpTransfer({ mode, chain, runKey: workflowInfo().workflowId });
  if (answer.status === 'no_route') return { kind: 'no_route' };
  if (answer.status === 'idle') return { kind: 'idle', reason: answer.reason };
  try {
    // Abandoned: a transfer outlives the run that started it, and a retried start must find it, not start another.
    await startChild(cctpTransfer, {
      workflowId: transferWorkflowId(answer.transferId),
      args: [{ mode, chain, transferId: answer.transferId }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
  return { kind: answer.status, transferId: answer.transferId };
}

export async function cctpTransfer(input: CctpTransferInput): Promise<CctpTransferResult> {
  const signer = transfers(input.mode);
  for (;;) {
    const burn = await signer.burnCctpTransfer(input);
    if (burn.status === 'no_route') return { kind: 'no_route' };
    if (burn.status === 'failed') return { kind: 'failed', reason: burn.reason };
    if (burn.status === 'burned') break;
    await sleep(BURN_POLL);
  }
  // An expired attestation sends the transfer back to polling, once per re-attestation.
  for (;;) {
    for (;;) {
      const attestation = await signer.pollCctpAttestation(input);
      if (attestation.status === 'no_route') return { kind: 'no_route' };
      if (attestation.status === 'attested') break;
      await sleep(ATTESTATION_POLL);
    }
    for (;;) {
      const receive = await signer.receiveCctpTransfer(input);
      if (receive.status === 'no_route') return { kind: 'no_route' };
      if (receive.status === 'received') return { kind: 'received', received: receive.received };
      if (receive.status === 'reattesting') break;
      await sleep(RECEIVE_POLL);
    }
  }
}
