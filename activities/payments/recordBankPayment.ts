// A bank transfer is the session's payment of record too: settlement, like every settlement, belongs to
// a payment row. Amounts are kept as the USDC (6-decimal) base units the transfer settles into.
import type { Sql } from '../../db/client';
import { upsertBankPayment } from '../../db/repositories/payments';
import { paymentIdForSession } from '../../domain/wire/ids';

export const BANK_PAYMENT_CHAIN = 'bank';

export function createRecordBankPayment(deps: { sql: Sql }) {
  return async function recordBankPayment(
    sessionId: string,
    expectedUsdCents: string,
    receivedUsdCents: string,
    reference: string,
  ): Promise<void> {
    const toUsdc = (cents: string) => (BigInt(cents) * 10_000n).toString();
    await upsertBankPayment(deps.sql, {
      paymentId: paymentIdForSession(sessionId),
      sessionId,
      chain: BANK_PAYMENT_CHAIN,
      reference,
      expectedBaseUnits: toUsdc(expectedUsdCents),
      receivedBaseUnits: toUsdc(receivedUsdCents),
    });
  };
}
