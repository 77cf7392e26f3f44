// `npm start`, the tests and the benchmarks run the session worker and the webhook worker in one process;
// production runs them as separate processes (bin/worker.ts, bin/webhookWorker.ts).
import type { NativeConnection, WorkflowBundle } from '@temporalio/worker';
import type { ActivityDeps } from '../activities';
import type { WebhookDeps } from '../activities/webhooks/webhookActivities';
import { createWebhookWorker } from './createWebhookWorker';
import { createWorker } from './createWorker';

export interface InProcessWorkersDeps {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  activities: ActivityDeps;
  deliveries: WebhookDeps;
  maxConcurrentDeliveries: number;
  workflowBundle?: WorkflowBundle;
}

export interface RunningWorkers {
  /** Drains both workers; resolves once they stopped. */
  stop(): Promise<void>;
}

export async function startInProcessWorkers(deps: InProcessWorkersDeps): Promise<RunningWorkers> {
  const workers = [
    await createWorker({
      connection: deps.connection,
      namespace: deps.namespace,
      taskQueue: deps.taskQueue,
      activities: deps.activities,
      ...(deps.workflowBundle ? { workflowBundle: deps.workflowBundle } : {}),
    }),
    await createWebhookWorker({
      connection: deps.connection,
      namespace: deps.namespace,
      sessionTaskQueue: deps.taskQueue,
      deliveries: deps.deliveries,
      maxConcurrentDeliveries: deps.maxConcurrentDeliveries,
    }),
  ];
  const running = Promise.all(workers.map((worker) => worker.run()));
  return {
    async stop() {
      for (const worker of workers) worker.shutdown();
      await running;
    },
  };
}
