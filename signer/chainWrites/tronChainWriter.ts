// Write-ahead Tron transactions from the relayer (docs/settlement.md#r1-written-ahead; the Tron sweep's foundation).
// An intent row fixes the call first; signing builds raw_data here from the solidified head (reference block,
// expiration), signs its txID with the relayer's key in this process, and stores the signed Transaction's bytes, txID
// and expiration before anything is sent. Every broadcast sends those stored bytes, so a process killed at any point
// resumes from the row and the chain sees one transaction. A new one is signed only once the old one is proven dead
// by the solidified blocks that could hold it (domain/chainWrites/tronChainIntent.ts,
// docs/settlement.md#never-signed-twice-tron-expiry), its txID kept and looked up again on every pass.
//
// raw_data is built locally rather than taken from /wallet/triggersmartcontract: a node-built transaction is whatever
// the node says, and signing it would mean checking every field against the call; built here, the node only supplies
// a reference block, and a wrong one makes the transaction invalid, never different. TronWeb's protobuf encoding
// (the one TronWeb signs with) turns it into bytes; TronWeb's HTTP layer is not used: the calls, their deadlines and
// their errors are ours (tronWalletApi.ts).
//
// A write is a contract call (TriggerSmartContract) or a TRX payment (TransferContract, an HD deposit address's
// top-up). Both are one Transaction.raw with one Contract; the layout is java-tron's protocol/src/main/protos:
// core/Tron.proto (Transaction.raw: ref_block_bytes 1, ref_block_hash 4, expiration 8, contract 11, timestamp 14,
// fee_limit 18; Contract.type TransferContract = 1, TriggerSmartContract = 31, its parameter a google.protobuf.Any)
// and core/contract/balance_contract.proto (TransferContract: owner_address 1, to_address 2, amount 3 in sun). A
// payment burns no energy, so it carries no fee_limit; its bandwidth is paid from the sender's free allowance or TRX.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { utils as tronUtils } from 'tronweb';
import type { Queryable, Sql } from '../../db/client';
import {
  findChainIntent,
  insertTronChainIntent,
  recordBroadcast,
  recordTronDead,
  recordTronLanded,
  recordTronSigned,
  recordTronUnlanded,
  isTronTransfer,
  type ChainIntent,
  type TronCall,
  type TronTransfer,
  type TronWrite,
} from '../../db/repositories/chainIntents';
import { tronAddressToHex } from '../../domain/addresses/tron';
import {
  classifyTronBroadcast,
  judgeTronAttempt,
  judgeTronExpiry,
  MAX_TRON_EXPIRATION_MS,
  tronReferenceBlock,
  tronReferenceOf,
  type TronAttemptVerdict,
  type TronBlock,
} from '../../domain/chainWrites/tronChainIntent';
import type { Mode } from '../../domain/wire/session';
import type { TronRelayer } from './tronRelayer';
import { TronApiError, type TronWalletApi } from '../../activities/http/tronWalletApi';

export interface TronChainWriterDeps {
  sql: Sql;
  api: TronWalletApi;
  relayer: TronRelayer;
  mode: Mode;
  /** How long past the solidified head's time a signed transaction may still enter a block. */
  expirationMs: number;
}

export interface TronWriteProgress {
  intent: ChainIntent;
  /** Why an expired transaction the node cannot find was not replaced this pass. */
  deferred?: string;
}

/** java-tron's most blocks per getblockbylimitnext. */
const BLOCKS_PER_CALL = 100n;
/** A reference block is named by its height's low 16 bits: how many 65536-block periods back it is looked for. */
const REFERENCE_PERIODS = 8;

/** The bytes a signature covers and what identifies them. */
interface BuiltTransaction {
  transactionHex: string;
  txId: string;
  expiration: number;
}

/** The Transaction protobuf TronWeb's encoder returns; only what is used here. */
interface TransactionMessage {
  addSignature(signature: Uint8Array): void;
  serializeBinary(): Uint8Array;
  getRawData(): { serializeBinary(): Uint8Array };
}

