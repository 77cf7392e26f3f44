// payouts: one row per payment (db/migrations/0001_baseline.sql), its current generation: the first, or the one an
// operator started after a payout landed and failed (0002_payout_generations.sql; earlier ones are in failed_payouts).
// The row fixes amount, mint and wallet before any transaction is signed; its status follows the payout's chain intent.
// A payout the merchant's receivable took whole (0010_payout_netting.sql) is `netted`: no chain intent, nothing signed.
import { payoutIntentId } from '../../domain/chainWrites/solanaChainIntent';
import { payoutReserved } from '../../domain/ledger/ledger';
import type { Mode } from '../../domain/wire/session';
import type { Queryable, Sql } from '../client';
import { insertChainIntent } from './chainIntents';
import { postLedger } from './ledger';

export type PayoutStatus = 'pending' | 'awaiting_liquidity' | 'submitted' | 'confirmed' | 'finalized' | 'failed' | 'netted';

export interface Payout {
  paymentId: string;
  merchantId: string;
  mode: Mode;
  /** What the payment's deposits owe the merchant: the payout's gross. */
  amount: bigint;
  /** The part of `amount` that repaid the merchant's receivable; the transaction moves the rest (docs/refunds.md#funding). */
  netted: bigint;
  /** The operator's fee deducted from `amount`, fixed as the row was written (docs/settlement.md#fees). */
  fee: bigint;
  mint: string;
  treasury: string;
  merchantWallet: string;
  /** Null for a payout netted whole, which has no transaction. */
  intentId: string | null;
  /** 1, or more once an operator paid a failed payout again. */
  generation: number;
  status: PayoutStatus;
  signature: string | null;
  confirmedAt: Date | null;
  finalizedAt: Date | null;
  /** The landed transaction's block time, as the chain records it (db/migrations/0001_baseline.sql). */
  blockTime: Date | null;
}

interface PayoutRow {
  payment_id: string;
  merchant_id: string;
  mode: Mode;
  amount_base_units: string;
  netted_base_units: string;
  fee_base_units: string;
  mint: string;
  treasury: string;
  merchant_wallet: string;
  intent_id: string | null;
  generation: number;
  status: PayoutStatus;
  signature: string | null;
  confirmed_at: Date | null;
  finalized_at: Date | null;
  block_time: Date | null;
}

const toPayout = (r: PayoutRow): Payout => ({
  paymentId: r.payment_id,
  merchantId: r.merchant_id,
  mode: r.mode,
  amount: BigInt(r.amount_base_units),
  netted: BigInt(r.netted_base_units),
  fee: BigInt(r.fee_base_units),
  mint: r.mint,
  treasury: r.treasury,
  merchantWallet: r.merchant_wallet,
  intentId: r.intent_id,
  generation: r.generation,
  status: r.status,
  signature: r.signature,
  confirmedAt: r.confirmed_at,
  finalizedAt: r.finalized_at,
  blockTime: r.block_time,
});

export type NewPayout = Pick<
  Payout,
  'paymentId' | 'merchantId' | 'mode' | 'amount' | 'netted' | 'fee' | 'mint' | 'treasury' | 'merchantWallet' | 'intentId'
>;

/**
 * Inserts the payout unless the payment has one; either way returns the one row the payment has. One without a chain
 * intent is netted whole (its fee and netting took all of it): it is written complete.
 */
export async function insertPayout(sql: Queryable, payout: NewPayout): Promise<Payout> {
  const netted = payout.intentId === null;
  await sql`
    insert into payouts (payment_id, merchant_id, mode, amount_base_units, netted_base_units, fee_base_units, mint, treasury, merchant_wallet,
                         intent_id, status, confirmed_at)
    values (${payout.paymentId}, ${payout.merchantId}, ${payout.mode}, ${payout.amount.toString()}, ${payout.netted.toString()},
            ${payout.fee.toString()}, ${payout.mint},
            ${payout.treasury}, ${payout.merchantWallet}, ${payout.intentId}, ${netted ? 'netted' : 'pending'}, case when ${netted} then now() end)
    on conflict (payment_id) do nothing`;
  return (await findPayout(sql, payout.paymentId)) as Payout;
}

export async function findPayout(sql: Queryable, paymentId: string): Promise<Payout | undefined> {
  const [row] = await sql<
    PayoutRow[]
  >`select *, amount_base_units::text as amount_base_units, netted_base_units::text as netted_base_units, fee_base_units::text as fee_base_units
    from payouts where payment_id = ${paymentId}`;
  return row && toPayout(row);
}

