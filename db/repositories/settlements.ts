// settlements: one payout part per payment, written pending before its provider moves any money and settled from what
// the provider answered, so a retry after a crash finishes the same settlement with the same provider; and, for a
// session paid by bank transfer, one bank part, settled as it is written (the merchant's account holds that money).
import type { Queryable } from '../client';

export interface SettlementRow {
  status: 'pending' | 'settled';
  provider: string;
  reference: string | null;
  amount_usdc_base_units: string;
  settled_at: Date | null;
  /** What the payment's payout netted from its merchant's receivable, as the signer wrote it; '0' without a payout. */
  netted_usdc_base_units: string;
  /** The operator's fee the payment's payout deducted, as the signer wrote it (docs/settlement.md#fees); '0' without a payout. */
  fee_usdc_base_units: string;
}

export async function findSettlement(sql: Queryable, paymentId: string): Promise<SettlementRow | undefined> {
  const [row] = await sql<SettlementRow[]>`
    select s.status, s.provider, s.reference, s.amount_usdc_base_units, s.settled_at,
           coalesce(p.netted_base_units, 0)::text as netted_usdc_base_units, coalesce(p.fee_base_units, 0)::text as fee_usdc_base_units
    from settlements s left join payouts p on p.payment_id = s.payment_id
    where s.payment_id = ${paymentId} and s.part = 'payout'`;
  return row;
}

/** The pending row, unless the payment has one already (whichever provider began it). */
export async function insertPendingSettlement(
  sql: Queryable,
  row: { paymentId: string; sessionId: string; provider: string; amountUsdcBaseUnits: string },
): Promise<void> {
  await sql`
    insert into settlements (payment_id, session_id, provider, amount_usdc_base_units, status)
    values (${row.paymentId}, ${row.sessionId}, ${row.provider}, ${row.amountUsdcBaseUnits}, 'pending')
    on conflict (payment_id, part) do nothing`;
}

/** Settles a pending row (only `provider`'s, when given); a settled one keeps what it first recorded. */
export async function settlePendingSettlement(
  sql: Queryable,
  paymentId: string,
  settled: { reference: string; amountUsdcBaseUnits: string; settledAt: Date | string },
  provider?: string,
): Promise<void> {
  await sql`
    update settlements
    set status = 'settled', reference = ${settled.reference}, amount_usdc_base_units = ${settled.amountUsdcBaseUnits}, settled_at = ${settled.settledAt}
    where payment_id = ${paymentId} and part = 'payout' ${provider === undefined ? sql`` : sql`and provider = ${provider}`} and status = 'pending'`;
}

/**
 * Hands a pending settlement from the provider `from` to `to`, only while nothing can have been paid under it: no
 * payout row, which is written before anything is signed. True if it was handed over.
 */
export async function takeOverUnpaidSettlement(sql: Queryable, paymentId: string, from: string, to: string): Promise<boolean> {
  const taken = await sql`
    update settlements set provider = ${to}
    where payment_id = ${paymentId} and part = 'payout' and provider = ${from} and status = 'pending'
      and not exists (select 1 from payouts where payment_id = ${paymentId})`;
  return taken.count === 1;
}

/** The bank part, settled once: a retry, or a second settlement of the session, keeps what was first recorded. */
export async function insertBankSettlement(
  sql: Queryable,
  row: { paymentId: string; sessionId: string; provider: string; reference: string; amountUsdcBaseUnits: string; settledAt: Date },
): Promise<SettlementRow> {
  await sql`
    insert into settlements (payment_id, session_id, part, provider, reference, amount_usdc_base_units, chain, settled_at, status)
    values (${row.paymentId}, ${row.sessionId}, 'bank', ${row.provider}, ${row.reference}, ${row.amountUsdcBaseUnits}, 'bank',
            ${row.settledAt}, 'settled')
    on conflict (payment_id, part) do nothing`;
  const [settled] = await sql<SettlementRow[]>`
    select status, provider, reference, amount_usdc_base_units, settled_at, '0' as netted_usdc_base_units, '0' as fee_usdc_base_units
    from settlements where payment_id = ${row.paymentId} and part = 'bank'`;
  return settled!;
}
