import { fileURLToPath } from 'node:url';
import { type NativeConnection, Worker, type WorkerOptions, type WorkflowBundle } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import { smtpMailer } from '../activities/email/smtpMailer';
import { chainRegistryPaymentNetwork } from '../activities/payments/paymentNetwork';
import { loadChainsConfig } from '../config/chains';
import type { Config } from '../config/env';
import type { Sql } from '../db/client';
import { createChainRegistry } from '../domain/chains/chainRegistry';
import { RECOVERY_OPTIONS } from './recoveryOptions';

export const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

export const SESSION_QUEUE_POLLING = {
  /**
   * A new session's first workflow task, and any task of a workflow this worker no longer caches, comes from the
   * normal queue, which the server splits into partitions (4 by default). The SDK's share of pollers for it (2 of 10)
   * leaves partitions unpolled, and a task written to one waited about 2 s for the server to forward it (bench
   * histories: select-payment right after create-session). Half of the pollers cover them.
   */
  nonStickyToStickyPollRatio: 0.5,
} as const satisfies Partial<WorkerOptions>;

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
    ...SESSION_QUEUE_POLLING,
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
    checkLiveSignerFingerprint: true,
    depositForwarders: config.depositForwarders,
    liveTokenPrices: config.liveTokenPrices,
    settlementLiveRoutes: config.settlementLiveRoutes,
    refundClaimDays: config.refundClaimDays,
    mailer: config.email && smtpMailer(config.email),
  };
}
