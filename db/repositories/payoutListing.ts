// What an operator reads about payouts (bin/admin/settlement.ts, bin/admin/treasury.ts): rows joined with their
// chain intent, settlement and ledger, read-only.
import type { Mode } from '../../domain/wire/session';
import type { Queryable } from '../client';
import type { PayoutStatus } from './payouts';

/** A payout not yet on chain after this long is stuck: a payout normally confirms within seconds. */
export const STUCK_AFTER_SECONDS = 120;

export interface PayoutListing {
  paymentId: string;
  sessionId: string;
  merchantId: string;
  mode: Mode;
  amount: bigint;
  status: PayoutStatus;
  signature: string | null;
  treasury: string;
  /** The current generation and its chain intent (docs/settlement.md#what-follows-a-failed-settlement). */
  generation: number;
  intentId: string;
  createdAt: Date;
  ageSeconds: number;
}

interface ListingRow {
  payment_id: string;
  session_id: string;
  merchant_id: string;
  mode: Mode;
  amount: string;
  status: PayoutStatus;
  signature: string | null;
  treasury: string;
  generation: number;
  intent_id: string;
  created_at: Date;
  age_seconds: number;
}

const toListing = (r: ListingRow): PayoutListing => ({
  paymentId: r.payment_id,
  sessionId: r.session_id,
  merchantId: r.merchant_id,
  mode: r.mode,
  amount: BigInt(r.amount),
  status: r.status,
  signature: r.signature,
  treasury: r.treasury,
  generation: r.generation,
  intentId: r.intent_id,
  createdAt: r.created_at,
  ageSeconds: r.age_seconds,
});

/**
 * Newest first. `stuck`: awaiting liquidity or failed, or neither confirmed nor finalized and older than
 * STUCK_AFTER_SECONDS.
 */
export async function listPayouts(sql: Queryable, options: { stuck: boolean; limit: number }): Promise<PayoutListing[]> {
  const rows = await sql<ListingRow[]>`
    select p.payment_id, pm.session_id, p.merchant_id, p.mode, p.amount_base_units::text as amount, p.status, p.signature, p.treasury,
      p.generation, p.intent_id, p.created_at, floor(extract(epoch from now() - p.created_at))::int as age_seconds
    from payouts p join payments pm on pm.id = p.payment_id
    where ${options.stuck}::boolean is false
      or p.status in ('awaiting_liquidity', 'failed')
      or (p.status in ('pending', 'submitted') and p.created_at < now() - make_interval(secs => ${STUCK_AFTER_SECONDS}))
    order by p.created_at desc, p.payment_id desc
    limit ${options.limit}`;
  return rows.map(toListing);
}

export async function findPayoutListing(sql: Queryable, paymentId: string): Promise<PayoutListing | undefined> {
  const [row] = await sql<ListingRow[]>`
    select p.payment_id, pm.session_id, p.merchant_id, p.mode, p.amount_base_units::text as amount, p.status, p.signature, p.treasury,
      p.generation, p.intent_id, p.created_at, floor(extract(epoch from now() - p.created_at))::int as age_seconds
    from payouts p join payments pm on pm.id = p.payment_id
    where p.payment_id = ${paymentId}`;
  return row && toListing(row);
}

export interface IntentDetail {
  id: string;
  status: string;
  signature: string | null;
  supersededSignatures: string[];
  lastValidBlockHeight: string | null;
  /** A payout's durable nonce: the account and the nonce its transaction was signed against. */
  nonceAccount: string | null;
  nonceValue: string | null;
  slot: string | null;
  error: unknown;
  createdAt: Date;
  signedAt: Date | null;
  broadcastAt: Date | null;
  confirmedAt: Date | null;
  finalizedAt: Date | null;
  updatedAt: Date;
}

