// The whole service on its embedded defaults, in one process tree: an embedded Postgres (unless DATABASE_URL is
// set), a Temporal dev server (unless the caller uses one already running), migrations, a local EVM chain with a
// USDC test token, the deposit contracts and a TokenMessengerV2 stand-in, and its indexer (unless RPC_URLS_* are
// configured: then the indexers of those chains), a loopback attestation stand-in for that chain's burns, a local
// Solana chain with a USDC mint, a funded treasury, the demo merchant's wallet and the CCTP receive stand-in, and
// its indexer (unless RPC_URLS_SOLANA_* are configured), the workers (the signer among them), the API and a demo
// merchant with a fresh test key. `npm start` (bin/dev.ts) and `npm run demo` (bin/demo.ts) both run it, so the
// demo exercises exactly what `npm start` runs.
import { join, resolve } from 'node:path';
import { createSolanaRpc } from '@solana/kit';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Runtime } from '@temporalio/worker';
import { recordTreasuryOpening } from '../activities/settlement/treasuryFunding';
import { startApiServer } from '../api/server';
import { loadChainsConfig } from '../config/chains';
import { depositForwardersFromEnv } from '../config/depositForwarders';
import type { Config } from '../config/env';
import { resolveSessionTokenSecret } from '../api/sessionTokenSecret';
import { resolveTotpEncryptionKey, sealPlaintextTotpSecrets } from '../api/totpEncryptionKey';
import { createSql } from '../db/client';
import { startEmbeddedPostgres } from '../db/embeddedPostgres';
import { ensureDatabase } from '../db/ensureDatabase';
import { migrate } from '../db/migrate';
import { createApiKey } from '../db/repositories/apiKeys';
import { demoDashboardAccess } from './devDashboard';
import { findMerchantByName, findWebhookSecret, insertMerchant, setSettlementWallet, type Merchant } from '../db/repositories/merchants';
import { createChainRegistry } from '../domain/chains/chainRegistry';
import { ALL_TOKEN_CHAIN_PAIRS } from '../domain/chains/chains';
import { resetCursor } from '../indexers/core/cursor';
import { resetEvmNonces } from '../db/repositories/chainIntents';
import { createTemporalSignalSender } from '../indexers/core/signalSender';
import { indexedEvmDeployments, startEvmIndexers } from '../indexers/evm/startEvmIndexers';
import { indexedSolanaDeployments, startSolanaIndexers } from '../indexers/solana/startSolanaIndexers';
import { createLogger, errorFields, type Logger } from '../observability/logger';
import { withStatsAtDebug } from '../observability/temporalLogger';
import { startDevAttestation, startDevChain, type DevChain } from '../toolchain/localChain/devChain';
import { startLocalSolana, type LocalSolana } from '../toolchain/localSolana/localSolana';
import { startTemporalDevServer } from '../toolchain/temporalDevServer';
import { activityDepsFromConfig, workflowsPath } from '../worker/createWorker';
import { signerDatabasePools, signerDepsFromConfig } from '../signer/worker';
import { webhookDeliveryDepsFromConfig } from '../worker/createWebhookWorker';
import { startInProcessWorkers } from '../worker/inProcessWorkers';
import { checkTronFactories } from '../worker/tronFactoryChecks';
import { openMissingDepositRefunds } from '../activities/refunds/missingDepositRefunds';
import { refundStarter } from '../activities/refunds/startRefundWorkflow';
import { startReconciliationSweeper } from '../worker/reconciliationSweeper';
import { startRetentionSweeper } from '../worker/retentionSweeper';
import { treasuryViewsFromConfig } from '../worker/treasuryViews';
import { paymentOfferFromConfig } from '../config/paymentOffer';
import { ensureSweepSchedules, evmSweepScopes } from '../worker/sweepSchedules';
import { ensureTransferSchedules } from '../worker/transferSchedules';

