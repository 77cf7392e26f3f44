// chain_intents: the write-ahead record of every transaction the service signs (db/migrations/0001_baseline.sql). Each change
// names the state it expects, so two processes working on one intent cannot both move it.
import type { ChainIntentStatus } from '../../domain/chainWrites/solanaChainIntent';
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';

/** What an EVM intent's every signature calls (db/migrations/0001_baseline.sql). */
export interface EvmCall {
  to: string;
  data: string;
  /** Wei, as a decimal string. */
  value: string;
}

/** What a Tron intent's every signature calls (db/migrations/0001_baseline.sql): a TriggerSmartContract, as the HTTP API names its fields. */
export interface TronCall {
  /** The contract, base58 `T…`. */
  contract: string;
  /** e.g. `sweepMany(bytes32[],address)`: its keccak-256's first four bytes start the call data. */
  functionSelector: string;
  /** The ABI-encoded arguments, hex without 0x (empty for none). */
  parameter: string;
  /** Most sun the transaction may burn for energy, and the sun it sends along, as decimal strings. */
  feeLimit: string;
  callValue: string;
}

/** A TRX payment (TransferContract): what an HD deposit address's top-up is. `kind` tells it from a call. */
export interface TronTransfer {
  kind: 'transfer';
  /** The payee, base58 `T…`. */
  to: string;
  /** Sun, as a decimal string. */
  amount: string;
}

/** What a Tron intent's every signature sends: a contract call or a TRX payment. */
export type TronWrite = TronCall | TronTransfer;

export const isTronTransfer = (write: TronWrite): write is TronTransfer => 'kind' in write && write.kind === 'transfer';

export interface ChainIntent {
  id: string;
  chain: string;
  status: ChainIntentStatus;
  /** The exact bytes every broadcast sends: base64 on Solana, 0x-hex on EVM (the newest signed). */
  wireTransaction: string | null;
  /** Solana's signature, or an EVM transaction hash. */
  signature: string | null;
  lastValidBlockHeight: bigint | null;
  /** Solana, signed against a durable nonce instead of a blockhash: the nonce account and the nonce it held. */
  nonceAccount: string | null;
  nonceValue: string | null;
  supersededSignatures: string[];
  slot: bigint | null;
  error: unknown;
  signedAt: Date | null;
  /** EVM only: the network, the relayer that signs, the nonce of the current signature, the call, the block it is in. */
  mode: Mode | null;
  sender: string | null;
  nonce: bigint | null;
  call: EvmCall | null;
  blockNumber: bigint | null;
  /** Tron only: the call, the current signature's expiration, and the sun the landed transaction burned. */
  tronCall: TronWrite | null;
  expiresAt: Date | null;
  feePaid: bigint | null;
}

interface ChainIntentRow {
  id: string;
  chain: string;
  status: ChainIntentStatus;
  wire_transaction: string | null;
  signature: string | null;
  last_valid_block_height: bigint | null;
  nonce_account: string | null;
  nonce_value: string | null;
  superseded_signatures: string[];
  slot: bigint | null;
  error: unknown;
  signed_at: Date | null;
  mode: Mode | null;
  sender: string | null;
  nonce: bigint | null;
  call: EvmCall | TronWrite | null;
  block_number: bigint | null;
  expires_at: Date | null;
  fee_paid: string | null;
}

const toIntent = (r: ChainIntentRow): ChainIntent => ({
  id: r.id,
  chain: r.chain,
  status: r.status,
  wireTransaction: r.wire_transaction,
  signature: r.signature,
  lastValidBlockHeight: r.last_valid_block_height,
  nonceAccount: r.nonce_account,
  nonceValue: r.nonce_value,
  supersededSignatures: r.superseded_signatures,
  slot: r.slot,
  error: r.error,
  signedAt: r.signed_at,
  mode: r.mode,
  sender: r.sender,
  nonce: r.nonce,
  call: r.chain === 'tron' ? null : (r.call as EvmCall | null),
  blockNumber: r.block_number,
  tronCall: r.chain === 'tron' ? (r.call as TronWrite | null) : null,
  expiresAt: r.expires_at,
  feePaid: r.fee_paid === null ? null : BigInt(r.fee_paid),
});

