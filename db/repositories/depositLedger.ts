// The ledger's side of a session's deposits. Once a payment is settled from the treasury, its confirmed deposits
// credited to it are what deposits:<chain> holds for the merchant, and for the customer where they brought more than
// the price, until a sweep empties their addresses (domain/ledger/depositPostings.ts). A confirmed deposit that was
// never credited is held for the customer alone (refund_due:<chain>).
import type { Chain, TokenSymbol } from '../../domain/chains/chains';
import type { Network } from '../../domain/chains/tokenContracts';
import { depositPostings } from '../../domain/ledger/depositPostings';
import { refundOnlyDepositReceived } from '../../domain/ledger/ledger';
import type { DepositRef } from '../../domain/session/deposit';
import { networkForMode } from '../../domain/session/payablePairs';
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';
import { postLedger } from './ledger';

/**
 * Posts what each confirmed, credited deposit of the payment's session holds, and for whom; again is a no-op. In the
 * order they arrived: the first pay the price (less what credited bank transfers paid of it), what comes after it is
 * the excess.
 */
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
      expected: string;
      amount_usd_cents: string;
      bank_cents: string;
    }>
  >`
    select d.chain, d.token, d.tx_hash, d.log_index, s.merchant_id, s.mode, d.amount_base_units::text as amount, p.decimals,
           p.expected_base_units::text as expected, s.amount_usd_cents::text as amount_usd_cents,
           (select coalesce(sum(b.amount_usd_cents), 0) from bank_receipts b where b.session_id = s.id and b.credited)::text as bank_cents
    from payments p
    join sessions s on s.id = p.session_id
    join deposits d on d.session_id = p.session_id and d.chain = p.chain and d.token = p.token
    where p.id = ${paymentId} and d.stage = 'confirmed' and d.credited and d.amount_base_units > 0
    order by d.block_number, d.tx_hash, d.log_index`;
  const [first] = rows;
  if (!first) return;
  const deposits = rows.map((r) => ({
    chain: r.chain,
    token: r.token,
    txHash: r.tx_hash,
    logIndex: r.log_index,
    merchantId: r.merchant_id,
    mode: r.mode,
    amount: BigInt(r.amount),
  }));
  const price = {
    amountUsdCents: BigInt(first.amount_usd_cents),
    expectedBaseUnits: BigInt(first.expected),
    decimals: first.decimals,
    bankCents: BigInt(first.bank_cents),
  };
  for (const posting of depositPostings(deposits, price)) await postLedger(sql, posting);
}

/**
 * Posts a confirmed deposit of the session that was never credited as owed back to its sender; a deposit still
 * confirming (it may yet leave the chain) or credited posts nothing, and posting again is a no-op.
 */
export async function postRefundOnlyDeposit(sql: Queryable, sessionId: string, network: Network, ref: DepositRef): Promise<void> {
  const [row] = await sql<Array<{ chain: Chain; token: TokenSymbol; mode: Mode; amount: string }>>`
    select d.chain, d.token, s.mode, d.amount_base_units::text as amount
    from deposits d join sessions s on s.id = d.session_id
    where d.chain = ${ref.chain} and d.tx_hash = ${ref.txHash} and d.log_index = ${ref.logIndex} and d.network = ${network}
      and d.session_id = ${sessionId} and d.stage = 'confirmed' and d.late and not d.credited and d.amount_base_units > 0`;
  if (!row) return;
  await postLedger(
    sql,
    refundOnlyDepositReceived({
      chain: row.chain,
      token: row.token,
      txHash: ref.txHash,
      logIndex: ref.logIndex,
      mode: row.mode,
      amount: BigInt(row.amount),
    }),
  );
}

/** Refund-only deposits posted per call at most: a backlog is worked off over several runs. */
const REFUND_ONLY_BATCH = 500;

/**
 * Posts every confirmed deposit of `mode` kept for a refund that is not posted yet, also those the indexer marked late
 * after the session's workflow ended, which no workflow records; returns how many it posted.
 */
export async function postRefundOnlyDeposits(sql: Queryable, mode: Mode): Promise<number> {
  const rows = await sql<Array<{ chain: Chain; token: TokenSymbol; tx_hash: string; log_index: number; amount: string }>>`
    select d.chain, d.token, d.tx_hash, d.log_index, d.amount_base_units::text as amount
    from deposits d join sessions s on s.id = d.session_id
    where s.mode = ${mode} and d.network = ${networkForMode(mode)} and d.stage = 'confirmed' and d.late and not d.credited
      and d.amount_base_units > 0 and d.token in ('USDC', 'USDT')
      and not exists (select 1 from ledger_entries l where l.group_id = 'deposit:' || d.chain || ':' || d.tx_hash || ':' || d.log_index)
    order by d.block_number, d.tx_hash, d.log_index
    limit ${REFUND_ONLY_BATCH}`;
  for (const r of rows) {
    const deposit = { chain: r.chain, token: r.token, txHash: r.tx_hash, logIndex: r.log_index, mode, amount: BigInt(r.amount) };
    await postLedger(sql, refundOnlyDepositReceived(deposit));
  }
  return rows.length;
}