const DEMO_MERCHANT = 'Demo merchant';
// The local node answers in milliseconds and mines only when asked: polling it often costs nothing and lets a
// payment show up at once, where the base default (its 2 s block time) would make every step wait.
const LOCAL_CHAIN_POLL_MS = '250';

export interface DevStackOptions {
  config: Config;
  /** Where the chain variables come from (RPC_URLS_…, CHAIN_ID_…, TOKEN_…, INDEXER_…). */
  chainEnv: NodeJS.ProcessEnv;
  /** Start a Temporal dev server on config.temporal.address; false: use the server already there. */
  startTemporal: boolean;
  /** Web UI port of that dev server; omitted: headless. */
  temporalUiPort?: number;
  /** Postgres data and Temporal history survive restarts in config.dataDir; false: they are thrown away. */
  persistent: boolean;
  /** Label of the fresh test key. */
  keyLabel: string;
  progress(line: string): void;
  logger: Logger;
}

export interface DevStack {
  apiUrl: string;
  temporal: Client;
  temporalAddress: string;
  temporalUiUrl: string | undefined;
  /** Where Postgres runs, in words. */
  postgres: string;
  /** The service's database, embedded or DATABASE_URL's. */
  databaseUrl: string;
  /** The local chain, unless RPC_URLS_* were configured. */
  devChain: DevChain | undefined;
  /** The attestation stand-in for the local chain's CCTP burns (CCTP_ATTESTATION_URL), with the local chain. */
  attestationUrl: string | undefined;
  /** The local Solana chain, unless RPC_URLS_SOLANA_* were configured. */
  localSolana: LocalSolana | undefined;
  /**
   * The signer worker's environment, kept out of the other workers' (they hold public material only):
   * SOLANA_TREASURY_KEY_TEST, the local Solana treasury's key, when that chain runs. The in-process signer is
   * given it, with the stack's database and no payout memo, so test-mode settlements pay from that treasury.
   * EVM_RELAYER_KEY_TEST, the local chain's relayer (the deposit factory's sweeper), when that chain runs.
   */
  signerEnv: Record<string, string>;
  /** `chain:network` of every running indexer. */
  indexed: string[];
  merchant: Merchant;
  testKey: string;
  webhookSecret: string;
  /** The merchant dashboard, with a one-time sign-up link for a user of the demo merchant. */
  dashboard: { dashboardUrl: string; email: string; signInUrl: string };
  /** Stops everything in order: API, indexers, worker (drained), chains, Temporal, Postgres. */
  stop(): Promise<void>;
}

type Stop = () => Promise<void>;

async function runStops(stops: Stop[]): Promise<void> {
  const errors: unknown[] = [];
  for (const stop of stops.splice(0)) await stop().catch((error: unknown) => errors.push(error));
  if (errors.length > 0) throw errors[0];
}