export async function findIntentDetail(sql: Queryable, id: string): Promise<IntentDetail | undefined> {
  const [row] = await sql<
    {
      id: string;
      status: string;
      signature: string | null;
      superseded_signatures: string[];
      last_valid_block_height: string | null;
      nonce_account: string | null;
      nonce_value: string | null;
      slot: string | null;
      error: unknown;
      created_at: Date;
      signed_at: Date | null;
      broadcast_at: Date | null;
      confirmed_at: Date | null;
      finalized_at: Date | null;
      updated_at: Date;
    }[]
  >`select id, status, signature, superseded_signatures, last_valid_block_height::text, nonce_account, nonce_value, slot::text, error, created_at, signed_at, broadcast_at,
      confirmed_at, finalized_at, updated_at from chain_intents where id = ${id}`;
  return (
    row && {
      id: row.id,
      status: row.status,
      signature: row.signature,
      supersededSignatures: row.superseded_signatures,
      lastValidBlockHeight: row.last_valid_block_height,
      nonceAccount: row.nonce_account,
      nonceValue: row.nonce_value,
      slot: row.slot,
      error: row.error,
      createdAt: row.created_at,
      signedAt: row.signed_at,
      broadcastAt: row.broadcast_at,
      confirmedAt: row.confirmed_at,
      finalizedAt: row.finalized_at,
      updatedAt: row.updated_at,
    }
  );
}

export interface SettlementRowDetail {
  paymentId: string;
  sessionId: string;
  provider: string;
  status: 'pending' | 'settled';
  reference: string | null;
  amountUsdcBaseUnits: string;
  settledAt: Date | null;
}

export async function findSettlementRow(sql: Queryable, paymentId: string): Promise<SettlementRowDetail | undefined> {
  const [row] = await sql<
    {
      payment_id: string;
      session_id: string;
      provider: string;
      status: 'pending' | 'settled';
      reference: string | null;
      amount: string;
      settled_at: Date | null;
    }[]
  >`
    select payment_id, session_id, provider, status, reference, amount_usdc_base_units::text as amount, settled_at from settlements where payment_id = ${paymentId} and part = 'payout'`;
  return (
    row && {
      paymentId: row.payment_id,
      sessionId: row.session_id,
      provider: row.provider,
      status: row.status,
      reference: row.reference,
      amountUsdcBaseUnits: row.amount,
      settledAt: row.settled_at,
    }
  );
}

export interface LedgerEntryDetail {
  groupId: string;
  account: string;
  asset: string;
  amount: string;
  createdAt: Date;
}

/** The ledger entries a payout posted: every group is referenced by its chain intent id (payout:<pay_id>). */
export async function ledgerEntriesFor(sql: Queryable, reference: string): Promise<LedgerEntryDetail[]> {
  const rows = await sql<{ group_id: string; account: string; asset: string; amount: string; created_at: Date }[]>`
    select group_id, account, asset, amount::text as amount, created_at from ledger_entries where reference = ${reference} order by id`;
  return rows.map((r) => ({ groupId: r.group_id, account: r.account, asset: r.asset, amount: r.amount, createdAt: r.created_at }));
}

export interface TreasuryModeStatus {
  mode: Mode;
  treasuries: string[];
  /** USDC of payouts neither confirmed, finalized nor failed: promised and not yet paid. */
  reserved: bigint;
  waiting: { status: PayoutStatus; count: number; amount: bigint; oldestAgeSeconds: number }[];
}

/** Per mode: what unconfirmed payouts hold back, and the payouts waiting by status with the oldest's age. */
export async function treasuryStatus(sql: Queryable): Promise<TreasuryModeStatus[]> {
  const rows = await sql<{ mode: Mode; status: PayoutStatus; count: number; amount: string; oldest_age_seconds: number }[]>`
    select mode, status, count(*)::int as count, sum(amount_base_units)::text as amount,
      floor(extract(epoch from now() - min(created_at)))::int as oldest_age_seconds
    from payouts where status in ('pending', 'awaiting_liquidity', 'submitted', 'failed') group by mode, status order by mode, status`;
  const all = await sql<
    { mode: Mode; treasuries: string[] }[]
  >`select mode, array_agg(distinct treasury order by treasury) as treasuries from payouts group by mode`;
  return (['test', 'live'] as const).map((mode) => {
    const waiting = rows
      .filter((r) => r.mode === mode)
      .map((r) => ({ status: r.status, count: r.count, amount: BigInt(r.amount), oldestAgeSeconds: r.oldest_age_seconds }));
    return {
      mode,
      treasuries: all.find((r) => r.mode === mode)?.treasuries ?? [],
      reserved: waiting.filter((w) => w.status !== 'failed').reduce((sum, w) => sum + w.amount, 0n),
      waiting,
    };
  });
}
