// Creating a session, idempotent per (merchant, mode, transaction_id) across a crash at any point: the
// session row is committed first, then the workflow is started (workflow id = session id) outside any
// database transaction. A retry finds the row: the same request answers as a replay, after starting the
// row's workflow should the first request have died before it did; a different request is a 409.
import { findMerchantForNewSession } from '../../../db/repositories/merchants';
import { findSessionByTransaction, insertSessionUnderCap, type SessionView } from '../../../db/repositories/sessions';
import { canonicalJson } from '../../../domain/wire/canonicalJson';
import { newSessionId, newTransactionId } from '../../../domain/wire/ids';
import { centsToUsd, usdToCents } from '../../../domain/money/money';
import { payablePairs } from '../../../domain/session/payablePairs';
import { webhookTargetPolicy, webhookUrlProblem } from '../../../domain/webhooks/webhookTargetPolicy';
import type { CreateSessionRequest, SessionRecord } from '../../../domain/wire/session';
import type { AppDeps, MerchantAuth } from '../../context';
import { pooledUlid } from '../../pooledUlid';
import { ConflictError, ForbiddenError, TooManyRequestsError, ValidationFailedError } from '../../errors';
import { resumeSessionWorkflowStart, startSessionWorkflow } from './startSessionWorkflow';

const UNIQUE_VIOLATION = '23505';

export interface CreatedSession {
  session: { sessionId: string; expiresAt: Date; createdAt: Date };
  /** True when an earlier identical request had already created it (Stripe's Idempotent-Replayed). */
  replayed: boolean;
}

export async function createSession(deps: AppDeps, auth: MerchantAuth, body: CreateSessionRequest): Promise<CreatedSession> {
  if (body.merchant_id !== auth.merchantId) throw new ForbiddenError('This API key does not belong to merchant_id');
  const targetPolicy = webhookTargetPolicy(auth.mode, deps.config.appEnv, deps.config.webhookAllowedPrivateTargets);
  const targetProblem = webhookUrlProblem(targetPolicy, new URL(body.webhook_url));
  if (targetProblem) throw new ValidationFailedError([`webhook_url: ${targetProblem}`]);

  const owner = { merchantId: auth.merchantId, mode: auth.mode };
  const found = await findMerchantForNewSession(deps.sql, owner, body.transaction_id);
  if (!found) throw new ForbiddenError('Invalid API key');
  if (found.existingSessionId) {
    const existing = await findSessionByTransaction(deps.sql, owner, { extTransactionId: body.transaction_id });
    if (existing) return replay(deps, existing, body);
  }
  const { merchant, hasActiveBankAccount: bank } = found;
  const now = deps.now?.() ?? new Date();
  const expiresAt = new Date(now.getTime() + merchant.sessionLifetimeSeconds * 1000);
  const record: SessionRecord = {
    sessionId: newSessionId(pooledUlid),
    transactionId: newTransactionId(pooledUlid),
    merchantId: merchant.id,
    mode: auth.mode,
    extTransactionId: body.transaction_id,
    amountUsdCents: usdToCents(body.amount_usd).toString(),
    ...(body.merchant_currency !== undefined && body.merchant_amount !== undefined
      ? { merchantCurrency: body.merchant_currency, merchantAmount: String(body.merchant_amount) }
      : {}),
    webhookUrl: body.webhook_url,
    metadata: body.metadata ?? {},
    supportedMethods: { crypto: true, bank },
    supportedTokens: payablePairs(
      deps.registry,
      { ...deps.offer, atCap: { [auth.mode]: await deps.inventoryCaps.atCap(auth.mode) } },
      auth.mode,
      merchant.supportedTokens,
    ),
    tolerance: { bps: merchant.toleranceBps, minCents: merchant.toleranceMinCents.toString() },
    lateDepositWatchHours: deps.config.lateDepositWatchHours,
    minimumDepositCents: String(deps.config.minimumDepositCents),
    underpaidExpiry: merchant.underpaidExpiry,
    createdAt: now.toISOString(),
    expiresAt: expiresAt.toISOString(),
  };

  const cap = deps.config.maxOpenSessions[auth.mode];
  try {
    if (!(await insertSessionUnderCap(deps.sql, record, cap))) {
      throw new TooManyRequestsError(
        `Too many open sessions: at most ${cap} ${auth.mode} sessions may be open at once; wait for some to close or cancel them`,
        60,
      );
    }
  } catch (error) {
    if ((error as { code?: string }).code === UNIQUE_VIOLATION) {
      // A concurrent request with the same transaction_id won the race; answer as its replay.
      const winner = await findSessionByTransaction(deps.sql, owner, { extTransactionId: body.transaction_id });
      if (winner) return replay(deps, winner, body);
    }
    throw error;
  }
  await startSessionWorkflow(deps, record);
  return { session: { sessionId: record.sessionId, expiresAt, createdAt: now }, replayed: false };
}

/** The same transaction_id again: the first session when the request is the same, 409 when it differs. */
async function replay(deps: AppDeps, existing: SessionView, body: CreateSessionRequest): Promise<CreatedSession> {
  const differences = [
    centsToUsd(existing.amountUsdCents) !== body.amount_usd && 'amount_usd',
    existing.webhookUrl !== body.webhook_url && 'webhook_url',
    (existing.merchantCurrency ?? undefined) !== body.merchant_currency && 'merchant_currency',
    (existing.merchantAmount === null ? undefined : Number(existing.merchantAmount)) !== body.merchant_amount && 'merchant_amount',
    canonicalJson(existing.metadata) !== canonicalJson(body.metadata ?? {}) && 'metadata',
  ].filter((field): field is string => typeof field === 'string');
  if (differences.length > 0) {
    throw new ConflictError(`A session for transaction_id ${body.transaction_id} already exists with different ${differences.join(', ')}`);
  }
  await resumeSessionWorkflowStart(deps, existing.sessionId);
  return { session: { sessionId: existing.sessionId, expiresAt: existing.expiresAt, createdAt: existing.createdAt }, replayed: true };
}
