// The relayer's EVM writes and the forwarder sweeps: the relayer key per mode (signing material,
// config/signingMaterial.ts checks who holds it), the writer's fee ceiling per chain, when a transaction counts as
// stuck and how much a replacement raises its fees, each chain's sweep threshold and the batch size. Read once at
// start with the rest of the configuration; docs/configuration.md lists them.
import { parseGwei } from 'viem';
import { z } from 'zod';
import { DEFAULT_SWEEP_BATCH_SIZE, DEFAULT_SWEEP_MIN_AMOUNT, EVM_CHAINS, type EvmChain } from '../domain/sweeps/evmSweepPlan';
import { DEFAULT_SWEEP_MAX_ADDRESS_FAILURES } from '../domain/sweeps/sweepFailures';
import type { Mode } from '../domain/wire/session';

/** Gwei: what each chain's gas has reached in busy hours, with room; above it nothing is signed and the sweep waits. */
export const DEFAULT_MAX_FEE_PER_GAS_GWEI: Record<EvmChain, string> = {
  ethereum: '200',
  polygon: '3000',
  arbitrum: '10',
  optimism: '10',
  base: '10',
  bsc: '20',
};

export interface EvmSweepConfig {
  /** EVM_RELAYER_KEY_<MODE>: pays the gas on every EVM chain of the mode's network and is the factories' sweeper. */
  relayerKeys: Record<Mode, `0x${string}` | undefined>;
  maxFeePerGasWei: Record<EvmChain, bigint>;
  stuckAfterSeconds: number;
  feeBumpPercent: number;
  /** Whole tokens a run's total must reach per chain. */
  minimumWholeTokens: Record<EvmChain, number>;
  batchSize: number;
  /** Failed sweep simulations after which a forwarder address waits for an operator. */
  maxAddressFailures: number;
}

const gwei = z
  .string()
  .regex(/^[0-9]+(\.[0-9]{1,9})?$/, 'must be a number of gwei (up to 9 decimals)')
  .transform((value) => parseGwei(value))
  .refine((wei) => wei > 0n, 'must be above 0');

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

function schema() {
  const shape: Record<string, z.ZodType> = {
    EVM_STUCK_AFTER_SECONDS: int(15, 86_400).default(180),
    EVM_FEE_BUMP_PERCENT: int(10, 500).default(20),
    SWEEP_BATCH_SIZE: int(1, 200).default(DEFAULT_SWEEP_BATCH_SIZE),
    SWEEP_MAX_ADDRESS_FAILURES: int(1, 1000).default(DEFAULT_SWEEP_MAX_ADDRESS_FAILURES),
  };
  for (const chain of EVM_CHAINS) {
    shape[`EVM_MAX_FEE_PER_GAS_GWEI_${chain.toUpperCase()}`] = z.string().default(DEFAULT_MAX_FEE_PER_GAS_GWEI[chain]).pipe(gwei);
    shape[`SWEEP_MIN_AMOUNT_${chain.toUpperCase()}`] = int(0, 1_000_000_000).default(DEFAULT_SWEEP_MIN_AMOUNT[chain]);
  }
  return z.object(shape);
}

const relayerKey = (value: string | undefined) => {
  const key = value?.trim();
  return key ? (key as `0x${string}`) : undefined;
};

/** The configuration, or what is wrong with it (each issue names its variable). */
export function evmSweepConfigFromEnv(env: NodeJS.ProcessEnv): { config?: EvmSweepConfig; issues: string[] } {
  const parsed = schema().safeParse(env);
  if (!parsed.success) return { issues: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) };
  const e = parsed.data as Record<string, unknown>;
  const perChain = <T>(prefix: string) =>
    Object.fromEntries(EVM_CHAINS.map((chain) => [chain, e[`${prefix}${chain.toUpperCase()}`] as T])) as Record<EvmChain, T>;
  return {
    issues: [],
    config: {
      relayerKeys: { test: relayerKey(env.EVM_RELAYER_KEY_TEST), live: relayerKey(env.EVM_RELAYER_KEY_LIVE) },
      maxFeePerGasWei: perChain<bigint>('EVM_MAX_FEE_PER_GAS_GWEI_'),
      stuckAfterSeconds: e.EVM_STUCK_AFTER_SECONDS as number,
      feeBumpPercent: e.EVM_FEE_BUMP_PERCENT as number,
      minimumWholeTokens: perChain<number>('SWEEP_MIN_AMOUNT_'),
      batchSize: e.SWEEP_BATCH_SIZE as number,
      maxAddressFailures: e.SWEEP_MAX_ADDRESS_FAILURES as number,
    },
  };
}
