import { fileURLToPath } from 'node:url';
import { type NativeConnection, Worker, type WorkflowBundle } from '@temporalio/worker';
import { createReadModelActivities } from '../activities/readModel';
import type { Sql } from '../db/client';

export const workflowsPath = fileURLToPath(new URL('../workflows/index.ts', import.meta.url));

export interface WorkerDeps {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  sql: Sql;
  /** A prebuilt bundle (tests build one per file); otherwise the worker bundles workflows/ itself. */
  workflowBundle?: WorkflowBundle;
}

export function createWorker(deps: WorkerDeps): Promise<Worker> {
  return Worker.create({
    connection: deps.connection,
    namespace: deps.namespace,
    taskQueue: deps.taskQueue,
    ...(deps.workflowBundle ? { workflowBundle: deps.workflowBundle } : { workflowsPath }),
    activities: { ...createReadModelActivities({ sql: deps.sql }) },
  });
}
