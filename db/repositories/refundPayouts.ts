// refund_payouts (db/migrations/0009_refunds.sql): the signer's payment of a refund, one per refund, ever, written
// with its chain intent and ledger reservation before anything is signed (signer/refunds/). The row is the signer's
// copy of what it checked: destination, amount paid, fee; its status follows the chain intent.
import type { Chain, TokenSymbol } from '../../domain/chains/chains';
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';

export type RefundPayoutStatus = 'pending' | 'submitted' | 'confirmed' | 'failed';

export interface RefundPayout {
  refundId: string;
  mode: Mode;
  chain: Chain;
  token: TokenSymbol;
  destinationAddress: string;
  /** What the transfer moves to the customer, in the destination token's base units. */
  amountBaseUnits: bigint;
  fee: bigint;
  intentId: string;
  treasury: string;
  status: RefundPayoutStatus;
  signature: string | null;
  failureReason: string | null;
  updatedAt: Date;
}

interface RefundPayoutRow {
  refund_id: string;
  mode: Mode;
  chain: Chain;
  token: TokenSymbol;
  destination_address: string;
  amount_base_units: string;
  fee_base_units: string;
  intent_id: string;
  treasury: string;
  status: RefundPayoutStatus;
  signature: string | null;
  failure_reason: string | null;
  updated_at: Date;
}

const toRefundPayout = (r: RefundPayoutRow): RefundPayout => ({
  refundId: r.refund_id,
  mode: r.mode,
  chain: r.chain,
  token: r.token,
  destinationAddress: r.destination_address,
  amountBaseUnits: BigInt(r.amount_base_units),
  fee: BigInt(r.fee_base_units),
  intentId: r.intent_id,
  treasury: r.treasury,
  status: r.status,
  signature: r.signature,
  failureReason: r.failure_reason,
  updatedAt: r.updated_at,
});

export type NewRefundPayout = Pick<
  RefundPayout,
  'refundId' | 'mode' | 'chain' | 'token' | 'destinationAddress' | 'amountBaseUnits' | 'fee' | 'intentId' | 'treasury'
>;

export async function insertRefundPayout(sql: Queryable, payout: NewRefundPayout): Promise<RefundPayout> {
  await sql`
    insert into refund_payouts (refund_id, mode, chain, token, destination_address, amount_base_units, fee_base_units, intent_id, treasury)
    values (${payout.refundId}, ${payout.mode}, ${payout.chain}, ${payout.token}, ${payout.destinationAddress},
            ${payout.amountBaseUnits.toString()}, ${payout.fee.toString()}, ${payout.intentId}, ${payout.treasury})`;
  return (await findRefundPayout(sql, payout.refundId)) as RefundPayout;
}

export async function findRefundPayout(sql: Queryable, refundId: string): Promise<RefundPayout | undefined> {
  const [row] = await sql<RefundPayoutRow[]>`
    select *, amount_base_units::text as amount_base_units, fee_base_units::text as fee_base_units
    from refund_payouts where refund_id = ${refundId}`;
  return row && toRefundPayout(row);
}

/** Moves the row with its chain intent; a failed or confirmed row stays as it is. */
export async function setRefundPayoutStatus(
  sql: Queryable,
  refundId: string,
  status: RefundPayoutStatus,
  fields: { signature: string | null; failureReason?: string },
): Promise<void> {
  await sql`
    update refund_payouts set status = ${status}, signature = ${fields.signature},
      failure_reason = ${fields.failureReason ?? null}, updated_at = now()
    where refund_id = ${refundId} and status not in ('confirmed', 'failed')`;
}

/**
 * What the refunds of a deposit whose payment the signer wrote and has not seen fail return, in the deposit's token
 * base units, other than `exceptRefundId`.
 */
export async function depositRefunded(
  sql: Queryable,
  deposit: { chain: string; txHash: string; logIndex: number },
  exceptRefundId: string,
): Promise<bigint> {
  const [row] = await sql<{ amount: string }[]>`
    select coalesce(sum(r.amount_base_units), 0)::text as amount
    from refunds r join refund_payouts p on p.refund_id = r.id
    where r.deposit_chain = ${deposit.chain} and r.deposit_tx_hash = ${deposit.txHash} and r.deposit_log_index = ${deposit.logIndex}
      and r.id <> ${exceptRefundId} and p.status <> 'failed'`;
  return BigInt(row?.amount ?? '0');
}

/**
 * What the refunds of a session whose payment the signer wrote and has not seen fail return, in USD micro-units, other
 * than `exceptRefundId`: the merchant's (`merchant`) or the automatic ones.
 */
export async function sessionRefunded(
  sql: Queryable,
  sessionId: string,
  kind: 'merchant' | 'automatic',
  exceptRefundId: string,
): Promise<bigint> {
  const [row] = await sql<{ amount: string }[]>`
    select coalesce(sum(r.amount_usd_micros), 0)::text as amount
    from refunds r join refund_payouts p on p.refund_id = r.id
    where r.session_id = ${sessionId} and r.id <> ${exceptRefundId} and p.status <> 'failed'
      and (r.source = 'merchant') = ${kind === 'merchant'}`;
  return BigInt(row?.amount ?? '0');
}

/**
 * What the automatic refunds of a session's deposits in `token` on `chain` return, in USD micro-units, counting those
 * the signer wrote and has not seen fail: a payout of the session is backed by what is left.
 */
export async function sessionDepositsRefunded(sql: Queryable, sessionId: string, chain: string, token: string): Promise<bigint> {
  const [row] = await sql<{ amount: string }[]>`
    select coalesce(sum(r.amount_usd_micros), 0)::text as amount
    from refunds r join refund_payouts p on p.refund_id = r.id
    where r.session_id = ${sessionId} and r.source <> 'merchant' and r.deposit_chain = ${chain} and r.token = ${token}
      and p.status <> 'failed'`;
  return BigInt(row?.amount ?? '0');
}
