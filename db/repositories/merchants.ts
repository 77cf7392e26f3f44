import type { TokenChainPairs } from '../../domain/chains/chains';
import type { MerchantFee } from '../../domain/settlement/merchantFee';
import { newMerchantId } from '../../domain/wire/ids';
import type { Mode, UnderpaidExpiry } from '../../domain/wire/session';
import type { Sql } from '../client';

export interface Merchant {
  id: string;
  name: string;
  settlementWallet: string | null;
  toleranceBps: number;
  toleranceMinCents: bigint;
  sessionLifetimeSeconds: number;
  supportedTokens: TokenChainPairs;
  /** What a session still underpaid at expiry does: settle what arrived, or refund it to the customer. */
  underpaidExpiry: UnderpaidExpiry;
  /** What the operator keeps of each treasury payout (domain/settlement/merchantFee.ts); set by the operator alone. */
  fee: MerchantFee;
}

export interface NewMerchant {
  name: string;
  settlementWallet?: string;
  toleranceBps?: number;
  toleranceMinCents?: bigint;
  sessionLifetimeSeconds?: number;
  supportedTokens: TokenChainPairs;
  underpaidExpiry?: UnderpaidExpiry;
}

interface MerchantRow {
  id: string;
  name: string;
  settlement_wallet: string | null;
  tolerance_bps: number;
  tolerance_min_cents: bigint;
  session_lifetime_seconds: number;
  supported_tokens: TokenChainPairs;
  underpaid_expiry: UnderpaidExpiry;
  fee_bps: number;
  fee_fixed_cents: bigint;
}

const toMerchant = (r: MerchantRow): Merchant => ({
  id: r.id,
  name: r.name,
  settlementWallet: r.settlement_wallet,
  toleranceBps: r.tolerance_bps,
  toleranceMinCents: r.tolerance_min_cents,
  sessionLifetimeSeconds: r.session_lifetime_seconds,
  supportedTokens: r.supported_tokens,
  underpaidExpiry: r.underpaid_expiry,
  fee: { bps: r.fee_bps, fixedCents: r.fee_fixed_cents },
});

export async function insertMerchant(sql: Sql, merchant: NewMerchant): Promise<Merchant> {
  const [row] = await sql<MerchantRow[]>`
    insert into merchants (id, name, settlement_wallet, tolerance_bps, tolerance_min_cents, session_lifetime_seconds, supported_tokens,
                           underpaid_expiry)
    values (${newMerchantId()}, ${merchant.name}, ${merchant.settlementWallet ?? null}, ${merchant.toleranceBps ?? 50},
            ${(merchant.toleranceMinCents ?? 1n).toString()}, ${merchant.sessionLifetimeSeconds ?? 3600},
            ${sql.json(merchant.supportedTokens as Record<string, string[]>)}, ${merchant.underpaidExpiry ?? 'settle'})
    returning *`;
  return toMerchant(row!);
}

export async function findMerchant(sql: Sql, id: string): Promise<Merchant | undefined> {
  const [row] = await sql<MerchantRow[]>`select * from merchants where id = ${id}`;
  return row && toMerchant(row);
}

/** What creating a session of a merchant reads, in one statement: the merchant, and in `mode` the session already holding `extTransactionId`. */
export interface MerchantForNewSession {
  merchant: Merchant;
  hasActiveBankAccount: boolean;
  existingSessionId: string | undefined;
}

export async function findMerchantForNewSession(
  sql: Sql,
  owner: { merchantId: string; mode: Mode },
  extTransactionId: string,
): Promise<MerchantForNewSession | undefined> {
  const [row] = await sql<(MerchantRow & { has_active_bank_account: boolean; existing_session_id: string | null })[]>`
    select m.*,
           exists (select 1 from bank_accounts b where b.merchant_id = m.id and b.active) as has_active_bank_account,
           (select t.session_id from transactions t
            where t.merchant_id = m.id and t.mode = ${owner.mode} and t.ext_transaction_id = ${extTransactionId}) as existing_session_id
    from merchants m where m.id = ${owner.merchantId}`;
  if (!row) return undefined;
  const { has_active_bank_account, existing_session_id, ...merchant } = row;
  return {
    merchant: toMerchant(merchant),
    hasActiveBankAccount: has_active_bank_account,
    existingSessionId: existing_session_id ?? undefined,
  };
}

