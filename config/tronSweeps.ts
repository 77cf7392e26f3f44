// The Tron relayer's sweeps: the relayer key per mode (signing material, config/signingMaterial.ts
// checks who holds it and its shape), the most sun one sweepMany may burn, the most one HD address's transfer may burn
// (and its top-up), and Tron's sweep threshold. SWEEP_BATCH_SIZE and SWEEP_INTERVAL_SECONDS are shared with the EVM sweeps. Read once at start with
// the rest of the configuration; docs/configuration.md lists them.
import { z } from 'zod';
import { DEFAULT_SWEEP_MIN_AMOUNT } from '../domain/sweeps/evmSweepPlan';
import type { Mode } from '../domain/wire/session';

/**
 * Whole TRX one sweepMany may burn unless configured. The cost grows with the batch: each forwarder costs a token
 * transfer and, the first time, its clone's deployment, tens of thousands of energy each, burned as TRX at the
 * network's energy price unless the relayer stakes for energy. A call that needs more than its limit runs out of
 * energy and reverts (its burn is spent, its addresses wait for the next run), while an unspent limit costs nothing:
 * so the default is generous, and a smaller SWEEP_BATCH_SIZE is the way to keep a batch under a smaller one.
 */
export const DEFAULT_TRON_SWEEP_FEE_LIMIT_TRX = 1_000;

/**
 * Whole TRX one HD address's TRC-20 transfer may burn unless configured, which is also what its top-up pays it: one
 * transfer costs some 14,000 to 65,000 energy (65,000 to a holder of none), 6 to 28 TRX at 420 sun an energy. Not the
 * sweepMany limit: a top-up the transfer does not burn stays at the address, one per HD address.
 */
export const DEFAULT_TRON_HD_SWEEP_FEE_LIMIT_TRX = 50;

/** The network's maximum fee_limit (chain parameter getMaxFeeLimit; developers.tron.network, "Feelimit"): a larger one is refused. */
const MAX_FEE_LIMIT_TRX = 15_000;

const SUN_PER_TRX = 1_000_000n;

export interface TronSweepConfig {
  /** TRON_RELAYER_KEY_<MODE>: 64 hex digits; pays the energy on the mode's Tron network and is the factory's sweeper. */
  relayerKeys: Record<Mode, string | undefined>;
  feeLimitSun: bigint;
  /** TRON_HD_SWEEP_FEE_LIMIT_TRX in sun: an HD address's transfer's fee limit and top-up. */
  hdFeeLimitSun: bigint;
  /** Whole tokens a run's total must reach (SWEEP_MIN_AMOUNT_TRON). */
  minimumWholeTokens: number;
}

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const schema = z.object({
  TRON_SWEEP_FEE_LIMIT_TRX: int(1, MAX_FEE_LIMIT_TRX).default(DEFAULT_TRON_SWEEP_FEE_LIMIT_TRX),
  TRON_HD_SWEEP_FEE_LIMIT_TRX: int(1, MAX_FEE_LIMIT_TRX).default(DEFAULT_TRON_HD_SWEEP_FEE_LIMIT_TRX),
  SWEEP_MIN_AMOUNT_TRON: int(0, 1_000_000_000).default(DEFAULT_SWEEP_MIN_AMOUNT.tron),
});

const relayerKey = (value: string | undefined) => value?.trim() || undefined;

/** The configuration, or what is wrong with it (each issue names its variable). */
export function tronSweepConfigFromEnv(env: NodeJS.ProcessEnv): { config?: TronSweepConfig; issues: string[] } {
  const parsed = schema.safeParse(env);
  if (!parsed.success) return { issues: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) };
  return {
    issues: [],
    config: {
      relayerKeys: { test: relayerKey(env.TRON_RELAYER_KEY_TEST), live: relayerKey(env.TRON_RELAYER_KEY_LIVE) },
      feeLimitSun: BigInt(parsed.data.TRON_SWEEP_FEE_LIMIT_TRX) * SUN_PER_TRX,
      hdFeeLimitSun: BigInt(parsed.data.TRON_HD_SWEEP_FEE_LIMIT_TRX) * SUN_PER_TRX,
      minimumWholeTokens: parsed.data.SWEEP_MIN_AMOUNT_TRON,
    },
  };
}
