// `npm start`, the tests and the benchmarks run the session worker, the webhook worker and the signer worker in
// one process; production runs them as separate processes (bin/worker.ts, bin/webhookWorker.ts, bin/signer.ts).
import { bundleWorkflowCode, Runtime, type NativeConnection, type WorkflowBundle } from '@temporalio/worker';
import type { ActivityDeps } from '../activities';
import { depositXpubsFromSeeds } from '../domain/addresses/hdDerivation';
import { keepSolanaAddressPoolAhead } from '../signer/depositAddresses/solanaAddressPool';
import type { SignerDeps } from '../signer/activities';
import type { WebhookDeps } from '../activities/webhooks/webhookActivities';
import { createSignerWorkers } from '../signer/worker';
import { publishLiveSignerFingerprint } from '../signer/fingerprint';
import { createWebhookWorker } from './createWebhookWorker';
import { createWorker, workflowsPath } from './createWorker';

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
  // The session and webhook workers run the same workflow code: bundle it once for both.
  const workflowBundle = deps.workflowBundle ?? (await bundleWorkflowCode({ workflowsPath }));
  const workers = [
    await createWorker({
      connection: deps.connection,
      namespace: deps.namespace,
      taskQueue: deps.taskQueue,
      activities: { ...deps.activities, depositXpubs: depositXpubsFromSeeds(deps.signer.depositSeeds) },
      workflowBundle,
    }),
    await createWebhookWorker({
      connection: deps.connection,
      namespace: deps.namespace,
      sessionTaskQueue: deps.taskQueue,
      deliveries: deps.deliveries,
      maxConcurrentDeliveries: deps.maxConcurrentDeliveries,
      workflowBundle,
    }),
    ...(await createSignerWorkers({
      connection: deps.connection,
      namespace: deps.namespace,
      sessionTaskQueue: deps.taskQueue,
      signer: deps.signer,
    })),
  ];
  // As the live signer process does at its start, for the worker's check of its live xpubs (here the seed's own).
  await publishLiveSignerFingerprint(deps.signer);
  const running = Promise.all(workers.map((worker) => worker.run()));
  const pool =
    deps.signer.addressPool &&
    keepSolanaAddressPoolAhead(deps.signer.addressPool, deps.signer.depositSeeds, (message, fields) =>
      Runtime.instance().logger.warn(message, fields),
    );
  return {
    async stop() {
      for (const worker of workers) worker.shutdown();
      await running;
      await pool?.stop();
    },
  };
}
