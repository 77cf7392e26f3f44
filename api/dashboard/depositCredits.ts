// A session's unmatched deposits (another token or chain than its pair) as the dashboard shows them, each with its
// refund and whether the merchant may credit it to the session instead (docs/dashboard.md#crediting-an-unmatched-deposit),
// and the action itself: judged here on the read model for a clear answer, decided by the session's workflow
// (its creditDeposit update), which writes the credit.
import type { Config } from '../../config/env';
import { listRefunds, type RefundListing } from '../../db/repositories/refundListing';
import { listSessionDeposits, type DepositRecord } from '../../db/repositories/sessionTimeline';
import { findSession, type SessionView } from '../../db/repositories/sessions';
import type { Chain, TokenSymbol } from '../../domain/chains/chains';
import type { ChainRegistry } from '../../domain/chains/chainRegistry';
import { CREDITABLE_SOURCES, depositCreditRefusal, type CreditRefusal } from '../../domain/refunds/depositCredit';
import { WorkflowFailure } from '../../domain/session/workflowFailures';
import type { Mode } from '../../domain/wire/session';
import { CLOSED_STATUSES } from '../../domain/wire/status';
import { creditDepositUpdate } from '../../workflows/messages';
import type { AppDeps } from '../context';
import { ConflictError, NotFoundError, sessionNotFound } from '../errors';
import { executeSessionUpdate } from '../sessionUpdates';

const keyOf = (d: { chain: string; txHash: string; logIndex: number }) => `${d.chain}:${d.txHash}:${d.logIndex}`;

/** The chain registry (the token contracts the service takes), the configured minimum deposit, and the time. */
export interface CreditTerms {
  registry: ChainRegistry;
  minimumDepositMicro: bigint;
  now: Date;
}

/** The deposit's judgement, on the session's row, its deposits and its refunds as the read model has them. */
export function creditJudgement(
  session: Pick<SessionView, 'status' | 'expiresAt' | 'supportedTokens'>,
  deposits: readonly DepositRecord[],
  refunds: readonly RefundListing[],
  deposit: DepositRecord,
  terms: CreditTerms,
): { refund: RefundListing | undefined; refusal: CreditRefusal | undefined } {
  const refund = refunds.find((r) => r.deposit && r.source !== 'merchant' && keyOf(r.deposit) === keyOf(deposit));
  const decimals = terms.registry.token(deposit.chain, deposit.network, deposit.token as TokenSymbol)?.decimals;
  const counted = deposits.filter((d) => d.credited || (d.stage === 'detected' && !d.late));
  const refusal =
    decimals === undefined
      ? { reason: 'not_accepted' as const, message: `${deposit.token} on ${deposit.chain} is not a token this service takes` }
      : depositCreditRefusal(
          {
            chain: deposit.chain,
            token: deposit.token as TokenSymbol,
            amountBaseUnits: deposit.amountBaseUnits,
            decimals,
            refund: refund ? { source: refund.source, status: refund.status } : null,
          },
          {
            open: !CLOSED_STATUSES.has(session.status) && session.expiresAt > terms.now,
            supportedTokens: session.supportedTokens,
            countedPairs: counted.map((d) => ({ chain: d.chain, token: d.token as TokenSymbol })),
            minimumDepositMicro: terms.minimumDepositMicro,
          },
        );
  return { refund, refusal };
}

/** The deposits another pair could have credited, each with its refund and whether it can be credited now. */
export function unmatchedDepositsJson(
  session: Pick<SessionView, 'status' | 'expiresAt' | 'supportedTokens'>,
  deposits: readonly DepositRecord[],
  refunds: readonly RefundListing[],
  terms: CreditTerms,
) {
  return deposits.flatMap((d) => {
    const { refund, refusal } = creditJudgement(session, deposits, refunds, d, terms);
    if (!refund || !CREDITABLE_SOURCES.has(refund.source)) return [];
    return [
      {
        chain: d.chain as Chain,
        tx_hash: d.txHash,
        log_index: d.logIndex,
        token: d.token,
        credited: d.credited,
        refund: { refund_id: refund.id, status: refund.status, source: refund.source },
        creditable: refusal === undefined,
        /** Why it cannot be credited, in words; null when it can. */
        credit_refusal: refusal?.message ?? null,
      },
    ];
  });
}

/**
 * Credits the deposit to the session through its workflow: 404 for a session or deposit the merchant does not have,
 * 409 with the reason when it cannot be credited (the session closed, its refund claimed, …), here or in the workflow.
 * Nothing is written on a refusal. Answers the refund it cancelled.
 */
export async function creditDeposit(
  deps: Pick<AppDeps, 'sql' | 'temporal' | 'logger' | 'registry'> & { config: Pick<Config, 'minimumDepositCents'> },
  owner: { merchantId: string; mode: Mode },
  sessionId: string,
  ref: { chain: Chain; txHash: string; logIndex: number },
  by: string,
): Promise<{ refundId: string }> {
  const session = await findSession(deps.sql, owner, sessionId);
  if (!session) throw sessionNotFound();
  const [deposits, refunds] = await Promise.all([
    listSessionDeposits(deps.sql, sessionId),
    listRefunds(deps.sql, { ...owner, sessionId, limit: 1000 }),
  ]);
  const deposit = deposits.find((d) => keyOf(d) === keyOf(ref));
  if (!deposit) throw new NotFoundError(`No deposit ${ref.txHash} (log ${ref.logIndex}) on ${ref.chain} for this session`);
  const terms = { registry: deps.registry, minimumDepositMicro: BigInt(deps.config.minimumDepositCents) * 10_000n, now: new Date() };
  const { refund, refusal } = creditJudgement(session, deposits, refunds, deposit, terms);
  if (refusal || !refund) throw new ConflictError(refusal?.message ?? 'This deposit has no refund to cancel');
  await executeSessionUpdate(
    deps,
    session,
    creditDepositUpdate,
    { chain: ref.chain, txHash: ref.txHash, logIndex: ref.logIndex, by },
    (failure) => failure.type === WorkflowFailure.DepositCreditRefused || failure.type === WorkflowFailure.SelectionRefused,
  );
  return { refundId: refund.id };
}
