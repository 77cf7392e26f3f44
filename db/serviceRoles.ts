// Least-privilege database roles for the service's processes. Migrations run as the schema
// owner; the api, the worker, the signer, the webhook worker and the indexer each log in as their own role,
// which reads only the tables (or columns) its code reads and writes only the tables its code writes. The
// deposit facts (amount, block, stage, confirmations) belong to the indexer alone: the worker may only record its
// verdict (credited, late), so no workflow activity, and nobody holding the worker's credentials, can make up a
// deposit. What the signer signs from (payouts, chain intents, nonces, sweeps, transfers, the Solana address
// pool) is the signer's alone to write, so neither the webhook worker, which connects to merchant-chosen URLs,
// nor the session worker can plant a row the signer would sign.
//
// The roles themselves are made by the operator, with passwords (docker-compose's Postgres init script, or
// by hand on a managed server); migrate grants to the ones that exist, every run, so a table added by a
// later migration is covered the moment it exists.
import { ConfigError } from '../config/env';
import type { Queryable } from './client';

export const SERVICE_ROLES = ['checkout_api', 'checkout_worker', 'checkout_indexer', 'checkout_signer', 'checkout_webhooks'] as const;
export type ServiceRole = (typeof SERVICE_ROLES)[number];

type Write = 'insert' | 'update' | 'delete';

/** Columns that limit an `insert` or an `update` to them: a column left out of an insert takes its default. */
type ColumnWrite = { insert: readonly string[] } | { update: readonly string[] };

