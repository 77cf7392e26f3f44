// What the Solana benchmarks share: the local Solana chain (litesvm behind its JSON-RPC layer, standing in for the
// test network) with a funded treasury the signer holds, the service on it with a merchant paid out on that chain,
// and the Solana indexer following it, each session's first depositConfirmed stamped as the indexer sends it.
import { pino } from 'pino';
import { loadChainsConfig } from '../config/chains';
import { createChainRegistry } from '../domain/chains/chainRegistry';
import { createTemporalSignalSender, type SignalSender } from '../indexers/core/signalSender';
import { startSolanaIndexers } from '../indexers/solana/startSolanaIndexers';
import { startLocalSolana, type LocalSolana } from '../toolchain/localSolana/localSolana';
import { startBenchService, type BenchService } from './benchService';
import type { BenchDatabase, BenchEnvironment } from './environment';

export interface SolanaBenchStack {
  solana: LocalSolana;
  db: BenchDatabase;
  service: BenchService;
  /** Session id → when the indexer handed its first depositConfirmed to Temporal (epoch ms). */
  stamps: Map<string, number>;
  stop(): Promise<void>;
}

/** The first depositConfirmed of each session, stamped as the indexer sends it. */
function stampingSender(inner: SignalSender, stamps: Map<string, number>): SignalSender {
  return {
    send(sessionId, signal, requestId) {
      if (signal.kind === 'depositConfirmed' && !stamps.has(sessionId)) stamps.set(sessionId, Date.now());
      return inner.send(sessionId, signal, requestId);
    },
  };
}

export async function startSolanaBenchStack(
  env: BenchEnvironment,
  options: { name: string; separateWorkers?: boolean },
): Promise<SolanaBenchStack> {
  const solana = await startLocalSolana({ port: 0 });
  const stamps = new Map<string, number>();
  let service: BenchService | undefined;
  try {
    const db = await env.database();
    service = await startBenchService(env, db, {
      name: options.name,
      chainEnv: solana.env,
      // litesvm cannot run the Memo program (signer/payouts/treasuryPayout.ts).
      signerEnv: { ...solana.signerEnv, SOLANA_PAYOUT_MEMO: 'false' },
      merchant: { supportedTokens: { USDC: ['solana'] }, settlementWallet: solana.merchantWallet },
      ...(options.separateWorkers ? { separateWorkers: true } : {}),
    });
    const chains = loadChainsConfig(solana.env);
    const indexers = await startSolanaIndexers({
      sql: db.sql,
      registry: createChainRegistry(chains),
      tuning: chains.indexer,
      sender: stampingSender(createTemporalSignalSender(service.temporal, { namespace: service.namespace }), stamps),
      logger: pino({ level: 'silent' }),
    });
    const running = service;
    return {
      solana,
      db,
      service,
      stamps,
      async stop() {
        await indexers.stop();
        await running.stop();
        await solana.stop();
      },
    };
  } catch (error) {
    await service?.stop();
    await solana.stop();
    throw error;
  }
}
