// refunds (db/migrations/0009_refunds.sql): what is owed back to a customer and how far its return has come
// (docs/refunds.md). The API writes merchants' refunds and customers' claims, the worker the refunds the service owes
// by itself and each refund's progress; the signer only reads them and writes its own refund_payouts.
import { CHAIN_FACTS, type Chain, type TokenSymbol } from '../../domain/chains/chains';
import type { RefundableFacts } from '../../domain/refunds/refundableAmount';
import type { RefundFacts } from '../../domain/refunds/refundJson';
import { refundCancellation, type RefundWithdrawer } from '../../domain/refunds/refundCancellation';
import { UNPAID_MERCHANT_SOURCES, type RefundSource } from '../../domain/refunds/refundSource';
import { REFUND_EVENT_STATUS, refundTransition, type RefundEvent, type RefundStatus } from '../../domain/refunds/refundStatus';
import type { FeePolicy, RefundDestination } from '../../domain/wire/refund';
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';
import { handOverUnpaidRefund } from './refundHandover';

export interface DepositKey {
  chain: Chain;
  txHash: string;
  logIndex: number;
}

/** The row: what its JSON says (domain/refunds/refundJson.ts), and what only the service reads. */
export interface Refund extends RefundFacts {
  merchantId: string;
  deposit: DepositKey | null;
  senderProof: unknown;
  idempotencyKey: string | null;
  /** 1, or one more than the refund it reissues (`reissueOf`): db/repositories/refundHandover.ts. */
  generation: number;
  reissueOf: string | null;
  updatedAt: Date;
}

