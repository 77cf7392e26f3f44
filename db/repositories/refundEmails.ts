// A refund's customer e-mails (db/migrations/0011_refund_customer_email.sql): the address the merchant gave, and when
// each e-mail went out (docs/refunds.md#e-mail-to-the-customer). The claim e-mail is stamped by the API, the reminder
// by the worker; no row holds the claim link.
import type { RefundEmailFacts, RefundEmailKind } from '../../domain/refunds/refundEmail';
import type { RefundStatus } from '../../domain/refunds/refundStatus';
import type { Queryable } from '../client';

export async function refundEmailFacts(sql: Queryable, refundId: string): Promise<RefundEmailFacts | undefined> {
  const [row] = await sql<
    {
      status: RefundStatus;
      amount_usd_micros: string;
      expires_at: Date;
      customer_email: string | null;
      merchant_name: string | null;
      claim_emailed_at: Date | null;
      reminder_emailed_at: Date | null;
    }[]
  >`select r.status, r.amount_usd_micros::text, r.expires_at, r.customer_email, m.name as merchant_name, r.claim_emailed_at,
           r.reminder_emailed_at
    from refunds r left join merchants m on m.id = r.merchant_id
    where r.id = ${refundId}`;
  return (
    row && {
      status: row.status,
      amountUsdMicros: BigInt(row.amount_usd_micros),
      expiresAt: row.expires_at,
      customerEmail: row.customer_email,
      merchantName: row.merchant_name,
      claimEmailedAt: row.claim_emailed_at,
      reminderEmailedAt: row.reminder_emailed_at,
    }
  );
}

/** Stamps the e-mail sent; false when it already was. */
export async function markRefundEmailed(sql: Queryable, refundId: string, kind: RefundEmailKind): Promise<boolean> {
  const stamped =
    kind === 'claim'
      ? await sql`update refunds set claim_emailed_at = now() where id = ${refundId} and claim_emailed_at is null`
      : await sql`update refunds set reminder_emailed_at = now() where id = ${refundId} and reminder_emailed_at is null`;
  return stamped.count === 1;
}
