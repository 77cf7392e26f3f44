// What the Tron indexer tests share: a migrated database, the scripted Tron node of test/support/tron, sessions
// with watched `T…` deposit addresses, and indexers built through the configuration path production uses.
import { randomBytes } from 'node:crypto';
import { envSuffix, loadChainsConfig } from '../../../config/chains';
import { insertSessionRecord } from '../../../db/repositories/sessions';
import { tronAddressFromEvmHex } from '../../../domain/addresses/tron';
import { createChainRegistry, type ChainDeployment } from '../../../domain/chains/chainRegistry';
import { IndexerMetrics, type ChainMetrics } from '../../../indexers/core/metrics';
import { buildTronIndexer } from '../../../indexers/tron/startTronIndexers';
import type { ChainIndexer } from '../../../indexers/core/chainIndexer';
import { createTestDatabase, type TestDatabase } from '../../support/database';
import { createTestMerchant } from '../../support/factories';
import { sessionRecord } from '../../support/sessionRecords';
import { depositsOf, drainIndexer, RecordingSignalSender, silentLogger, type DepositRecord } from '../evm/indexerFixture';
import { startTronTestNode, type TronTestNode, type TronTestNodeOptions } from '../../support/tron/tronNode';

/** Tether's USDT contract (domain/chains/tokenContracts.ts), also the emitter of the recorded mainnet logs. */
export const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

export function randomTronAddress(): string {
  return tronAddressFromEvmHex(`0x${randomBytes(20).toString('hex')}`);
}

/** Stands in for the test network's USDC: Circle issues none on Tron any more, so a deployment configures one. */
export const USDC = randomTronAddress();

// The same test doubles as the EVM suites: one signal recorder and one logger for every chain family.
export { RecordingSignalSender, silentLogger };

export interface TronIndexerUnderTest {
  indexer: ChainIndexer;
  sender: RecordingSignalSender;
  metrics: ChainMetrics;
  deployment: ChainDeployment;
  /** Ticks until the indexer has nothing more to scan right away. */
  drain(): Promise<void>;
}

export interface TronFixture {
  db: TestDatabase;
  node: TronTestNode;
  watchedSession(options?: { watchUntil?: Date; address?: string }): Promise<{ sessionId: string; address: string }>;
  /** Environment variables pointing Tron's testnet at the scripted node, as an operator would set them. */
  tronEnv(options?: { rpcUrl?: string; startBlock?: bigint }): Record<string, string>;
  createIndexer(options?: {
    rpcUrl?: string;
    startBlock?: bigint;
    env?: Record<string, string>;
    sender?: RecordingSignalSender;
  }): TronIndexerUnderTest;
  stop(): Promise<void>;
}

export async function createTronFixture(nodeOptions: TronTestNodeOptions = {}): Promise<TronFixture> {
  const [db, node] = await Promise.all([createTestDatabase(), startTronTestNode(nodeOptions)]);
  const { merchant } = await createTestMerchant(db.sql);
  const suffix = envSuffix('tron', 'testnet');

  const tronEnv: TronFixture['tronEnv'] = (options = {}) => ({
    [`RPC_URLS_${suffix}`]: options.rpcUrl ?? node.url,
    [`TOKEN_USDT_${suffix}`]: `${USDT}:6`,
    [`TOKEN_USDC_${suffix}`]: `${USDC}:6`,
    [`INDEXER_START_BLOCK_${suffix}`]: (options.startBlock ?? node.head() + 1n).toString(),
  });

  return {
    db,
    node,
    tronEnv,
    async watchedSession(options = {}) {
      const record = sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });
      await insertSessionRecord(db.sql, record, 'awaiting_payment');
      const address = options.address ?? randomTronAddress();
      const watchUntil = options.watchUntil ?? new Date(Date.now() + 3_600_000);
      await db.sql`
        insert into deposit_watches (session_id, chain, network, address, watch_until)
        values (${record.sessionId}, 'tron', 'testnet', ${address}, ${watchUntil})`;
      return { sessionId: record.sessionId, address };
    },
    createIndexer(options = {}) {
      const config = loadChainsConfig({
        INDEXER_RPC_TIMEOUT_MS: '2000',
        INDEXER_RPC_BACKOFF_MS: '20',
        INDEXER_MAX_LOG_RANGE: '1000',
        ...tronEnv(options),
        ...options.env,
      });
      const deployment = createChainRegistry(config).get('tron', 'testnet');
      const sender = options.sender ?? new RecordingSignalSender();
      const metrics = new IndexerMetrics();
      const indexer = buildTronIndexer(deployment, { sql: db.sql, tuning: config.indexer, sender, logger: silentLogger, metrics });
      return {
        indexer,
        sender,
        deployment,
        metrics: metrics.forChain('tron', 'testnet'),
        drain: () => drainIndexer(indexer),
      };
    },
    async stop() {
      await Promise.allSettled([node.close(), db.drop()]);
    },
  };
}

export function tronDeposits(db: TestDatabase): Promise<DepositRecord[]> {
  return depositsOf(db, 'tron');
}
