// `session cancel`: an operator ends a session no payment has arrived for, through the session workflow,
// which refuses (and says why) once a deposit exists or the session is closed. `session start-unstarted`: the
// workflows of sessions whose create failed after writing the row and was never retried.
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { startSessionWorkflowOnce } from '../../api/routes/sessions/startSessionWorkflow';
import { confirmWorkflowStarted, findSessionById, findUnstartedSessions } from '../../db/repositories/sessions';
import { UNSTATED_CANCEL_REASON } from '../../domain/wire/cancel';
import { CLOSED_STATUSES } from '../../domain/wire/status';
import { z } from '../../domain/wire/validationMessages';
import { cancelUpdate, type CancelRequest } from '../../workflows/messages';
import { CliError, defineCommand, integerOption, SessionIdOption, table, when, type CommandGroup } from './cli';

const UPDATE_DEADLINE_MS = 30_000;

const cancel = defineCommand({
  name: 'cancel',
  summary: 'cancel a session no payment has arrived for (as the operator)',
  positional: { name: 'session', value: '<cs_…>', description: 'the session to cancel (required)' },
  options: { reason: { value: '<text>', description: 'why, kept in the session history (1 to 500 characters)' } },
  schema: z.object({ session: SessionIdOption, reason: z.string().trim().min(1).max(500).optional() }),
  async run(context, input) {
    const before = await findSessionById(context.sql(), input.session);
    if (!before) throw new CliError(`session ${input.session} does not exist`);
    // Decided from the read model, so the answer does not depend on whether the closed session's workflow has ended yet.
    if (CLOSED_STATUSES.has(before.status))
      throw new CliError(`session ${input.session} was not cancelled: a session that is ${before.status} cannot be cancelled`);
    const request: CancelRequest = { reason: input.reason ?? UNSTATED_CANCEL_REASON, by: 'operator' };
    const temporal = await context.temporal();
    try {
      // Bounded: without a worker the update would wait for one indefinitely.
      await temporal.withDeadline(Date.now() + UPDATE_DEADLINE_MS, () =>
        temporal.workflow.getHandle(input.session).executeUpdate(cancelUpdate, { args: [request] }),
      );
    } catch (error) {
      if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure && error.cause.type === 'CancelRefused') {
        throw new CliError(`session ${input.session} was not cancelled: ${error.cause.message}`);
      }
      if (error instanceof WorkflowNotFoundError)
        throw new CliError(`session ${input.session} is ${before.status} and its workflow has finished: nothing to cancel`);
      throw error;
    }
    // The workflow writes the read model before the update returns.
    const after = await findSessionById(context.sql(), input.session);
    if (!after) throw new CliError(`session ${input.session} is no longer in the read model`);
    return {
      json: {
        session_id: input.session,
        previous_status: before.status,
        status: after.status,
        reason: request.reason,
        updated_at: after.updatedAt.toISOString(),
      },
      text: [`session ${input.session} ${after.status} (was ${before.status}) at ${when(after.updatedAt)}`, `  reason  ${request.reason}`],
      targets: [input.session],
    };
  },
});

/**
 * A create whose answer was 503 (or never came) leaves its session `pending` with its workflow input kept, for the
 * merchant's retry to start (api/routes/sessions/startSessionWorkflow.ts). Without a retry, nothing moves it: it
 * stays pending past its expiry and counts against the merchant's cap on open sessions. This starts those
 * workflows, as the retry would; one past its expiry then expires at once, with its webhook. A session whose status
 * moved on had its workflow run (only the workflow moves it), so only the kept input is cleared. Rows younger than
 * --older-than-minutes are left to the creates that may still be answering them.
 */
const startUnstarted = defineCommand({
  name: 'start-unstarted',
  summary: 'start the workflows of sessions whose create failed after writing them and was never retried',
  options: {
    'older-than-minutes': { value: '<n>', description: 'only sessions written at least this long ago (default 10)' },
    limit: { value: '<n>', description: 'at most this many sessions, oldest first (default 100, at most 1000)' },
    'dry-run': { description: 'list them, change nothing' },
  },
  schema: z.object({
    'older-than-minutes': integerOption(1, 525_600).default(10),
    limit: integerOption(1, 1000).default(100),
    'dry-run': z.boolean().default(false),
  }),
  async run(context, input) {
    const sql = context.sql();
    const found = await findUnstartedSessions(sql, { olderThanMinutes: input['older-than-minutes'], limit: input.limit });
    const outcomes: { session_id: string; merchant_id: string; status: string; created_at: string; expires_at: string; action: string }[] =
      [];
    // Connected once, before any change: an unreachable Temporal fails the command as a whole, in one line.
    const temporal = !input['dry-run'] && found.some((session) => session.status === 'pending') ? await context.temporal() : undefined;
    const changed: string[] = [];
    let failures = 0;
    for (const { record, status, createdAt } of found) {
      let action = status === 'pending' ? 'workflow started' : 'input cleared (workflow ran)';
      if (input['dry-run']) {
        action = `would be: ${action}`;
      } else {
        // One session's failure is reported with it; the others still get their start.
        let started = false;
        try {
          if (temporal && status === 'pending') {
            await startSessionWorkflowOnce(temporal, context.config.temporal.taskQueue, record);
            started = true;
          }
          await confirmWorkflowStarted(sql, record.sessionId);
          changed.push(record.sessionId);
        } catch (error) {
          failures++;
          const cause = error instanceof Error ? error.message : String(error);
          // A started workflow is a change, though its row still lists the session here: a second run finds the
          // workflow already started and only records it.
          if (started) changed.push(record.sessionId);
          action = started ? `workflow started, not recorded: ${cause}` : `failed, nothing changed: ${cause}`;
        }
      }
      outcomes.push({
        session_id: record.sessionId,
        merchant_id: record.merchantId,
        status,
        created_at: createdAt.toISOString(),
        expires_at: record.expiresAt,
        action,
      });
    }
    const summary =
      outcomes.length === 0
        ? 'no unstarted sessions'
        : `${outcomes.length} unstarted session${outcomes.length === 1 ? '' : 's'}${input['dry-run'] ? ' (dry run: nothing changed)' : ''}`;
    return {
      json: { dry_run: input['dry-run'], sessions: outcomes },
      text: [
        summary,
        ...(outcomes.length
          ? table(
              ['SESSION', 'MERCHANT', 'STATUS', 'CREATED', 'EXPIRES', 'ACTION'],
              outcomes.map((o) => [o.session_id, o.merchant_id, o.status, o.created_at, o.expires_at, o.action]),
            )
          : []),
      ],
      targets: changed,
      ...(failures > 0
        ? {
            warnings: [`${failures} of ${outcomes.length} could not be started or recorded; run the command again once the cause is fixed`],
            exitCode: 1,
          }
        : {}),
    };
  },
});

export const sessionCommands: CommandGroup = { name: 'session', summary: 'checkout sessions', commands: [cancel, startUnstarted] };
