// What happened to one session, for the dashboard's detail page: its status changes, the deposits the
// indexers saw for it with what the ledger owes back from each, and its settlement.
import type { Chain } from '../../domain/chains/chains';
import type { Queryable } from '../client';
import { refundDueOf } from './collectorSweeps';

export interface StatusChange {
  from: string | null;
  to: string;
  at: Date;
  /** The workflow's reason; null where the writer gave none. */
  reason: string | null;
}

export interface DepositRecord {
  chain: Chain;
  network: 'mainnet' | 'testnet';
  txHash: string;
  logIndex: number;
  token: string;
  amountBaseUnits: bigint;
  fromAddress: string;
  blockNumber: bigint;
  stage: string;
  confirmations: number;
  credited: boolean;
  late: boolean;
  /** What the ledger posts as owed back to the customer from this deposit (refund_due:<chain>); 0 until posted. */
  refundDueBaseUnits: bigint;
  seenAt: Date;
}

export interface SettlementRecord {
  provider: string;
  reference: string;
  /** The payout's gross. */
  amountUsdcBaseUnits: bigint;
  /** What the payout netted from the merchant's receivable (docs/refunds.md#funding); zero for none. */
  nettedUsdcBaseUnits: bigint;
  /** The operator's fee the payout deducted (docs/settlement.md#fees); zero for none. */
  feeUsdcBaseUnits: bigint;
  chain: string;
  settledAt: Date;
}

/** Why the session is in its status now: its last change's reason, or a note since (a settlement awaiting liquidity). */
export async function findStatusReason(sql: Queryable, sessionId: string): Promise<string | null> {
  const [row] = await sql<{ status_reason: string | null }[]>`select status_reason from sessions where id = ${sessionId}`;
  return row?.status_reason ?? null;
}

export async function listStatusChanges(sql: Queryable, sessionId: string): Promise<StatusChange[]> {
  const rows = await sql<{ from_status: string | null; to_status: string; at: Date; reason: string | null }[]>`
    select from_status, to_status, at, reason from session_status_changes where session_id = ${sessionId} order by id`;
  return rows.map((r) => ({ from: r.from_status, to: r.to_status, at: r.at, reason: r.reason }));
}

export async function listSessionDeposits(sql: Queryable, sessionId: string): Promise<DepositRecord[]> {
  const rows = await sql<
    {
      chain: Chain;
      network: 'mainnet' | 'testnet';
      tx_hash: string;
      log_index: number;
      token: string;
      amount_base_units: string;
      from_address: string;
      block_number: string;
      stage: string;
      confirmations: number;
      credited: boolean;
      late: boolean;
      refund_due: string;
      created_at: Date;
    }[]
  >`select d.chain, d.network, d.tx_hash, d.log_index, d.token, d.amount_base_units::text, d.from_address, d.block_number::text, d.stage, d.confirmations,
           d.credited, d.late, (${refundDueOf(sql)})::text as refund_due, d.created_at
    from deposits d where d.session_id = ${sessionId} order by d.created_at, d.tx_hash, d.log_index`;
  return rows.map((r) => ({
    chain: r.chain,
    network: r.network,
    txHash: r.tx_hash,
    logIndex: r.log_index,
    token: r.token,
    amountBaseUnits: BigInt(r.amount_base_units),
    fromAddress: r.from_address,
    blockNumber: BigInt(r.block_number),
    stage: r.stage,
    confirmations: r.confirmations,
    credited: r.credited,
    late: r.late,
    refundDueBaseUnits: BigInt(r.refund_due),
    seenAt: r.created_at,
  }));
}

/** The payout, or a session paid by bank transfer alone its bank part. */
export async function findSettlement(sql: Queryable, sessionId: string): Promise<SettlementRecord | undefined> {
  const [row] = await sql<
    { provider: string; reference: string; amount_usdc_base_units: string; netted: string; fee: string; chain: string; settled_at: Date }[]
  >`
    select s.provider, s.reference, s.amount_usdc_base_units::text, s.chain, s.settled_at,
           coalesce(case when s.part = 'payout' then p.netted_base_units end, 0)::text as netted,
           coalesce(case when s.part = 'payout' then p.fee_base_units end, 0)::text as fee
    from settlements s left join payouts p on p.payment_id = s.payment_id
    where s.session_id = ${sessionId} and s.status = 'settled'
    order by s.part = 'payout' desc limit 1`;
  return (
    row && {
      provider: row.provider,
      reference: row.reference,
      amountUsdcBaseUnits: BigInt(row.amount_usdc_base_units),
      nettedUsdcBaseUnits: BigInt(row.netted),
      feeUsdcBaseUnits: BigInt(row.fee),
      chain: row.chain,
      settledAt: row.settled_at,
    }
  );
}