export async function insertChainIntent(sql: Queryable, id: string): Promise<void> {
  await sql`insert into chain_intents (id, chain) values (${id}, 'solana') on conflict (id) do nothing`;
}

export async function findChainIntent(sql: Queryable, id: string, options: { lock?: boolean } = {}): Promise<ChainIntent | undefined> {
  const [row] = options.lock
    ? await sql<ChainIntentRow[]>`select * from chain_intents where id = ${id} for update`
    : await sql<ChainIntentRow[]>`select * from chain_intents where id = ${id}`;
  return row && toIntent(row);
}

export async function recordSigned(
  sql: Queryable,
  id: string,
  signed: { wireTransaction: string; signature: string } & (
    { lastValidBlockHeight: bigint } | { durableNonce: { account: string; value: string } }
  ),
): Promise<void> {
  const lastValidBlockHeight = 'lastValidBlockHeight' in signed ? signed.lastValidBlockHeight.toString() : null;
  const nonce = 'durableNonce' in signed ? signed.durableNonce : null;
  await sql`
    update chain_intents set status = 'signed', wire_transaction = ${signed.wireTransaction}, signature = ${signed.signature},
      last_valid_block_height = ${lastValidBlockHeight}, nonce_account = ${nonce?.account ?? null},
      nonce_value = ${nonce?.value ?? null}, signed_at = now(), updated_at = now()
    where id = ${id} and status = 'prepared'`;
}

export async function recordBroadcast(sql: Queryable, id: string, signature: string): Promise<void> {
  await sql`
    update chain_intents set status = 'broadcast', broadcast_at = coalesce(broadcast_at, now()), updated_at = now()
    where id = ${id} and signature = ${signature} and status = 'signed'`;
}

export async function recordLanded(
  sql: Queryable,
  id: string,
  signature: string,
  landed: { status: 'confirmed' | 'finalized' | 'failed'; slot: bigint; error?: unknown },
): Promise<void> {
  await sql`
    update chain_intents set status = ${landed.status}, slot = ${landed.slot.toString()},
      error = ${landed.error === undefined ? null : sql.json(landed.error as Parameters<typeof sql.json>[0])},
      confirmed_at = case when ${landed.status} in ('confirmed', 'finalized') then coalesce(confirmed_at, now()) end,
      finalized_at = case when ${landed.status} = 'finalized' then now() end, updated_at = now()
    where id = ${id} and signature = ${signature} and status in ('signed', 'broadcast', 'confirmed')`;
}

/** The signed transaction is provably dead: keep its signature for matching and clear the way for a new one. */
export async function recordSuperseded(sql: Queryable, id: string, signature: string): Promise<void> {
  await sql`
    update chain_intents set status = 'prepared', superseded_signatures = array_append(superseded_signatures, signature),
      signature = null, wire_transaction = null, last_valid_block_height = null, updated_at = now()
    where id = ${id} and signature = ${signature} and status in ('signed', 'broadcast')`;
}

/** The intent whose transaction, current or superseded, has this signature: the service signed it. */
export async function findChainIntentIdBySignature(sql: Queryable, signature: string): Promise<string | undefined> {
  const [row] = await sql<
    { id: string }[]
  >`select id from chain_intents where signature = ${signature} or ${signature} = any(superseded_signatures) limit 1`;
  return row?.id;
}

/** An EVM intent: its call is fixed here, whatever nonce and fees its signatures later carry. */
export async function insertEvmChainIntent(
  sql: Queryable,
  intent: { id: string; chain: string; mode: Mode; sender: string; call: EvmCall },
): Promise<void> {
  await sql`
    insert into chain_intents (id, chain, mode, sender, call)
    values (${intent.id}, ${intent.chain}, ${intent.mode}, ${intent.sender}, ${sql.json({ ...intent.call })})
    on conflict (id) do nothing`;
}

