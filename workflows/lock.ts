import { Mutex } from 'async-mutex';

/**
 * Serialises the workflow's state changes: update handlers and the main loop both await activities, and
 * without this an update could interleave with a deposit being processed. A FIFO mutex, as Temporal's
 * docs advise for handler concurrency: `await condition(() => !held)` would wake every waiter in the same
 * activation and let them all in at once.
 */
export function createLock() {
  const mutex = new Mutex();
  return function withLock<T>(fn: () => Promise<T>): Promise<T> {
    return mutex.runExclusive(fn);
  };
}
