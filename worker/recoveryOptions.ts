// What every worker sets so that Temporal notices a dead one within seconds (docs/operations.md, "Recovery after a
// crash"). The activity side, short start-to-close and heartbeat timeouts, is in the workflows' activity options.
import type { WorkerOptions } from '@temporalio/worker';

export const RECOVERY_OPTIONS = {
  /**
   * A workflow's next task goes to the queue of the worker that cached it; when that worker is gone, the task moves
   * to the shared queue after this long (SDK default 10 s). A live but busy worker past it only costs one replay.
   */
  stickyQueueScheduleToStartTimeout: '3 seconds',
  /**
   * Heartbeats reach Temporal at most this far apart (SDK: 80 % of the heartbeat timeout, too thin a margin on a
   * loaded machine): with the 10 s heartbeat timeouts, a beat can be 8 s late before an attempt is given up.
   */
  maxHeartbeatThrottleInterval: '2 seconds',
} as const satisfies Partial<WorkerOptions>;
