// The ledger's side of a payment's deposits: once a payment is settled from the treasury, its confirmed deposits
// credited to it are what deposits:<chain> holds for the merchant until a sweep empties their addresses
// (domain/ledger/depositPostings.ts).
import type { Chain, TokenSymbol } from '../../domain/chains/chains';
import { depositPostings } from '../../domain/ledger/depositPostings';
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';
import { postLedger } from './ledger';

/** Posts what each confirmed, credited deposit of the payment's session holds for the merchant; again is a no-op. */
export async function postDepositsReceived(sql: Queryable, paymentId: string): Promise<void> {
  const rows = await sql<
    Array<{
      chain: Chain;
      token: TokenSymbol;
      tx_hash: string;
      log_index: number;
      merchant_id: string;
      mode: Mode;
      amount: string;
      decimals: number;
    }>
  >`
    select d.chain, d.token, d.tx_hash, d.log_index, s.merchant_id, s.mode, d.amount_base_units::text as amount, p.decimals
    from payments p
    join sessions s on s.id = p.session_id
    join deposits d on d.session_id = p.session_id and d.chain = p.chain and d.token = p.token
    where p.id = ${paymentId} and d.stage = 'confirmed' and d.credited and d.amount_base_units > 0
    order by d.tx_hash, d.log_index`;
  const deposits = rows.map((r) => ({
    chain: r.chain,
    token: r.token,
    txHash: r.tx_hash,
    logIndex: r.log_index,
    merchantId: r.merchant_id,
    mode: r.mode,
    amount: BigInt(r.amount),
  }));
  for (const posting of depositPostings(deposits, rows[0]?.decimals ?? 6)) await postLedger(sql, posting);
}
