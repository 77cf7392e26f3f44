// `npm start`, the tests and the benchmarks run the session worker, the webhook worker and the signer worker in
// one process; production runs them as separate processes (bin/worker.ts, bin/webhookWorker.ts, bin/signer.ts).
import type { NativeConnection, WorkflowBundle } from '@temporalio/worker';
import type { ActivityDeps } from '../activities';
import { depositXpubsFromSeeds } from '../activities/depositAddresses/derive';
import type { SignerDeps } from '../activities/signer';
import type { WebhookDeps } from '../activities/webhooks/webhookActivities';
import { createSignerWorker } from './createSignerWorker';
import { createWebhookWorker } from './createWebhookWorker';
import { createWorker } from './createWorker';

export interface InProcessWorkersDeps {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  /** The session worker's xpubs are those of the signer's seeds, so both halves of an index always agree. */
  activities: Omit<ActivityDeps, 'depositXpubs'>;
  deliveries: WebhookDeps;
  maxConcurrentDeliveries: number;
  signer: SignerDeps;
  workflowBundle?: WorkflowBundle;
}

export interface RunningWorkers {
  /** Drains every worker; resolves once they stopped. */
  stop(): Promise<void>;
}

export async function startInProcessWorkers(deps: InProcessWorkersDeps): Promise<RunningWorkers> {
  const workers = [
    await createWorker({
      connection: deps.connection,
      namespace: deps.namespace,
      taskQueue: deps.taskQueue,
      activities: { ...deps.activities, depositXpubs: depositXpubsFromSeeds(deps.signer.depositSeeds) },
      ...(deps.workflowBundle ? { workflowBundle: deps.workflowBundle } : {}),
    }),
    await createWebhookWorker({
      connection: deps.connection,
      namespace: deps.namespace,
      sessionTaskQueue: deps.taskQueue,
      deliveries: deps.deliveries,
      maxConcurrentDeliveries: deps.maxConcurrentDeliveries,
    }),
    await createSignerWorker({ connection: deps.connection, namespace: deps.namespace, sessionTaskQueue: deps.taskQueue, signer: deps.signer }),
  ];
  const running = Promise.all(workers.map((worker) => worker.run()));
  return {
    async stop() {
      for (const worker of workers) worker.shutdown();
      await running;
    },
  };
}
