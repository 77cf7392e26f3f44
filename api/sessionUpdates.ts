// Sending a workflow Update to a session and turning every way it can fail into a clear API error.
import {
  ServiceError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  isGrpcServiceError,
} from '@temporalio/client';
import { ApplicationFailure, type UpdateDefinition } from '@temporalio/common';
import type { SessionView } from '../db/repositories/sessions';
import { CLOSED_STATUSES } from '../domain/wire/status';
import { errorFields } from '../observability/logger';
import type { AppDeps } from './context';
import { ConflictError, ServiceUnavailableError } from './errors';

const closed = (session: Pick<SessionView, 'sessionId' | 'status'>) =>
  new ConflictError(`Session ${session.sessionId} is ${session.status} and no longer accepts changes`);

/** An update waits for the worker to run it; past this the caller gets a 503 and may retry. */
const UPDATE_DEADLINE_MS = 15_000;

export async function executeSessionUpdate<Ret, Arg>(
  deps: Pick<AppDeps, 'temporal' | 'logger'>,
  session: Pick<SessionView, 'sessionId' | 'status'>,
  update: UpdateDefinition<Ret, [Arg]>,
  arg: Arg,
  /** Which ApplicationFailures are the workflow refusing the update as a business decision (→ 409). */
  isRefusal: (failure: ApplicationFailure) => boolean,
): Promise<Ret> {
  if (CLOSED_STATUSES.has(session.status)) throw closed(session);
  const handle = deps.temporal.workflow.getHandle(session.sessionId);
  try {
    return await deps.temporal.withDeadline(Date.now() + UPDATE_DEADLINE_MS, () => handle.executeUpdate(update, { args: [arg] }));
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure && isRefusal(error.cause)) {
      throw new ConflictError(error.cause.message);
    }
    // The read model knows the session, so a missing workflow is one that has already finished.
    if (error instanceof WorkflowNotFoundError) throw closed(session);
    if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError || error instanceof ServiceError || isGrpcServiceError(error)) {
      deps.logger.warn({ err: errorFields(error), sessionId: session.sessionId, update: update.name }, 'session update did not complete');
      throw new ServiceUnavailableError('The session did not answer in time; retry the request');
    }
    throw error;
  }
}
