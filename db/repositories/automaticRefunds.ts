// What the refunds the service opens by itself are made from (docs/refunds.md#sources): a confirmed deposit of a session
// kept for a refund, and the excess each credited deposit posted as owed back to the customer
// (domain/ledger/ledger.ts depositCredited). Read in the transaction that records the deposit's verdict.
import type { Chain, TokenSymbol } from '../../domain/chains/chains';
import type { Network } from '../../domain/chains/tokenContracts';
import type { DepositRef } from '../../domain/session/deposit';
import { SMALLEST_REFUNDABLE_DEPOSITS, UNMATCHED_DEPOSIT_SOURCES } from '../../domain/refunds/automaticRefund';
import { networkForMode } from '../../domain/session/payablePairs';
import type { SessionStatus } from '../../domain/wire/status';
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';

export interface OwedDeposit extends DepositRef {
  token: TokenSymbol;
  mode: Mode;
  merchantId: string;
  /** What is owed back: all of an uncredited deposit, the excess of a credited one. */
  owedBaseUnits: bigint;
}

export interface UncreditedDeposit extends OwedDeposit {
  session: { status: SessionStatus; expiresAt: Date; payment: { chain: Chain; token: TokenSymbol } | null };
}

/**
 * A confirmed deposit of the session that was never credited, in a token a refund can be owed in; undefined while it
 * is still confirming (it may yet leave the chain) or once credited, as postRefundOnlyDeposit posts it.
 */
export async function uncreditedDeposit(
  sql: Queryable,
  sessionId: string,
  network: Network,
  ref: DepositRef,
): Promise<UncreditedDeposit | undefined> {
  const [row] = await sql<
    Array<{
      token: TokenSymbol;
      mode: Mode;
      merchant_id: string;
      amount: string;
      status: SessionStatus;
      expires_at: Date;
      pay_chain: Chain | null;
      pay_token: TokenSymbol | null;
    }>
  >`
    select d.token, s.mode, s.merchant_id, d.amount_base_units::text as amount, s.status, s.expires_at,
           p.chain as pay_chain, p.token as pay_token
    from deposits d join sessions s on s.id = d.session_id left join payments p on p.session_id = s.id
    where d.chain = ${ref.chain} and d.tx_hash = ${ref.txHash} and d.log_index = ${ref.logIndex} and d.network = ${network}
      and d.session_id = ${sessionId} and d.stage = 'confirmed' and d.late and not d.credited and d.amount_base_units > 0
      and d.token in ('USDC', 'USDT')`;
  if (!row) return undefined;
  return {
    chain: ref.chain,
    txHash: ref.txHash,
    logIndex: ref.logIndex,
    token: row.token,
    mode: row.mode,
    merchantId: row.merchant_id,
    owedBaseUnits: BigInt(row.amount),
    session: {
      status: row.status,
      expiresAt: row.expires_at,
      payment: row.pay_chain && row.pay_token ? { chain: row.pay_chain, token: row.pay_token } : null,
    },
  };
}

export interface DepositWithoutRefund extends DepositRef {
  sessionId: string;
  token: TokenSymbol;
  amountBaseUnits: bigint;
}

/**
 * Confirmed deposits of `mode` kept for a refund (those uncreditedDeposit finds) that no automatic refund returns yet,
 * oldest first: the indexer marked them late after their session's workflow ended, or they were kept before refunds
 * were opened with the verdict. One worth less than a micro-dollar is passed over: no refund can return it.
 */
export async function depositsWithoutRefund(sql: Queryable, mode: Mode, limit: number): Promise<DepositWithoutRefund[]> {
  const rows = await sql<
    Array<{ session_id: string; chain: Chain; tx_hash: string; log_index: number; token: TokenSymbol; amount: string }>
  >`
    select d.session_id, d.chain, d.tx_hash, d.log_index, d.token, d.amount_base_units::text as amount
    from deposits d join sessions s on s.id = d.session_id
    join unnest(${SMALLEST_REFUNDABLE_DEPOSITS.map((m) => m.chain)}::text[], ${SMALLEST_REFUNDABLE_DEPOSITS.map((m) => m.token)}::text[],
                ${SMALLEST_REFUNDABLE_DEPOSITS.map((m) => m.baseUnits.toString())}::numeric[]) as m (chain, token, smallest)
      on m.chain = d.chain and m.token = d.token
    where s.mode = ${mode} and d.network = ${networkForMode(mode)} and d.stage = 'confirmed' and d.late and not d.credited
      and d.amount_base_units >= m.smallest
      and not exists (select 1 from refunds r
                      where r.deposit_chain = d.chain and r.deposit_tx_hash = d.tx_hash and r.deposit_log_index = d.log_index
                        and r.source not in ('merchant', 'underpaid_expired', 'settlement_failed'))
    order by d.block_number, d.tx_hash, d.log_index
    limit ${limit}`;
  return rows.map((r) => ({
    sessionId: r.session_id,
    chain: r.chain,
    txHash: r.tx_hash,
    logIndex: r.log_index,
    token: r.token,
    amountBaseUnits: BigInt(r.amount),
  }));
}

