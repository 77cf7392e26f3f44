// An operator's reissue of an automatic refund that ended unpaid (docs/refunds.md#when-a-refund-ends-unpaid): a new
// refund of the same deposit, one generation on, owed to the customer from what operator_held kept for the old one.
import { refundHandoverGroup, refundReissued } from '../../domain/ledger/refundHandover';
import { judgeRefundReissue } from '../../domain/refunds/refundReissue';
import { UNPAID_MERCHANT_SOURCES } from '../../domain/refunds/refundSource';
import { newRefundId } from '../../domain/wire/ids';
import type { Queryable } from '../client';
import { postLedger } from './ledger';
import { handOverUnpaidRefund, refundMoney } from './refundHandover';
import { depositRefunds, findRefund, insertRefund, toRefund, type Refund, type RefundRow } from './refunds';

export type RefundReissue = { ok: true; refund: Refund; created: boolean } | { ok: false; notFound: boolean; refusal: string };

/**
 * Reissues an automatic refund that ended unpaid: a new refund of the same deposit, source and amount, waiting for a
 * claim until `expiresAt`, with the money the operator held for the old one owed to the customer again. The old one's
 * handover is posted first if its end posted none (a refund that ended before handovers were posted). Once per
 * refund: again, it answers the reissue that stands.
 */
export async function reissueRefund(tx: Queryable, refundId: string, expiresAt: Date): Promise<RefundReissue> {
  const [row] = await tx<RefundRow[]>`
    select *, amount_base_units::text as amount_base_units, amount_usd_micros::text as amount_usd_micros
    from refunds where id = ${refundId} for update`;
  if (!row) return { ok: false, notFound: true, refusal: `no refund ${refundId}` };
  const old = toRefund(row);
  const [deposit] = old.deposit
    ? await tx<{ credited: boolean }[]>`select credited from deposits where chain = ${old.deposit.chain}
        and tx_hash = ${old.deposit.txHash} and log_index = ${old.deposit.logIndex}`
    : [];
  const verdict = judgeRefundReissue(old, deposit?.credited ?? false);
  if (!verdict.ok) return { ok: false, notFound: false, refusal: verdict.refusal };
  const [existing] = await tx<{ id: string }[]>`select id from refunds where reissue_of = ${refundId}`;
  if (existing) return { ok: true, refund: (await findRefund(tx, existing.id)) as Refund, created: false };
  const [handedOver] = await tx`select 1 from ledger_entries where group_id = ${refundHandoverGroup(old.id, verdict.ending)} limit 1`;
  if (!handedOver) await handOverUnpaidRefund(tx, old, verdict.ending);
  // After every refund of the deposit (another source's may have followed the old one: an overpayment once credited).
  const generation = old.deposit
    ? Math.max(...(await depositRefunds(tx, old.deposit, UNPAID_MERCHANT_SOURCES.has(old.source))).map((r) => r.generation)) + 1
    : old.generation + 1;
  const { refund, created } = await insertRefund(tx, {
    id: newRefundId(),
    mode: old.mode,
    merchantId: old.merchantId,
    sessionId: old.sessionId,
    source: old.source,
    deposit: old.deposit,
    token: old.token,
    chain: old.chain,
    amountBaseUnits: old.amountBaseUnits,
    amountUsdMicros: old.amountUsdMicros,
    feePolicy: old.feePolicy,
    requireSenderProof: old.requireSenderProof,
    reason: `reissue of ${old.id}`,
    idempotencyKey: null,
    expiresAt,
    generation,
    reissueOf: old.id,
  });
  if (!created) throw new Error(`refund ${old.id}: its reissue of generation ${generation} already exists`);
  await postLedger(tx, refundReissued(refundMoney(refund)));
  return { ok: true, refund, created: true };
}
