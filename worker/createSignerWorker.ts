// The signer worker: the only process given signing material (SETTLEMENT.md rule 4). It polls its own task queue,
// named after the session queue, and runs no workflow and no other activity; it needs no database.
import { type NativeConnection, Worker } from '@temporalio/worker';
import { createSignerActivities, type SignerDeps } from '../activities/signer';
import { depositSeeds } from '../activities/depositAddresses/seed';
import type { Config } from '../config/env';
import { signerTaskQueue } from '../domain/taskQueues';

export interface SignerWorkerDeps {
  connection: NativeConnection;
  namespace: string;
  /** The session workflows' queue; the signer queue is named after it. */
  sessionTaskQueue: string;
  signer: SignerDeps;
  shutdownGraceTimeMs?: number;
}

export function createSignerWorker(deps: SignerWorkerDeps): Promise<Worker> {
  return Worker.create({
    connection: deps.connection,
    namespace: deps.namespace,
    taskQueue: signerTaskQueue(deps.sessionTaskQueue),
    activities: createSignerActivities(deps.signer),
    ...(deps.shutdownGraceTimeMs === undefined ? {} : { shutdownGraceTime: deps.shutdownGraceTimeMs }),
  });
}

/** The signing material the configuration holds, made ready once: an invalid mnemonic stops the start. */
export function signerDepsFromConfig(config: Pick<Config, 'depositMnemonics'>): SignerDeps {
  return { depositSeeds: depositSeeds(config.depositMnemonics) };
}
