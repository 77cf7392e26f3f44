// What a refund's webhooks say beyond the refund itself (docs/refunds.md#webhooks): its session, as session events name
// it, where they go, and the signer's payment once it wrote one.
import type { Metadata, Mode } from '../../domain/wire/session';
import type { RefundPaymentFacts } from '../../domain/refunds/refundJson';
import type { RefundSessionFacts } from '../../domain/webhooks/refundWebhookPayload';
import type { Queryable } from '../client';

export interface RefundAnnouncementFacts {
  session: RefundSessionFacts;
  mode: Mode;
  webhookUrl: string;
  payment: RefundPaymentFacts | null;
}

export async function refundAnnouncementFacts(sql: Queryable, refundId: string): Promise<RefundAnnouncementFacts | undefined> {
  const [row] = await sql<
    Array<{
      session_id: string;
      ext_transaction_id: string;
      metadata: Metadata;
      mode: Mode;
      webhook_url: string;
      fee: string | null;
      signature: string | null;
      payout_status: string | null;
    }>
  >`
    select s.id as session_id, t.ext_transaction_id, s.metadata, s.mode, s.webhook_url,
           p.fee_base_units::text as fee, p.signature, p.status as payout_status
    from refunds r join sessions s on s.id = r.session_id join transactions t on t.session_id = s.id
    left join refund_payouts p on p.refund_id = r.id
    where r.id = ${refundId}`;
  if (!row) return undefined;
  return {
    session: { sessionId: row.session_id, extTransactionId: row.ext_transaction_id, metadata: row.metadata },
    mode: row.mode,
    webhookUrl: row.webhook_url,
    payment:
      row.fee === null ? null : { feeBaseUnits: BigInt(row.fee), signature: row.signature, confirmed: row.payout_status === 'confirmed' },
  };
}
