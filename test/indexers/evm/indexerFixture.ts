// What the EVM indexer tests share: a migrated database, a local Hardhat chain with USDC/USDT test tokens,
// sessions with deposit watches, and indexers built from the same configuration path production uses.
import { createSql } from '../../../db/client';
import { pino } from 'pino';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { loadChainsConfig, envSuffix } from '../../../config/chains';
import { insertSessionRecord } from '../../../db/repositories/sessions';
import { createChainRegistry, type ChainDeployment } from '../../../domain/chains/chainRegistry';
import type { Chain } from '../../../domain/chains/chains';
import { IndexerMetrics, type ChainMetrics } from '../../../indexers/core/metrics';
import type { IndexerSignal, SignalOutcome, SignalSender } from '../../../indexers/core/signalSender';
import { assembleIndexer } from '../../../indexers/core/assembleIndexer';
import type { ChainIndexer } from '../../../indexers/core/chainIndexer';
import type { HeadNotifications } from '../../../indexers/core/headNotifications';
import { evmAssembly } from '../../../indexers/evm/startEvmIndexers';
import { createTestDatabase, type TestDatabase } from '../../support/database';
import { createLocalChain, type LocalChain } from '../../../toolchain/localChain/localChain';
import { createTestMerchant } from '../../support/factories';
import { sessionRecord } from '../../support/sessionRecords';

export interface SentSignal {
  sessionId: string;
  signal: IndexerSignal;
  requestId: string;
}

/** The test double at the indexer's boundary: records every send, duplicates included. */
export class RecordingSignalSender implements SignalSender {
  readonly sent: SentSignal[] = [];
  failing = false;

  async send(sessionId: string, signal: IndexerSignal, requestId: string): Promise<SignalOutcome> {
    if (this.failing) throw new Error('Temporal unavailable (test)');
    this.sent.push({ sessionId, signal, requestId });
    return 'delivered';
  }

  kinds(sessionId?: string): string[] {
    return this.sent.filter((s) => sessionId === undefined || s.sessionId === sessionId).map((s) => s.signal.kind);
  }
}

export interface Tokens {
  usdc: Address;
  usdt: Address;
  decimals: number;
}

export interface IndexerUnderTest {
  indexer: ChainIndexer;
  sender: RecordingSignalSender;
  metrics: ChainMetrics;
  deployment: ChainDeployment;
  /** Ticks until the indexer has nothing more to scan right away. */
  drain(): Promise<void>;
}

export interface IndexerFixture {
  db: TestDatabase;
  chain: LocalChain;
  /** A session with a fresh deposit address watched on `chain` (testnet) until `watchUntil`. */
  watchedSession(chain: Chain, options?: { watchUntil?: Date; address?: Address }): Promise<{ sessionId: string; address: Address }>;
  /** Environment variables that point `chain`'s testnet at the local node and its test tokens. */
  chainEnv(chain: Chain, tokens: Tokens, options?: { rpcUrl?: string; startBlock?: bigint }): Record<string, string>;
  /** `heads`: new heads come from the test instead of a websocket subscription. */
  createIndexer(
    chain: Chain,
    tokens: Tokens,
    options?: { rpcUrl?: string; startBlock?: bigint; env?: Record<string, string>; heads?: HeadNotifications },
  ): Promise<IndexerUnderTest>;
  stop(): Promise<void>;
}

export const silentLogger = pino({ level: process.env.DEBUG_INDEXER ? 'debug' : 'silent' });

/** Ticks until the indexer has nothing more to scan right away; any chain family. */
export async function drainIndexer(indexer: ChainIndexer): Promise<void> {
  for (let i = 0; i < 10_000; i++) if (!(await indexer.tick())) return;
  throw new Error('indexer did not catch up');
}

export function randomAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address;
}

