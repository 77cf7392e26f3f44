// What an operator does about a settlement that paid nothing (docs/settlement.md#what-follows-a-failed-settlement):
// `settlement resettle <pay_…>` settles again a payment whose settlement was refused before any payout (the signer
// refused it, or a live signer held no key), once the cause is fixed; `settlement repay <pay_…> --confirm` pays a
// payout that landed and failed again, under a new payout generation. Both start a new run of the session's workflow
// from the state its last run ended with, which runs settle_<pay_id> again and, once settled, moves the session from
// `failed` to its paid status with that status's webhook (docs/lifecycle.md#settlement-failures). Or the operator gives
// the money back instead: `settlement refund <pay_…> --confirm` refunds each credited deposit to the customer.
import type { Client } from '@temporalio/client';
import type { Sql } from '../../db/client';
import { openPendingDepositRefunds } from '../../activities/refunds/automaticRefunds';
import { pendingCreditedDeposits } from '../../db/repositories/automaticRefunds';
import { paymentTerms } from '../../db/repositories/payments';
import { findSettlementRow } from '../../db/repositories/payoutListing';
import { sessionRefunds, type Refund } from '../../db/repositories/refunds';
import { findPayout, startNextPayoutGeneration, type Payout } from '../../db/repositories/payouts';
import { findSessionById } from '../../db/repositories/sessions';
import type { SessionState } from '../../domain/session/sessionState';
import { refundWorkflowId } from '../../domain/refunds/refundPayment';
import { judgeResettle } from '../../domain/settlement/resettlement';
import { judgeSettlementRefund } from '../../domain/settlement/settlementRefund';
import type { SessionRecord } from '../../domain/wire/session';
import type { checkoutSession } from '../../workflows/checkoutSession';
import type { RefundWorkflowInput } from '../../workflows/refundMessages';
import { CliError } from './cli';

export type ResettleOutcome =
  | { kind: 'started'; sessionId: string; runId: string }
  | { kind: 'already_settled'; sessionId: string; provider: string; reference: string | null }
  | { kind: 'in_progress'; sessionId: string; why: string };

/** Temporal's status name of a workflow, or undefined when it has none under that id. */
async function workflowStatus(client: Client, workflowId: string): Promise<string | undefined> {
  const { WorkflowNotFoundError } = await import('@temporalio/client');
  try {
    return (await client.workflow.getHandle(workflowId).describe()).status.name;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return undefined;
    throw error;
  }
}

/** Judges the payment (judgeResettle) and starts the session's resettling run; throws CliError when it may not. */
export async function resettlePayment(deps: { sql: Sql; client: Client; operator: string }, paymentId: string): Promise<ResettleOutcome> {
  const { sql, client } = deps;
  const [settlement, payout] = await Promise.all([findSettlementRow(sql, paymentId), findPayout(sql, paymentId)]);
  const sessionId = settlement?.sessionId ?? '';
  const [session, sessionWorkflow, settlementWorkflow, refunds] = settlement
    ? await Promise.all([
        findSessionById(sql, sessionId),
        workflowStatus(client, sessionId),
        workflowStatus(client, `settle_${paymentId}`),
        sessionRefunds(sql, sessionId),
      ])
    : [];
  const verdict = judgeResettle(paymentId, {
    ...(settlement ? { settlement } : {}),
    ...(payout ? { payoutStatus: payout.status, payoutGeneration: payout.generation } : {}),
    ...(session ? { sessionStatus: session.status } : {}),
    ...(sessionWorkflow ? { sessionWorkflow } : {}),
    ...(settlementWorkflow ? { settlementWorkflow } : {}),
    refunded: (refunds ?? []).some((r) => r.source === 'settlement_failed'),
  });
  switch (verdict.kind) {
    case 'refused':
      throw new CliError(verdict.reason);
    case 'already_settled':
      return { kind: 'already_settled', sessionId, provider: verdict.provider, reference: verdict.reference };
    case 'in_progress':
      return { kind: 'in_progress', sessionId, why: verdict.why };
    case 'start':
      break;
  }
  const previous = client.workflow.getHandle<typeof checkoutSession>(sessionId);
  const [description, history, state] = await Promise.all([previous.describe(), previous.fetchHistory(), previous.result()]);
  const { defaultPayloadConverter } = await import('@temporalio/common');
  const input = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
  if (!input) throw new CliError(`the session workflow ${sessionId} has no start input to run again from`);
  const record = defaultPayloadConverter.fromPayload<SessionRecord>(input);
  const { WorkflowExecutionAlreadyStartedError } = await import('@temporalio/client');
  try {
    const handle = await client.workflow.start<typeof checkoutSession>('checkoutSession', {
      workflowId: sessionId,
      taskQueue: description.taskQueue,
      args: [record, { state: state as SessionState, expiryReached: Date.now() >= Date.parse(record.expiresAt) }, { by: deps.operator }],
    });
    return { kind: 'started', sessionId, runId: handle.firstExecutionRunId };
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError)
      return { kind: 'in_progress', sessionId, why: `the session workflow ${sessionId} was started by someone else meanwhile` };
    throw error;
  }
}

