// `settlement resettle <pay_…>`: settles again a payment whose settlement was refused before any payout (the signer
// refused it, or a live signer held no key), once the operator has fixed the cause. It starts a new run of the
// session's workflow from the state its last run ended with, which runs settle_<pay_id> again and, once settled,
// moves the session from `failed` to its paid status with that status's webhook (docs/lifecycle.md#settlement-failures).
import type { Client } from '@temporalio/client';
import type { Sql } from '../../db/client';
import { findPayoutListing, findSettlementRow } from '../../db/repositories/payoutListing';
import { findSessionById } from '../../db/repositories/sessions';
import type { SessionState } from '../../domain/session/sessionState';
import { judgeResettle } from '../../domain/settlement/resettlement';
import type { SessionRecord } from '../../domain/wire/session';
import type { checkoutSession } from '../../workflows/checkoutSession';
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
  const [settlement, payout] = await Promise.all([findSettlementRow(sql, paymentId), findPayoutListing(sql, paymentId)]);
  const sessionId = settlement?.sessionId ?? '';
  const [session, sessionWorkflow, settlementWorkflow] = settlement
    ? await Promise.all([findSessionById(sql, sessionId), workflowStatus(client, sessionId), workflowStatus(client, `settle_${paymentId}`)])
    : [];
  const verdict = judgeResettle(paymentId, {
    ...(settlement ? { settlement } : {}),
    ...(payout ? { payoutStatus: payout.status } : {}),
    ...(session ? { sessionStatus: session.status } : {}),
    ...(sessionWorkflow ? { sessionWorkflow } : {}),
    ...(settlementWorkflow ? { settlementWorkflow } : {}),
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