export async function createIndexerFixture(): Promise<IndexerFixture> {
  const [db, chain] = await Promise.all([createTestDatabase(), createLocalChain()]);
  const { merchant } = await createTestMerchant(db.sql);
  // The indexer logs in as its own least-privilege role, as in production (db/serviceRoles.ts).
  const indexerSql = createSql(db.urlAs('checkout_indexer'), { max: 5 });

  const chainEnv: IndexerFixture['chainEnv'] = (chainName, tokens, options = {}) => {
    const suffix = envSuffix(chainName, 'testnet');
    return {
      [`RPC_URLS_${suffix}`]: options.rpcUrl ?? chain.rpcUrl,
      [`CHAIN_ID_${suffix}`]: String(chain.chainId),
      [`TOKEN_USDC_${suffix}`]: `${tokens.usdc}:${tokens.decimals}`,
      [`TOKEN_USDT_${suffix}`]: `${tokens.usdt}:${tokens.decimals}`,
      ...(options.startBlock === undefined ? {} : { [`INDEXER_START_BLOCK_${suffix}`]: options.startBlock.toString() }),
    };
  };

  return {
    db,
    chain,
    chainEnv,
    async watchedSession(chainName, options = {}) {
      const record = sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });
      await insertSessionRecord(db.sql, record, 'awaiting_payment');
      const address = options.address ?? randomAddress();
      const watchUntil = options.watchUntil ?? new Date(Date.now() + 3_600_000);
      await db.sql`
        insert into deposit_watches (session_id, chain, network, address, watch_until)
        values (${record.sessionId}, ${chainName}, 'testnet', ${address}, ${watchUntil})`;
      return { sessionId: record.sessionId, address };
    },
    async createIndexer(chainName, tokens, options = {}) {
      const startBlock = options.startBlock ?? (await chain.blockNumber()) + 1n;
      const config = loadChainsConfig({
        INDEXER_RPC_TIMEOUT_MS: '2000',
        INDEXER_RPC_BACKOFF_MS: '20',
        INDEXER_MAX_LOG_RANGE: '1000',
        ...chainEnv(chainName, tokens, { ...options, startBlock }),
        ...options.env,
      });
      const deployment = createChainRegistry(config).get(chainName, 'testnet');
      const sender = new RecordingSignalSender();
      const metrics = new IndexerMetrics();
      const family = evmAssembly(deployment);
      const { heads } = options;
      const indexer = assembleIndexer(
        deployment,
        { sql: indexerSql, tuning: config.indexer, sender, logger: silentLogger, metrics },
        heads ? { ...family, heads: () => heads } : family,
      );
      return {
        indexer,
        sender,
        deployment,
        metrics: metrics.forChain(chainName, 'testnet'),
        drain: () => drainIndexer(indexer),
      };
    },
    async stop() {
      await indexerSql.end({ timeout: 5 });
      await Promise.allSettled([chain.stop(), db.drop()]);
    },
  };
}

export async function deployTokens(chain: LocalChain, decimals: number): Promise<Tokens> {
  const usdc = await chain.deployToken({ symbol: 'USDC', decimals });
  const usdt = await chain.deployToken({ symbol: 'USDT', decimals });
  return { usdc, usdt, decimals };
}

export interface DepositRecord {
  session_id: string;
  token: string;
  tx_hash: string;
  log_index: number;
  amount_base_units: string;
  from_address: string;
  to_address: string;
  block_number: bigint;
  block_hash: string;
  stage: string;
  confirmations: number;
  signalled_stage: string | null;
}

/** The deposits rows of `chain`, in block and log order, as the indexer stored them. */
export async function depositsOf(db: TestDatabase, chain: Chain): Promise<DepositRecord[]> {
  return db.sql<DepositRecord[]>`
    select session_id, token, tx_hash, log_index, amount_base_units, from_address, to_address, block_number, block_hash, stage, confirmations, signalled_stage
    from deposits where chain = ${chain} order by block_number, log_index, created_at`;
}
