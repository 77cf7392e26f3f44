// The ledger's side of a Solana USDC deposit: once a payment is settled from the treasury, its confirmed deposits
// credited to it are what deposits:solana holds for the merchant until a sweep empties their accounts.
import { depositReceived } from '../../domain/ledger';
import type { Mode } from '../../domain/session';
import type { Queryable } from '../client';
import { postLedger } from './ledger';

/** Posts depositReceived for each confirmed, credited Solana USDC deposit of the payment's session; again is a no-op. */
export async function postSolanaDepositsReceived(sql: Queryable, paymentId: string): Promise<void> {
  const deposits = await sql<Array<{ tx_hash: string; log_index: number; merchant_id: string; mode: Mode; amount: string }>>`
    select d.tx_hash, d.log_index, s.merchant_id, s.mode, d.amount_base_units::text as amount
    from payments p
    join sessions s on s.id = p.session_id
    join deposits d on d.session_id = p.session_id
    where p.id = ${paymentId} and d.chain = 'solana' and d.token = 'USDC' and d.stage = 'confirmed' and d.credited and d.amount_base_units > 0
    order by d.tx_hash, d.log_index`;
  for (const d of deposits) await postLedger(sql, depositReceived({ txHash: d.tx_hash, logIndex: d.log_index, merchantId: d.merchant_id, mode: d.mode, amount: BigInt(d.amount) }));
}
