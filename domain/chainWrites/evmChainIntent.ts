// Write-ahead EVM writes (docs/settlement.md#r1-written-ahead): what a stored, signed EVM transaction's fate is,
// judged from the sender's mined nonce and the receipts of every hash signed for the intent, and what fees a
// replacement offers. An EVM transaction never expires: a stuck one is replaced by the same call with the same nonce
// and higher fees, and either may still be mined, so every hash is watched until one is final. Only a nonce that
// another transaction took proves them all dead.

/** What a node says of the intent's hashes and its sender, read in this order: mined nonce count first. */
export interface EvmAttemptObservation {
  /** The nonce every current and superseded hash of this intent was signed with. */
  nonce: bigint;
  /** How many of the sender's transactions are mined (eth_getTransactionCount at `latest`), read before the receipts. */
  minedNonceCount: bigint;
  /** The receipt of whichever of the intent's hashes is mined; all share the nonce, so at most one is. */
  mined?: { hash: string; blockNumber: bigint; success: boolean };
  /** The newest block number, read after the receipts. */
  head: bigint;
  /** Blocks (the transaction's own included) after which the chain counts a transaction final. */
  requiredConfirmations: number;
  /** How long the current signature has waited since it was signed, and how long it may before a replacement. */
  waitedMs: number;
  stuckAfterMs: number;
}

export type EvmAttemptVerdict =
  /** Mined and as deep as the chain's confirmations: final, whether it succeeded or reverted (the fee is paid). */
  | { kind: 'final'; hash: string; blockNumber: bigint; success: boolean }
  /** Mined, not deep enough yet: a reorganisation can still undo it. */
  | { kind: 'mined'; hash: string; blockNumber: bigint }
  /** The sender's nonce is past ours and none of our hashes is mined: another transaction took it. */
  | { kind: 'nonce-taken' }
  /** Not mined after stuckAfterMs: sign a replacement with the same nonce and higher fees. */
  | { kind: 'stuck' }
  /** Not mined yet: send the same bytes (again) and wait. */
  | { kind: 'pending' };

export function judgeEvmAttempt(observation: EvmAttemptObservation): EvmAttemptVerdict {
  const { mined } = observation;
  if (mined) {
    const depth = observation.head >= mined.blockNumber ? observation.head - mined.blockNumber + 1n : 0n;
    if (depth >= BigInt(observation.requiredConfirmations))
      return { kind: 'final', hash: mined.hash, blockNumber: mined.blockNumber, success: mined.success };
    return { kind: 'mined', hash: mined.hash, blockNumber: mined.blockNumber };
  }
  // The count was read before the receipts: once it is past our nonce, that nonce's transaction was already in a
  // block the receipt reads could see, so finding none of ours proves another took it.
  if (observation.minedNonceCount > observation.nonce) return { kind: 'nonce-taken' };
  if (observation.waitedMs >= observation.stuckAfterMs) return { kind: 'stuck' };
  return { kind: 'pending' };
}

/** EIP-1559 fees, wei per gas. */
export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** Nodes (geth, erigon, Hardhat) accept a same-nonce replacement only when both fees rise by at least 10 %. */
export const MIN_REPLACEMENT_BUMP_PERCENT = 10;

const raise = (value: bigint, percent: number) => (value * BigInt(100 + percent) + 99n) / 100n;

/**
 * The fees a replacement offers: the stuck transaction's raised by `bumpPercent`, or today's estimate where that is
 * higher; undefined when that would pass the operator's ceiling, so the transaction waits instead of overpaying.
 */
export function replacementFees(stuck: Fees, estimate: Fees, options: { bumpPercent: number; maxFeePerGasCap: bigint }): Fees | undefined {
  if (options.bumpPercent < MIN_REPLACEMENT_BUMP_PERCENT)
    throw new RangeError(`a replacement must raise fees by at least ${MIN_REPLACEMENT_BUMP_PERCENT} %`);
  const maxPriorityFeePerGas = max(raise(stuck.maxPriorityFeePerGas, options.bumpPercent), estimate.maxPriorityFeePerGas);
  const maxFeePerGas = max(raise(stuck.maxFeePerGas, options.bumpPercent), estimate.maxFeePerGas, maxPriorityFeePerGas);
  return maxFeePerGas > options.maxFeePerGasCap ? undefined : { maxFeePerGas, maxPriorityFeePerGas };
}

/** The fees a first signature offers: today's estimate, unless it passes the ceiling (then nothing is signed). */
export function initialFees(estimate: Fees, maxFeePerGasCap: bigint): Fees | undefined {
  return estimate.maxFeePerGas > maxFeePerGasCap ? undefined : estimate;
}

/** Gas estimates are for the state the node sees now; a sweep's clone deployments make the real cost vary a little. */
const GAS_MARGIN_PERCENT = 20n;

/** The gas limit a transaction is signed with, from the node's estimate: what a sender must be able to pay for. */
export const gasLimitFor = (estimate: bigint): bigint => (estimate * (100n + GAS_MARGIN_PERCENT)) / 100n;

/** The nonce to sign with: past every nonce this service handed out and every one the chain has mined. */
export const nextNonce = (stored: bigint | undefined, minedNonceCount: bigint): bigint => max(stored ?? 0n, minedNonceCount);

function max(first: bigint, ...rest: bigint[]): bigint {
  return rest.reduce((a, b) => (b > a ? b : a), first);
}
