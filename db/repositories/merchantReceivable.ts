// merchant_receivable:<mer_id> as the signer reads it: what a merchant owes for refunds of money already paid out
// (docs/refunds.md#funding). A merchant's refunds and payouts take one lock, so a refund judged against the
// receivable and a payout netting it never both count what the other is writing.
import { ACCOUNT } from '../../domain/ledger/ledger';
import { payoutNettedGroup } from '../../domain/ledger/payoutNettingPosting';
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';
import { lockUntilCommit } from './locks';

/** Held until the caller's transaction ends by whoever reads or moves the merchant's receivable. */
export const lockMerchantReceivable = (tx: Queryable, merchantId: string) => lockUntilCommit(tx, `merchant-receivable:${merchantId}`);

/** The receivable's whole balance in the mode, debits positive: refunds in flight included, as a refund's limit counts them. */
export async function merchantReceivable(tx: Queryable, merchantId: string, mode: Mode): Promise<bigint> {
  const [row] = await tx<{ amount: string }[]>`
    select coalesce(sum(amount), 0)::text as amount from ledger_entries
    where account = ${ACCOUNT.merchantReceivable(merchantId)} and asset = 'usdc:solana' and mode = ${mode}`;
  return BigInt(row?.amount ?? '0');
}

/**
 * What a payout may collect: the receivable's entries in the groups the signer's own rows account for, the
 * reservation and any release of a merchant refund's payment that landed (refund_payouts confirmed or failed) and the
 * nettings of the merchant's payouts. A refund not yet landed is left out, as one that lands and fails takes its
 * reservation back and the merchant would have repaid a debt it no longer has; so is any group no signer row accounts
 * for, as the worker too may post to the ledger.
 */
export async function outstandingReceivable(tx: Queryable, merchantId: string, mode: Mode): Promise<bigint> {
  const [row] = await tx<{ amount: string }[]>`
    select coalesce(sum(le.amount), 0)::text as amount from ledger_entries le
    where le.account = ${ACCOUNT.merchantReceivable(merchantId)} and le.asset = 'usdc:solana' and le.mode = ${mode}
      and (exists (select 1 from refund_payouts rp join refunds r on r.id = rp.refund_id
                   where r.merchant_id = ${merchantId} and rp.status in ('confirmed', 'failed')
                     and le.group_id in (rp.intent_id || ':reserve', rp.intent_id || ':release'))
           or exists (select 1 from payouts p
                      where p.merchant_id = ${merchantId} and p.netted_base_units > 0 and le.group_id = 'payout:' || p.payment_id || ':netted'))`;
  return BigInt(row?.amount ?? '0');
}

/** What the payment's netting group credited its merchant's receivable: zero when it has none. */
export async function postedNetting(tx: Queryable, paymentId: string, merchantId: string): Promise<bigint> {
  const [row] = await tx<{ amount: string }[]>`
    select coalesce(sum(-amount), 0)::text as amount from ledger_entries
    where group_id = ${payoutNettedGroup(paymentId)} and account = ${ACCOUNT.merchantReceivable(merchantId)} and asset = 'usdc:solana'`;
  return BigInt(row?.amount ?? '0');
}