/** Per role, the tables it writes and how; an array of columns limits `insert` or `update` to those columns. */
export const ROLE_WRITES: Record<ServiceRole, Record<string, ReadonlyArray<Write | ColumnWrite>>> = {
  checkout_api: {
    api_keys: ['insert', 'update'],
    auth_failure_windows: ['insert', 'update'],
    audit_events: ['insert'],
    bank_accounts: ['insert', 'update'],
    dashboard_sessions: ['insert', 'update', 'delete'],
    idempotency_keys: ['insert', 'update', 'delete'],
    merchant_users: ['insert', 'update'],
    // A merchant's own settings and webhook secrets (api/dashboard/routes/); never its fee, which only the operator sets
    // (checkout-admin merchant set-fee, docs/settlement.md#fees).
    merchants: [
      'insert',
      {
        update: [
          'tolerance_bps',
          'tolerance_min_cents',
          'session_lifetime_seconds',
          'supported_tokens',
          'underpaid_expiry',
          'settlement_wallet',
          'webhook_secret_test',
          'webhook_secret_live',
          'webhook_secret_test_previous',
          'webhook_secret_test_previous_until',
          'webhook_secret_live_previous',
          'webhook_secret_live_previous_until',
        ],
      },
    ],
    merchant_session_token_rate_limit_windows: ['insert', 'update'],
    quotes: ['insert'],
    rate_limit_windows: ['insert', 'update'],
    // A merchant's refund, a customer's claim of where to send one, a cancellation (api/routes/refunds/).
    refunds: [
      'insert',
      {
        update: [
          'status',
          'status_reason',
          'destination_chain',
          'destination_token',
          'destination_address',
          'sender_proof',
          'claimed_at',
          'updated_at',
          // The claim e-mail, which only the API can write: the link in it is signed with its secret (api/routes/refunds/).
          'claim_emailed_at',
        ],
      },
    ],
    session_rate_limit_windows: ['insert', 'update'],
    sign_in_rate_limit_windows: ['insert', 'update'],
    sessions: ['insert', 'update'],
    // Written by the triggers on sessions, which run with the writer's rights.
    in_progress_session_counts: ['insert', 'update'],
    session_status_changes: ['insert'],
    transactions: ['insert'],
    user_invites: ['insert', 'update'],
    webhook_test_events: ['insert'],
  },
  checkout_worker: {
    // Bank transfers marked received (activities/payments/recordBankReceipt.ts).
    bank_receipts: ['insert'],
    // The Solana address is filled in once, from the signer's derivation (db/migrations/0001_baseline.sql).
    deposit_addresses: ['insert', { update: ['solana_address'] }],
    deposit_watches: ['insert', 'update'],
    deposits: [{ update: ['credited', 'late', 'updated_at'] }],
    // Credited deposits are posted as the workflow credits them (db/repositories/depositLedger.ts); append-only.
    ledger_entries: ['insert'],
    payments: ['insert', 'update'],
    quotes: ['insert', 'delete'],
    // Refunds the service owes by itself, each refund's progress (workflows/refund.ts), and when its customer was
    // reminded (activities/refunds/refundEmails.ts).
    // Never where a refund goes: those columns are the claim's, which only the API writes, so a refund the worker
    // inserts waits for a claim (the status defaults to pending_claim, and any later one needs a destination).
    refunds: [
      {
        insert: [
          'id',
          'mode',
          'merchant_id',
          'session_id',
          'source',
          'deposit_chain',
          'deposit_tx_hash',
          'deposit_log_index',
          'token',
          'chain',
          'amount_base_units',
          'amount_usd_micros',
          'fee_policy',
          'require_sender_proof',
          'reason',
          'idempotency_key',
          'expires_at',
          'generation',
          'reissue_of',
          'customer_email',
        ],
      },
      { update: ['status', 'status_reason', 'completed_at', 'updated_at', 'reminder_emailed_at'] },
    ],
    // The scheduled reconciliation's reports (worker/reconciliationSweeper.ts).
    reconciliation_runs: ['insert'],
    // The workflow records a session's status, never whose or how much it is: the signer pays the merchant and prices the
    // payout from those columns (domain/settlement/payoutBinding.ts).
    sessions: ['insert', { update: ['status', 'status_version', 'status_reason', 'updated_at', 'pending_workflow_input'] }],
    // Both written by the triggers on sessions.
    in_progress_session_counts: ['insert', 'update'],
    session_status_changes: ['insert'],
    settlements: ['insert', 'update'],
    transactions: ['insert'],
    // A delivery is written by the session workflow (workflows/announceStatus.ts); its attempts and its outcome are
    // the webhook worker's. markWebhookFailed is registered here too but runs on the webhook queue.
    webhook_deliveries: ['insert'],
    // The retention sweep (worker/retentionSweeper.ts).
    webhook_attempts: ['delete'],
    idempotency_keys: ['delete'],
    rate_limit_windows: ['delete'],
    session_rate_limit_windows: ['delete'],
    auth_failure_windows: ['delete'],
    merchant_session_token_rate_limit_windows: ['delete'],
    webhook_test_events: ['delete'],
  },
  checkout_indexer: {
    deposit_watches: [{ update: ['backfilled_at'] }],
    deposits: ['insert', 'update'],
    indexer_block_hashes: ['insert', 'update', 'delete'],
    indexer_cursors: ['insert', 'update', 'delete'],
  },
  // The signer worker (activities/signer.ts): everything it signs is written ahead by it, and by nobody else.
  checkout_signer: {
    payouts: ['insert', 'update'],
    chain_intents: ['insert', 'update'],
    // A refund's payment, written ahead like a payout (signer/refunds/).
    refund_payouts: ['insert', 'update'],
    // The relayers' nonces, taken as an EVM chain intent is signed (signer/chainWrites/evmChainWriter.ts).
    evm_nonces: ['insert', 'update'],
    collector_sweeps: ['insert', 'update'],
    collector_sweep_addresses: ['insert', { update: ['swept_base_units'] }],
    solana_sweeps: ['insert', 'update'],
    solana_sweep_accounts: ['insert', { update: ['swept_base_units'] }],
    // Forwarder addresses whose sweep reverts in simulation, counted by the sweep's plan; a passing one is deleted.
    sweep_address_failures: ['insert', 'update', 'delete'],
    // The treasuries' durable nonce accounts, provisioned and handed to payouts (signer/payouts/payoutNonces.ts).
    solana_nonce_accounts: ['insert', 'update'],
    // CCTP transfers (signer/transfers/).
    transfers: ['insert', 'update'],
    // Held inventory withdrawals an operator asked for: the signer writes their intent and outcome (signer/inventory/).
    inventory_withdrawals: [{ update: ['status', 'intent_id', 'tx_hash', 'failure', 'updated_at'] }],
    // USDT swaps to USDC in a collector (signer/swaps/).
    swaps: ['insert', 'update'],
    // The relayers' gas balances, read at each sweep run (signer/sweeps/relayerBalance.ts).
    relayer_balances: ['insert', 'update'],
    // Solana deposit addresses derived ahead (signer/depositAddresses/solanaAddressPool.ts).
    solana_deposit_address_pool: ['insert'],
    // The fingerprint of its seed's xpubs, published at start (signer/fingerprint.ts).
    signer_fingerprints: ['insert', 'update'],
    // Payouts, sweeps and transfers post their movements; append-only.
    ledger_entries: ['insert'],
  },
  // The webhook worker (activities/webhooks/webhookActivities.ts): it records its attempts and their outcome.
  checkout_webhooks: {
    webhook_attempts: ['insert'],
    webhook_deliveries: [{ update: ['state', 'delivered_at'] }],
  },
};