export type RepayOutcome = ResettleOutcome & { payout: Payout; newGeneration: boolean };

/**
 * Pays a payout that landed and failed again, under the next generation (startNextPayoutGeneration), and settles the
 * session again. Only with `confirmed`: it moves treasury money, so it is an operator's decision, never a default.
 * Again after the new generation exists, it starts nothing new: the generation is paid once, like any payout.
 */
export async function repayPayment(
  deps: { sql: Sql; client: Client; operator: string },
  paymentId: string,
  confirmed: boolean,
): Promise<RepayOutcome> {
  const payout = await findPayout(deps.sql, paymentId);
  if (!payout) throw new CliError(`payment ${paymentId} has no payout: nothing to pay again (settlement resettle settles a refused one)`);
  const settlement = await findSettlementRow(deps.sql, paymentId);
  if (settlement?.status === 'settled')
    return {
      kind: 'already_settled',
      sessionId: settlement.sessionId,
      provider: settlement.provider,
      reference: settlement.reference,
      payout,
      newGeneration: false,
    };
  if (payout.status !== 'failed' && payout.generation === 1)
    throw new CliError(`payout of ${paymentId} is ${payout.status}, not failed: it is followed to its end, never paid again`);
  let current = payout;
  if (payout.status === 'failed') {
    if (!confirmed)
      throw new CliError(
        `payout of ${paymentId} (generation ${payout.generation}, ${payout.signature ?? '-'}) landed and failed; paying it again sends ${payout.amount} USDC base units from the treasury: add --confirm once you have decided to`,
      );
    current = (await startNextPayoutGeneration(deps.sql, paymentId, deps.operator)) ?? ((await findPayout(deps.sql, paymentId)) as Payout);
  }
  const outcome = await resettlePayment(deps, paymentId);
  return { ...outcome, payout: current, newGeneration: current.generation !== payout.generation };
}

export interface SettlementRefundOutcome {
  sessionId: string;
  /** One per credited deposit, of what it left pending for the merchant; the same ones when run again. */
  refunds: Refund[];
}

/**
 * Gives back to the customer what a failed settlement left pending for the merchant, instead of settling it again:
 * each credited deposit's pending units become refund due and one `settlement_failed` refund per deposit is opened
 * (activities/refunds/automaticRefunds.ts), and its workflow started, which announces it (refund.created). Only with
 * `confirmed`: the merchant is then never paid for the session. Again, it opens nothing new and starts what is not started.
 */
export async function refundFailedSettlement(
  deps: { sql: Sql; client: Client; taskQueue: string; refundClaimDays: number },
  paymentId: string,
  confirmed: boolean,
): Promise<SettlementRefundOutcome> {
  const { sql, client } = deps;
  const terms = await paymentTerms(sql, paymentId);
  const sessionId = terms?.sessionId ?? '';
  const [settlement, payout, sessionWorkflow, settlementWorkflow] = terms
    ? await Promise.all([
        findSettlementRow(sql, paymentId),
        findPayout(sql, paymentId),
        workflowStatus(client, sessionId),
        workflowStatus(client, `settle_${paymentId}`),
      ])
    : [];
  const verdict = judgeSettlementRefund(paymentId, {
    ...(terms ? { sessionStatus: terms.status } : {}),
    ...(settlement ? { settlement } : {}),
    ...(payout ? { payoutStatus: payout.status } : {}),
    ...(sessionWorkflow ? { sessionWorkflow } : {}),
    ...(settlementWorkflow ? { settlementWorkflow } : {}),
  });
  if (verdict.kind === 'refused') throw new CliError(verdict.reason);
  if (!confirmed) {
    const pending = (await pendingCreditedDeposits(sql, sessionId)).filter((d) => d.owedBaseUnits > 0n);
    const what = pending.map((d) => `${d.owedBaseUnits} ${d.token} base units on ${d.chain} (${d.txHash})`).join(', ');
    throw new CliError(
      `refunding ${paymentId} gives ${what || 'no pending deposit'} back to the customer, and its merchant is never paid for session ${sessionId}: add --confirm once you have decided to`,
    );
  }
  const refunds = await sql.begin((tx) =>
    openPendingDepositRefunds(tx, sessionId, 'settlement_failed', { claimDays: deps.refundClaimDays, now: new Date() }),
  );
  const { WorkflowExecutionAlreadyStartedError } = await import('@temporalio/client');
  for (const refund of refunds) {
    try {
      await client.workflow.start('refundWorkflow', {
        workflowId: refundWorkflowId(refund.id),
        taskQueue: deps.taskQueue,
        args: [{ refundId: refund.id, mode: refund.mode } satisfies RefundWorkflowInput],
        workflowIdReusePolicy: 'REJECT_DUPLICATE',
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }
  return { sessionId, refunds };
}