/**
 * Takes the sender's next nonce under its row's lock; call inside the transaction that stores the signed bytes, so
 * a crash before they are stored hands the nonce out again. `minedNonceCount` lifts it past nonces used elsewhere.
 */
export async function takeEvmNonce(
  tx: Queryable,
  key: { chain: string; mode: Mode; sender: string },
  next: (stored: bigint | undefined) => bigint,
): Promise<bigint> {
  // The row must exist to be locked: two first signings of a sender on a chain would otherwise both read none and
  // take the same nonce. A stored 0 is the same as none (nextNonce).
  await tx`
    insert into evm_nonces (chain, mode, sender, next_nonce) values (${key.chain}, ${key.mode}, ${key.sender}, 0)
    on conflict (chain, mode, sender) do nothing`;
  const [row] = await tx<{ next_nonce: bigint }[]>`
    select next_nonce from evm_nonces where chain = ${key.chain} and mode = ${key.mode} and sender = ${key.sender} for update`;
  const nonce = next(row?.next_nonce);
  await tx`
    insert into evm_nonces (chain, mode, sender, next_nonce) values (${key.chain}, ${key.mode}, ${key.sender}, ${(nonce + 1n).toString()})
    on conflict (chain, mode, sender) do update set next_nonce = excluded.next_nonce, updated_at = now()`;
  return nonce;
}

/** Forgets every sender's next nonce on a chain: for a local chain started afresh, whose senders count from 0 again. */
export async function resetEvmNonces(sql: Queryable, key: { chain: string; mode: Mode }): Promise<void> {
  await sql`delete from evm_nonces where chain = ${key.chain} and mode = ${key.mode}`;
}

export async function recordEvmSigned(
  tx: Queryable,
  id: string,
  signed: { rawTransaction: string; hash: string; nonce: bigint },
): Promise<void> {
  await tx`
    update chain_intents set status = 'signed', wire_transaction = ${signed.rawTransaction}, signature = ${signed.hash},
      nonce = ${signed.nonce.toString()}, signed_at = now(), updated_at = now()
    where id = ${id} and status = 'prepared'`;
}

/** A same-nonce replacement with higher fees: the stuck hash is kept, since it may still be the one mined. */
export async function recordEvmReplacement(
  tx: Queryable,
  id: string,
  replacement: { stuckHash: string; rawTransaction: string; hash: string },
): Promise<void> {
  await tx`
    update chain_intents set status = 'signed', superseded_signatures = array_append(superseded_signatures, signature),
      wire_transaction = ${replacement.rawTransaction}, signature = ${replacement.hash}, signed_at = now(), updated_at = now()
    where id = ${id} and signature = ${replacement.stuckHash} and status in ('signed', 'broadcast')`;
}

/** One of the intent's hashes is in a block; if it is an older one, it becomes the signature and the newest is kept aside. */
export async function recordEvmMined(
  sql: Queryable,
  id: string,
  mined: { hash: string; blockNumber: bigint; status: 'confirmed' | 'finalized' | 'failed'; error?: unknown },
): Promise<void> {
  await sql`
    update chain_intents set status = ${mined.status}, block_number = ${mined.blockNumber.toString()},
      superseded_signatures = case when signature = ${mined.hash} then superseded_signatures
        else array_append(array_remove(superseded_signatures, ${mined.hash}::text), signature) end,
      signature = ${mined.hash},
      error = ${mined.error === undefined ? null : sql.json(mined.error as Parameters<typeof sql.json>[0])},
      confirmed_at = case when ${mined.status} in ('confirmed', 'finalized') then coalesce(confirmed_at, now()) end,
      finalized_at = case when ${mined.status} = 'finalized' then now() end, updated_at = now()
    where id = ${id} and status in ('signed', 'broadcast', 'confirmed')
      and (signature = ${mined.hash} or ${mined.hash} = any(superseded_signatures))`;
}

/** A block that held the transaction was reorganised away: it is back to waiting (and to being sent). */
export async function recordEvmUnmined(sql: Queryable, id: string): Promise<void> {
  await sql`
    update chain_intents set status = 'broadcast', block_number = null, confirmed_at = null, updated_at = now()
    where id = ${id} and status = 'confirmed'`;
}

