// One indexer in a process of its own, so its RSS is its own: builds the EVM indexer for base testnet from the
// environment, takes one warm-up tick (chain id check, watch set load), says `ready`, waits for `go` on stdin,
// follows the chain to its head one block per range, then reports its memory.
import { createInterface } from 'node:readline';
import { pino } from 'pino';
import { loadChainsConfig } from '../config/chains';
import { createSql } from '../db/client';
import { createChainRegistry } from '../domain/chainRegistry';
import { IndexerMetrics } from '../indexers/core/metrics';
import type { SignalSender } from '../indexers/core/signalSender';
import { buildEvmIndexer } from '../indexers/evm/startEvmIndexers';

const sql = createSql(process.env.DATABASE_URL ?? '', { max: 4 });
const config = loadChainsConfig();
// The sessions are read-model rows only: signals are accepted and dropped.
const sender: SignalSender = { send: async () => 'delivered' };
const indexer = buildEvmIndexer(createChainRegistry(config).get('base', 'testnet'), {
  sql,
  tuning: config.indexer,
  sender,
  logger: pino({ level: 'silent' }),
  metrics: new IndexerMetrics(),
});

await indexer.tick();
console.log(JSON.stringify({ msg: 'ready', watches: indexer.watches.size }));
const lines = createInterface({ input: process.stdin });
for await (const line of lines) if (line.trim() === 'go') break;
let ticks = 0;
while (await indexer.tick()) ticks++;
const { rss, heapUsed } = process.memoryUsage();
console.log(JSON.stringify({ msg: 'done', ticks, watches: indexer.watches.size, rss, heapUsed }));
await sql.end({ timeout: 1 });
process.exit(0);
