// The read model of sessions and their transactions. The API writes a session's first row; after that
// only the session workflow (through activities) changes it.
import type { TokenChainPairs } from '../../domain/chains/chains';
import type { Metadata, Mode, SessionRecord, SessionStatusChange, SupportedMethods } from '../../domain/wire/session';
import type { SessionStatus } from '../../domain/wire/status';
import { transactionInOneRoundTrip, type Queryable, type Sql } from '../client';

export interface SessionView {
  sessionId: string;
  merchantId: string;
  mode: Mode;
  transactionId: string;
  extTransactionId: string;
  amountUsdCents: bigint;
  merchantCurrency: string | null;
  merchantAmount: string | null;
  webhookUrl: string;
  metadata: Metadata;
  supportedMethods: SupportedMethods;
  supportedTokens: TokenChainPairs;
  status: SessionStatus;
  expiresAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export interface SessionViewRow {
  id: string;
  merchant_id: string;
  mode: Mode;
  transaction_id: string;
  ext_transaction_id: string;
  amount_usd_cents: bigint;
  merchant_currency: string | null;
  merchant_amount: string | null;
  webhook_url: string;
  metadata: Metadata;
  supported_methods: SupportedMethods;
  supported_tokens: TokenChainPairs;
  status: SessionStatus;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

export const toView = (r: SessionViewRow): SessionView => ({
  sessionId: r.id,
  merchantId: r.merchant_id,
  mode: r.mode,
  transactionId: r.transaction_id,
  extTransactionId: r.ext_transaction_id,
  amountUsdCents: r.amount_usd_cents,
  merchantCurrency: r.merchant_currency,
  merchantAmount: r.merchant_amount,
  webhookUrl: r.webhook_url,
  metadata: r.metadata,
  supportedMethods: r.supported_methods,
  supportedTokens: r.supported_tokens,
  status: r.status,
  expiresAt: r.expires_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/**
 * Writes the session and its transaction; call it inside a database transaction, so a clash on the
 * merchant's transaction_id leaves neither. Idempotent per session id. `awaitingWorkflowStart` keeps the
 * record as the input of a workflow start still to be confirmed (see startSessionWorkflow).
 */
export async function insertSessionRecord(
  sql: Queryable,
  r: SessionRecord,
  initialStatus: SessionStatus,
  options: { awaitingWorkflowStart?: boolean } = {},
): Promise<void> {
  await sessionInsert(sql, r, initialStatus, options);
}

// One statement, one round trip: the transaction's foreign key is checked at the statement's end,
// when the session row is there. With `openCap`, the session is written only while fewer than that many of
// the merchant's sessions in its mode are open (pending, awaiting_payment, confirming or underpaid, not yet expired):
// the count of the first three kept by trigger (db/migrations/0001_baseline.sql), less those of them past their expiry, plus the
// underpaid ones not yet expired, so the cost follows those few rows and not the open sessions; the statement
// answers the session id when it wrote one.
function sessionInsert(
  sql: Queryable,
  r: SessionRecord,
  initialStatus: SessionStatus,
  options: { awaitingWorkflowStart?: boolean; openCap?: number },
) {
  const pendingInput = options.awaitingWorkflowStart ? sql.json(r as unknown as Parameters<typeof sql.json>[0]) : null;
  const underCap =
    options.openCap === undefined
      ? sql``
      : sql`where coalesce((select in_progress from in_progress_session_counts where merchant_id = ${r.merchantId} and mode = ${r.mode}), 0)
                  - (select count(*) from sessions
                     where merchant_id = ${r.merchantId} and mode = ${r.mode} and expires_at <= now()
                       and status in ('pending', 'awaiting_payment', 'confirming'))
                  + (select count(*) from sessions
                     where merchant_id = ${r.merchantId} and mode = ${r.mode} and expires_at > now() and status = 'underpaid')
                  < ${options.openCap}`;
  return sql<{ session_id: string }[]>`
    with session as (
      insert into sessions (id, merchant_id, mode, amount_usd_cents, merchant_currency, merchant_amount, webhook_url, metadata,
                            supported_methods, supported_tokens, status, expires_at, created_at, updated_at, pending_workflow_input)
      select ${r.sessionId}, ${r.merchantId}, ${r.mode}, ${r.amountUsdCents}, ${r.merchantCurrency ?? null}, ${r.merchantAmount ?? null},
             ${r.webhookUrl}, ${sql.json(r.metadata)}, ${sql.json(r.supportedMethods)}, ${sql.json(r.supportedTokens as Record<string, string[]>)},
             ${initialStatus}, ${r.expiresAt}, ${r.createdAt}, ${r.createdAt}, ${pendingInput}
      ${underCap}
      on conflict (id) do nothing
      returning id
    )
    insert into transactions (id, session_id, merchant_id, mode, ext_transaction_id, created_at)
    select ${r.transactionId}, id, ${r.merchantId}, ${r.mode}, ${r.extTransactionId}, ${r.createdAt} from session
    on conflict (id) do nothing
    returning session_id`;
}

/**
 * Writes a new session, awaiting its workflow start, as insertSessionRecord does, unless `cap` of the merchant's
 * sessions in its mode are open already; true when it wrote it. The merchant's advisory lock makes concurrent
 * creates count one after another, so the cap holds exactly: the insert counts in a snapshot taken once the lock
 * is held. The transaction is one round trip (transactionInOneRoundTrip), so the lock is held for none: every
 * create of a merchant queues on that lock, and each round trip it was held for bounded the merchant's rate of
 * creates.
 */
export async function insertSessionUnderCap(sql: Sql, r: SessionRecord, cap: number): Promise<boolean> {
  const [, inserted] = await transactionInOneRoundTrip(sql, (tx) => [
    tx`select pg_advisory_xact_lock(hashtextextended(${`open-sessions:${r.merchantId}:${r.mode}`}, 0))`,
    sessionInsert(tx, r, 'pending', { awaitingWorkflowStart: true, openCap: cap }),
  ]);
  return inserted.length === 1;
}

/** The session that holds the merchant's transaction_id in this mode, if any. */
export async function sessionIdForExtTransaction(
  sql: Queryable,
  owner: { merchantId: string; mode: Mode; extTransactionId: string },
): Promise<string | undefined> {
  const [row] = await sql<{ session_id: string }[]>`
    select session_id from transactions
    where merchant_id = ${owner.merchantId} and mode = ${owner.mode} and ext_transaction_id = ${owner.extTransactionId}`;
  return row?.session_id;
}

/** The input of a session workflow whose start is not yet confirmed; undefined once it is. */
export async function findPendingWorkflowInput(sql: Sql, sessionId: string): Promise<SessionRecord | undefined> {
  const [row] = await sql<{ input: SessionRecord | null }[]>`select pending_workflow_input as input from sessions where id = ${sessionId}`;
  return row?.input ?? undefined;
}

/**
 * Sessions whose workflow start was never confirmed, written more than `olderThanMinutes` ago, oldest first: the
 * API failed after writing the row, before or right after starting its workflow, and the create was not retried.
 */
export async function findUnstartedSessions(
  sql: Sql,
  options: { olderThanMinutes: number; limit: number },
): Promise<{ record: SessionRecord; status: SessionStatus; createdAt: Date }[]> {
  const rows = await sql<{ input: SessionRecord; status: SessionStatus; created_at: Date }[]>`
    select pending_workflow_input as input, status, created_at from sessions
    where pending_workflow_input is not null and created_at < now() - make_interval(mins => ${options.olderThanMinutes})
    order by created_at
    limit ${options.limit}`;
  return rows.map((row) => ({ record: row.input, status: row.status, createdAt: row.created_at }));
}

export async function confirmWorkflowStarted(sql: Sql, sessionId: string): Promise<void> {
  await sql`update sessions set pending_workflow_input = null where id = ${sessionId} and pending_workflow_input is not null`;
}

export const selectView = (sql: Sql) => sql`
  select s.*, t.id as transaction_id, t.ext_transaction_id
  from sessions s join transactions t on t.session_id = s.id`;

/** A session as its owner sees it: other merchants' and the other mode's sessions do not exist. */
export async function findSession(
  sql: Sql,
  owner: { merchantId: string; mode: Mode },
  sessionId: string,
): Promise<SessionView | undefined> {
  const [row] = await sql<SessionViewRow[]>`
    ${selectView(sql)} where s.id = ${sessionId} and s.merchant_id = ${owner.merchantId} and s.mode = ${owner.mode}`;
  return row && toView(row);
}

export async function findSessionByTransaction(
  sql: Sql,
  owner: { merchantId: string; mode: Mode },
  lookup: { transactionId: string } | { extTransactionId: string },
): Promise<SessionView | undefined> {
  const condition =
    'transactionId' in lookup ? sql`t.id = ${lookup.transactionId}` : sql`t.ext_transaction_id = ${lookup.extTransactionId}`;
  const [row] = await sql<SessionViewRow[]>`
    ${selectView(sql)} where ${condition} and t.merchant_id = ${owner.merchantId} and t.mode = ${owner.mode}`;
  return row && toView(row);
}

/** Applies a workflow status change unless the read model already holds this or a later one. */
export async function applyStatusChange(sql: Sql, change: SessionStatusChange): Promise<boolean> {
  const rows = await statusChangeUpdate(sql, change);
  return rows.length === 1;
}

/** The update alone, for a status change sent along with other statements (db/client.ts pipelined). */
export function statusChangeUpdate(sql: Queryable, change: SessionStatusChange) {
  return sql`
    update sessions set status = ${change.status}, status_version = ${change.version}, updated_at = ${change.at}, status_reason = ${change.reason ?? null}
    where id = ${change.sessionId} and status_version < ${change.version}
    returning id`;
}

/**
 * Says why a session stays in `status` without a status change (the timeline records changes only); false when the
 * session is in another status or already says so.
 */
export async function noteStatusReason(sql: Sql, sessionId: string, status: SessionStatus, reason: string): Promise<boolean> {
  const rows = await sql`
    update sessions set status_reason = ${reason}
    where id = ${sessionId} and status = ${status} and status_reason is distinct from ${reason}
    returning id`;
  return rows.length === 1;
}

/** Takes a noted reason back: the session says again why it took its status, as its last status change did. */
export async function withdrawStatusReason(sql: Sql, sessionId: string, reason: string): Promise<void> {
  await sql`
    update sessions s set status_reason = (select c.reason from session_status_changes c where c.session_id = s.id order by c.id desc limit 1)
    where s.id = ${sessionId} and s.status_reason = ${reason}`;
}

/**
 * A session by id alone, for credentials that already name their session (a verified session token).
 * Merchant-key requests use findSession, which scopes by owner.
 */
export async function findSessionById(sql: Sql, sessionId: string): Promise<SessionView | undefined> {
  const [row] = await sql<SessionViewRow[]>`${selectView(sql)} where s.id = ${sessionId}`;
  return row && toView(row);
}