/** Every column of a table, or only those listed. */
type Read = '*' | readonly string[];

/**
 * Per role, the tables (or columns) it reads, as its code does: a table absent here cannot be read at all. A write
 * reads too where it has a WHERE, RETURNING or ON CONFLICT, and so do the triggers it fires, which run with the
 * writer's rights.
 */
export const ROLE_READS: Record<ServiceRole, Record<string, Read>> = {
  checkout_api: {
    api_keys: '*',
    audit_events: '*',
    auth_failure_windows: '*',
    bank_accounts: '*',
    bank_receipts: '*',
    dashboard_sessions: '*',
    deposit_addresses: '*',
    deposits: '*',
    idempotency_keys: '*',
    in_progress_session_counts: '*',
    // Sign-in: the only role that reads password hashes and TOTP secrets.
    merchant_users: '*',
    merchant_session_token_rate_limit_windows: '*',
    merchants: '*',
    payments: '*',
    quotes: '*',
    rate_limit_windows: '*',
    session_rate_limit_windows: '*',
    session_status_changes: '*',
    sessions: '*',
    settlements: '*',
    sign_in_rate_limit_windows: '*',
    refunds: '*',
    refund_payouts: '*',
    // A refund is never sent to a Solana deposit address, a session's or one derived ahead (api/routes/refunds/).
    solana_deposit_address_pool: '*',
    transactions: '*',
    user_invites: '*',
    webhook_attempts: '*',
    webhook_deliveries: '*',
    webhook_test_events: '*',
    // The treasury, sweep and transfer gauges of /metrics (observability/treasuryMetrics.ts, evmSweepMetrics.ts,
    // transferMetrics.ts) and the reconciliation report: read, never written.
    chain_intents: '*',
    collector_sweep_addresses: '*',
    collector_sweeps: '*',
    ledger_entries: '*',
    payouts: '*',
    reconciliation_runs: '*',
    relayer_balances: '*',
    transfers: '*',
  },
  checkout_worker: {
    bank_receipts: '*',
    deposit_addresses: '*',
    // The trigger on deposit_watches stamps the indexer's cursor on each new watch (db/migrations/0001_baseline.sql).
    indexer_cursors: '*',
    deposit_watches: '*',
    deposits: '*',
    idempotency_keys: '*',
    in_progress_session_counts: '*',
    ledger_entries: '*',
    payments: '*',
    // A settlement is handed to another provider only while no payout exists, and says what its payout netted from the
    // merchant's receivable and the operator's fee it deducted (db/repositories/settlements.ts).
    payouts: ['payment_id', 'netted_base_units', 'fee_base_units'],
    quotes: '*',
    reconciliation_runs: '*',
    refunds: '*',
    refund_payouts: '*',
    // Who refunds, named in the customer's reminder (activities/refunds/refundEmails.ts); not the merchant's secrets.
    merchants: ['id', 'name'],
    // The reconciliation counts swept and gas balances (db/repositories/reconciliation.ts), and held-inventory
    // withdrawals that left a collector and are not posted yet (db/repositories/inventoryWithdrawals.ts): their
    // amounts and their chain intents' status, not what was signed.
    collector_sweep_addresses: '*',
    collector_sweeps: '*',
    relayer_balances: '*',
    inventory_withdrawals: ['mode', 'chain', 'token', 'amount', 'status', 'intent_id'],
    chain_intents: ['id', 'status'],
    session_status_changes: '*',
    sessions: '*',
    settlements: '*',
    // A session's Solana address comes from the pool the signer fills (db/repositories/depositAddresses.ts).
    solana_deposit_address_pool: '*',
    // Its live xpubs are checked against the live signer's before a live address is derived (domain/addresses/xpubFingerprint.ts).
    signer_fingerprints: '*',
    transactions: '*',
    webhook_attempts: '*',
    webhook_deliveries: '*',
    // The retention sweep picks expired rows by their time.
    auth_failure_windows: '*',
    merchant_session_token_rate_limit_windows: '*',
    rate_limit_windows: '*',
    session_rate_limit_windows: '*',
    webhook_test_events: '*',
  },
  checkout_indexer: {
    deposit_watches: '*',
    deposits: '*',
    indexer_block_hashes: '*',
    indexer_cursors: '*',
  },
  checkout_signer: {
    // A payout is refused unless confirmed deposits back it (signer/backing/depositBacking.ts), and settles
    // the merchant's pending part of the credited deposits (db/repositories/depositLedger.ts).
    bank_receipts: '*',
    deposits: '*',
    payments: '*',
    sessions: '*',
    settlements: '*',
    deposit_addresses: '*',
    ledger_entries: '*',
    // The merchant's settlement wallet (findMerchant reads the whole row).
    merchants: '*',
    chain_intents: '*',
    collector_sweep_addresses: '*',
    collector_sweeps: '*',
    evm_nonces: '*',
    // An operator's approval of a payout above the merchant's daily limit (signer/backing/dailyLimit.ts); the schema
    // owner writes it (checkout-admin settlement approve).
    payout_approvals: '*',
    payouts: '*',
    relayer_balances: '*',
    solana_deposit_address_pool: '*',
    // A refund is paid only as its row and the indexer's facts bear out (signer/refunds/).
    refunds: '*',
    refund_payouts: '*',
    solana_sweep_accounts: '*',
    sweep_address_failures: '*',
    solana_nonce_accounts: '*',
    solana_sweeps: '*',
    signer_fingerprints: '*',
    transfers: '*',
    inventory_withdrawals: '*',
    swaps: '*',
  },
  checkout_webhooks: {
    webhook_deliveries: '*',
    // Numbered per delivery: the next attempt is the highest so far plus one.
    webhook_attempts: ['delivery_id', 'attempt'],
    // What a delivery is signed with: its session's mode and merchant, that merchant's webhook secrets.
    sessions: ['id', 'mode', 'merchant_id'],
    merchants: [
      'id',
      'webhook_secret_test',
      'webhook_secret_live',
      'webhook_secret_test_previous',
      'webhook_secret_test_previous_until',
      'webhook_secret_live_previous',
      'webhook_secret_live_previous_until',
    ],
  },
};

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The statements that give `role` exactly its rights, starting from none. */
export function grantStatements(role: ServiceRole): string[] {
  const r = quoteIdent(role);
  const statements = [
    `revoke all on all tables in schema public from ${r}`,
    `grant usage on schema public to ${r}`,
    `grant usage, select on all sequences in schema public to ${r}`,
  ];
  for (const [table, read] of Object.entries(ROLE_READS[role])) {
    statements.push(
      read === '*'
        ? `grant select on ${quoteIdent(table)} to ${r}`
        : `grant select (${read.map(quoteIdent).join(', ')}) on ${quoteIdent(table)} to ${r}`,
    );
  }
  for (const [table, writes] of Object.entries(ROLE_WRITES[role])) {
    for (const write of writes) {
      statements.push(
        typeof write === 'string'
          ? `grant ${write} on ${quoteIdent(table)} to ${r}`
          : 'insert' in write
            ? `grant insert (${write.insert.map(quoteIdent).join(', ')}) on ${quoteIdent(table)} to ${r}`
            : `grant update (${write.update.map(quoteIdent).join(', ')}) on ${quoteIdent(table)} to ${r}`,
      );
    }
  }
  return statements;
}

