// One active indexer per chain and network across all processes (docs/operations.md#scale-out): a session-level
// Postgres advisory lock on a connection reserved for it. A second process waits and takes over when the first one
// stops. Should two ever run at once, nothing is counted twice (deposits are keyed, signal steps carry the same
// request id).
import { createHash } from 'node:crypto';
import type { Sql } from '../../db/client';
import type { ChainKey } from './cursor';
import { sleep } from './sleep';

export interface HeldLock {
  release(): Promise<void>;
}

function lockId(key: ChainKey): bigint {
  return createHash('sha256').update(`indexer:${key.chain}:${key.network}`).digest().readBigInt64BE(0);
}

/** Resolves with the lock once held, or undefined when `signal` aborted first. */
export async function acquireChainLock(sql: Sql, key: ChainKey, signal: AbortSignal, retryMs: number): Promise<HeldLock | undefined> {
  const connection = await sql.reserve();
  const id = lockId(key).toString();
  while (!signal.aborted) {
    const [row] = await connection<{ locked: boolean }[]>`select pg_try_advisory_lock(${id}::bigint) as locked`;
    if (row?.locked) {
      return {
        async release() {
          await connection`select pg_advisory_unlock(${id}::bigint)`;
          connection.release();
        },
      };
    }
    await sleep(retryMs, signal);
  }
  connection.release();
  return undefined;
}