const TRIGGER_SMART_CONTRACT = 'TriggerSmartContract';
const TRANSFER_CONTRACT = 'TransferContract';

const wholeSun = (name: string, value: string) => {
  if (!/^[0-9]+$/.test(value) || BigInt(value) > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`${name} is not a whole number of sun`);
};

function validTransfer(transfer: TronTransfer): TronTransfer {
  tronAddressToHex(transfer.to);
  wholeSun('amount', transfer.amount);
  if (BigInt(transfer.amount) === 0n) throw new Error('a TRX payment sends more than 0 sun');
  return transfer;
}

function validWrite(write: TronWrite): TronWrite {
  return isTronTransfer(write) ? validTransfer(write) : validCall(write);
}

function validCall(call: TronCall): TronCall {
  tronAddressToHex(call.contract);
  if (!/^[A-Za-z_$][\w$]*\(.*\)$/.test(call.functionSelector))
    throw new Error(`not a function signature: ${JSON.stringify(call.functionSelector)}`);
  if (!/^([0-9a-fA-F]{2})*$/.test(call.parameter)) throw new Error('the parameter is not hex bytes without 0x');
  for (const [name, value] of [
    ['feeLimit', call.feeLimit],
    ['callValue', call.callValue],
  ] as const)
    wholeSun(name, value);
  if (BigInt(call.feeLimit) === 0n) throw new Error('feeLimit must be above 0');
  return call;
}

