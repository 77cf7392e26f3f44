// transfers: CCTP V2 transfers from a collector to the Solana treasury (db/migrations/0001_baseline.sql). Each change names the
// stage it expects, so a retried pass that finds the work done changes nothing.
import type { CctpSourceChain } from '../../domain/cctp/domains';
import type { CctpSpeed } from '../../domain/cctp/finality';
import type { TransferStage } from '../../domain/cctp/transfer';
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';

export interface Transfer {
  id: string;
  mode: Mode;
  sourceChain: CctpSourceChain;
  amount: bigint;
  maxFee: bigint;
  speed: CctpSpeed;
  stage: TransferStage;
  burnIntentId: string;
  burnTxHash: string | null;
  nonce: string | null;
  message: string | null;
  attestation: string | null;
  receiveIntentId: string | null;
  receivedAmount: bigint | null;
  failure: string | null;
  createdAt: Date;
  updatedAt: Date;
  burnedAt: Date | null;
  attestedAt: Date | null;
  receivedAt: Date | null;
}

interface TransferRow {
  id: string;
  mode: Mode;
  source_chain: CctpSourceChain;
  amount: string;
  max_fee: string;
  speed: CctpSpeed;
  stage: TransferStage;
  burn_intent_id: string;
  burn_tx_hash: string | null;
  nonce: string | null;
  message: string | null;
  attestation: string | null;
  receive_intent_id: string | null;
  received_amount: string | null;
  failure: string | null;
  created_at: Date;
  updated_at: Date;
  burned_at: Date | null;
  attested_at: Date | null;
  received_at: Date | null;
}

const toTransfer = (r: TransferRow): Transfer => ({
  id: r.id,
  mode: r.mode,
  sourceChain: r.source_chain,
  amount: BigInt(r.amount),
  maxFee: BigInt(r.max_fee),
  speed: r.speed,
  stage: r.stage,
  burnIntentId: r.burn_intent_id,
  burnTxHash: r.burn_tx_hash,
  nonce: r.nonce,
  message: r.message,
  attestation: r.attestation,
  receiveIntentId: r.receive_intent_id,
  receivedAmount: r.received_amount === null ? null : BigInt(r.received_amount),
  failure: r.failure,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  burnedAt: r.burned_at,
  attestedAt: r.attested_at,
  receivedAt: r.received_at,
});

export async function insertTransfer(
  sql: Queryable,
  transfer: {
    id: string;
    mode: Mode;
    sourceChain: CctpSourceChain;
    amount: bigint;
    maxFee: bigint;
    speed: CctpSpeed;
    burnIntentId: string;
  },
): Promise<void> {
  await sql`
    insert into transfers (id, mode, source_chain, amount, max_fee, speed, burn_intent_id)
    values (${transfer.id}, ${transfer.mode}, ${transfer.sourceChain}, ${transfer.amount.toString()}, ${transfer.maxFee.toString()}, ${transfer.speed}, ${transfer.burnIntentId})
    on conflict (id) do nothing`;
}

export async function findTransfer(sql: Queryable, id: string): Promise<Transfer | undefined> {
  const [row] = await sql<TransferRow[]>`select * from transfers where id = ${id}`;
  return row && toTransfer(row);
}

export async function transferInFlight(sql: Queryable, mode: Mode, sourceChain: CctpSourceChain): Promise<Transfer | undefined> {
  const [row] = await sql<TransferRow[]>`
    select * from transfers where mode = ${mode} and source_chain = ${sourceChain} and stage in ('burning', 'burned', 'attested')`;
  return row && toTransfer(row);
}

export async function listTransfers(sql: Queryable, options: { mode?: Mode; limit: number }): Promise<Transfer[]> {
  const rows = options.mode
    ? await sql<TransferRow[]>`select * from transfers where mode = ${options.mode} order by created_at desc limit ${options.limit}`
    : await sql<TransferRow[]>`select * from transfers order by created_at desc limit ${options.limit}`;
  return rows.map(toTransfer);
}

/** In-flight transfers, oldest first; `olderThanMs` keeps those whose current stage began that long ago. */
export async function transfersInFlight(sql: Queryable, options: { olderThanMs?: number } = {}): Promise<Transfer[]> {
  const rows = await sql<TransferRow[]>`
    select * from transfers
    where stage in ('burning', 'burned', 'attested') and updated_at <= now() - make_interval(secs => ${(options.olderThanMs ?? 0) / 1000})
    order by created_at`;
  return rows.map(toTransfer);
}

export async function setTransferBurned(sql: Queryable, id: string, burnTxHash: string): Promise<void> {
  await sql`update transfers set stage = 'burned', burn_tx_hash = ${burnTxHash}, burned_at = now(), updated_at = now() where id = ${id} and stage = 'burning'`;
}

export async function setTransferFailed(sql: Queryable, id: string, failure: string): Promise<void> {
  await sql`update transfers set stage = 'failed', failure = ${failure}, updated_at = now() where id = ${id} and stage = 'burning'`;
}

export async function setTransferAttested(
  sql: Queryable,
  id: string,
  attested: { nonce: string; message: string; attestation: string },
): Promise<void> {
  await sql`
    update transfers set stage = 'attested', nonce = ${attested.nonce}, message = ${attested.message}, attestation = ${attested.attestation},
      attested_at = now(), updated_at = now()
    where id = ${id} and stage = 'burned'`;
}

/** After a re-attestation request: the expired attestation goes, the nonce stays, and polling starts again. */
export async function setTransferReattesting(sql: Queryable, id: string): Promise<void> {
  await sql`update transfers set stage = 'burned', message = null, attestation = null, updated_at = now() where id = ${id} and stage = 'attested'`;
}

export async function setTransferReceiveIntent(sql: Queryable, id: string, receiveIntentId: string): Promise<void> {
  await sql`update transfers set receive_intent_id = ${receiveIntentId}, updated_at = now() where id = ${id} and stage = 'attested' and receive_intent_id is null`;
}

export async function setTransferReceived(sql: Queryable, id: string, receivedAmount: bigint): Promise<void> {
  await sql`
    update transfers set stage = 'received', received_amount = ${receivedAmount.toString()}, received_at = now(), updated_at = now()
    where id = ${id} and stage = 'attested'`;
}
