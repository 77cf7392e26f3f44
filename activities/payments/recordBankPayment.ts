// A bank transfer is the session's payment of record too: settlement, like every settlement, belongs to
// a payment row. Amounts are kept as the USDC (6-decimal) base units the transfer settles into.
import type { Sql } from '../../db/client';
import { paymentIdForSession } from '../../domain/wire/ids';

export const BANK_PAYMENT_CHAIN = 'bank';

export function createRecordBankPayment(deps: { sql: Sql }) {
  return async function recordBankPayment(sessionId: string, expectedUsdCents: string, receivedUsdCents: string, reference: string): Promise<void> {
    const toUsdc = (cents: string) => (BigInt(cents) * 10_000n).toString();
    await deps.sql`
      insert into payments (id, session_id, token, chain, deposit_address, expected_base_units, received_base_units, decimals)
      values (${paymentIdForSession(sessionId)}, ${sessionId}, 'USDC', ${BANK_PAYMENT_CHAIN}, ${reference},
              ${toUsdc(expectedUsdCents)}, ${toUsdc(receivedUsdCents)}, 6)
      on conflict (session_id) do update set token = excluded.token, chain = excluded.chain, deposit_address = excluded.deposit_address,
        expected_base_units = excluded.expected_base_units, received_base_units = excluded.received_base_units,
        decimals = excluded.decimals, token_address = null, evm_chain_id = null, updated_at = now()`;
  };
}