export async function findMerchantByName(sql: Sql, name: string): Promise<Merchant | undefined> {
  const [row] = await sql<MerchantRow[]>`select * from merchants where name = ${name} order by created_at limit 1`;
  return row && toMerchant(row);
}

/**
 * Replaces the merchant's webhook signing secret of one mode; the one it replaces keeps signing alongside
 * until `previousUntil` (null: it stops at once). False when there is no such merchant.
 */
export async function rotateWebhookSecret(
  sql: Sql,
  merchantId: string,
  mode: Mode,
  secret: string,
  previousUntil: Date | null,
): Promise<boolean> {
  const rows =
    mode === 'test'
      ? await sql`
          update merchants set webhook_secret_test_previous = case when ${previousUntil}::timestamptz is null then null else webhook_secret_test end,
            webhook_secret_test_previous_until = ${previousUntil}, webhook_secret_test = ${secret}
          where id = ${merchantId} returning id`
      : await sql`
          update merchants set webhook_secret_live_previous = case when ${previousUntil}::timestamptz is null then null else webhook_secret_live end,
            webhook_secret_live_previous_until = ${previousUntil}, webhook_secret_live = ${secret}
          where id = ${merchantId} returning id`;
  return rows.length === 1;
}

/** The merchant's webhook signing secret of one mode: shown by the dev commands for their demo merchant only. */
export async function findWebhookSecret(sql: Sql, merchantId: string, mode: Mode): Promise<string | undefined> {
  const [row] =
    mode === 'test'
      ? await sql<{ secret: string }[]>`select webhook_secret_test as secret from merchants where id = ${merchantId}`
      : await sql<{ secret: string }[]>`select webhook_secret_live as secret from merchants where id = ${merchantId}`;
  return row?.secret;
}

/** What deliveries of one mode are signed with: the current secret and, during a rotation's overlap, the replaced one. */
export async function findSigningSecrets(
  sql: Sql,
  merchantId: string,
  mode: Mode,
): Promise<{ current: string; previous: string | null; previousUntil: Date | null } | undefined> {
  const [row] =
    mode === 'test'
      ? await sql<{ current: string; previous: string | null; until: Date | null }[]>`
          select webhook_secret_test as current, webhook_secret_test_previous as previous, webhook_secret_test_previous_until as until from merchants where id = ${merchantId}`
      : await sql<{ current: string; previous: string | null; until: Date | null }[]>`
          select webhook_secret_live as current, webhook_secret_live_previous as previous, webhook_secret_live_previous_until as until from merchants where id = ${merchantId}`;
  return row && { current: row.current, previous: row.previous, previousUntil: row.until };
}

export interface MerchantSettings {
  toleranceBps: number;
  toleranceMinCents: bigint;
  sessionLifetimeSeconds: number;
  supportedTokens: TokenChainPairs;
  underpaidExpiry: UnderpaidExpiry;
}

/** Applies to sessions created from now on; existing sessions keep what they were created with. */
export async function updateMerchantSettings(sql: Sql, merchantId: string, settings: MerchantSettings): Promise<void> {
  await sql`
    update merchants set tolerance_bps = ${settings.toleranceBps}, tolerance_min_cents = ${settings.toleranceMinCents.toString()},
      session_lifetime_seconds = ${settings.sessionLifetimeSeconds}, supported_tokens = ${sql.json(settings.supportedTokens as Record<string, string[]>)},
      underpaid_expiry = ${settings.underpaidExpiry}
    where id = ${merchantId}`;
}

export async function setSettlementWallet(sql: Sql, merchantId: string, wallet: string): Promise<void> {
  await sql`update merchants set settlement_wallet = ${wallet} where id = ${merchantId}`;
}

/**
 * The operator's fee of the merchant's payouts from now on; payouts already written keep the fee they were written
 * with. Undefined when there is no such merchant, else the fee it had before.
 */
export async function setMerchantFee(sql: Sql, merchantId: string, fee: MerchantFee): Promise<{ before: MerchantFee } | undefined> {
  const [row] = await sql<{ fee_bps: number; fee_fixed_cents: bigint }[]>`
    update merchants m set fee_bps = ${fee.bps}, fee_fixed_cents = ${fee.fixedCents.toString()}
    from (select id, fee_bps, fee_fixed_cents from merchants where id = ${merchantId} for update) old
    where m.id = old.id
    returning old.fee_bps, old.fee_fixed_cents`;
  return row && { before: { bps: row.fee_bps, fixedCents: row.fee_fixed_cents } };
}
