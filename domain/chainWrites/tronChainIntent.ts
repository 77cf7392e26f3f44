// Write-ahead Tron writes (docs/settlement.md#r1-written-ahead): what a stored, signed Tron transaction's fate is,
// judged from the solidified chain and the latest one, and what the node's answer to a broadcast means. A Tron
// transaction has no nonce: it names a reference block (TAPOS) and an expiration the signer picks, and a txID can be
// in the chain once. Only an expired transaction the solidified chain provably never took may be replaced by a new one.

/** The parts of a node's TransactionInfo (`gettransactioninfobyid`) a verdict needs; absent when the node answers `{}`. */
export interface TronTransactionInfo {
  blockNumber: bigint;
  /** Every sun the transaction burned (energy, bandwidth and other fees); 0 when it was paid from staked resources. */
  fee: bigint;
  /** The TVM's outcome, `receipt.result`: SUCCESS, REVERT, OUT_OF_ENERGY, OUT_OF_TIME, … */
  receiptResult: string | undefined;
  /** `FAILED` when the node marks it failed (the field is left out on success); `resMessage`, decoded. */
  failed: boolean;
  message: string | undefined;
}

export interface TronAttemptObservation {
  /** The transaction's raw_data.expiration. */
  expiration: Date;
  now: Date;
  /** The solidified head block's timestamp, read before `solidified`. */
  solidifiedHeadTimestamp: Date;
  /** What the solidified view (`/walletsolidity/gettransactioninfobyid`) knows, read after its head. */
  solidified: TronTransactionInfo | undefined;
  /** What the latest view (`/wallet/gettransactioninfobyid`) knows. */
  latest: TronTransactionInfo | undefined;
}

export type TronAttemptVerdict =
  /** In a solidified block: final, succeeded or not; the fee is paid either way and this txID can never run again. */
  | { kind: 'final'; blockNumber: bigint; success: boolean; fee: bigint; outcome: string; message?: string }
  /** In a block the solidified chain has not reached: a fork can still drop it. */
  | { kind: 'landed'; blockNumber: bigint; fee: bigint }
  /** Expired, and the solidified chain is past its expiration without it: it can never be in the chain. */
  | { kind: 'dead' }
  /** In no block yet and still able to be: send the same bytes (again) and wait. */
  | { kind: 'unseen' };

/** TVM success: the receipt says SUCCESS and the node does not mark the transaction failed. */
const succeeded = (info: TronTransactionInfo) => info.receiptResult === 'SUCCESS' && !info.failed;

/**
 * A block may hold the transaction only while its parent's timestamp is before the expiration (java-tron refuses
 * `expiration <= head block time`). So once a solidified head is past the expiration, every block that could hold it
 * is solidified, and a solidified view read after that head that does not know the txID proves it never landed: the
 * head is read first for that reason. That proof outranks the latest view, which can only have it on a dropped fork.
 */
export function judgeTronAttempt(observation: TronAttemptObservation): TronAttemptVerdict {
  const { solidified, latest, expiration } = observation;
  if (solidified) {
    return {
      kind: 'final',
      blockNumber: solidified.blockNumber,
      success: succeeded(solidified),
      fee: solidified.fee,
      outcome: solidified.receiptResult ?? (solidified.failed ? 'FAILED' : 'UNKNOWN'),
      ...(solidified.message === undefined ? {} : { message: solidified.message }),
    };
  }
  if (observation.now.getTime() > expiration.getTime() && observation.solidifiedHeadTimestamp.getTime() > expiration.getTime())
    return { kind: 'dead' };
  if (latest) return { kind: 'landed', blockNumber: latest.blockNumber, fee: latest.fee };
  return { kind: 'unseen' };
}

/** A node's `api.Return` to a broadcast: `result` true when taken into its pool, else a `code` and a `message`. */
export interface TronBroadcastAnswer {
  result?: boolean;
  code?: string;
  message?: string;
}

export type TronBroadcastOutcome =
  /** In the node's pool now, or already there or in the chain (DUP_TRANSACTION_ERROR): what sending is for. */
  | { kind: 'accepted' }
  /** Expired, or its reference block unknown to the node: these bytes will not enter its pool; only the solidified chain can prove them dead. */
  | { kind: 'too-late'; code: string }
  /** The node cannot take transactions now (busy, not connected, not synchronised): send again later. */
  | { kind: 'busy'; code: string; message: string }
  /** The node refuses these bytes (signature, balance, bandwidth, contract validation, size): an operator must look. */
  | { kind: 'refused'; code: string; message: string };

const TOO_LATE = new Set(['TRANSACTION_EXPIRATION_ERROR', 'TAPOS_ERROR']);
const BUSY = new Set(['SERVER_BUSY', 'NO_CONNECTION', 'NOT_ENOUGH_EFFECTIVE_CONNECTION', 'BLOCK_UNSOLIDIFIED', 'OTHER_ERROR']);

/** The response codes are java-tron's `api.Return.response_code` (developers.tron.network, "Broadcast and RPC errors"). */
export function classifyTronBroadcast(answer: TronBroadcastAnswer): TronBroadcastOutcome {
  const code = answer.code ?? (answer.result === true ? 'SUCCESS' : 'UNKNOWN');
  const message = answer.message ?? '';
  if (answer.result === true || code === 'SUCCESS' || code === 'DUP_TRANSACTION_ERROR') return { kind: 'accepted' };
  if (TOO_LATE.has(code)) return { kind: 'too-late', code };
  if (BUSY.has(code)) return { kind: 'busy', code, message };
  return { kind: 'refused', code, message };
}

/** The TAPOS fields naming a block: its height's bytes 6..8 and its id's bytes 8..16 (java-tron `setReference`). */
export function tronReferenceBlock(block: { blockId: string; number: bigint }): { refBlockBytes: string; refBlockHash: string } {
  const id = block.blockId.toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(id) || BigInt(`0x${id.slice(0, 16)}`) !== block.number) {
    throw new Error(`block id ${block.blockId} does not start with its height ${block.number}`);
  }
  return { refBlockBytes: id.slice(12, 16), refBlockHash: id.slice(16, 32) };
}

/** java-tron refuses an expiration more than 24 hours past its head block's time. */
export const MAX_TRON_EXPIRATION_MS = 24 * 60 * 60 * 1000;