export async function startDevStack(options: DevStackOptions): Promise<DevStack> {
  const { config, progress, logger } = options;
  // Pushed to the front as things start, so stopping runs in reverse order of starting.
  const stops: Stop[] = [];
  try {
    const dataDir = resolve(config.dataDir);
    const configures = (prefix: string) =>
      Object.entries(options.chainEnv).some(([name, value]) => name.startsWith(prefix) && value?.trim());
    const useLocalChain = !configures('RPC_URLS_');
    const useLocalSolana = !configures('RPC_URLS_SOLANA_');
    const temporalPort = Number(config.temporal.address.split(':').at(-1));

    if (!config.databaseUrl)
      progress(`starting embedded Postgres on 127.0.0.1:${config.embeddedPostgresPort} (data in ${join(dataDir, 'postgres')})`);
    if (options.startTemporal)
      progress(
        `starting Temporal dev server on ${config.temporal.address}${options.temporalUiPort ? ` with its Web UI on port ${options.temporalUiPort}` : ''}`,
      );
    if (useLocalChain)
      progress(
        `starting a local Hardhat chain on ${config.localChainPort ? `127.0.0.1:${config.localChainPort}` : 'a free loopback port'} with USDC and USDT test tokens, the deposit contracts, a CCTP stand-in and a Uniswap V3 USDT/USDC pool`,
      );
    if (useLocalSolana)
      progress(
        `starting a local Solana chain on ${config.localSolanaPort ? `127.0.0.1:${config.localSolanaPort}` : 'a free loopback port'} with a USDC mint and a treasury`,
      );
    // These are independent and each takes seconds (bundling the workflow code too): do them side by side.
    const [pg, temporalServer, devChain, localSolana, workflowBundle] = await settleAll(stops, [
      config.databaseUrl
        ? undefined
        : startEmbeddedPostgres({ dataDir: join(dataDir, 'postgres'), port: config.embeddedPostgresPort, persistent: options.persistent }),
      options.startTemporal
        ? startTemporalDevServer({
            port: temporalPort,
            ...(options.temporalUiPort ? { uiPort: options.temporalUiPort } : {}),
            ...(options.persistent ? { dbFile: join(dataDir, 'temporal.sqlite') } : {}),
            log: (line) => logger.debug({ temporal: line }),
          })
        : undefined,
      useLocalChain ? startDevChain({ port: config.localChainPort }) : undefined,
      useLocalSolana ? startLocalSolana({ port: config.localSolanaPort }) : undefined,
      bundleWorkflowCode({ workflowsPath, logger: withStatsAtDebug(Runtime.instance().logger) }),
    ] as const);

    const attestation =
      devChain &&
      (await startDevAttestation(devChain, localSolana ? () => createSolanaRpc(localSolana.rpcUrl).getSlot().send() : async () => 0n));
    if (attestation) stops.unshift(() => attestation.stop());
    // New test sessions get addresses of the local chain's deposit factory, their sweeps land in its collector, and
    // transfers ask the local attester. The collector burns to the local Solana treasury: without that chain, no
    // transfer route.
    const stackConfig: Config = devChain
      ? {
          ...config,
          depositForwarders: {
            ...config.depositForwarders,
            test: { ...config.depositForwarders.test, evm: depositForwardersFromEnv(devChain.depositContracts.env).test.evm },
          },
          ...(localSolana ? { depositCollectors: { ...config.depositCollectors, test: devChain.depositContracts.collector } } : {}),
          ...(attestation ? { cctpAttestationUrl: attestation.url } : {}),
          // The collector swaps its USDT through the local pool before its USDC goes on by CCTP.
          swaps: {
            ...config.swaps,
            contracts: {
              ...config.swaps.contracts,
              testnet: { ...config.swaps.contracts.testnet, [devChain.chain]: devChain.swapContracts },
            },
          },
        }
      : config;

    let databaseUrl = config.databaseUrl;
    if (pg) {
      await ensureDatabase(pg.adminUrl, 'checkout');
      databaseUrl = pg.urlFor('checkout');
    }
    if (!databaseUrl) throw new Error('no database: DATABASE_URL is unset and no embedded Postgres was started');
    const sql = createSql(databaseUrl);
    stops.unshift(() => sql.end({ timeout: 5 }));
    await migrate(sql, progress);

    // The worker's chain registry (select-payment's token contract and chain id) and the indexers read the same
    // variables, the local chain's included.
    const chainEnv: NodeJS.ProcessEnv = {
      ...(devChain ? { INDEXER_POLL_INTERVAL_MS: LOCAL_CHAIN_POLL_MS } : {}),
      ...options.chainEnv,
      ...devChain?.env,
      ...localSolana?.env,
    };
    const chains = loadChainsConfig(chainEnv);
    const registry = createChainRegistry(chains);
    // Before the session worker hands out any Tron forwarder address.
    await checkTronFactories(stackConfig.depositForwarders, chains);

    // The signer pays test-mode settlements from the local chain's treasury, which cannot run the Memo program, and
    // sweeps and burns on the local EVM chain as its relayer.
    const signer = await signerDepsFromConfig(
      {
        ...stackConfig,
        databaseUrl,
        ...(localSolana
          ? {
              solanaTreasuryKeys: { ...config.solanaTreasuryKeys, test: localSolana.signerEnv.SOLANA_TREASURY_KEY_TEST },
              solanaPayoutMemo: false,
            }
          : {}),
        ...(devChain
          ? {
              evmSweeps: {
                ...config.evmSweeps,
                relayerKeys: { ...config.evmSweeps.relayerKeys, test: devChain.depositContracts.relayer.privateKey },
              },
            }
          : {}),
      },
      chains,
    );
    stops.unshift(async () => void (await Promise.all(signerDatabasePools(signer).map((pool) => pool.end({ timeout: 5 })))));

    const temporalAddress = temporalServer?.address ?? config.temporal.address;
    const nativeConnection = await NativeConnection.connect({ address: temporalAddress });
    const workers = await startInProcessWorkers({
      connection: nativeConnection,
      namespace: config.temporal.namespace,
      taskQueue: config.temporal.taskQueue,
      activities: activityDepsFromConfig(stackConfig, sql, chainEnv),
      deliveries: webhookDeliveryDepsFromConfig(config, sql),
      maxConcurrentDeliveries: config.webhookMaxConcurrentDeliveries,
      // The stack may hold the mnemonics; the session worker is handed only their xpubs.
      signer,
      workflowBundle,
    });
    const sweeper = startRetentionSweeper(sql, config.retention, logger);
    // The local chain's treasury was funded at its genesis, outside the service: the ledger records that opening so
    // reconciliation starts from no difference. The chain is new at every start (its genesis hash is not: litesvm's
    // is fixed), while a persistent database keeps earlier runs' payouts: each start is a chain of its own.
    const treasuryViews = treasuryViewsFromConfig(
      localSolana ? { solanaTreasuryAddresses: { ...config.solanaTreasuryAddresses, test: localSolana.treasury.address } } : config,
      registry,
      chains.tronHttpApi,
    );
    const localTreasury = localSolana && treasuryViews.find((view) => view.mode === 'test');
    if (localTreasury) await recordTreasuryOpening(localTreasury, sql, `local-solana:${new Date().toISOString()}`);
    // Closed after the reconciliation stopped: it starts the refund workflows of what it opened.
    const connection = await Connection.connect({ address: temporalAddress });
    stops.unshift(() => connection.close());
    const temporal = new Client({ connection, namespace: config.temporal.namespace });
    const reconciliation = startReconciliationSweeper(sql, treasuryViews, config.reconciliationIntervalMinutes, logger, (mode) =>
      openMissingDepositRefunds(
        { sql, refundClaimDays: config.refundClaimDays, startRefund: refundStarter(temporal, config.temporal.taskQueue) },
        mode,
      ),
    );
    stops.unshift(async () => {
      await workers.stop();
      await sweeper?.stop();
      await reconciliation?.stop();
      await nativeConnection.close();
    });

    await ensureSweepSchedules(temporal, {
      taskQueue: config.temporal.taskQueue,
      intervalSeconds: config.sweepIntervalSeconds,
      evmScopes: evmSweepScopes(stackConfig, registry),
    });
    await ensureTransferSchedules(temporal, { taskQueue: config.temporal.taskQueue, intervalSeconds: config.transferIntervalSeconds });

    const deployments = [...indexedEvmDeployments(registry), ...indexedSolanaDeployments(registry)];
    // A fresh local chain has the chain id of the previous run's but none of its blocks.
    if (devChain) await resetCursor(sql, { chain: devChain.chain, network: 'testnet' });
    // Nor any of its transactions: the relayer counts its nonces from 0 again, not from where a persistent
    // database's last run left them (a nonce past the chain's would never be mined).
    if (devChain) await resetEvmNonces(sql, { chain: devChain.chain, mode: 'test' });
    if (localSolana) await resetCursor(sql, { chain: 'solana', network: localSolana.network });
    if (deployments.length > 0) {
      // Each indexer holds one connection for its advisory lock and the process one for LISTEN.
      const indexerSql = createSql(databaseUrl, { max: deployments.length + 4 });
      stops.unshift(() => indexerSql.end({ timeout: 5 }));
      const indexerDeps = {
        sql: indexerSql,
        registry,
        tuning: chains.indexer,
        sender: createTemporalSignalSender(temporal, { namespace: config.temporal.namespace }),
        logger: createLogger(config.logLevel, 'indexer', config.logFormat),
      };
      for (const start of [startEvmIndexers, startSolanaIndexers]) {
        const indexers = await start(indexerDeps);
        stops.unshift(() => indexers.stop());
        indexers.done.catch((error: unknown) =>
          logger.error({ err: errorFields(error) }, 'an indexer stopped; deposits on its chain are no longer seen'),
        );
      }
    }

    // Kept in DATA_DIR with the rest of a persistent stack, so the hosted page's links and enrolled
    // authenticator apps survive a restart.
    const sessionTokenSecret = await resolveSessionTokenSecret(
      config,
      sql,
      options.persistent ? join(dataDir, 'session-token-secret') : undefined,
    );
    const totpEncryptionKey = await resolveTotpEncryptionKey(
      config,
      sql,
      options.persistent ? join(dataDir, 'totp-encryption-key') : undefined,
    );
    await sealPlaintextTotpSecrets(sql, totpEncryptionKey);
    const api = await startApiServer(
      {
        config: { ...config, sessionTokenSecret, totpEncryptionKey },
        sql,
        temporal,
        logger: createLogger(config.logLevel, 'api', config.logFormat),
        registry,
        // Only the chains this stack runs an indexer for: the local chains, or those RPC_URLS_* name (no Tron indexer).
        offer: paymentOfferFromConfig(config, registry, deployments),
      },
      config.host,
      config.port,
    );
    stops.unshift(() => api.close());

    let merchant =
      (await findMerchantByName(sql, DEMO_MERCHANT)) ??
      (await insertMerchant(sql, { name: DEMO_MERCHANT, supportedTokens: ALL_TOKEN_CHAIN_PAIRS }));
    // A wallet the developer chose stays; the local one has the same address on every start.
    if (localSolana && !merchant.settlementWallet) {
      await setSettlementWallet(sql, merchant.id, localSolana.merchantWallet);
      merchant = { ...merchant, settlementWallet: localSolana.merchantWallet };
    }
    const key = await createApiKey(sql, merchant.id, 'test', options.keyLabel);
    const webhookSecret = await findWebhookSecret(sql, merchant.id, 'test');
    const dashboard = await demoDashboardAccess(sql, merchant.id, api.url);
    if (!webhookSecret) throw new Error(`merchant ${merchant.id} has no test webhook secret`);

    return {
      apiUrl: api.url,
      temporal,
      temporalAddress,
      temporalUiUrl: temporalServer?.uiUrl,
      databaseUrl,
      postgres: pg ? `embedded on 127.0.0.1:${config.embeddedPostgresPort}, data in ${join(dataDir, 'postgres')}` : 'DATABASE_URL',
      devChain,
      attestationUrl: attestation?.url,
      localSolana,
      signerEnv: { ...localSolana?.signerEnv, ...devChain?.depositContracts.signerEnv },
      indexed: deployments.map((d) => `${d.chain}:${d.network}`),
      merchant,
      testKey: key.raw,
      webhookSecret,
      dashboard,
      stop: () => runStops(stops),
    };
  } catch (error) {
    await runStops(stops).catch(() => undefined);
    throw error;
  }
}

/**
 * Awaits every start; registers a stop for each that succeeded, then rethrows the first failure, so nothing that
 * did start is left running.
 */
async function settleAll<T extends readonly unknown[]>(stops: Stop[], starts: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const settled = await Promise.allSettled(starts);
  for (const result of settled) {
    const value: unknown = result.status === 'fulfilled' ? result.value : undefined;
    if (value && typeof value === 'object' && 'stop' in value && typeof value.stop === 'function')
      stops.unshift(() => (value.stop as Stop).call(value));
  }
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}
