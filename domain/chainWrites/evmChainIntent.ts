// Write-ahead EVM writes (docs/settlement.md#r1-written-ahead): what a stored, signed EVM transaction's fate is,
// judged from the sender's mined nonce and the receipts of every hash signed for the intent, and what fees a
// replacement offers. An EVM transaction never expires: a stuck one is replaced by the same call with the same nonce
// and higher fees, and either may still be mined, so every hash is watched until one is final. Only a nonce that
// another transaction took proves them all dead, and only two providers showing that transaction prove it
// (docs/settlement.md#never-signed-twice-evm-nonces).

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
  /** This node counts the sender's nonce past ours and knows none of our hashes: another took it, or the node lacks them. */
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
  // block the receipt reads could see, so a node with its whole history that finds none of ours says another took
  // it. A node without that history, or a pool member behind the one that counted, says the same of ours:
  // judgeNonceTaken decides whether that may be believed.
  if (observation.minedNonceCount > observation.nonce) return { kind: 'nonce-taken' };
  if (observation.waitedMs >= observation.stuckAfterMs) return { kind: 'stuck' };
  return { kind: 'pending' };
}

/** What one provider shows of an intent's nonce once a node said it was taken, each read after the one before. */
export interface NonceTakenRead {
  /** Which RPC URL answered: a proof needs two different ones. */
  provider: string;
  /** The sender's mined transactions, at `latest`. */
  minedNonceCount: bigint;
  /** Whether it has a receipt for any hash ever signed for the intent. */
  knowsOurs: boolean;
  /** Its newest block number, read after the receipts. */
  head: bigint;
  /**
   * The first block at whose end its count of the sender is past the nonce, and the hash of the sender's transaction
   * with that nonce in that block (undefined when the block holds none); absent when it could not show that block.
   */
  consumedIn?: { blockNumber: bigint; hash: string | undefined };
}

export type NonceTakenVerdict =
  /** Two providers show another transaction with this nonce in the same block: none of ours can ever be mined. */
  | { kind: 'taken'; hash: string; blockNumber: bigint }
  /** Not proven: sign nothing new, keep watching every hash, and say why. */
  | { kind: 'unproven'; reason: string };

/**
 * Whether a nonce a node counted past is proven taken by a transaction that is none of ours, so the call may be
 * signed again with a new nonce. One node's word is not enough: a node without our transaction in its history, or a
 * pool member behind the one that counted, finds no receipt for a transaction that is mined, and a new nonce would
 * make the call land twice. So each of two providers must count the nonce used, know none of our hashes with its
 * head at or past the block that used it, and show that block holding the sender's transaction with that nonce under
 * a hash that is not ours; and both must name the same transaction in the same block.
 */
export function judgeNonceTaken(input: { nonce: bigint; hashes: readonly string[]; reads: readonly NonceTakenRead[] }): NonceTakenVerdict {
  const ours = new Set(input.hashes.map((hash) => hash.toLowerCase()));
  const shown: { hash: string; blockNumber: bigint }[] = [];
  for (const read of input.reads) {
    const { provider, consumedIn } = read;
    if (read.knowsOurs) return { kind: 'unproven', reason: `${provider} has a receipt for one of the intent's transactions` };
    if (read.minedNonceCount <= input.nonce)
      return { kind: 'unproven', reason: `${provider} does not count nonce ${input.nonce} used yet` };
    if (!consumedIn) return { kind: 'unproven', reason: `${provider} cannot show the block that used nonce ${input.nonce}` };
    const { blockNumber, hash } = consumedIn;
    if (hash === undefined)
      return {
        kind: 'unproven',
        reason: `${provider}'s block ${blockNumber} holds no transaction of the sender with nonce ${input.nonce}`,
      };
    if (ours.has(hash.toLowerCase()))
      return {
        kind: 'unproven',
        reason: `${provider} shows the intent's ${hash} in block ${blockNumber} but no receipt for it: it lacks that history`,
      };
    if (read.head < blockNumber)
      return { kind: 'unproven', reason: `${provider} answered from block ${read.head}, before block ${blockNumber}` };
    shown.push({ hash: hash.toLowerCase(), blockNumber });
  }
  if (new Set(input.reads.map((read) => read.provider)).size < 2)
    return {
      kind: 'unproven',
      reason: `nonce ${input.nonce} was used by another transaction on one provider's word; a new nonce needs a second RPC URL to show it too`,
    };
  const [first] = shown as [{ hash: string; blockNumber: bigint }];
  if (shown.some((seen) => seen.hash !== first.hash || seen.blockNumber !== first.blockNumber))
    return { kind: 'unproven', reason: `the providers disagree on the transaction that used nonce ${input.nonce}` };
  return { kind: 'taken', hash: first.hash, blockNumber: first.blockNumber };
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
