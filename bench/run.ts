// `npm run bench`: sets up its own embedded Postgres, Temporal dev server and Hardhat node on loopback, runs
// every benchmark (each bounded in requests and time), prints the table and writes bench/RESULTS.md.
import { fileURLToPath } from 'node:url';
import { createLocalChain } from '../toolchain/localChain/localChain';
import { startBenchEnvironment } from './environment';
import { benchHttp } from './httpThroughput';
import { benchIndexer } from './indexerCost';
import { machine, progress, table, writeResults, type Row } from './report';
import { benchWebhookLatency } from './webhookLatency';

const RESULTS = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
const started = Date.now();
progress(`machine: ${machine()}`);
progress('starting embedded Postgres, the Temporal dev server and a Hardhat node');
const [env, chain] = await Promise.all([startBenchEnvironment(), createLocalChain()]);
const rows: Row[] = [];
try {
  const tokens = { usdc: await chain.deployToken({ symbol: 'USDC', decimals: 6 }), usdt: await chain.deployToken({ symbol: 'USDT', decimals: 6 }) };
  await chain.mint(tokens.usdc, chain.account(1).address, 10n ** 15n);
  await chain.mint(tokens.usdt, chain.account(1).address, 10n ** 15n);
  rows.push(...(await benchHttp(env)));
  rows.push(...(await benchIndexer(env, chain, tokens)));
  rows.push(...(await benchWebhookLatency(env, chain, tokens)));
} finally {
  await Promise.allSettled([chain.stop(), env.stop()]);
}

const notes = [
  'HTTP figures are the median of 3 runs; latency percentiles are autocannon\'s (client side, including loopback HTTP).',
  'Create-session: no worker polls the task queue, so both sides measure the start, not the workflow run.',
  'Indexer figures are one run each (call counts are deterministic); RSS is the indexer process\'s own, after following the blocks.',
  `Total time ${((Date.now() - started) / 1000).toFixed(0)} s.`,
];
console.log(`\n${table(rows)}\n`);
writeResults(RESULTS, rows, notes);
console.log(`written to ${RESULTS}`);
process.exit(0);
