// The end-to-end sweep tests' workers on the real Temporal dev server: the session worker and the signer worker, the
// signer as it starts in production from an environment, and a run of a sweep schedule triggered and awaited.
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { inject } from 'vitest';
import { depositXpubsFromSeeds } from '../../domain/addresses/hdDerivation';
import { chainRegistryPaymentNetwork } from '../../activities/payments/paymentNetwork';
import type { SignerDeps } from '../../signer/activities';
import { loadChainsConfig } from '../../config/chains';
import { loadConfig } from '../../config/env';
import type { Sql } from '../../db/client';
import { createChainRegistry } from '../../domain/chains/chainRegistry';
import { createSignerWorkers, signerDepsFromConfig } from '../../signer/worker';
import { createWorker } from '../../worker/createWorker';
import type { SweepEvmDepositsResult } from '../../workflows/sweepEvmDeposits';

export interface SweepWorkers {
  client: Client;
  signer: SignerDeps;
  /** Triggers the schedule and waits for the run it starts, calling `meanwhile` every 200 ms while it waits. */
  triggerRun(meanwhile?: () => void): Promise<SweepEvmDepositsResult>;
  /** Deletes the schedule and stops the workers and connections. */
  stop(): Promise<void>;
}

/** Both workers on `taskQueue`, the session worker's activities on `sql`, the signer's from `env`; `scheduleId` is the schedule a run is triggered of. */
export async function startSweepWorkers(
  env: NodeJS.ProcessEnv,
  options: { taskQueue: string; sql: Sql; scheduleId: string },
): Promise<SweepWorkers> {
  const { taskQueue, scheduleId } = options;
  const signer = await signerDepsFromConfig(loadConfig(env, 'dev'), loadChainsConfig(env));
  const connection = await Connection.connect({ address: inject('temporalAddress') });
  const client = new Client({ connection });
  const nativeConnection = await NativeConnection.connect({ address: inject('temporalAddress') });
  const activities = {
    sql: options.sql,
    paymentNetwork: chainRegistryPaymentNetwork(createChainRegistry(loadChainsConfig(env))),
    depositXpubs: depositXpubsFromSeeds(signer.depositSeeds),
    liveTokenPrices: {},
  };
  const workers: Worker[] = [
    await createWorker({
      connection: nativeConnection,
      namespace: 'default',
      taskQueue,
      activities,
      workflowBundle: { code: inject('workflowBundleCode') },
    }),
    ...(await createSignerWorkers({ connection: nativeConnection, namespace: 'default', sessionTaskQueue: taskQueue, signer })),
  ];
  const running = Promise.all(workers.map((w) => w.run()));
  return {
    client,
    signer,
    async triggerRun(meanwhile) {
      const schedule = client.schedule.getHandle(scheduleId);
      const before = (await schedule.describe()).info.recentActions.length;
      await schedule.trigger();
      const ticks = meanwhile ? setInterval(meanwhile, 200) : undefined;
      try {
        for (;;) {
          const actions = (await schedule.describe()).info.recentActions;
          const action = actions.length > before ? actions.at(-1) : undefined;
          if (action)
            return await client.workflow
              .getHandle<() => Promise<SweepEvmDepositsResult>>(
                action.action.workflow.workflowId,
                action.action.workflow.firstExecutionRunId,
              )
              .result();
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        clearInterval(ticks);
      }
    },
    async stop() {
      await client.schedule
        .getHandle(scheduleId)
        .delete()
        .catch(() => undefined);
      for (const w of workers) w.shutdown();
      await running;
      await nativeConnection.close();
      await connection.close();
    },
  };
}
