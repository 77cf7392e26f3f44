// payout_approvals (db/migrations/0006_payout_approvals.sql): an operator's approval of a live payout above its
// merchant's daily limit, and what the limit is judged on: the merchant's live payouts of the trailing window
// (docs/settlement.md#daily-limit).
import { DAILY_LIMIT_WINDOW_HOURS } from '../../domain/settlement/dailyLimit';
import { TREASURY_PROVIDER } from '../../domain/settlement/settlementRoute';
import type { Queryable } from '../client';

export interface PayoutApproval {
  paymentId: string;
  operator: string;
  approvedAt: Date;
}

/**
 * USDC base units of the merchant's live payouts written in the trailing window, other than `paymentId`'s: every
 * status but `failed`, which landed and paid nothing (an operator's next generation of it is written anew).
 */
export async function livePayoutsInWindow(sql: Queryable, merchantId: string, paymentId: string): Promise<bigint> {
  const [row] = await sql<{ amount: string }[]>`
    select coalesce(sum(amount_base_units), 0)::text as amount from payouts
    where merchant_id = ${merchantId} and mode = 'live' and status <> 'failed' and payment_id <> ${paymentId}
      and created_at > now() - make_interval(hours => ${DAILY_LIMIT_WINDOW_HOURS})`;
  return BigInt(row?.amount ?? '0');
}

export async function findPayoutApproval(sql: Queryable, paymentId: string): Promise<PayoutApproval | undefined> {
  const [row] = await sql<PayoutApproval[]>`
    select payment_id as "paymentId", operator, approved_at as "approvedAt" from payout_approvals where payment_id = ${paymentId}`;
  return row;
}

/** Approves the payment's payout unless it is approved already; either way returns the one approval, and whether it is new. */
export async function approvePayout(
  sql: Queryable,
  paymentId: string,
  operator: string,
): Promise<{ approval: PayoutApproval; created: boolean }> {
  const inserted =
    await sql`insert into payout_approvals (payment_id, operator) values (${paymentId}, ${operator}) on conflict (payment_id) do nothing`;
  return { approval: (await findPayoutApproval(sql, paymentId)) as PayoutApproval, created: inserted.count === 1 };
}

/** A live payment whose treasury settlement began and whose payout is not written, nor approved. */
export interface UnwrittenLivePayout {
  paymentId: string;
  sessionId: string;
  merchantId: string;
  /** The settlement's amount: what the payout asks for. */
  amount: bigint;
  /** The merchant's live payouts of the trailing window (livePayoutsInWindow). */
  paidInWindow: bigint;
}

/** The payouts that may be waiting for an approval; the caller judges which go past the limit. */
export async function unwrittenLivePayouts(sql: Queryable): Promise<UnwrittenLivePayout[]> {
  const rows = await sql<Array<Omit<UnwrittenLivePayout, 'amount' | 'paidInWindow'> & { amount: string; paidInWindow: string }>>`
    select st.payment_id as "paymentId", st.session_id as "sessionId", s.merchant_id as "merchantId",
           st.amount_usdc_base_units::text as amount,
           (select coalesce(sum(o.amount_base_units), 0) from payouts o
             where o.merchant_id = s.merchant_id and o.mode = 'live' and o.status <> 'failed'
               and o.created_at > now() - make_interval(hours => ${DAILY_LIMIT_WINDOW_HOURS}))::text as "paidInWindow"
    from settlements st join sessions s on s.id = st.session_id
    where st.part = 'payout' and st.provider = ${TREASURY_PROVIDER} and st.status = 'pending' and s.mode = 'live'
      and not exists (select 1 from payouts p where p.payment_id = st.payment_id)
      and not exists (select 1 from payout_approvals a where a.payment_id = st.payment_id)
    order by st.payment_id`;
  return rows.map((r) => ({ ...r, amount: BigInt(r.amount), paidInWindow: BigInt(r.paidInWindow) }));
}
