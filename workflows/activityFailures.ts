// How an activity's deliberate refusal reaches the workflow: a scheduled activity's ApplicationFailure arrives
// wrapped in an ActivityFailure, a local activity's arrives bare (the SDK's core hands it over unwrapped).
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';

/** The ApplicationFailure of `type` an activity, local or not, failed with; undefined for anything else. */
export function activityFailureOfType(error: unknown, type: string): ApplicationFailure | undefined {
  const failure = error instanceof ActivityFailure ? error.cause : error;
  return failure instanceof ApplicationFailure && failure.type === type ? failure : undefined;
}
