import { fileURLToPath } from 'node:url';
import { type NativeConnection, Worker, type WorkflowBundle } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import { chainRegistryPaymentNetwork } from '../activities/payments/paymentNetwork';
import { loadChainsConfig } from '../config/chains';
import type { Config } from '../config/env';
import type { Sql } from '../db/client';
import { createChainRegistry } from '../domain/chainRegistry';
import { RECOVERY_OPTIONS } from './recoveryOptions';

export const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

export interface WorkerDeps {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  activities: ActivityDeps;
  /** A prebuilt bundle (tests build one per run); otherwise the worker bundles workflows/ itself. */
  workflowBundle?: WorkflowBundle;
  /** After shutdown is requested, how long running activities may finish before they are cancelled (SDK default: 0). */
  shutdownGraceTimeMs?: number;
}

export function createWorker(deps: WorkerDeps): Promise<Worker> {
  return Worker.create({
    connection: deps.connection,
    namespace: deps.namespace,
    taskQueue: deps.taskQueue,
    ...(deps.workflowBundle ? { workflowBundle: deps.workflowBundle } : { workflowsPath }),
    activities: createActivities(deps.activities),
    ...RECOVERY_OPTIONS,
    ...(deps.shutdownGraceTimeMs === undefined ? {} : { shutdownGraceTime: deps.shutdownGraceTimeMs }),
  });
}

/** The activity dependencies the service's own configuration calls for (`env` feeds the chain registry). */
export function activityDepsFromConfig(config: Config, sql: Sql, env: NodeJS.ProcessEnv = process.env): ActivityDeps {
  return {
    sql,
    paymentNetwork: chainRegistryPaymentNetwork(createChainRegistry(loadChainsConfig(env))),
    depositXpubs: config.depositXpubs,
    depositForwarders: config.depositForwarders,
    liveTokenPrices: config.liveTokenPrices,
    settlementLiveRoutes: config.settlementLiveRoutes,
  };
}
