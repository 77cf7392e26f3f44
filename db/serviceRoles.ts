// Least-privilege database roles for the service's processes. Migrations run as the schema
// owner; the api, the worker and the indexer each log in as their own role, which reads what it needs and
// writes only the tables its code writes. The deposit facts (amount, block, stage, confirmations) belong to
// the indexer alone: the worker may only record its verdict (credited, late), so no workflow activity, and
// nobody holding the worker's credentials, can make up a deposit.
//
// The roles themselves are made by the operator, with passwords (docker-compose's Postgres init script, or
// by hand on a managed server); migrate grants to the ones that exist, every run, so a table added by a
// later migration is covered the moment it exists.
import type { Queryable } from './client';

export const SERVICE_ROLES = ['checkout_api', 'checkout_worker', 'checkout_indexer'] as const;
export type ServiceRole = (typeof SERVICE_ROLES)[number];

type Write = 'insert' | 'update' | 'delete';

/** Per role, the tables it writes and how; an array of columns limits `update` to those columns. */
export const ROLE_WRITES: Record<ServiceRole, Record<string, ReadonlyArray<Write | { update: readonly string[] }>>> = {
  checkout_api: {
    api_keys: ['insert', 'update'],
    auth_failure_windows: ['insert', 'update'],
    audit_events: ['insert'],
    bank_accounts: ['insert', 'update'],
    dashboard_sessions: ['insert', 'update', 'delete'],
    idempotency_keys: ['insert', 'update', 'delete'],
    merchant_users: ['insert', 'update'],
    merchants: ['insert', 'update'],
    merchant_session_token_rate_limit_windows: ['insert', 'update'],
    quotes: ['insert'],
    rate_limit_windows: ['insert', 'update'],
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
    // Payouts and their chain intents move to the signer worker's role once it has one; the ledger is append-only.
    chain_intents: ['insert', 'update'],
    // The Solana address is filled in once, from the signer's derivation (db/migrations/0001_baseline.sql).
    deposit_addresses: ['insert', { update: ['solana_address'] }],
    deposit_watches: ['insert', 'update'],
    deposits: [{ update: ['credited', 'late', 'updated_at'] }],
    // The relayers' nonces, taken by the signer as it signs an EVM chain intent.
    evm_nonces: ['insert', 'update'],
    // EVM forwarder sweeps, written by the signer as the Solana sweeps are.
    collector_sweeps: ['insert', 'update'],
    collector_sweep_addresses: ['insert', { update: ['swept_base_units'] }],
    ledger_entries: ['insert'],
    payments: ['insert', 'update'],
    payouts: ['insert', 'update'],
    quotes: ['insert', 'delete'],
    // The scheduled reconciliation's reports (worker/reconciliationSweeper.ts).
    reconciliation_runs: ['insert'],
    // The relayers' gas balances, read by the signer at each sweep run (activities/sweeps/relayerBalance.ts).
    relayer_balances: ['insert', 'update'],
    // The treasuries' durable nonce accounts, provisioned and handed to payouts by the signer (activities/settlement/payoutNonces.ts).
    solana_nonce_accounts: ['insert', 'update'],
    // Solana deposit addresses the signer derives ahead (activities/depositAddresses/solanaAddressPool.ts).
    solana_deposit_address_pool: ['insert'],
    sessions: ['insert', 'update'],
    // Both written by the triggers on sessions.
    in_progress_session_counts: ['insert', 'update'],
    session_status_changes: ['insert'],
    settlements: ['insert', 'update'],
    // Deposit sweeps, written by the signer through this role as its payouts are.
    solana_sweeps: ['insert', 'update'],
    solana_sweep_accounts: ['insert', { update: ['swept_base_units'] }],
    transactions: ['insert'],
    // CCTP transfers, written by the signer (activities/transfers/) as its sweeps are.
    transfers: ['insert', 'update'],
    webhook_attempts: ['insert', 'delete'],
    webhook_deliveries: ['insert', 'update'],
    // The retention sweep (worker/retentionSweeper.ts).
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
};

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The statements that give `role` exactly its rights, starting from none. */
export function grantStatements(role: ServiceRole): string[] {
  const r = quoteIdent(role);
  const statements = [
    `revoke all on all tables in schema public from ${r}`,
    `grant usage on schema public to ${r}`,
    `grant select on all tables in schema public to ${r}`,
    `grant usage, select on all sequences in schema public to ${r}`,
  ];
  for (const [table, writes] of Object.entries(ROLE_WRITES[role])) {
    for (const write of writes) {
      statements.push(
        typeof write === 'string'
          ? `grant ${write} on ${quoteIdent(table)} to ${r}`
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
