// The ledger's side of a session's deposits (docs/settlement.md#who-owns-each-unit). A confirmed deposit is posted to
// deposits:<chain> when the workflow records its verdict: credited, its units that pay the price are pending for the
// merchant and the rest owed back to the customer; kept for a refund, all of it is owed back. When the signer accepts
// the payment's payout, the pending units become what the merchant is owed (domain/ledger/depositPostings.ts).
import type { Chain, TokenSymbol } from '../../domain/chains/chains';
import type { Network } from '../../domain/chains/tokenContracts';
import { creditPostings, settlementPostings, type PaymentDeposit } from '../../domain/ledger/depositPostings';
import { depositCreditedGroup, unmatchedDepositCredited } from '../../domain/ledger/creditedUnmatchedPosting';
import { depositReference, refundOnlyDepositReceived } from '../../domain/ledger/ledger';
import { depositShares, type QuotedPrice } from '../../domain/settlement/unitOwnership';
import type { DepositRef } from '../../domain/session/deposit';
import { networkForMode } from '../../domain/session/payablePairs';
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';
import { postLedger } from './ledger';

/** A payment's confirmed, credited deposits in the order they arrived, and the price they were quoted at. */
async function creditedDeposits(
  sql: Queryable,
  paymentId: string,
): Promise<{ deposits: PaymentDeposit[]; price: QuotedPrice } | undefined> {
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
  if (!first) return undefined;
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
  return { deposits, price };
}

/**
 * Posts each confirmed deposit credited to the payment as held at its deposit address, the part paying the price
 * pending for the merchant and the excess owed back to the customer (docs/settlement.md#who-owns-each-unit); a
 * deposit already posted keeps its postings, so calling again is a no-op.
 */
export async function postCreditedDeposits(sql: Queryable, paymentId: string): Promise<void> {
  const credited = await creditedDeposits(sql, paymentId);
  if (credited) await postCredits(sql, credited);
}

/**
 * A deposit whose group is posted already is skipped whole: one kept for a refund and credited afterwards has its
 * group as it was kept, and the credit in a group of its own (postCreditedUnmatchedDeposit).
 */
async function postCredits(sql: Queryable, credited: { deposits: PaymentDeposit[]; price: QuotedPrice }): Promise<void> {
  const postings = creditPostings(credited.deposits, credited.price);
  const posted = await sql<Array<{ group_id: string }>>`
    select distinct group_id from ledger_entries where group_id = any(${postings.map((p) => p.groupId)})`;
  const known = new Set(posted.map((r) => r.group_id));
  for (const posting of postings) if (!known.has(posting.groupId)) await postLedger(sql, posting);
}

/**
 * Posts the credit of a deposit first kept for a refund and credited to the payment since
 * (docs/refunds.md#crediting-an-unmatched-deposit): its share of the price as the payment's credited deposits split it
 * in the order they arrived, moved from refund_due to pending for the merchant. The deposit must be marked credited
 * first; posting again is a no-op.
 */
export async function postCreditedUnmatchedDeposit(sql: Queryable, paymentId: string, ref: DepositRef): Promise<void> {
  const credited = await creditedDeposits(sql, paymentId);
  const index = credited?.deposits.findIndex((d) => depositReference(d) === depositReference(ref)) ?? -1;
  if (!credited || index < 0) throw new Error(`deposit ${depositReference(ref)} is not credited to payment ${paymentId}`);
  const shares = depositShares(
    credited.deposits.map((d) => d.amount),
    credited.price,
  );
  const deposit = credited.deposits[index]!;
  const posting = unmatchedDepositCredited({ ...deposit, merchantUnits: shares[index]!.merchantBaseUnits });
  if (posting) await postLedger(sql, posting);
}

/**
 * Posts the settlement of the payment's credited deposits when the signer accepts its payout: what each credit left
 * pending for the merchant becomes what the merchant is owed in Solana USDC, in the order they arrived, less what
 * credited bank transfers paid of the price. A deposit whose credit was never posted is posted first; again is a no-op.
 */
export async function postDepositsSettled(sql: Queryable, paymentId: string): Promise<void> {
  const credited = await creditedDeposits(sql, paymentId);
  if (!credited) return;
  await postCredits(sql, credited);
  // What each credit left pending: on arrival in deposit:<…>, for a deposit kept for a refund first in :credited.
  const references = credited.deposits.map(depositReference);
  const pending = await sql<Array<{ reference: string; pending: string }>>`
    select reference, (-sum(amount))::text as pending from ledger_entries
    where group_id = any(${[...references, ...credited.deposits.map(depositCreditedGroup)]}) and account like 'merchant_pending:%'
    group by reference`;
  const byGroup = new Map(pending.map((r) => [r.reference, BigInt(r.pending)]));
  const postings = settlementPostings(
    credited.deposits,
    credited.price,
    credited.deposits.map((d) => byGroup.get(depositReference(d)) ?? 0n),
  );
  for (const posting of postings) if (posting.entries.length > 0) await postLedger(sql, posting);
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

/** Deposits posted per call at most: a backlog is worked off over several runs. */
const UNPOSTED_BATCH = 500;

/**
 * Posts the credit of every confirmed, credited deposit of `mode` that no workflow posted (one credited before credits
 * were posted with the verdict); returns how many payments it posted for.
 */
export async function postUnpostedCreditedDeposits(sql: Queryable, mode: Mode): Promise<number> {
  const payments = await sql<Array<{ id: string }>>`
    select distinct p.id from payments p
    join sessions s on s.id = p.session_id
    join deposits d on d.session_id = p.session_id and d.chain = p.chain and d.token = p.token
    where s.mode = ${mode} and d.network = ${networkForMode(mode)} and d.stage = 'confirmed' and d.credited and d.amount_base_units > 0
      and not exists (select 1 from ledger_entries l where l.group_id = 'deposit:' || d.chain || ':' || d.tx_hash || ':' || d.log_index)
    limit ${UNPOSTED_BATCH}`;
  for (const payment of payments) await postCreditedDeposits(sql, payment.id);
  return payments.length;
}

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
    limit ${UNPOSTED_BATCH}`;
  for (const r of rows) {
    const deposit = { chain: r.chain, token: r.token, txHash: r.tx_hash, logIndex: r.log_index, mode, amount: BigInt(r.amount) };
    await postLedger(sql, refundOnlyDepositReceived(deposit));
  }
  return rows.length;
}
