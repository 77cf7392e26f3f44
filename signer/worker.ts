// The signer worker: the only process given signing material (docs/settlement.md#r4-keys-in-the-signer-alone). One
// runs per mode (SIGNER_MODE) and polls that mode's queue, named after the session queue, so test and live keys never
// share a process; it runs no workflow and no other activity. It needs a
// database when it holds a treasury key (payouts are written ahead of signing, signer/payouts/treasuryPayout.ts)
// and, given one, uses it without a key too: to follow a payout written before the key was removed.
import { createKeyPairSignerFromBytes, createSolanaRpc, type Address } from '@solana/kit';
import { base58 } from '@scure/base';
import { ApplicationFailure } from '@temporalio/common';
import { type NativeConnection, Worker } from '@temporalio/worker';
import { signerModeRefusal } from '../domain/security/signerModeRouting';
import { WorkflowFailure } from '../domain/session/workflowFailures';
import { createSignerActivities, type SignerDeps } from './activities';
import { depositSeeds } from '../domain/addresses/depositSeed';
import { createDepositBackingCheck, createSigningCheck, requireLiveRereadProviders } from './backing/depositBacking';
import { createDailyLimitCheck } from './backing/dailyLimit';
import type { SolanaChainWriterDeps } from './chainWrites/solanaChainWriter';
import type { TreasuryPayoutDeps } from './payouts/treasuryPayout';
import type { TreasuryTransferDeps } from './payouts/treasuryTransfer';
import type { RefundPayerDeps } from './refunds/refundPayment';
import { loadChainsConfig, type ChainsConfig } from '../config/chains';
import { ConfigError, type Config } from '../config/env';
import { createSql, type Sql } from '../db/client';
import { createChainRegistry, type ChainRegistry } from '../domain/chains/chainRegistry';
import { networkForMode } from '../domain/session/payablePairs';
import type { Mode } from '../domain/wire/session';
import { signerTaskQueue } from '../domain/taskQueues';
import { cctpRoutesFromConfig, type CctpRouteConfig } from './config/cctpRoutes';
import { inventoryWithdrawersFromConfig } from './config/inventoryWithdrawers';
import { swapRoutesFromConfig } from './config/swapRoutes';
import { evmSweepersFromConfig } from './config/evmSweepers';
import { RECOVERY_OPTIONS } from '../worker/recoveryOptions';
import { tronSweepersFromConfig } from './config/tronSweepers';

export interface SignerWorkerDeps {
  connection: NativeConnection;
  namespace: string;
  /** The session workflows' queue; the signer queues are named after it. */
  sessionTaskQueue: string;
  signer: SignerDeps;
  shutdownGraceTimeMs?: number;
}

/** The signer worker of `mode`: it polls that mode's queue only, and refuses any task of the other mode. */
export function createSignerWorker(deps: SignerWorkerDeps & { mode: Mode }): Promise<Worker> {
  return Worker.create({
    connection: deps.connection,
    namespace: deps.namespace,
    taskQueue: signerTaskQueue(deps.sessionTaskQueue, deps.mode),
    activities: ownModeOnly(deps.mode, createSignerActivities(deps.signer)),
    ...RECOVERY_OPTIONS,
    ...(deps.shutdownGraceTimeMs === undefined ? {} : { shutdownGraceTime: deps.shutdownGraceTimeMs }),
  });
}

/**
 * A signer worker per mode over the same signing material, for a process that runs every worker in one (`npm
 * start`, the tests, the benchmarks). Live always has one, keyless or not: a live activity is then refused as a
 * signer without live keys refuses it (a live settlement fails loudly), never left on a queue nobody polls.
 */
export function createSignerWorkers(deps: SignerWorkerDeps): Promise<Worker[]> {
  return Promise.all(MODES.map((mode) => createSignerWorker({ ...deps, mode })));
}

/** Every activity, refusing an input of another mode before it runs (domain/security/signerModeRouting.ts). */
export function ownModeOnly<T extends Record<string, (input: never) => Promise<unknown>>>(mode: Mode, activities: T): T {
  const guard =
    (activity: (input: never) => Promise<unknown>) =>
    async (input: never): Promise<unknown> => {
      const refusal = signerModeRefusal(mode, input);
      if (refusal) throw ApplicationFailure.nonRetryable(refusal, WorkflowFailure.SignerModeRefused);
      return activity(input);
    };
  return Object.fromEntries(Object.entries(activities).map(([name, activity]) => [name, guard(activity)])) as T;
}

const MODES: readonly Mode[] = ['test', 'live'];
const USDC_BASE_UNITS = 1_000_000n;