export function createTronChainWriter(deps: TronChainWriterDeps) {
  const { sql, api, relayer } = deps;
  if (deps.expirationMs <= 0 || deps.expirationMs > MAX_TRON_EXPIRATION_MS)
    throw new RangeError('expirationMs must be above 0 and at most 24 hours');

  async function load(sqlOrTx: Queryable, id: string, options: { lock?: boolean } = {}): Promise<ChainIntent> {
    const intent = await findChainIntent(sqlOrTx, id, options);
    if (!intent) throw new Error(`no chain intent ${id}`);
    return intent;
  }

  /** Records what the intent will call; a second prepare of the same id keeps the first call. */
  async function prepare(id: string, write: TronWrite): Promise<ChainIntent> {
    await insertTronChainIntent(sql, { id, mode: deps.mode, sender: relayer.address, call: validWrite(write) });
    const intent = await load(sql, id);
    if (intent.chain !== 'tron' || intent.sender !== relayer.address) {
      throw new Error(
        `chain intent ${id} belongs to ${intent.sender ?? 'another signer'} on ${intent.chain}, not ${relayer.address} on tron`,
      );
    }
    return intent;
  }

  /** The Contract of raw_data and the fee_limit it needs (none for a payment), as TronWeb's encoder takes them. */
  function contractOf(write: TronWrite): {
    contract: { parameter: { value: Record<string, unknown>; type_url: string }; type: string };
    feeLimit?: number;
  } {
    const contract = (type: string, value: Record<string, unknown>) => ({
      parameter: { value, type_url: `type.googleapis.com/protocol.${type}` },
      type,
    });
    if (isTronTransfer(write)) {
      return {
        contract: contract(TRANSFER_CONTRACT, {
          owner_address: relayer.hexAddress,
          to_address: tronAddressToHex(write.to),
          amount: Number(write.amount),
        }),
      };
    }
    const data = bytesToHex(keccak_256(new TextEncoder().encode(write.functionSelector)).subarray(0, 4)) + write.parameter.toLowerCase();
    const value: Record<string, unknown> = { owner_address: relayer.hexAddress, contract_address: tronAddressToHex(write.contract), data };
    if (BigInt(write.callValue) > 0n) value.call_value = Number(write.callValue);
    return { contract: contract(TRIGGER_SMART_CONTRACT, value), feeLimit: Number(write.feeLimit) };
  }

  function build(write: TronWrite, head: { blockId: string; number: bigint; timestamp: Date }): BuiltTransaction {
    const { refBlockBytes, refBlockHash } = tronReferenceBlock(head);
    const expiration = head.timestamp.getTime() + deps.expirationMs;
    const { contract, feeLimit } = contractOf(write);
    const json = {
      visible: false,
      raw_data: {
        contract: [contract],
        ref_block_bytes: refBlockBytes,
        ref_block_hash: refBlockHash,
        expiration,
        // The signing time: two intents with the same call signed against one head still get different txIDs.
        timestamp: Date.now(),
        ...(feeLimit === undefined ? {} : { fee_limit: feeLimit }),
      },
    };
    const message = tronUtils.transaction.txJsonToPb(json) as TransactionMessage;
    const txId = bytesToHex(sha256(message.getRawData().serializeBinary()));
    message.addSignature(hexToBytes(relayer.signTxId(txId)));
    return { transactionHex: bytesToHex(message.serializeBinary()), txId, expiration };
  }

  /** Signs a prepared intent against the solidified head; any other intent is returned as it is. */
  async function sign(id: string): Promise<TronWriteProgress> {
    return sql.begin(async (tx): Promise<TronWriteProgress> => {
      const intent = await load(tx, id, { lock: true });
      if (intent.status !== 'prepared' || !intent.tronCall) return { intent };
      // A solidified reference block cannot be forked away, so TAPOS never invalidates the transaction by itself.
      const built = build(intent.tronCall, await api.solidifiedHead());
      await recordTronSigned(tx, id, { transactionHex: built.transactionHex, txId: built.txId, expiresAt: new Date(built.expiration) });
      return { intent: await load(tx, id) };
    });
  }

  /**
   * Sends the stored bytes. A duplicate means the node has them already, which is what sending is for; expired or an
   * unknown reference block means these bytes will not enter the pool, which observe() turns into a new transaction
   * once the solidified chain proves it. A refusal is an error for an operator; the row keeps the same bytes.
   */
  async function broadcast(id: string): Promise<ChainIntent> {
    const intent = await load(sql, id);
    if ((intent.status !== 'signed' && intent.status !== 'broadcast') || !intent.wireTransaction || !intent.signature) return intent;
    const outcome = classifyTronBroadcast(await api.broadcastHex(intent.wireTransaction));
    switch (outcome.kind) {
      case 'accepted':
        await recordBroadcast(sql, id, intent.signature);
        return load(sql, id);
      case 'too-late':
        return intent;
      case 'busy':
        throw new TronApiError('unavailable', '/wallet/broadcasthex', `${outcome.code}: ${outcome.message}`);
      case 'refused':
        throw new TronApiError('refused', '/wallet/broadcasthex', `${outcome.code}: ${outcome.message}`);
    }
  }

  /** The first of `txIds` the view knows, with what it knows. */
  async function firstKnown(view: 'latest' | 'solidified', txIds: readonly string[]) {
    for (const txId of txIds) {
      const info = await api.transactionInfo(view, txId);
      if (info) return { txId, info };
    }
    return undefined;
  }

  /**
   * The solidified blocks that could hold a transaction naming `reference`: that block (looked for by its height's
   * low 16 bits and its id) and those after it, up to the first whose time is at or past `expiration` or the head.
   * Whatever the node does not serve is left out, for judgeTronExpiry to find missing.
   */
  async function blocksThatCouldHold(
    reference: { refBlockBytes: string; refBlockHash: string },
    expiration: Date,
    head: bigint,
  ): Promise<TronBlock[]> {
    let at = head - ((((head - BigInt(`0x${reference.refBlockBytes}`)) % 65536n) + 65536n) % 65536n);
    let first: TronBlock | undefined;
    for (let period = 0; period < REFERENCE_PERIODS && at >= 0n && !first; period++, at -= 65536n) {
      const [block] = await api.solidifiedBlocks(at, at + 1n);
      if (block?.blockId.slice(16, 32) === reference.refBlockHash) first = block;
    }
    if (!first) return [];
    const blocks = [first];
    for (let next = first.number + 1n; next <= head;) {
      const end = next + BLOCKS_PER_CALL > head + 1n ? head + 1n : next + BLOCKS_PER_CALL;
      const page = await api.solidifiedBlocks(next, end);
      blocks.push(...page);
      if (page.length < Number(end - next) || page.some((block) => block.timestamp.getTime() >= expiration.getTime())) break;
      next = end;
    }
    return blocks;
  }

  /** Asks the solidified and latest views about every txID signed for the intent and records what they prove. */
  async function observe(id: string): Promise<{ intent: ChainIntent; verdict?: TronAttemptVerdict; held?: string }> {
    const intent = await load(sql, id);
    const { signature, expiresAt } = intent;
    if (
      !['signed', 'broadcast', 'confirmed'].includes(intent.status) ||
      signature === null ||
      expiresAt === null ||
      !intent.wireTransaction
    )
      return { intent };
    // Every txID ever signed for the intent on every pass: if one set aside is in the chain after all, it is the one followed.
    const txIds = [signature, ...intent.supersededSignatures];
    // The solidified head before the solidified lookups (judgeTronAttempt says why).
    const head = await api.solidifiedHead();
    const solidified = await firstKnown('solidified', txIds);
    const latest = solidified ? undefined : await firstKnown('latest', txIds);
    const txId = (solidified ?? latest)?.txId ?? signature;
    const verdict = judgeTronAttempt({
      expiration: expiresAt,
      solidifiedHeadTimestamp: head.timestamp,
      solidified: solidified?.info,
      latest: latest?.info,
    });
    let held: string | undefined;
    if (verdict.kind === 'expired-unseen') {
      const reference = tronReferenceOf(intent.wireTransaction);
      const blocks = await blocksThatCouldHold(reference, expiresAt, head.number);
      const proof = judgeTronExpiry({ txIds, expiration: expiresAt, reference, blocks });
      if (proof.kind === 'in-block')
        held = `${proof.txId} is in solidified block ${proof.blockNumber} but the node's index does not know it: it lacks that history`;
      else if (proof.kind === 'unproven') held = `expired, but not proven never landed: ${proof.reason}`;
    }
    if (held !== undefined) {
      if (intent.status === 'confirmed') await recordTronUnlanded(sql, id);
      return { intent: await load(sql, id), verdict, held };
    }
    switch (verdict.kind) {
      case 'final':
        await recordTronLanded(sql, id, txId, {
          blockNumber: verdict.blockNumber,
          feePaid: verdict.fee,
          ...(verdict.success
            ? { status: 'finalized' }
            : {
                status: 'failed',
                error: { result: verdict.outcome, ...(verdict.message === undefined ? {} : { message: verdict.message }) },
              }),
        });
        break;
      case 'landed':
        await recordTronLanded(sql, id, txId, { status: 'confirmed', blockNumber: verdict.blockNumber, feePaid: verdict.fee });
        break;
      case 'expired-unseen':
        await recordTronDead(sql, id, signature);
        break;
      case 'unseen':
        if (intent.status === 'confirmed') await recordTronUnlanded(sql, id);
        break;
    }
    return { intent: await load(sql, id), verdict };
  }

  /**
   * One resumable pass: learn what the chain knows, sign when nothing signed can still land, send the stored bytes
   * while they are unseen. Call again until the intent is finalized or failed.
   */
  async function advance(id: string): Promise<TronWriteProgress> {
    const { intent, verdict, held } = await observe(id);
    if (held !== undefined) return { intent, deferred: held };
    if (intent.status === 'prepared') {
      await sign(id);
      return { intent: await broadcast(id) };
    }
    if (verdict?.kind === 'unseen') return { intent: await broadcast(id) };
    return { intent };
  }

  return { prepare, sign, broadcast, observe, advance };
}

export type TronChainWriter = ReturnType<typeof createTronChainWriter>;
