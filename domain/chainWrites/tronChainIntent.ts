// Write-ahead Tron writes (docs/settlement.md#r1-written-ahead): what a stored, signed Tron transaction's fate is,
// judged from the solidified chain and the latest one, and what the node's answer to a broadcast means. A Tron
// transaction has no nonce: it names a reference block (TAPOS) and an expiration the signer picks, and a txID can be
// in the chain once. Only an expired transaction the solidified chain provably never took may be replaced by a new one,
// and the proof is the solidified blocks themselves, never a node's transaction index or the wall clock
// (docs/settlement.md#never-signed-twice-tron-expiry).

/** The parts of a node's TransactionInfo (`gettransactioninfobyid`) a verdict needs; absent when the node answers `{}`. */
export interface TronTransactionInfo {
  blockNumber: bigint;
  /** Every sun the transaction burned (energy, bandwidth and other fees); 0 when it was paid from staked resources. */
  fee: bigint;
  /**
   * `receipt.energy_usage_total`, what of it the sender's (and the contract owner's) staked or delegated energy paid
   * (`energy_usage` + `origin_energy_usage`), and the sun burned for the rest (`energy_fee`, part of `fee`).
   */
  energy: { total: bigint; fromResources: bigint; burnedSun: bigint };
  /** `receipt.net_fee`: sun burned for bandwidth the sender did not hold, part of `fee`. */
  bandwidthBurnedSun: bigint;
  /** The TVM's outcome, `receipt.result`: SUCCESS, REVERT, OUT_OF_ENERGY, OUT_OF_TIME, … */
  receiptResult: string | undefined;
  /** `FAILED` when the node marks it failed (the field is left out on success); `resMessage`, decoded. */
  failed: boolean;
  message: string | undefined;
}

export interface TronAttemptObservation {
  /** The transaction's raw_data.expiration. */
  expiration: Date;
  /** The solidified head block's timestamp, read before `solidified`: the node's own clock, never this process's. */
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
  /**
   * The solidified head is past its expiration and the node's index does not know it: dead if the solidified blocks
   * that could hold it show it is not there (judgeTronExpiry); a node without that history says the same of a landed one.
   */
  | { kind: 'expired-unseen' }
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
  if (observation.solidifiedHeadTimestamp.getTime() > expiration.getTime()) return { kind: 'expired-unseen' };
  if (latest) return { kind: 'landed', blockNumber: latest.blockNumber, fee: latest.fee };
  return { kind: 'unseen' };
}

/** A solidified block as the node serves it, with the txIDs it holds. */
export interface TronBlock {
  number: bigint;
  blockId: string;
  parentId: string;
  timestamp: Date;
  txIds: readonly string[];
}

export type TronExpiryVerdict =
  /** No block that could hold it does: it can never be in the chain, and a new transaction may be signed. */
  | { kind: 'dead' }
  /** One of the intent's txIDs is in a solidified block the node's index does not know: the node lacks history. */
  | { kind: 'in-block'; txId: string; blockNumber: bigint }
  /** The blocks read do not settle it: sign nothing new, and say why. */
  | { kind: 'unproven'; reason: string };

/**
 * Whether an expired transaction is proven never to have landed, from the solidified blocks read from its reference
 * block on. A block can hold it only if it comes after its reference block and its parent's time is before the
 * expiration (java-tron refuses `expiration <= head block time` when it applies a block). So the blocks from the
 * reference block up to the first one whose time is at or past the expiration are every block that could hold it:
 * when they are read unbroken (each the next number, naming the one before as its parent) and none holds any txID
 * ever signed for the intent, none ever landed. A node that lags, or one that keeps no old blocks, serves fewer
 * blocks and proves nothing; a node whose transaction index lacks the txID still serves it in its block.
 */
export function judgeTronExpiry(input: {
  txIds: readonly string[];
  expiration: Date;
  reference: { refBlockBytes: string; refBlockHash: string };
  /** The reference block first, then the ones after it in order. */
  blocks: readonly TronBlock[];
}): TronExpiryVerdict {
  const [reference, ...after] = input.blocks;
  const { refBlockBytes, refBlockHash } = input.reference;
  if (!reference || reference.blockId.slice(12, 16) !== refBlockBytes || reference.blockId.slice(16, 32) !== refBlockHash)
    return { kind: 'unproven', reason: 'the node did not serve the reference block' };
  const ours = new Set(input.txIds.map((txId) => txId.toLowerCase()));
  let previous = reference;
  for (const block of after) {
    if (block.number !== previous.number + 1n || block.parentId.toLowerCase() !== previous.blockId.toLowerCase())
      return { kind: 'unproven', reason: `the node's solidified blocks break after block ${previous.number}` };
    const found = block.txIds.find((txId) => ours.has(txId.toLowerCase()));
    if (found !== undefined) return { kind: 'in-block', txId: found.toLowerCase(), blockNumber: block.number };
    if (block.timestamp.getTime() >= input.expiration.getTime()) return { kind: 'dead' };
    previous = block;
  }
  return { kind: 'unproven', reason: `the node's solidified blocks do not reach past the expiration (read to block ${previous.number})` };
}

/** The TAPOS fields of a signed Transaction's bytes (Tron.proto: Transaction.raw_data 1; raw.ref_block_bytes 1, ref_block_hash 4). */
export function tronReferenceOf(transactionHex: string): { refBlockBytes: string; refBlockHash: string } {
  const raw = protobufFields(Buffer.from(transactionHex, 'hex')).get(1);
  const fields = raw && protobufFields(raw);
  const [bytes, hash] = [fields?.get(1), fields?.get(4)];
  if (bytes?.length !== 2 || hash?.length !== 8) throw new Error('the transaction carries no TAPOS reference');
  return { refBlockBytes: bytes.toString('hex'), refBlockHash: hash.toString('hex') };
}

/** The length-delimited fields of one protobuf message, by field number (the first of each); others are skipped. */
function protobufFields(message: Buffer): Map<number, Buffer> {
  const fields = new Map<number, Buffer>();
  let at = 0;
  const varint = (): bigint => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      const byte = message[at++];
      if (byte === undefined) throw new Error('a protobuf message ends inside a varint');
      value |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value;
    }
  };
  while (at < message.length) {
    const tag = varint();
    const [field, wireType] = [Number(tag >> 3n), Number(tag & 7n)];
    if (wireType === 0) varint();
    else if (wireType === 1) at += 8;
    else if (wireType === 5) at += 4;
    else if (wireType === 2) {
      const length = Number(varint());
      if (at + length > message.length) throw new Error('a protobuf field runs past its message');
      if (!fields.has(field)) fields.set(field, message.subarray(at, at + length));
      at += length;
    } else throw new Error(`protobuf wire type ${wireType} is not expected here`);
  }
  return fields;
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
