// Time from the block that gives a deposit its required confirmations to the merchant's webhook arriving: the
// local chain, the EVM indexer following it (by polling, or woken by a newHeads websocket subscription), the real
// worker running the session and webhook workflows on the Temporal dev server, and a loopback webhook receiver.
// The clock starts when that block is mined.
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import type { Address } from 'viem';
import { loadChainsConfig } from '../config/chains';
import { createChainRegistry } from '../domain/chains/chainRegistry';
import { CHAIN_FACTS } from '../domain/chains/chains';
import { createTemporalSignalSender } from '../indexers/core/signalSender';
import { startEvmIndexers } from '../indexers/evm/startEvmIndexers';
import type { LocalChain } from '../toolchain/localChain/localChain';
import { startWebhookReceiver } from '../test/support/webhookReceiver';
import { startBenchService } from './benchService';
import type { BenchEnvironment } from './environment';
import type { ChainTokens } from './indexerCost';
import { median, progress, type Row } from './report';
import { waitFor } from './waitFor';

const RUNS = 5;

interface FollowMode {
  label: string;
  env: Record<string, string>;
}
const PAYER = 1;

export async function benchWebhookLatency(env: BenchEnvironment, chain: LocalChain, tokens: ChainTokens): Promise<Row[]> {
  const db = await env.database();
  const chainEnv = {
    RPC_URLS_BASE_TESTNET: chain.rpcUrl,
    CHAIN_ID_BASE_TESTNET: String(chain.chainId),
    TOKEN_USDC_BASE_TESTNET: `${tokens.usdc}:6`,
    TOKEN_USDT_BASE_TESTNET: `${tokens.usdt}:6`,
    INDEXER_START_BLOCK_BASE_TESTNET: ((await chain.blockNumber()) + 1n).toString(),
  };
  const blockTimeMs = CHAIN_FACTS.base.averageBlockTimeSeconds * 1000;
  const modes: FollowMode[] = [
    { label: 'indexer polling every 100 ms', env: { INDEXER_POLL_INTERVAL_MS: '100' } },
    { label: `indexer polling at base's block time (${blockTimeMs} ms, the default)`, env: {} },
    {
      label: 'indexer woken by a newHeads websocket subscription (WS_URLS_BASE_TESTNET)',
      env: { WS_URLS_BASE_TESTNET: chain.rpcUrl.replace(/^http/, 'ws') },
    },
  ];
  const silent = pino({ level: 'silent' });
  const receiver = await startWebhookReceiver();
  const arrivals = new Map<string, number>();
  receiver.respondWith((delivery) => {
    if (delivery.headers['x-service-event'] === 'payment.completed') {
      const sessionId =
        (JSON.parse(delivery.rawBody) as { data?: { session_id?: string } }).data?.session_id ??
        /cs_[0-9A-Z]{26}/.exec(delivery.rawBody)?.[0];
      if (sessionId && !arrivals.has(sessionId)) arrivals.set(sessionId, performance.now());
    }
    return 200;
  });

  progress('webhook latency: starting the worker (bundles the workflows), the API and the indexer');
  const service = await startBenchService(env, db, { name: 'webhooks', chainEnv, merchant: { supportedTokens: { USDC: ['base'] } } });
  const { merchant, post, temporal } = service;
  try {
    const confirmations = CHAIN_FACTS.base.confirmations;
    const rows: Row[] = [];
    for (const mode of modes) {
      // As bin/indexer.ts runs it: the advisory lock, and LISTEN for new watches so a fresh deposit address is seen at once.
      const chains = loadChainsConfig({ ...chainEnv, ...mode.env });
      const indexers = await startEvmIndexers({
        sql: db.sql,
        registry: createChainRegistry(chains),
        tuning: chains.indexer,
        sender: createTemporalSignalSender(temporal, { namespace: service.namespace }),
        logger: silent,
      });
      try {
        const latencies: number[] = [];
        for (let run = 1; run <= RUNS; run++) {
          const created = await post('/checkout/sessions', {
            merchant_id: merchant.id,
            transaction_id: `bench-${run}-${randomBytes(4).toString('hex')}`,
            amount_usd: 10,
            webhook_url: receiver.url,
          });
          const sessionId = created.session_id as string;
          const selected = await post('/checkout/sessions/select-payment', { session_id: sessionId, token: 'USDC', chain: 'base' });
          await chain.transfer(tokens.usdc, PAYER, selected.deposit_address as Address, BigInt(selected.amount_base_units as string));
          await chain.mine(confirmations - 2);
          // One block short of the depth, processed by the indexer: the next block is the one that confirms.
          await waitFor('the deposit one confirmation short', async () => {
            const [row] = await db.sql<{ confirmations: number }[]>`select confirmations from deposits where session_id = ${sessionId}`;
            return row && row.confirmations === confirmations - 1 ? row : undefined;
          });
          const minedAt = performance.now();
          await chain.mine(1);
          const arrivedAt = await waitFor('the payment.completed webhook', () => arrivals.get(sessionId));
          latencies.push(arrivedAt - minedAt);
          progress(`webhook latency, ${mode.label}, run ${run}/${RUNS}: ${(arrivedAt - minedAt).toFixed(0)} ms`);
        }
        rows.push({
          benchmark: 'confirming block → webhook received',
          figure: `median ${median(latencies).toFixed(0)} ms (min ${Math.min(...latencies).toFixed(0)}, max ${Math.max(...latencies).toFixed(0)})`,
          detail: `${RUNS} payments on base (${confirmations} confirmations), ${mode.label}`,
        });
      } finally {
        await indexers.stop();
      }
    }
    return rows;
  } finally {
    await service.stop();
    await receiver.close();
  }
}
