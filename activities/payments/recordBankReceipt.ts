// A bank transfer marked received, kept as its own row whatever the session makes of it: credited, or refund due
// (docs/lifecycle.md#bank-transfers). A credited one also gives a session without a chosen payment its payment of
// record, for its settlement to belong to; a chosen one is never replaced.
import type { Sql } from '../../db/client';
import { insertBankReceipt } from '../../db/repositories/bankReceipts';
import { recordBankPaymentRow } from '../../db/repositories/payments';
import type { BankTransferReceipt } from '../../domain/session/sessionState';
import { paymentIdForSession } from '../../domain/wire/ids';

export const BANK_PAYMENT_CHAIN = 'bank';

export interface BankReceiptRecord {
  sessionId: string;
  receipt: BankTransferReceipt;
  /** Credited to the session, with the session's amount and its credited bank total; absent: refund due. */
  credited?: { expectedUsdCents: string; creditedUsdCents: string };
}

const toUsdc = (cents: string) => (BigInt(cents) * 10_000n).toString();

export function createRecordBankReceipt(deps: { sql: Sql }) {
  return async function recordBankReceipt({ sessionId, receipt, credited }: BankReceiptRecord): Promise<void> {
    await deps.sql.begin(async (tx) => {
      await insertBankReceipt(tx, { sessionId, ...receipt, credited: credited !== undefined });
      if (!credited) return;
      await recordBankPaymentRow(tx, {
        paymentId: paymentIdForSession(sessionId),
        sessionId,
        chain: BANK_PAYMENT_CHAIN,
        reference: receipt.reference,
        expectedBaseUnits: toUsdc(credited.expectedUsdCents),
        receivedBaseUnits: toUsdc(credited.creditedUsdCents),
      });
    });
  };
}
