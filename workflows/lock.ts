import { condition } from '@temporalio/workflow';

/**
 * Serialises the workflow's state changes: update handlers and the main loop both await activities,
 * and without this an update could interleave with a deposit being processed.
 */
export function createLock() {
  let held = false;
  return async function withLock<T>(fn: () => Promise<T>): Promise<T> {
    await condition(() => !held);
    held = true;
    try {
      return await fn();
    } finally {
      held = false;
    }
  };
}
