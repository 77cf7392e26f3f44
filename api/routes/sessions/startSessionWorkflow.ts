// Starting a session's workflow after its row is committed, as often as it takes: the workflow id is the
// session id and a finished or running workflow of that id is never started again, so "already started"
// means done. The row's pending input is cleared once a start is confirmed; until then every retry of the
// create request tries again, which is how a crash between commit and start heals.
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { confirmWorkflowStarted, findPendingWorkflowInput } from '../../../db/repositories/sessions';
import type { SessionRecord } from '../../../domain/wire/session';
import { errorFields } from '../../../observability/logger';
import { CHECKOUT_SESSION_WORKFLOW } from '../../../workflows/messages';
import { ExtTransactionIdAttribute, MerchantIdAttribute } from '../../../workflows/searchAttributes';
import type { AppDeps } from '../../context';
import { ServiceUnavailableError } from '../../errors';

export async function startSessionWorkflow(
  deps: Pick<AppDeps, 'sql' | 'temporal' | 'config' | 'logger'>,
  record: SessionRecord,
): Promise<void> {
  try {
    await startSessionWorkflowOnce(deps.temporal, deps.config.temporal.taskQueue, record);
  } catch (error) {
    deps.logger.error({ err: errorFields(error), sessionId: record.sessionId }, 'could not start the session workflow');
    throw new ServiceUnavailableError('The session could not be started; retry the request with the same transaction_id');
  }
  await confirmWorkflowStarted(deps.sql, record.sessionId);
}

/**
 * Starts the session's workflow unless it was started before: the start a create makes, and the one an operator
 * makes for a session whose create was never retried (`checkout-admin session start-unstarted`). The caller
 * confirms it (confirmWorkflowStarted) once it returns.
 */
export async function startSessionWorkflowOnce(temporal: Client, taskQueue: string, record: SessionRecord): Promise<void> {
  // By name: api/ never imports workflow code, so the argument list is typed here instead.
  const args: [SessionRecord] = [record];
  try {
    await temporal.workflow.start(CHECKOUT_SESSION_WORKFLOW, {
      workflowId: record.sessionId,
      taskQueue,
      args,
      // A session's workflow runs once: a retry long after it closed must not start it over.
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: [
        { key: MerchantIdAttribute, value: record.merchantId },
        { key: ExtTransactionIdAttribute, value: record.extTransactionId },
      ],
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}

/** For a session found by a retried request: starts its workflow if the first request never confirmed the start. */
export async function resumeSessionWorkflowStart(
  deps: Pick<AppDeps, 'sql' | 'temporal' | 'config' | 'logger'>,
  sessionId: string,
): Promise<void> {
  const pending = await findPendingWorkflowInput(deps.sql, sessionId);
  if (pending) await startSessionWorkflow(deps, pending);
}
