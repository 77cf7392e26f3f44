// The webhook worker: polls only the webhook task queue and runs only webhook deliveries — their workflows and
// their HTTP attempts, with its own concurrency limit and a per-merchant cap (activities/webhooks/webhookActivities.ts).
import { type NativeConnection, Worker, type WorkflowBundle } from '@temporalio/worker';
import { heartbeating } from '../activities/heartbeating';
import { createWebhookDeliveries, createWebhookRecords, type WebhookDeps } from '../activities/webhooks/webhookActivities';
import type { Config } from '../config/env';
import type { Sql } from '../db/client';
import { webhookTaskQueue } from '../domain/taskQueues';
import { workflowsPath } from './createWorker';
import { RECOVERY_OPTIONS } from './recoveryOptions';

export interface WebhookWorkerDeps {
  connection: NativeConnection;
  namespace: string;
  /** The session workflows' queue; the webhook queue is named after it. */
  sessionTaskQueue: string;
  deliveries: WebhookDeps;
  /** Delivery attempts this process runs at once. */
  maxConcurrentDeliveries: number;
  /** A prebuilt bundle of workflows/ (tests build one per run); otherwise the worker bundles it itself. */
  workflowBundle?: WorkflowBundle;
  shutdownGraceTimeMs?: number;
}

export function createWebhookWorker(deps: WebhookWorkerDeps): Promise<Worker> {
  return Worker.create({
    connection: deps.connection,
    namespace: deps.namespace,
    taskQueue: webhookTaskQueue(deps.sessionTaskQueue),
    // The session workers' bundle: only webhookDelivery is ever started on this queue.
    ...(deps.workflowBundle ? { workflowBundle: deps.workflowBundle } : { workflowsPath }),
    activities: {
      markWebhookFailed: createWebhookRecords({ sql: deps.deliveries.sql }).markWebhookFailed,
      deliverWebhook: heartbeating(createWebhookDeliveries(deps.deliveries).deliverWebhook),
    },
    maxConcurrentActivityTaskExecutions: deps.maxConcurrentDeliveries,
    ...RECOVERY_OPTIONS,
    ...(deps.shutdownGraceTimeMs === undefined ? {} : { shutdownGraceTime: deps.shutdownGraceTimeMs }),
  });
}

/** The delivery dependencies the service's own configuration calls for. */
export function webhookDeliveryDepsFromConfig(config: Config, sql: Sql): WebhookDeps {
  return {
    sql,
    timeoutMs: config.webhookTimeoutMs,
    targets: { appEnv: config.appEnv, allowedPrivateTargets: config.webhookAllowedPrivateTargets },
    maxInFlightPerMerchant: config.webhookMaxInFlightPerMerchant,
  };
}
