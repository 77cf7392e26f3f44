// A CCTP V2 transfer from a DepositCollector to the Solana treasury (docs/settlement.md#cctp-transfers): its stages,
// the ids of its chain intents, and the decisions between them. I/O is in signer/transfers/.
import { createHash } from 'node:crypto';
import type { CctpSourceChain } from './domains';
import { decodeBurnMessageV2, decodeMessageV2 } from './messageV2';
import type { Hex } from 'viem';

/** burning: the row and the burn intent exist; burned: the burn is final on the source chain; attested: the
 * attestation service signed the message; received: the treasury was credited. failed: the burn reverted. */
export type TransferStage = 'burning' | 'burned' | 'attested' | 'received' | 'failed';

export const IN_FLIGHT_STAGES: readonly TransferStage[] = ['burning', 'burned', 'attested'];

export const burnIntentId = (transferId: string) => `burn:${transferId}`;
export const receiveIntentId = (nonce: Hex) => `recv:${nonce.toLowerCase()}`;

/**
 * The transfer a scheduled run starts: derived from the run's workflow id, so a retried start finds the transfer
 * it made before instead of making a second one.
 */
export function transferIdFor(runKey: string): string {
  return `tr_${createHash('sha256').update(`cctp-transfer:${runKey}`).digest('hex').slice(0, 26)}`;
}

/** USDC base units the collector must hold before a transfer starts, unless configured: 100 USDC. */
export const DEFAULT_TRANSFER_MINIMUM = 100_000_000n;

export type TransferStartVerdict = { start: true; amount: bigint } | { start: false; reason: string };

/**
 * Starts a transfer of the whole balance once it reaches the minimum (the caller has made sure none is in flight:
 * a second burn would race the first for the balance). Each burn costs gas and, on Fast, a fee per transfer.
 */
export function judgeTransferStart(input: { chain: CctpSourceChain; collectorBalance: bigint; minimum: bigint }): TransferStartVerdict {
  if (input.collectorBalance < input.minimum || input.collectorBalance === 0n) {
    return {
      start: false,
      reason: `the collector holds ${input.collectorBalance} USDC base units on ${input.chain}, below the minimum of ${input.minimum}`,
    };
  }
  return { start: true, amount: input.collectorBalance };
}

export class TransferMessageError extends Error {
  override name = 'TransferMessageError';
}

export interface AttestedTransfer {
  nonce: Hex;
  /** What the mint credits the recipient: the burned amount less the fee the attestation service executed. */
  credited: bigint;
  expirationBlock: bigint;
}

/**
 * Reads the attested message and refuses one that is not this transfer's burn: another amount, another recipient
 * or more fee than the burn allowed would credit what the ledger does not expect.
 */
export function readAttestedMessage(
  message: Hex,
  expected: { sourceDomain: number; amount: bigint; maxFee: bigint; mintRecipient: Hex },
): AttestedTransfer {
  const header = decodeMessageV2(message);
  const body = decodeBurnMessageV2(header.messageBody);
  if (header.sourceDomain !== expected.sourceDomain)
    throw new TransferMessageError(`the attested message is from domain ${header.sourceDomain}, not ${expected.sourceDomain}`);
  if (body.amount !== expected.amount)
    throw new TransferMessageError(`the attested message burns ${body.amount}, not the transfer's ${expected.amount}`);
  if (body.mintRecipient.toLowerCase() !== expected.mintRecipient.toLowerCase())
    throw new TransferMessageError(`the attested message mints to ${body.mintRecipient}, not the treasury's ${expected.mintRecipient}`);
  if (body.feeExecuted > expected.maxFee)
    throw new TransferMessageError(`the attested fee ${body.feeExecuted} exceeds the burn's maxFee ${expected.maxFee}`);
  return { nonce: header.nonce, credited: body.amount - body.feeExecuted, expirationBlock: body.expirationBlock };
}

/** Solana refuses a message at or past its expirationBlock (0: never expires): such a message is re-attested. */
export function attestationExpired(expirationBlock: bigint, currentSlot: bigint): boolean {
  return expirationBlock !== 0n && expirationBlock <= currentSlot;
}

/**
 * What the receive credited, from its own transaction's token balance deltas when it was ours; when another
 * party's receive used the nonce first (destinationCaller 0 lets anyone), from the message, which fixes the mint.
 */
export function creditedAmount(attested: AttestedTransfer, observedDelta: bigint | undefined): bigint {
  if (observedDelta === undefined) return attested.credited;
  if (observedDelta !== attested.credited)
    throw new TransferMessageError(`the receive credited ${observedDelta}, not the attested ${attested.credited}`);
  return observedDelta;
}