/**
 * The merchant a payment's session belongs to and that merchant's settlement wallet now: what a payout's row must
 * still name when its transaction is signed (domain/settlement/payoutBinding.ts).
 */
export async function paymentMerchantWallet(
  sql: Queryable,
  paymentId: string,
): Promise<{ merchantId: string; settlementWallet: string | null } | undefined> {
  const [row] = await sql<Array<{ merchantId: string; settlementWallet: string | null }>>`
    select s.merchant_id as "merchantId", m.settlement_wallet as "settlementWallet"
    from payments p join sessions s on s.id = p.session_id join merchants m on m.id = s.merchant_id
    where p.id = ${paymentId}`;
  return row;
}

export async function setPayoutStatus(sql: Queryable, paymentId: string, status: PayoutStatus, signature: string | null): Promise<void> {
  await sql`
    update payouts set status = ${status}, signature = ${signature},
      confirmed_at = case when ${status} in ('confirmed', 'finalized') then coalesce(confirmed_at, now()) end,
      finalized_at = case when ${status} = 'finalized' then coalesce(finalized_at, now()) end, updated_at = now()
    where payment_id = ${paymentId} and status not in ('finalized', 'failed', 'netted')`;
}

export async function setPayoutBlockTime(sql: Queryable, paymentId: string, blockTime: Date): Promise<void> {
  await sql`update payouts set block_time = coalesce(block_time, ${blockTime}) where payment_id = ${paymentId}`;
}

/**
 * Payouts and refunds from `treasury` whose transaction is signed and has not landed, other than the intent
 * `exceptIntentId`: their USDC is spoken for even though the treasury's balance still holds it.
 */
export async function treasuryTransfersInFlight(
  sql: Queryable,
  treasury: string,
  exceptIntentId: string,
): Promise<{ count: number; amount: bigint }> {
  const [row] = await sql<{ count: number; amount: string }[]>`
    select count(*)::int as count, coalesce(sum(t.amount), 0)::text as amount from (
      select p.amount_base_units - p.netted_base_units - p.fee_base_units as amount, p.intent_id from payouts p where p.treasury = ${treasury}
      union all
      select r.amount_base_units, r.intent_id from refund_payouts r where r.treasury = ${treasury}
    ) t join chain_intents i on i.id = t.intent_id
    where t.intent_id <> ${exceptIntentId} and i.status in ('signed', 'broadcast')`;
  return { count: row?.count ?? 0, amount: BigInt(row?.amount ?? '0') };
}

/**
 * An operator's decision to pay a payout that landed and failed again: in one transaction the failed generation is
 * kept in failed_payouts, the payment's row becomes the next generation (pending, same amount, netting, fee, wallet
 * and treasury, its own chain intent), and that generation reserves what its transfer pays, which the failed one's
 * release returned: the netting and the fee stood. Undefined, changing nothing, unless the payment's payout is failed.
 */
export async function startNextPayoutGeneration(sql: Sql, paymentId: string, repaidBy: string): Promise<Payout | undefined> {
  return sql.begin(async (tx) => {
    const [failed] = await tx<PayoutRow[]>`
      select *, amount_base_units::text as amount_base_units, netted_base_units::text as netted_base_units, fee_base_units::text as fee_base_units
      from payouts where payment_id = ${paymentId} and status = 'failed' for update`;
    if (!failed) return undefined;
    const generation = failed.generation + 1;
    const intentId = payoutIntentId(paymentId, generation);
    await tx`
      insert into failed_payouts (payment_id, generation, merchant_id, mode, amount_base_units, netted_base_units, fee_base_units, mint, treasury,
                                  merchant_wallet, intent_id, signature, repaid_by)
      select payment_id, generation, merchant_id, mode, amount_base_units, netted_base_units, fee_base_units, mint, treasury, merchant_wallet,
             intent_id, signature, ${repaidBy}
      from payouts where payment_id = ${paymentId}`;
    await insertChainIntent(tx, intentId);
    await tx`
      update payouts set generation = ${generation}, intent_id = ${intentId}, status = 'pending', signature = null,
        confirmed_at = null, finalized_at = null, block_time = null, created_at = now(), updated_at = now()
      where payment_id = ${paymentId}`;
    const next = (await findPayout(tx, paymentId)) as Payout;
    await postLedger(tx, payoutReserved(next));
    return next;
  });
}