/**
 * Another transaction took the nonce: none of these hashes can be mined; keep them and sign afresh with a new nonce.
 * Also from `confirmed`: a reorganisation can drop a mined transaction and let another take its nonce.
 */
export async function recordEvmNonceTaken(sql: Queryable, id: string, hash: string): Promise<void> {
  await sql`
    update chain_intents set status = 'prepared', superseded_signatures = array_append(superseded_signatures, signature),
      signature = null, wire_transaction = null, nonce = null, block_number = null, confirmed_at = null, updated_at = now()
    where id = ${id} and signature = ${hash} and status in ('signed', 'broadcast', 'confirmed')`;
}

/** A Tron intent: its call is fixed here, whatever reference block and expiration its signatures later carry. */
export async function insertTronChainIntent(
  sql: Queryable,
  intent: { id: string; mode: Mode; sender: string; call: TronWrite },
): Promise<void> {
  await sql`
    insert into chain_intents (id, chain, mode, sender, call)
    values (${intent.id}, 'tron', ${intent.mode}, ${intent.sender}, ${sql.json({ ...intent.call })})
    on conflict (id) do nothing`;
}

/** The signed Transaction (protobuf, hex), its txID and its expiration, stored before anything is sent. */
export async function recordTronSigned(
  tx: Queryable,
  id: string,
  signed: { transactionHex: string; txId: string; expiresAt: Date },
): Promise<void> {
  await tx`
    update chain_intents set status = 'signed', wire_transaction = ${signed.transactionHex}, signature = ${signed.txId},
      expires_at = ${signed.expiresAt}, signed_at = now(), updated_at = now()
    where id = ${id} and status = 'prepared' and chain = 'tron'`;
}

/**
 * The txID is in a block: not yet solidified (confirmed), or solidified with its outcome (finalized or failed). If it
 * is a superseded one, it becomes the signature and the newest is kept aside (as on EVM, the stored bytes stay the newest's).
 */
export async function recordTronLanded(
  sql: Queryable,
  id: string,
  txId: string,
  landed: { status: 'confirmed' | 'finalized' | 'failed'; blockNumber: bigint; feePaid: bigint; error?: unknown },
): Promise<void> {
  await sql`
    update chain_intents set status = ${landed.status}, block_number = ${landed.blockNumber.toString()}, fee_paid = ${landed.feePaid.toString()},
      error = ${landed.error === undefined ? null : sql.json(landed.error as Parameters<typeof sql.json>[0])},
      superseded_signatures = case when signature = ${txId} then superseded_signatures
        else array_append(array_remove(superseded_signatures, ${txId}::text), signature) end,
      signature = ${txId},
      confirmed_at = coalesce(confirmed_at, now()),
      finalized_at = case when ${landed.status} in ('finalized', 'failed') then now() end, updated_at = now()
    where id = ${id} and status in ('signed', 'broadcast', 'confirmed') and chain = 'tron'
      and (signature = ${txId} or ${txId} = any(superseded_signatures))`;
}

/** A block that held the txID was replaced before it solidified: back to waiting (and to being sent). */
export async function recordTronUnlanded(sql: Queryable, id: string): Promise<void> {
  await sql`
    update chain_intents set status = 'broadcast', block_number = null, fee_paid = null, confirmed_at = null, updated_at = now()
    where id = ${id} and status = 'confirmed' and chain = 'tron'`;
}

/** Expired and unknown to the solidified chain: the txID is kept for matching and a new transaction may be signed. */
export async function recordTronDead(sql: Queryable, id: string, txId: string): Promise<void> {
  await sql`
    update chain_intents set status = 'prepared', superseded_signatures = array_append(superseded_signatures, signature),
      signature = null, wire_transaction = null, expires_at = null, updated_at = now()
    where id = ${id} and signature = ${txId} and status in ('signed', 'broadcast') and chain = 'tron'`;
}
