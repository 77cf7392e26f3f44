// What `checkout-admin ledger explain` and `refund show` read: the ledger entries of one payment (its deposits'
// postings, its refunds', and every posting whose reference or group names the payment or its session) or of one
// refund, and the sweeps that took from a session's deposit addresses, whose postings cover a whole batch.
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';

export interface PaymentLedgerEntry {
  groupId: string;
  reference: string;
  mode: Mode;
  account: string;
  asset: string;
  amount: bigint;
  createdAt: Date;
}

type EntryRow = { group_id: string; reference: string; mode: Mode; account: string; asset: string; amount: string; created_at: Date };

const toEntry = (r: EntryRow): PaymentLedgerEntry => ({
  groupId: r.group_id,
  reference: r.reference,
  mode: r.mode,
  account: r.account,
  asset: r.asset,
  amount: BigInt(r.amount),
  createdAt: r.created_at,
});

/**
 * The entries of the session's deposits (`deposit:<chain>:<tx>:<index>`), of its refunds (`refund:<ref_id>:…`, which
 * name neither the session nor the payment) and of every group whose reference or id contains the payment's or the
 * session's id (payout:<pay_id>:…, and any posting that names them), in posting order. A scan of ledger_entries: an
 * operator's question, not a hot path.
 */
export async function paymentLedgerEntries(sql: Queryable, sessionId: string, paymentId: string): Promise<PaymentLedgerEntry[]> {
  const rows = await sql<EntryRow[]>`
    select group_id, reference, mode, account, asset, amount::text as amount, created_at from ledger_entries
    where reference in (select 'deposit:' || chain || ':' || tx_hash || ':' || log_index from deposits where session_id = ${sessionId})
       or (group_id like 'refund:%' and split_part(group_id, ':', 2) in (select id from refunds where session_id = ${sessionId}))
       or strpos(reference, ${paymentId}) > 0 or strpos(reference, ${sessionId}) > 0
       or strpos(group_id, ${paymentId}) > 0 or strpos(group_id, ${sessionId}) > 0
    order by id`;
  return rows.map(toEntry);
}

/** The entries of one refund's groups (`refund:<ref_id>:reserve|sent|release|expired|…`), in posting order. */
export async function refundLedgerEntries(sql: Queryable, refundId: string): Promise<PaymentLedgerEntry[]> {
  const rows = await sql<EntryRow[]>`
    select group_id, reference, mode, account, asset, amount::text as amount, created_at from ledger_entries
    where group_id like ${`refund:${refundId}:%`} order by id`;
  return rows.map(toEntry);
}

export interface DepositAddressSweep {
  sweepId: string;
  chain: string;
  token: string;
  status: string;
  address: string;
  planned: bigint;
  /** What the landed sweep took from the address; null until it lands. */
  swept: bigint | null;
}

/** The Solana and collector sweeps that planned to take from the session's deposit addresses. */
export async function sessionDepositSweeps(sql: Queryable, sessionId: string): Promise<DepositAddressSweep[]> {
  const rows = await sql<
    { sweep_id: string; chain: string; token: string; status: string; address: string; planned: string; swept: string | null }[]
  >`
    select s.id as sweep_id, 'solana' as chain, 'USDC' as token, s.status, a.owner as address,
           a.planned_base_units::text as planned, a.swept_base_units::text as swept, s.created_at
    from solana_sweep_accounts a join solana_sweeps s on s.id = a.sweep_id
    join deposit_addresses d on d.solana_address = a.owner and d.session_id = ${sessionId}
    union all
    select c.id, c.chain, c.token, c.status, a.address, a.planned_base_units::text, a.swept_base_units::text, c.created_at
    from collector_sweep_addresses a join collector_sweeps c on c.id = a.sweep_id where a.session_id = ${sessionId}
    order by created_at`;
  return rows.map((r) => ({
    sweepId: r.sweep_id,
    chain: r.chain,
    token: r.token,
    status: r.status,
    address: r.address,
    planned: BigInt(r.planned),
    swept: r.swept === null ? null : BigInt(r.swept),
  }));
}
