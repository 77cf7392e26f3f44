// A CCTP V2 transfer from a DepositCollector to the Solana treasury (docs/settlement.md#cctp-transfers): its stages,
// the ids of its chain intents, and the decisions between them. I/O is in signer/transfers/.
import { createHash } from 'node:crypto';
import { SOLANA_CCTP_DOMAIN, type CctpSourceChain } from './domains';
import { finalityThreshold, type CctpSpeed } from './finality';
import { addressToBytes32, decodeBurnMessageV2, decodeMessageV2, EMPTY_BYTES32 } from './messageV2';
import type { Address, Hex } from 'viem';

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

/** A field of the attested message that is not what this transfer's burn wrote. */
export type AttestedField =
  | 'sourceDomain'
  | 'destinationDomain'
  | 'destinationCaller'
  | 'minFinalityThreshold'
  | 'burnToken'
  | 'messageSender'
  | 'mintRecipient'
  | 'amount'
  | 'maxFee'
  | 'feeExecuted';

export class AttestedFieldError extends TransferMessageError {
  override name = 'AttestedFieldError';
  constructor(
    readonly field: AttestedField,
    message: string,
  ) {
    super(`the attested message's ${field} ${message}`);
  }
}

export interface AttestedTransfer {
  nonce: Hex;
  /** What the mint credits the recipient: the burned amount less the fee the attestation service executed. */
  credited: bigint;
  expirationBlock: bigint;
}

/** What the transfer's row and the route's configuration say its burn wrote. */
export interface ExpectedBurn {
  sourceDomain: number;
  /** The source chain's USDC: the only token the collector burns. */
  burnToken: Address;
  /** The DepositCollector, which calls depositForBurn. */
  messageSender: Address;
  /** The treasury's USDC token account, as bytes32. */
  mintRecipient: Hex;
  amount: bigint;
  maxFee: bigint;
  speed: CctpSpeed;
}

/**
 * Reads the attested message and refuses one that is not this transfer's burn, field by field: the attestation
 * service signs whatever message it is shown, so a wrong or compromised one could hand over another burn's message
 * (another chain, token, depositor or amount) or one with more fee than ours allowed, and the ledger would record a
 * credit that is not this transfer's.
 */
export function readAttestedMessage(message: Hex, expected: ExpectedBurn): AttestedTransfer {
  const header = decodeMessageV2(message);
  const body = decodeBurnMessageV2(header.messageBody);
  const same = (field: AttestedField, actual: string | number | bigint, wanted: string | number | bigint) => {
    const norm = (v: string | number | bigint) => (typeof v === 'string' ? v.toLowerCase() : v);
    if (norm(actual) !== norm(wanted)) throw new AttestedFieldError(field, `is ${actual}, not ${wanted}`);
  };
  same('sourceDomain', header.sourceDomain, expected.sourceDomain);
  same('destinationDomain', header.destinationDomain, SOLANA_CCTP_DOMAIN);
  // The collector burns with destinationCaller 0 (anyone may complete the mint).
  same('destinationCaller', header.destinationCaller, EMPTY_BYTES32);
  same('minFinalityThreshold', header.minFinalityThreshold, finalityThreshold(expected.speed));
  same('burnToken', body.burnToken, addressToBytes32(expected.burnToken));
  same('messageSender', body.messageSender, addressToBytes32(expected.messageSender));
  same('mintRecipient', body.mintRecipient, expected.mintRecipient);
  same('amount', body.amount, expected.amount);
  same('maxFee', body.maxFee, expected.maxFee);
  if (body.feeExecuted > expected.maxFee)
    throw new AttestedFieldError('feeExecuted', `${body.feeExecuted} exceeds the burn's maxFee ${expected.maxFee}`);
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
