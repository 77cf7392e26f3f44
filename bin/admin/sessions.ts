// `session cancel`: an operator ends a session no payment has arrived for, through the session workflow,
// which refuses (and says why) once a deposit exists or the session is closed.
import { WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { findSessionById } from '../../db/repositories/sessions';
import { UNSTATED_CANCEL_REASON } from '../../domain/cancel';
import { CLOSED_STATUSES } from '../../domain/status';
import { z } from '../../domain/validationMessages';
import { cancelUpdate, type CancelRequest } from '../../workflows/messages';
import { CliError, defineCommand, SessionIdOption, when, type CommandGroup } from './cli';

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
    if (CLOSED_STATUSES.has(before.status)) throw new CliError(`session ${input.session} was not cancelled: a session that is ${before.status} cannot be cancelled`);
    const request: CancelRequest = { reason: input.reason ?? UNSTATED_CANCEL_REASON, by: 'operator' };
    const temporal = await context.temporal();
    try {
      // Bounded: without a worker the update would wait for one indefinitely.
      await temporal.withDeadline(Date.now() + UPDATE_DEADLINE_MS, () => temporal.workflow.getHandle(input.session).executeUpdate(cancelUpdate, { args: [request] }));
    } catch (error) {
      if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure && error.cause.type === 'CancelRefused') {
        throw new CliError(`session ${input.session} was not cancelled: ${error.cause.message}`);
      }
      if (error instanceof WorkflowNotFoundError) throw new CliError(`session ${input.session} is ${before.status} and its workflow has finished: nothing to cancel`);
      throw error;
    }
    // The workflow writes the read model before the update returns.
    const after = await findSessionById(context.sql(), input.session);
    if (!after) throw new CliError(`session ${input.session} is no longer in the read model`);
    return {
      json: { session_id: input.session, previous_status: before.status, status: after.status, reason: request.reason, updated_at: after.updatedAt.toISOString() },
      text: [`session ${input.session} ${after.status} (was ${before.status}) at ${when(after.updatedAt)}`, `  reason  ${request.reason}`],
      targets: [input.session],
    };
  },
});

export const sessionCommands: CommandGroup = { name: 'session', summary: 'checkout sessions', commands: [cancel] };
