// The Solana deposit addresses the signer derives ahead (db/migrations/0001_baseline.sql), so the sessions that take those indexes get
// their Solana address from the worker's own statement instead of a signer activity and the workflow task after it.
// The signer keeps the pool POOL_AHEAD indexes past the mode's sequence, every KEEP_INTERVAL_MS, and past any index it
// is asked to derive. Indexes come from the mode's sequence; one a session skipped (a rolled-back reservation) is
// derived and never used.
import type { Queryable, Sql } from '../../db/client';
import { insertPooledSolanaAddresses, lastIssuedDepositIndex, lastPooledSolanaIndex } from '../../db/repositories/depositAddresses';
import type { Mode } from '../../domain/wire/session';
import { deriveSolanaAddress } from '../../domain/addresses/hdDerivation';
import type { DepositSeeds } from '../../domain/addresses/depositSeed';

/**
 * How far ahead of the sequence the pool reaches; refilled once less than half of it is left. Half of it is what
 * sessions may take between two of the keeper's passes (128 a second) before one asks the signer. An address takes
 * about 0.4 ms to derive.
 */
export const POOL_AHEAD = 256;
const KEEP_INTERVAL_MS = 1_000;
const REFILL_BATCH = 32;

export async function refillSolanaAddressPool(sql: Queryable, seed: Uint8Array, mode: Mode, index: number): Promise<number> {
  const top = await lastPooledSolanaIndex(sql, mode);
  if (top >= index + POOL_AHEAD / 2) return 0;
  const last = index + POOL_AHEAD;
  let added = 0;
  // A few dozen at a time, each batch written before the next is derived: the signer's other work waits for one batch
  // (about 15 ms), not for the whole refill.
  for (let from = Math.max(index + 1, top + 1); from <= last; from += REFILL_BATCH) {
    const rows = [];
    for (let next = from; next <= Math.min(last, from + REFILL_BATCH - 1); next++)
      rows.push({ mode, derivation_index: next, address: deriveSolanaAddress(seed, next) });
    await insertPooledSolanaAddresses(sql, rows);
    added += rows.length;
  }
  return added;
}

/** The pool kept ahead of each seeded mode's sequence, until stopped. A failed pass is logged; the next one retries. */
export function keepSolanaAddressPoolAhead(
  sql: Sql,
  seeds: DepositSeeds,
  warn: (message: string, fields: Record<string, unknown>) => void,
): { stop(): Promise<void> } {
  const modes = (['test', 'live'] as const).filter((mode) => seeds[mode] !== undefined);
  let pass: Promise<void> | undefined;
  const keep = async () => {
    for (const mode of modes) {
      try {
        await refillSolanaAddressPool(sql, seeds[mode]!, mode, await lastIssuedDepositIndex(sql, mode));
      } catch (error) {
        warn('the Solana deposit address pool was not refilled; the next pass retries', {
          mode,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  };
  // A pass still running when the next is due (a refill under load) is not joined by another.
  const tick = () => {
    pass ??= keep().finally(() => {
      pass = undefined;
    });
  };
  tick();
  const timer = setInterval(tick, KEEP_INTERVAL_MS).unref();
  return {
    async stop() {
      clearInterval(timer);
      await pass;
    },
  };
}
