// A merchant's view of refunds (api/routes/refunds/): only its own, in its key's mode, each with what its payment has
// got to; and the facts that bound what it may still refund on a session (domain/refunds/refundableAmount.ts).
import type { Chain } from '../../domain/chains/chains';
import { CHAIN_FACTS } from '../../domain/chains/chains';
import type { RefundableFacts } from '../../domain/refunds/refundableAmount';
import type { RefundListQuery } from '../../domain/wire/refund';
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';
import { toRefund, type Refund, type RefundRow } from './refunds';

export interface RefundOwner {
  merchantId: string;
  mode: Mode;
}

/** The signer's payment of a refund, as far as the merchant is told. */
export interface RefundPayoutView {
  status: 'pending' | 'submitted' | 'confirmed' | 'failed';
  signature: string | null;
  feeBaseUnits: bigint;
}

export interface MerchantRefund {
  refund: Refund;
  payout: RefundPayoutView | null;
}

type Row = RefundRow & {
  payout_status: RefundPayoutView['status'] | null;
  payout_signature: string | null;
  payout_fee_base_units: string | null;
};

const SELECT = `
  select r.*, r.amount_base_units::text as amount_base_units, r.amount_usd_micros::text as amount_usd_micros,
         p.status as payout_status, p.signature as payout_signature, p.fee_base_units::text as payout_fee_base_units
  from refunds r left join refund_payouts p on p.refund_id = r.id`;

const toMerchantRefund = (row: Row): MerchantRefund => ({
  refund: toRefund(row),
  payout:
    row.payout_status === null
      ? null
      : { status: row.payout_status, signature: row.payout_signature, feeBaseUnits: BigInt(row.payout_fee_base_units ?? '0') },
});

/** Another merchant's refund, and one of the other mode, are not found. */
export async function findMerchantRefund(sql: Queryable, owner: RefundOwner, refundId: string): Promise<MerchantRefund | undefined> {
  const [row] = await sql<Row[]>`${sql.unsafe(SELECT)}
    where r.id = ${refundId} and r.merchant_id = ${owner.merchantId} and r.mode = ${owner.mode}`;
  return row && toMerchantRefund(row);
}

/** The refund a merchant's Idempotency-Key made, whatever its mode and session. */
export async function findRefundByIdempotencyKey(sql: Queryable, merchantId: string, key: string): Promise<Refund | undefined> {
  const [row] = await sql<Row[]>`${sql.unsafe(SELECT)} where r.merchant_id = ${merchantId} and r.idempotency_key = ${key}`;
  return row && toRefund(row);
}

export type RefundPage = { ok: true; refunds: MerchantRefund[]; hasMore: boolean } | { ok: false; unknownCursor: string };

/** Newest first; `starting_after` continues after that refund, which must be the merchant's own in this mode. */
export async function listMerchantRefunds(sql: Queryable, owner: RefundOwner, query: RefundListQuery): Promise<RefundPage> {
  let after: { created_at: Date; id: string } | undefined;
  if (query.starting_after) {
    [after] = await sql<{ created_at: Date; id: string }[]>`
      select created_at, id from refunds
      where id = ${query.starting_after} and merchant_id = ${owner.merchantId} and mode = ${owner.mode}`;
    if (!after) return { ok: false, unknownCursor: query.starting_after };
  }
  const rows = await sql<Row[]>`${sql.unsafe(SELECT)}
    where r.merchant_id = ${owner.merchantId} and r.mode = ${owner.mode}
      ${query.session_id ? sql`and r.session_id = ${query.session_id}` : sql``}
      ${query.status ? sql`and r.status = ${query.status}` : sql``}
      ${query.source ? sql`and r.source = ${query.source}` : sql``}
      ${after ? sql`and (r.created_at, r.id) < (${after.created_at}, ${after.id})` : sql``}
    order by r.created_at desc, r.id desc
    limit ${query.limit + 1}`;
  return { ok: true, refunds: rows.slice(0, query.limit).map(toMerchantRefund), hasMore: rows.length > query.limit };
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
