// What the Solana indexer tests share: a migrated database, the in-process chain behind its JSON-RPC endpoint,
// USDC/USDT test mints, sessions with watched deposit wallets, and indexers built through the configuration path
// production uses (RPC_URLS_SOLANA_TESTNET, TOKEN_USDC_SOLANA_TESTNET=<mint>:6).
import { generateKeyPairSigner, type Address, type KeyPairSigner } from '@solana/kit';
import { loadChainsConfig } from '../../../config/chains';
import { insertSessionRecord } from '../../../db/repositories/sessions';
import { createChainRegistry } from '../../../domain/chains/chainRegistry';
import { IndexerMetrics, type ChainMetrics } from '../../../indexers/core/metrics';
import type { ChainIndexer } from '../../../indexers/core/chainIndexer';
import { buildSolanaIndexer } from '../../../indexers/solana/startSolanaIndexers';
import { createTestDatabase, type TestDatabase } from '../../support/database';
import { createTestMerchant } from '../../support/factories';
import { sessionRecord } from '../../support/sessionRecords';
import { LocalSolanaChain } from '../../../toolchain/localSolana/localSolanaChain';
import { startSolanaRpcServer, type SolanaRpcServer } from '../../../toolchain/localSolana/solanaRpcServer';
import { createMint, fundedSigner, mintTo, type TestMint } from '../../../toolchain/localSolana/splToken';
import { drainIndexer, RecordingSignalSender, silentLogger, type DepositRecord } from '../evm/indexerFixture';

export interface Mints {
  usdc: TestMint;
  usdt: TestMint;
}

export interface SolanaIndexerUnderTest {
  indexer: ChainIndexer;
  sender: RecordingSignalSender;
  metrics: ChainMetrics;
  /** Ticks until the indexer has nothing more to read right away. */
  drain(): Promise<void>;
}

export interface SolanaFixture {
  db: TestDatabase;
  chain: LocalSolanaChain;
  rpc: SolanaRpcServer;
  mints: Mints;
  /** Holds 10^12 base units of both test mints. */
  payer: KeyPairSigner;
  /** A session watching a fresh wallet (or `address`), in the fixture's database unless `db` names another. */
  watchedSession(options?: { watchUntil?: Date; address?: Address; db?: TestDatabase }): Promise<{ sessionId: string; address: Address }>;
  chainEnv(options?: { rpcUrl?: string; startSlot?: bigint }): Record<string, string>;
  createIndexer(options?: { rpcUrl?: string; startSlot?: bigint; env?: Record<string, string>; db?: TestDatabase }): SolanaIndexerUnderTest;
  stop(): Promise<void>;
}

export async function createSolanaFixture(): Promise<SolanaFixture> {
  const db = await createTestDatabase();
  const merchants = new Map<TestDatabase, Promise<string>>();
  const merchantIn = (target: TestDatabase) => {
    let id = merchants.get(target);
    if (!id) {
      id = createTestMerchant(target.sql).then(({ merchant }) => merchant.id);
      merchants.set(target, id);
    }
    return id;
  };
  const chain = new LocalSolanaChain();
  const rpc = await startSolanaRpcServer(chain);
  const mints = { usdc: await createMint(chain, 6), usdt: await createMint(chain, 6) };
  const payer = await fundedSigner(chain);
  await mintTo(chain, mints.usdc, payer.address, 10n ** 12n);
  await mintTo(chain, mints.usdt, payer.address, 10n ** 12n);
  chain.produce();

  const chainEnv: SolanaFixture['chainEnv'] = (options = {}) => ({
    RPC_URLS_SOLANA_TESTNET: options.rpcUrl ?? rpc.url,
    TOKEN_USDC_SOLANA_TESTNET: `${mints.usdc.address}:${mints.usdc.decimals}`,
    TOKEN_USDT_SOLANA_TESTNET: `${mints.usdt.address}:${mints.usdt.decimals}`,
    ...(options.startSlot === undefined ? {} : { INDEXER_START_BLOCK_SOLANA_TESTNET: options.startSlot.toString() }),
  });

  return {
    db,
    chain,
    rpc,
    mints,
    payer,
    chainEnv,
    async watchedSession(options = {}) {
      const target = options.db ?? db;
      const record = sessionRecord(await merchantIn(target), { createdAt: new Date(), lifetimeMinutes: 60 });
      await insertSessionRecord(target.sql, record, 'awaiting_payment');
      // A wallet that has never held tokens: its associated token accounts are created by the payments.
      const address = options.address ?? (await generateKeyPairSigner()).address;
      const watchUntil = options.watchUntil ?? new Date(Date.now() + 3_600_000);
      await target.sql`
        insert into deposit_watches (session_id, chain, network, address, watch_until)
        values (${record.sessionId}, 'solana', 'testnet', ${address}, ${watchUntil})`;
      return { sessionId: record.sessionId, address };
    },
    createIndexer(options = {}) {
      const config = loadChainsConfig({
        INDEXER_RPC_TIMEOUT_MS: '2000',
        INDEXER_RPC_BACKOFF_MS: '20',
        ...chainEnv({ ...options, startSlot: options.startSlot ?? chain.currentSlot }),
        ...options.env,
      });
      const deployment = createChainRegistry(config).get('solana', 'testnet');
      const sender = new RecordingSignalSender();
      const metrics = new IndexerMetrics();
      const indexer = buildSolanaIndexer(deployment, {
        sql: (options.db ?? db).sql,
        tuning: config.indexer,
        sender,
        logger: silentLogger,
        metrics,
      });
      return {
        indexer,
        sender,
        metrics: metrics.forChain('solana', 'testnet'),
        drain: () => drainIndexer(indexer),
      };
    },
    async stop() {
      await Promise.allSettled([rpc.close(), db.drop()]);
    },
  };
}

/** Ordered by signature within a slot: a Solana deposit's log_index is its token account's index in the transaction. */
export async function solanaDeposits(db: TestDatabase): Promise<DepositRecord[]> {
  return db.sql<DepositRecord[]>`
    select session_id, token, tx_hash, log_index, amount_base_units, from_address, to_address, block_number, block_hash, stage, confirmations, signalled_stage
    from deposits where chain = 'solana' order by block_number, tx_hash, log_index`;
}
