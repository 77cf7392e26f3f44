// What operators and merchants read about refunds (bin/admin/refunds.ts, the dashboard's Refunds page, the merchant API
// under api/routes/refunds/): refund rows with the signer's payment of each (refund_payouts), read-only. A merchant's
// reads are scoped to its own refunds in its key's mode.
import type { RefundSource } from '../../domain/refunds/refundSource';
import type { RefundStatus } from '../../domain/refunds/refundStatus';
import type { RefundListQuery } from '../../domain/wire/refund';
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';
import { toRefund, type Refund, type RefundRow } from './refunds';

/** A claimed or submitted refund whose payment has not landed after this long is stuck: one normally lands in seconds. */
export const REFUND_STUCK_AFTER_MINUTES = 60;

export interface RefundPayout {
  status: 'pending' | 'submitted' | 'confirmed' | 'failed';
  chain: string;
  token: string;
  destinationAddress: string;
  amountBaseUnits: bigint;
  feeBaseUnits: bigint;
  intentId: string;
  signature: string | null;
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface RefundListing extends Refund {
  /** The signer's payment, once it wrote one. */
  payout: RefundPayout | null;
}

interface ListingRow extends RefundRow {
  payout_status: RefundPayout['status'] | null;
  payout_chain: string | null;
  payout_token: string | null;
  payout_destination: string | null;
  payout_amount: string | null;
  payout_fee: string | null;
  payout_intent_id: string | null;
  payout_signature: string | null;
  payout_failure_reason: string | null;
  payout_created_at: Date | null;
  payout_updated_at: Date | null;
}

const toListing = (r: ListingRow): RefundListing => ({
  ...toRefund(r),
  payout:
    r.payout_status === null
      ? null
      : {
          status: r.payout_status,
          chain: r.payout_chain as string,
          token: r.payout_token as string,
          destinationAddress: r.payout_destination as string,
          amountBaseUnits: BigInt(r.payout_amount as string),
          feeBaseUnits: BigInt(r.payout_fee as string),
          intentId: r.payout_intent_id as string,
          signature: r.payout_signature,
          failureReason: r.payout_failure_reason,
          createdAt: r.payout_created_at as Date,
          updatedAt: r.payout_updated_at as Date,
        },
});

const SELECT = `
  select r.*, r.amount_base_units::text as amount_base_units, r.amount_usd_micros::text as amount_usd_micros,
    p.status as payout_status, p.chain as payout_chain, p.token as payout_token, p.destination_address as payout_destination,
    p.amount_base_units::text as payout_amount, p.fee_base_units::text as payout_fee, p.intent_id as payout_intent_id,
    p.signature as payout_signature, p.failure_reason as payout_failure_reason, p.created_at as payout_created_at,
    p.updated_at as payout_updated_at
  from refunds r left join refund_payouts p on p.refund_id = r.id`;

export interface RefundFilter {
  merchantId?: string;
  mode?: Mode;
  status?: RefundStatus;
  source?: RefundSource;
  sessionId?: string;
  limit: number;
}

/** Newest first, every filter given narrowing the list. */
export async function listRefunds(sql: Queryable, filter: RefundFilter): Promise<RefundListing[]> {
  const rows = await sql<ListingRow[]>`${sql.unsafe(SELECT)}
    where (${filter.merchantId ?? null}::text is null or r.merchant_id = ${filter.merchantId ?? null})
      and (${filter.mode ?? null}::text is null or r.mode = ${filter.mode ?? null})
      and (${filter.status ?? null}::text is null or r.status = ${filter.status ?? null})
      and (${filter.source ?? null}::text is null or r.source = ${filter.source ?? null})
      and (${filter.sessionId ?? null}::text is null or r.session_id = ${filter.sessionId ?? null})
    order by r.created_at desc, r.id desc
    limit ${filter.limit}`;
  return rows.map(toListing);
}

export async function findRefundListing(sql: Queryable, refundId: string): Promise<RefundListing | undefined> {
  const [row] = await sql<ListingRow[]>`${sql.unsafe(SELECT)} where r.id = ${refundId}`;
  return row && toListing(row);
}

/**
 * Refunds claimed (or submitted) at least `olderThanMinutes` ago whose payment has not landed: no payout row, or one
 * not confirmed. Oldest claim first.
 */
export async function stuckRefunds(sql: Queryable, options: { olderThanMinutes: number; limit: number }): Promise<RefundListing[]> {
  const rows = await sql<ListingRow[]>`${sql.unsafe(SELECT)}
    where r.status in ('claimed', 'submitted')
      and coalesce(r.claimed_at, r.updated_at) < now() - make_interval(mins => ${options.olderThanMinutes})
      and (p.status is null or p.status <> 'confirmed')
    order by coalesce(r.claimed_at, r.updated_at), r.id
    limit ${options.limit}`;
  return rows.map(toListing);
}

export interface RefundOwner {
  merchantId: string;
  mode: Mode;
}

/** Another merchant's refund, and one of the other mode, are not found. */
export async function findMerchantRefund(sql: Queryable, owner: RefundOwner, refundId: string): Promise<RefundListing | undefined> {
  const [row] = await sql<ListingRow[]>`${sql.unsafe(SELECT)}
    where r.id = ${refundId} and r.merchant_id = ${owner.merchantId} and r.mode = ${owner.mode}`;
  return row && toListing(row);
}

export type RefundPage = { ok: true; refunds: RefundListing[]; hasMore: boolean } | { ok: false; unknownCursor: string };

/** Newest first; `starting_after` continues after that refund, which must be the merchant's own in this mode. */
export async function listMerchantRefunds(sql: Queryable, owner: RefundOwner, query: RefundListQuery): Promise<RefundPage> {
  let after: { created_at: Date; id: string } | undefined;
  if (query.starting_after) {
    [after] = await sql<{ created_at: Date; id: string }[]>`
      select created_at, id from refunds
      where id = ${query.starting_after} and merchant_id = ${owner.merchantId} and mode = ${owner.mode}`;
    if (!after) return { ok: false, unknownCursor: query.starting_after };
  }
  const rows = await sql<ListingRow[]>`${sql.unsafe(SELECT)}
    where r.merchant_id = ${owner.merchantId} and r.mode = ${owner.mode}
      ${query.session_id ? sql`and r.session_id = ${query.session_id}` : sql``}
      ${query.status ? sql`and r.status = ${query.status}` : sql``}
      ${query.source ? sql`and r.source = ${query.source}` : sql``}
      ${after ? sql`and (r.created_at, r.id) < (${after.created_at}, ${after.id})` : sql``}
    order by r.created_at desc, r.id desc
    limit ${query.limit + 1}`;
  return { ok: true, refunds: rows.slice(0, query.limit).map(toListing), hasMore: rows.length > query.limit };
}