export interface RefundRow {
  id: string;
  mode: Mode;
  merchant_id: string;
  session_id: string;
  source: RefundSource;
  deposit_chain: Chain | null;
  deposit_tx_hash: string | null;
  deposit_log_index: number | null;
  token: TokenSymbol;
  chain: Chain;
  amount_base_units: string;
  amount_usd_micros: string;
  fee_policy: FeePolicy;
  status: RefundStatus;
  status_reason: string | null;
  destination_chain: Chain | null;
  destination_token: TokenSymbol | null;
  destination_address: string | null;
  require_sender_proof: boolean;
  sender_proof: unknown;
  reason: string | null;
  customer_email: string | null;
  idempotency_key: string | null;
  generation: number;
  reissue_of: string | null;
  expires_at: Date;
  claimed_at: Date | null;
  completed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const toRefund = (r: RefundRow): Refund => ({
  id: r.id,
  mode: r.mode,
  merchantId: r.merchant_id,
  sessionId: r.session_id,
  source: r.source,
  deposit:
    r.deposit_chain && r.deposit_tx_hash !== null && r.deposit_log_index !== null
      ? { chain: r.deposit_chain, txHash: r.deposit_tx_hash, logIndex: r.deposit_log_index }
      : null,
  token: r.token,
  chain: r.chain,
  amountBaseUnits: BigInt(r.amount_base_units),
  amountUsdMicros: BigInt(r.amount_usd_micros),
  feePolicy: r.fee_policy,
  status: r.status,
  statusReason: r.status_reason,
  destination:
    r.destination_chain && r.destination_token && r.destination_address
      ? { chain: r.destination_chain, token: r.destination_token, address: r.destination_address }
      : null,
  requireSenderProof: r.require_sender_proof,
  senderProof: r.sender_proof,
  reason: r.reason,
  customerEmail: r.customer_email,
  idempotencyKey: r.idempotency_key,
  generation: r.generation,
  reissueOf: r.reissue_of,
  expiresAt: r.expires_at,
  claimedAt: r.claimed_at,
  completedAt: r.completed_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const SELECT = 'select *, amount_base_units::text as amount_base_units, amount_usd_micros::text as amount_usd_micros from refunds';

export type NewRefund = Pick<
  Refund,
  | 'id'
  | 'mode'
  | 'merchantId'
  | 'sessionId'
  | 'source'
  | 'deposit'
  | 'token'
  | 'chain'
  | 'amountBaseUnits'
  | 'amountUsdMicros'
  | 'feePolicy'
  | 'requireSenderProof'
  | 'reason'
  | 'idempotencyKey'
  | 'expiresAt'
> &
  Partial<Pick<Refund, 'generation' | 'reissueOf'>> & {
    /** A merchant's refund only (docs/refunds.md#e-mail-to-the-customer): where the customer's e-mails go. */
    customerEmail?: string;
  };

/**
 * Inserts the refund unless one exists for its deposit (an automatic refund; of what its merchant was not paid, a second) or its merchant's Idempotency-Key; returns
 * the refund that stands, and whether it is the one given.
 */
export async function insertRefund(sql: Queryable, refund: NewRefund): Promise<{ refund: Refund; created: boolean }> {
  const inserted = await sql`
    insert into refunds (id, mode, merchant_id, session_id, source, deposit_chain, deposit_tx_hash, deposit_log_index,
                         token, chain, amount_base_units, amount_usd_micros, fee_policy, require_sender_proof, reason,
                         idempotency_key, expires_at, generation, reissue_of, customer_email)
    values (${refund.id}, ${refund.mode}, ${refund.merchantId}, ${refund.sessionId}, ${refund.source},
            ${refund.deposit?.chain ?? null}, ${refund.deposit?.txHash ?? null}, ${refund.deposit?.logIndex ?? null},
            ${refund.token}, ${refund.chain}, ${refund.amountBaseUnits.toString()}, ${refund.amountUsdMicros.toString()},
            ${refund.feePolicy}, ${refund.requireSenderProof}, ${refund.reason}, ${refund.idempotencyKey}, ${refund.expiresAt},
            ${refund.generation ?? 1}, ${refund.reissueOf ?? null}, ${refund.customerEmail ?? null})
    on conflict do nothing`;
  if (inserted.count === 1) return { refund: (await findRefund(sql, refund.id)) as Refund, created: true };
  const [row] = refund.deposit
    ? await sql<RefundRow[]>`${sql.unsafe(SELECT)} where deposit_chain = ${refund.deposit.chain}
        and deposit_tx_hash = ${refund.deposit.txHash} and deposit_log_index = ${refund.deposit.logIndex} and source <> 'merchant'
        and (source in ('underpaid_expired', 'settlement_failed')) = ${UNPAID_MERCHANT_SOURCES.has(refund.source)}
        and generation = ${refund.generation ?? 1}`
    : await sql<RefundRow[]>`${sql.unsafe(SELECT)} where merchant_id = ${refund.merchantId} and idempotency_key = ${refund.idempotencyKey}`;
  if (!row) throw new Error(`refund ${refund.id} was neither inserted nor found`);
  return { refund: toRefund(row), created: false };
}

/**
 * The automatic refunds of a deposit, oldest generation first: of what its merchant was not paid (underpaid_expired,
 * settlement_failed) when `unpaidMerchant`, of its uncredited units or excess otherwise.
 */
export async function depositRefunds(sql: Queryable, deposit: DepositKey, unpaidMerchant: boolean): Promise<Refund[]> {
  const rows = await sql<RefundRow[]>`${sql.unsafe(SELECT)} where deposit_chain = ${deposit.chain}
    and deposit_tx_hash = ${deposit.txHash} and deposit_log_index = ${deposit.logIndex} and source <> 'merchant'
    and (source in ('underpaid_expired', 'settlement_failed')) = ${unpaidMerchant} order by generation`;
  return rows.map(toRefund);
}

export async function findRefund(sql: Queryable, id: string): Promise<Refund | undefined> {
  const [row] = await sql<RefundRow[]>`${sql.unsafe(SELECT)} where id = ${id}`;
  return row && toRefund(row);
}

/** The refund a merchant's Idempotency-Key made, whatever its mode and session. */
export async function findRefundByIdempotencyKey(sql: Queryable, merchantId: string, key: string): Promise<Refund | undefined> {
  const [row] = await sql<RefundRow[]>`${sql.unsafe(SELECT)} where merchant_id = ${merchantId} and idempotency_key = ${key}`;
  return row && toRefund(row);
}

export async function sessionRefunds(sql: Queryable, sessionId: string): Promise<Refund[]> {
  const rows = await sql<RefundRow[]>`${sql.unsafe(SELECT)} where session_id = ${sessionId} order by created_at, id`;
  return rows.map(toRefund);
}

export type RefundChange = { ok: true; refund: Refund; changed: boolean } | { ok: false; refund: Refund | undefined; message: string };

export interface RefundMoveFields {
  statusReason?: string | null;
  /** With `claim`: where the money goes. */
  destination?: RefundDestination;
  senderProof?: unknown;
}

/**
 * Moves a refund by `event` under its row's lock, in the caller's transaction, as refundStatus.ts allows. A refund
 * already where the event leads (a retried activity, a double click) is answered ok, unchanged. Writes only the
 * columns the move sets, as each role may update only its own (db/serviceRoles.ts).
 */
export async function moveRefund(tx: Queryable, id: string, event: RefundEvent, fields: RefundMoveFields = {}): Promise<RefundChange> {
  const [row] = await tx<RefundRow[]>`${tx.unsafe(SELECT)} where id = ${id} for update`;
  if (!row) return { ok: false, refund: undefined, message: `No refund ${id}` };
  const refund = toRefund(row);
  const move = refundTransition(refund.status, event);
  if (!move.ok)
    return refund.status === REFUND_EVENT_STATUS[event]
      ? { ok: true, refund, changed: false }
      : { ok: false, refund, message: move.message };
  const set: Record<string, unknown> = { status: move.status, updated_at: new Date() };
  if (fields.statusReason !== undefined) set.status_reason = fields.statusReason;
  if (fields.destination) {
    set.destination_chain = fields.destination.chain;
    set.destination_token = fields.destination.token;
    set.destination_address = fields.destination.address;
  }
  if (fields.senderProof !== undefined) set.sender_proof = tx.json(fields.senderProof as never);
  if (event === 'claim') set.claimed_at = new Date();
  if (event === 'complete') set.completed_at = new Date();
  const [updated] = await tx<RefundRow[]>`
    update refunds set ${tx(set as Record<string, never>)} where id = ${id}
    returning *, amount_base_units::text as amount_base_units, amount_usd_micros::text as amount_usd_micros`;
  return { ok: true, refund: toRefund(updated as RefundRow), changed: true };
}

export type RefundCancel =
  | { ok: true; previous: RefundStatus; changed: boolean }
  | { ok: false; notFound: true }
  | { ok: false; notFound: false; refusal: string; paymentWritten: boolean };

/**
 * Cancels the refund in the caller's transaction as refundCancellation.ts decides, reading whether the signer wrote its
 * payment under the row's lock: a refund_payouts insert waits for that lock (its foreign key), so none slips in between
 * the check and the move. One already cancelled
 * is answered ok, unchanged.
 */
export async function cancelRefund(tx: Queryable, id: string, statusReason: string, by: RefundWithdrawer): Promise<RefundCancel> {
  const [row] = await tx<{ status: RefundStatus; source: RefundSource; paid: boolean }[]>`
    select status, source, exists (select 1 from refund_payouts p where p.refund_id = r.id) as paid from refunds r where id = ${id} for update`;
  if (!row) return { ok: false, notFound: true };
  const decision = refundCancellation(row, row.paid, by);
  if ('refusal' in decision) return { ok: false, notFound: false, refusal: decision.refusal, paymentWritten: decision.paymentWritten };
  if (!decision.cancel) return { ok: true, previous: row.status, changed: false };
  const moved = await moveRefund(tx, id, 'cancel', { statusReason });
  if (!moved.ok) throw new Error(`refund ${id} could not be cancelled under its lock: ${moved.message}`);
  await handOverUnpaidRefund(tx, moved.refund, 'cancelled');
  return { ok: true, previous: row.status, changed: true };
}

/**
 * What the session was paid and what its refunds hold, read in the caller's transaction. A simulated receipt is the
 * payment's received amount of a test session that recorded no deposit at all and was not paid by bank transfer.
 */
export async function refundableFacts(sql: Queryable, sessionId: string): Promise<Omit<RefundableFacts, 'sessionStatus'>> {
  const deposits = await sql<{ amount: string; decimals: number }[]>`
    select d.amount_base_units::text as amount, p.decimals
    from deposits d join payments p on p.session_id = d.session_id
    where d.session_id = ${sessionId} and d.credited and d.stage = 'confirmed'`;
  const [simulated] = await sql<{ amount: string; decimals: number }[]>`
    select p.received_base_units::text as amount, p.decimals
    from payments p join sessions s on s.id = p.session_id
    where p.session_id = ${sessionId} and s.mode = 'test' and p.received_base_units > 0 and p.chain <> 'bank'
      and not exists (select from deposits d where d.session_id = p.session_id)`;
  const refunds = await sql<{ source: Refund['source']; status: Refund['status']; amount: string }[]>`
    select source, status, amount_usd_micros::text as amount from refunds where session_id = ${sessionId}`;
  return {
    creditedDeposits: deposits.map((d) => ({ amountBaseUnits: BigInt(d.amount), decimals: d.decimals })),
    simulatedReceipt: simulated && { amountBaseUnits: BigInt(simulated.amount), decimals: simulated.decimals },
    refunds: refunds.map((r) => ({ source: r.source, status: r.status, amountUsdMicros: BigInt(r.amount) })),
  };
}

/** Whether `address` (canonically spelled) is a deposit address of the service, given to a session or not yet, in either mode. */
export async function isServiceDepositAddress(sql: Queryable, chain: Chain, address: string): Promise<boolean> {
  const family = CHAIN_FACTS[chain].family;
  const [row] =
    family === 'evm'
      ? await sql`select 1 from deposit_addresses where lower(evm_address) = ${address.toLowerCase()} limit 1`
      : family === 'tron'
        ? await sql`select 1 from deposit_addresses where tron_address = ${address} limit 1`
        : // Every Solana deposit address comes from the signer's pool, taken by a session or waiting for one.
          await sql`select 1 from solana_deposit_address_pool where address = ${address}
                    union all select 1 from deposit_addresses where solana_address = ${address} limit 1`;
  return row !== undefined;
}
