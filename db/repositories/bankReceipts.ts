// bank_receipts: every bank transfer marked received for a session, once per reference, credited to it or kept as
// refund due. The merchant's own account holds all of them; the refund-due ones are owed back to the customer.
import type { Queryable } from '../client';

export interface BankReceiptRow {
  reference: string;
  amountUsdCents: string;
  receivedBy: string;
  credited: boolean;
  recordedAt: Date;
}

/** Once per reference: a retried write, or the same transfer marked again, keeps the first row. True if written. */
export async function insertBankReceipt(
  sql: Queryable,
  receipt: { sessionId: string; reference: string; amountUsdCents: string; receivedBy: string; credited: boolean },
): Promise<boolean> {
  const written = await sql`
    insert into bank_receipts (session_id, reference, amount_usd_cents, received_by, credited)
    values (${receipt.sessionId}, ${receipt.reference}, ${receipt.amountUsdCents}, ${receipt.receivedBy}, ${receipt.credited})
    on conflict (session_id, reference) do nothing`;
  return written.count === 1;
}

export async function listBankReceipts(sql: Queryable, sessionId: string): Promise<BankReceiptRow[]> {
  const rows = await sql<{ reference: string; amount: string; received_by: string; credited: boolean; recorded_at: Date }[]>`
    select reference, amount_usd_cents::text as amount, received_by, credited, recorded_at
    from bank_receipts where session_id = ${sessionId} order by recorded_at, reference`;
  return rows.map((r) => ({
    reference: r.reference,
    amountUsdCents: r.amount,
    receivedBy: r.received_by,
    credited: r.credited,
    recordedAt: r.recorded_at,
  }));
}