type SignerConfig = Pick<
  Config,
  | 'depositMnemonics'
  | 'swaps'
  | 'signerMode'
  | 'solanaTreasuryKeys'
  | 'solanaTreasuryAddresses'
  | 'solanaPayoutMemo'
  | 'settlementRpcRecheckAboveUsdc'
  | 'settlementDailyLimitUsdc'
  | 'refundNetworkFeeUsdMicros'
  | 'refundMerchantReceivableLimitUsdc'
  | 'settlementLiveRoutes'
  | 'databaseUrl'
  | 'evmSweeps'
  | 'tronSweeps'
  | 'tronDepositCollectors'
  | 'depositForwarders'
  | 'inventory'
> &
  CctpRouteConfig;

/**
 * The signing material the configuration holds, made ready once: an invalid mnemonic or key stops the start. A
 * treasury pays on its mode's Solana network (RPC_URLS_SOLANA_TESTNET / _MAINNET, first URL) in that network's
 * USDC; a relayer sweeps forwarder deposit addresses (and tops up HD ones, which the deposit seed sweeps) on each
 * EVM chain of its mode's network that has an RPC endpoint (signer/config/evmSweepers.ts), and the Tron relayer on its
 * mode's Tron network (signer/config/tronSweepers.ts). All write ahead through DATABASE_URL, as the signer's own role
 * (db/serviceRoles.ts), the only one that may write them.
 */
export async function signerDepsFromConfig(config: SignerConfig, chains?: ChainsConfig): Promise<SignerDeps> {
  // A signer of one mode holds nothing of the other's, not even test's public development seed.
  const held = config.signerMode ? [config.signerMode] : MODES;
  const allSeeds = depositSeeds(config.depositMnemonics);
  const seeds = { test: held.includes('test') ? allSeeds.test : undefined, live: held.includes('live') ? allSeeds.live : undefined };
  const modes = held.filter((mode) => config.solanaTreasuryKeys[mode] !== undefined);
  const relayers = held.filter((mode) => config.evmSweeps.relayerKeys[mode] !== undefined);
  const tronRelayers = held.filter((mode) => config.tronSweeps.relayerKeys[mode] !== undefined);
  // With a database, the Solana addresses derived ahead go to the pool (signer/depositAddresses/solanaAddressPool.ts).
  const keyless = held.filter((mode) => !modes.includes(mode));
  if (modes.length === 0 && relayers.length === 0 && tronRelayers.length === 0) {
    if (!config.databaseUrl) return { depositSeeds: seeds };
    const pool = createSql(config.databaseUrl, { max: 2 });
    const payoutFollowers = followersOf(keyless, createChainRegistry(chains ?? loadChainsConfig(process.env)), pool);
    return { depositSeeds: seeds, addressPool: pool, payoutFollowers };
  }
  if (!config.databaseUrl) {
    const given = modes.length > 0 ? 'a SOLANA_TREASURY_KEY_*' : relayers.length > 0 ? 'an EVM_RELAYER_KEY_*' : 'a TRON_RELAYER_KEY_*';
    throw new ConfigError(
      `invalid configuration: DATABASE_URL: is required by the signer when ${given} is set (payouts and sweeps are recorded before they are signed)`,
    );
  }
  const chainsConfig = chains ?? loadChainsConfig(process.env);
  const registry = createChainRegistry(chainsConfig);
  const sql = createSql(config.databaseUrl, { max: 4 });
  const evmSweepers = evmSweepersFromConfig(config.evmSweeps, registry, sql, {
    depositSeeds: seeds,
    collectors: config.depositCollectors,
    depositForwarders: config.depositForwarders,
  });
  const tronSweepers = tronSweepersFromConfig(
    { tronSweeps: config.tronSweeps, batchSize: config.evmSweeps.batchSize, maxAddressFailures: config.evmSweeps.maxAddressFailures },
    chainsConfig,
    registry,
    sql,
    { depositSeeds: seeds, collectors: config.tronDepositCollectors, depositForwarders: config.depositForwarders },
  );
  const payoutFollowers = followersOf(keyless, registry, sql);
  // Withdrawing held inventory needs the relayers alone, not a treasury key.
  const inventoryWithdrawers = inventoryWithdrawersFromConfig(config, evmSweepers, tronSweepers);
  if (modes.length === 0)
    return { depositSeeds: seeds, addressPool: sql, evmSweepers, tronSweepers, payoutFollowers, inventoryWithdrawers };
  const backing = {
    sql,
    registry,
    rereadAboveUsdcBaseUnits: BigInt(config.settlementRpcRecheckAboveUsdc) * USDC_BASE_UNITS,
    tronHttpApi: chainsConfig.tronHttpApi,
    liveRoutes: config.settlementLiveRoutes,
    depositSeeds: seeds,
    depositForwarders: config.depositForwarders,
  };
  const verifyDepositBacking = createDepositBackingCheck(backing);
  const verifyAtSigning = createSigningCheck(backing);
  const verifyDailyLimit = createDailyLimitCheck({
    limitUsdcBaseUnits:
      config.settlementDailyLimitUsdc === undefined ? undefined : BigInt(config.settlementDailyLimitUsdc) * USDC_BASE_UNITS,
  });
  const treasuries: Partial<Record<Mode, TreasuryPayoutDeps>> = {};
  const refundPayers: Partial<Record<Mode, RefundPayerDeps>> = {};
  const merchantReceivableLimit =
    config.refundMerchantReceivableLimitUsdc === 'pending' ? 'pending' : BigInt(config.refundMerchantReceivableLimitUsdc) * USDC_BASE_UNITS;
  for (const mode of modes) {
    const network = networkForMode(mode);
    const variable = `SOLANA_TREASURY_KEY_${mode.toUpperCase()}`;
    if (mode === 'live') requireLiveRereadProviders(backing);
    const [rpcUrl] = registry.get('solana', network).rpcUrls;
    if (!rpcUrl)
      throw new ConfigError(
        `invalid configuration: ${variable}: needs RPC_URLS_SOLANA_${network.toUpperCase()}, the network its treasury pays on`,
      );
    const usdc = registry.token('solana', network, 'USDC');
    if (!usdc)
      throw new ConfigError(
        `invalid configuration: ${variable}: no USDC mint on solana ${network} (TOKEN_USDC_SOLANA_${network.toUpperCase()})`,
      );
    const treasury = await createKeyPairSignerFromBytes(base58.decode((config.solanaTreasuryKeys[mode] as string).trim()));
    const published = config.solanaTreasuryAddresses[mode];
    if (published && published !== treasury.address) {
      throw new ConfigError(
        `invalid configuration: SOLANA_TREASURY_ADDRESS_${mode.toUpperCase()}: is not the address of ${variable} (${treasury.address}); reconciliation would watch the wrong wallet`,
      );
    }
    const transfers: TreasuryTransferDeps = {
      sql,
      rpc: createSolanaRpc(rpcUrl),
      treasury,
      usdcMint: usdc.address as Address,
      memo: config.solanaPayoutMemo,
    };
    treasuries[mode] = {
      ...transfers,
      verifyDepositBacking,
      verifyAtSigning,
      verifyDailyLimit,
    };
    // The mode's treasury pays its refunds too, checked against the same chains, seeds and forwarders as its payouts.
    refundPayers[mode] = {
      ...transfers,
      registry,
      depositSeeds: seeds,
      depositForwarders: config.depositForwarders,
      networkFeeUsdMicros: config.refundNetworkFeeUsdMicros,
      merchantReceivableLimit,
      rereadAboveUsdcBaseUnits: backing.rereadAboveUsdcBaseUnits,
      tronHttpApi: backing.tronHttpApi,
    };
  }
  const cctpRoutes = cctpRoutesFromConfig(config, registry, treasuries);
  return {
    depositSeeds: seeds,
    addressPool: sql,
    treasuries,
    refundPayers,
    payoutFollowers,
    evmSweepers,
    tronSweepers,
    cctpRoutes,
    swapRoutes: swapRoutesFromConfig(config, registry, cctpRoutes),
    inventoryWithdrawers,
  };
}