/** Grants each existing service role its rights; roles the operator has not made are skipped. */
export async function grantServiceRoles(sql: Queryable): Promise<ServiceRole[]> {
  const existing = new Set(
    (await sql<{ rolname: string }[]>`select rolname from pg_roles where rolname = any(${SERVICE_ROLES as unknown as string[]})`).map(
      (r) => r.rolname,
    ),
  );
  const granted = SERVICE_ROLES.filter((role) => existing.has(role));
  for (const role of granted) for (const statement of grantStatements(role)) await sql.unsafe(statement);
  return granted;
}

/**
 * The rights `role` is granted that the user `sql` logs in as lacks, as `insert on payouts` or `select (id) on
 * merchants`: none when it is that role, or the owner. A process given another role's DATABASE_URL, or started
 * before migrate granted its role, would otherwise fail at its first write.
 */
export async function missingRoleRights(sql: Queryable, role: ServiceRole): Promise<string[]> {
  const checks: Array<{ table: string; column: string | null; privilege: string }> = [];
  for (const [table, writes] of Object.entries(ROLE_WRITES[role])) {
    for (const write of writes) {
      if (typeof write === 'string') checks.push({ table, column: null, privilege: write });
      else if ('insert' in write) for (const column of write.insert) checks.push({ table, column, privilege: 'insert' });
      else for (const column of write.update) checks.push({ table, column, privilege: 'update' });
    }
  }
  for (const [table, read] of Object.entries(ROLE_READS[role])) {
    if (read === '*') checks.push({ table, column: null, privilege: 'select' });
    else for (const column of read) checks.push({ table, column, privilege: 'select' });
  }
  const rows = await sql<{ table: string; column: string | null; privilege: string }[]>`
    select c.tbl as table, c.col as column, c.priv as privilege
    from unnest(${checks.map((c) => c.table)}::text[], ${checks.map((c) => c.column)}::text[], ${checks.map((c) => c.privilege)}::text[])
      with ordinality as c(tbl, col, priv, n)
    where not case when c.col is null then has_table_privilege(quote_ident(c.tbl), c.priv)
                   else has_column_privilege(quote_ident(c.tbl), c.col, c.priv) end
    order by c.n`;
  // The columns of one table and privilege in one entry: `select (id, mode) on sessions`.
  const columns = new Map<string, string[]>();
  for (const r of rows) {
    const key = `${r.privilege}\u0000${r.table}`;
    if (!columns.has(key)) columns.set(key, []);
    if (r.column !== null) columns.get(key)!.push(r.column);
  }
  return [...columns].map(([key, cols]) => {
    const [privilege, table] = key.split('\u0000');
    return cols.length === 0 ? `${privilege} on ${table}` : `${privilege} (${cols.join(', ')}) on ${table}`;
  });
}

/** Refuses to start a process whose DATABASE_URL logs in without its role's rights, naming the first few missing. */
export async function requireRoleRights(sql: Queryable, role: ServiceRole): Promise<void> {
  const missing = await missingRoleRights(sql, role);
  if (missing.length === 0) return;
  const shown = missing.length > 5 ? [...missing.slice(0, 5), `and ${missing.length - 5} more`] : missing;
  throw new ConfigError(
    `invalid configuration: DATABASE_URL: this process logs in as ${role}, whose rights its user lacks: ${shown.join(', ')} (make the role, give DATABASE_URL its user, and run npm run migrate: docs/operations.md#processes)`,
  );
}
