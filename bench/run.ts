// `npm run bench`: sets up its own embedded Postgres, Temporal dev server, Hardhat node and local Solana chain on
// loopback, runs every benchmark (each bounded in requests and time), prints the table and writes bench/RESULTS.md.
// BENCH_PAYOUTS sets how many payouts the payout latency times (20 unless set). BENCH_ONLY=http (the HTTP throughput)
// or BENCH_ONLY=select-payment (its latency) runs that scenario alone, without the chains, and prints its table
// without writing RESULTS.md, which holds every benchmark. BENCH_ONLY=recovery kills the worker processes
// mid-settlement and mid-delivery and times the recovery (bench/workerRecovery.ts), printed, not written.
// BENCH_ONLY=scale runs the scale benchmark alone (bench/scaleSessions.ts, last in the full run), printed, not written;
// BENCH_SCALE_SESSIONS sets how many sessions it opens (10,000 unless set). BENCH_ONLY=admin-cli times the admin CLI's
// start-up (bench/adminCliStart.ts), printed, not written. BENCH_ONLY=tron-energy measures the energy of Tron sweeps
// (bench/tronSweepEnergy.ts), printed, not written. BENCH_ONLY=inventory-routes times payout → treasury refilled per
// route and the gas of USDT swaps on the dev stack (bench/inventoryRoutes.ts), printed, not written.
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { installWorkerRuntime } from '../observability/temporalRuntime';
import { createLocalChain } from '../toolchain/localChain/localChain';
import { benchAdminCliStart } from './adminCliStart';
import { startBenchEnvironment, type BenchEnvironment } from './environment';
import { benchHttp } from './httpThroughput';
import { benchIndexer } from './indexerCost';
import { benchInventoryRoutes } from './inventoryRoutes';
import { benchPayoutLatency, payoutCount } from './payoutLatency';
import { benchScale, scaleSessionCount } from './scaleSessions';
import { machine, progress, table, writeResults, type Row } from './report';
import { benchSelectPayment } from './selectPaymentLatency';
import { benchWebhookLatency } from './webhookLatency';
import { benchTronSweepEnergy } from './tronSweepEnergy';
import { benchWorkerRecovery } from './workerRecovery';

const RESULTS = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
const payouts = payoutCount(process.env);
/** The scenarios runnable alone: those that need no Hardhat node. */
const ALONE: Record<string, (env: BenchEnvironment) => Promise<Row[]>> = {
  http: benchHttp,
  'select-payment': benchSelectPayment,
  recovery: benchWorkerRecovery,
  'admin-cli': benchAdminCliStart,
  'tron-energy': benchTronSweepEnergy,
  'inventory-routes': benchInventoryRoutes,
};
const only = process.env.BENCH_ONLY;
if (only !== undefined && only !== 'scale' && !Object.hasOwn(ALONE, only)) {
  throw new Error(`BENCH_ONLY must be ${[...Object.keys(ALONE), 'scale'].join(', ')} or unset, not ${only}`);
}
const scaleSessions = scaleSessionCount(process.env);
const started = Date.now();
const loadAtStart = loadavg()[0] ?? 0;
// The in-process workers' runtime logs through pino like bin/worker.ts, here at warn so progress lines stay readable.
installWorkerRuntime({ logger: pino({ level: 'warn' }), metricsBindAddress: undefined });
progress(`machine: ${machine()}`);
progress(`starting embedded Postgres, the Temporal dev server${only && only !== 'scale' ? '' : ' and a Hardhat node'}`);
const rows: Row[] = [];
if (only && only !== 'scale') {
  const env = await startBenchEnvironment();
  try {
    rows.push(...(await (ALONE[only] as (env: BenchEnvironment) => Promise<Row[]>)(env)));
  } finally {
    await env.stop();
  }
  console.log(
    `\n${table(rows)}\n\nload average (1 min) ${loadAtStart.toFixed(1)} at the start and ${(loadavg()[0] ?? 0).toFixed(1)} at the end`,
  );
  process.exit(0);
}
const [env, chain] = await Promise.all([startBenchEnvironment(), createLocalChain()]);
try {
  const tokens = {
    usdc: await chain.deployToken({ symbol: 'USDC', decimals: 6 }),
    usdt: await chain.deployToken({ symbol: 'USDT', decimals: 6 }),
  };
  await chain.mint(tokens.usdc, chain.account(1).address, 10n ** 15n);
  await chain.mint(tokens.usdt, chain.account(1).address, 10n ** 15n);
  if (only === 'scale') {
    rows.push(...(await benchScale(env, chain, tokens, scaleSessions)));
  } else {
    rows.push(...(await benchHttp(env)));
    rows.push(...(await benchSelectPayment(env)));
    rows.push(...(await benchIndexer(env, chain, tokens)));
    rows.push(...(await benchWebhookLatency(env, chain, tokens)));
    rows.push(...(await benchPayoutLatency(env, payouts)));
    rows.push(...(await benchWorkerRecovery(env)));
    rows.push(...(await benchAdminCliStart(env)));
    rows.push(...(await benchTronSweepEnergy()));
    rows.push(...(await benchInventoryRoutes()));
    rows.push(...(await benchScale(env, chain, tokens, scaleSessions)));
  }
} finally {
  await Promise.allSettled([chain.stop(), env.stop()]);
}
if (only === 'scale') {
  console.log(
    `\n${table(rows)}\n\nload average (1 min) ${loadAtStart.toFixed(1)} at the start and ${(loadavg()[0] ?? 0).toFixed(1)} at the end`,
  );
  process.exit(0);
}

const notes = [
  "HTTP figures are the median of 5 runs, each side's after a warm-up run that is not counted; the get-session runs alternate which side goes first; latency percentiles are autocannon's (client side, including loopback HTTP).",
  'Create-session: no worker polls the task queue, so both sides measure the start, not the workflow run.',
  "Indexer figures are one run each (call counts are deterministic); RSS is the indexer process's own, after following the blocks.",
  "select-payment: one run after a warm-up of one session per pair; the workers, the signer and the API share one process and the machine's cores with Postgres and the Temporal dev server.",
  'Payout latency: one run; every step is real (API, indexer, workflows, signer, chain), the chain is local: its slots come every 400 ms and an RPC call answers in a millisecond, so a cluster adds its own RPC round trips and confirmation time.',
  'Payout latency floor: the payout lands within a slot of its broadcast, but settle_<pay_id> learns it only on the signer pass after its 2 s CONFIRMATION_POLL sleep, so broadcast → confirmed is that sleep plus one pass, and most of the whole.',
  "Inventory routes: the dev stack's own Postgres, Temporal dev server and local chains beside the bench's; 3 payments per route, one after another; the swap's gas is deterministic on a fresh pool.",
  "Admin CLI start-up: each process spawned by the bench and timed to its exit, one after another; the ratio's floor is Node.js with tsx's loader and nothing imported.",
  `Scale: one run with ${scaleSessions.toLocaleString('en')} sessions; the worker and the indexer are processes of their own, the API, the signer and the bench's clients share this one; the worker's cache holds the SDK's default number of workflows (from its heap limit).`,
  `Load average (1 min) ${loadAtStart.toFixed(1)} at the start and ${(loadavg()[0] ?? 0).toFixed(1)} at the end, on ${cpus().length} cores: the figures are as loaded as that.`,
  `Total time ${((Date.now() - started) / 1000).toFixed(0)} s.`,
];
console.log(`\n${table(rows)}\n`);
writeResults(RESULTS, rows, notes);
console.log(`written to ${RESULTS}`);
process.exit(0);