/**
 * A mode without a treasury key still follows a payout written while it had one (treasuryPayouts.ts): on its Solana
 * network's first RPC URL, where one is configured.
 */
function followersOf(modes: readonly Mode[], registry: ChainRegistry, sql: Sql): Partial<Record<Mode, SolanaChainWriterDeps>> {
  const followers: Partial<Record<Mode, SolanaChainWriterDeps>> = {};
  for (const mode of modes) {
    const [rpcUrl] = registry.get('solana', networkForMode(mode)).rpcUrls;
    if (rpcUrl) followers[mode] = { sql, rpc: createSolanaRpc(rpcUrl) };
  }
  return followers;
}

/** The database pools the signer's treasuries, sweepers and Solana address pool write through (one, shared), to end at shutdown. */
export function signerDatabasePools(signer: SignerDeps): Sql[] {
  const holders = [
    ...Object.values(signer.treasuries ?? {}),
    ...Object.values(signer.refundPayers ?? {}),
    ...Object.values(signer.payoutFollowers ?? {}),
    ...Object.values(signer.evmSweepers ?? {}),
    ...Object.values(signer.tronSweepers ?? {}),
  ];
  return [...new Set([...holders.map((holder) => holder.sql), ...(signer.addressPool ? [signer.addressPool] : [])])];
}

/** The SOLANA_TREASURY_ADDRESS_* lines of the treasuries the signer holds, for the processes that only watch them. */
export function treasuryAddressVariables(signer: SignerDeps): string[] {
  return MODES.map((mode) => {
    const treasury = signer.treasuries?.[mode]?.treasury.address;
    return treasury
      ? `SOLANA_TREASURY_ADDRESS_${mode.toUpperCase()}=${treasury}`
      : `# no SOLANA_TREASURY_KEY_${mode.toUpperCase()}: no ${mode} treasury`;
  });
}