/** `mode`'s refunds of deposits kept for a refund still waiting for the customer's claim. */
export async function unclaimedDepositRefunds(sql: Queryable, mode: Mode): Promise<Array<{ id: string; mode: Mode }>> {
  return sql<Array<{ id: string; mode: Mode }>>`
    select id, mode from refunds
    where mode = ${mode} and status = 'pending_claim' and source = any(${[...UNMATCHED_DEPOSIT_SOURCES]}::text[])
    order by created_at, id`;
}

type OwedRow = { chain: Chain; tx_hash: string; log_index: number; token: TokenSymbol; mode: Mode; merchant_id: string; owed: string };

const owedDeposit = (r: OwedRow): OwedDeposit => ({
  chain: r.chain,
  txHash: r.tx_hash,
  logIndex: r.log_index,
  token: r.token,
  mode: r.mode,
  merchantId: r.merchant_id,
  owedBaseUnits: BigInt(r.owed),
});

/**
 * The session's credited deposits whose ledger groups deposit:<…><suffixes> left units owed back to the customer, and
 * those units. Of the excess (no suffix): a deposit kept for a refund and credited since posted all of it as owed back
 * on arrival, and its :credited group took back the share that pays the price; what is left is its excess.
 */
async function owedBack(sql: Queryable, sessionId: string, suffixes: readonly string[]): Promise<OwedDeposit[]> {
  const rows = await sql<OwedRow[]>`
    select d.chain, d.tx_hash, d.log_index, d.token, s.mode, s.merchant_id, (-sum(l.amount))::text as owed
    from deposits d join sessions s on s.id = d.session_id
    join ledger_entries l on l.account = 'refund_due:' || d.chain
      and l.group_id in (select 'deposit:' || d.chain || ':' || d.tx_hash || ':' || d.log_index || suffix from unnest(${suffixes as string[]}::text[]) suffix)
    where d.session_id = ${sessionId} and d.stage = 'confirmed' and d.credited
    group by d.chain, d.tx_hash, d.log_index, d.token, s.mode, s.merchant_id, d.block_number
    having sum(l.amount) < 0
    order by d.block_number, d.tx_hash, d.log_index`;
  return rows.map(owedDeposit);
}

/** The session's credited deposits whose credit posted an excess owed back to the customer, and that excess. */
export const creditedExcesses = (sql: Queryable, sessionId: string) => owedBack(sql, sessionId, ['', ':credited']);

/** The session's credited deposits whose pending units were made owed back to the customer (pendingDepositRefunded), and those units. */
export const refundedPendingDeposits = (sql: Queryable, sessionId: string) => owedBack(sql, sessionId, [':refunded']);

/**
 * The session's credited deposits and what each still holds pending for the merchant: what its credit posted to
 * merchant_pending:<chain> (deposit:<…>, or :credited for one kept for a refund first), less what its settlement or its
 * refund took (:settled, :refunded).
 */
export async function pendingCreditedDeposits(sql: Queryable, sessionId: string): Promise<OwedDeposit[]> {
  const rows = await sql<OwedRow[]>`
    select d.chain, d.tx_hash, d.log_index, d.token, s.mode, s.merchant_id, (-coalesce(sum(l.amount), 0))::text as owed
    from deposits d join sessions s on s.id = d.session_id
    left join ledger_entries l on l.account = 'merchant_pending:' || d.chain
      and l.group_id in ('deposit:' || d.chain || ':' || d.tx_hash || ':' || d.log_index,
                         'deposit:' || d.chain || ':' || d.tx_hash || ':' || d.log_index || ':credited',
                         'deposit:' || d.chain || ':' || d.tx_hash || ':' || d.log_index || ':settled',
                         'deposit:' || d.chain || ':' || d.tx_hash || ':' || d.log_index || ':refunded')
    where d.session_id = ${sessionId} and d.stage = 'confirmed' and d.credited
    group by d.chain, d.tx_hash, d.log_index, d.token, s.mode, s.merchant_id, d.block_number
    order by d.block_number, d.tx_hash, d.log_index`;
  return rows.map(owedDeposit);
}
