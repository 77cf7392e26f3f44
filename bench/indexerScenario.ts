// One indexer in a process of its own, so its RSS is its own: builds the EVM indexer for base testnet from the
// environment. Polling: takes one warm-up tick (chain id check, watch set load), says `ready`, waits for `go` on
// stdin, follows the chain to its head one block per range, then reports its memory. Subscribed (with
// WS_URLS_BASE_TESTNET): runs the loop, says `ready` once subscribed, follows the blocks as the bench mines them
// until `stop`, then reports its memory.
import { createInterface } from 'node:readline';
import { pino } from 'pino';
import { loadChainsConfig } from '../config/chains';
import { createSql } from '../db/client';
import { createChainRegistry } from '../domain/chains/chainRegistry';
import { IndexerMetrics } from '../indexers/core/metrics';
import type { SignalSender } from '../indexers/core/signalSender';
import { buildEvmIndexer } from '../indexers/evm/startEvmIndexers';

const sql = createSql(process.env.DATABASE_URL ?? '', { max: 4 });
const config = loadChainsConfig(process.env);
// The sessions are read-model rows only: signals are accepted and dropped.
const sender: SignalSender = { send: async () => 'delivered' };
const metrics = new IndexerMetrics();
const indexer = buildEvmIndexer(createChainRegistry(config).get('base', 'testnet'), {
  sql,
  tuning: config.indexer,
  sender,
  logger: pino({ level: 'silent' }),
  metrics,
});
const lines = createInterface({ input: process.stdin });
const command = async (word: string) => {
  for await (const line of lines) if (line.trim() === word) return;
};

let ticks = 0;
if (process.env.WS_URLS_BASE_TESTNET) {
  const chain = metrics.forChain('base', 'testnet');
  const stop = new AbortController();
  const running = indexer.run(stop.signal);
  while (!chain.subscriptionLive || chain.lastTickAt === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
  console.log(JSON.stringify({ msg: 'ready', watches: indexer.watches.size }));
  await command('stop');
  stop.abort();
  await running;
} else {
  await indexer.tick();
  console.log(JSON.stringify({ msg: 'ready', watches: indexer.watches.size }));
  await command('go');
  while (await indexer.tick()) ticks++;
}
const { rss, heapUsed } = process.memoryUsage();
console.log(JSON.stringify({ msg: 'done', ticks, watches: indexer.watches.size, rss, heapUsed }));
await sql.end({ timeout: 1 });
process.exit(0);
