// The service with many sessions open: one session worker (bin/worker.ts) and one indexer
// (bin/indexer.ts) as processes of their own, so their RSS is their own, the API and the signer in this process,
// the local Hardhat chain behind an RPC-counting proxy. BENCH_SCALE_SESSIONS sessions (10,000 unless set) are
// opened through the API, each with USDC on base chosen, so each has a deposit address the indexer watches.
// With them open, a block is mined every base block time (a deposit to a random open session in every other one)
// while get-session and select-payment are timed: new customers, and customers choosing again on sessions opened
// long before, whose workflows the worker's cache may have evicted. The worker's sticky cache counters come from
// its Prometheus endpoint (Core's metrics), read before and after each step.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { Address } from 'viem';
import { CHAIN_FACTS } from '../domain/chains/chains';
import { startRpcProxy } from '../test/support/evm/rpcProxy';
import { startServiceProcess, type ServiceProcess } from '../test/support/serviceProcess';
import type { LocalChain } from '../toolchain/localChain/localChain';
import { freePort } from '../toolchain/ports';
import { BenchHttpError, startBenchService, type BenchService } from './benchService';
import type { BenchEnvironment } from './environment';
import type { ChainTokens } from './indexerCost';
import { latencySummary, progress, type Row } from './report';
import { waitFor } from './waitFor';

const DEFAULT_SESSIONS = 10_000;
/** Customers opening sessions at once while the sessions are opened. */
const OPENERS = 32;
const PROGRESS_EVERY = 1_000;
const PROBE_CUSTOMERS = 20;
const PROBE_SESSIONS_PER_CUSTOMER = 5;
const GET_CONNECTIONS = 16;
const GETS = 4_000;
const BLOCKS = 20;
const PAYER = 1;
/** A worker or indexer start (the worker bundles the workflows). */
const START_LIMIT_MS = 180_000;
const STICKY = ['sticky_cache_size', 'sticky_cache_hit', 'sticky_cache_miss', 'sticky_cache_total_forced_eviction'] as const;
type Sticky = Record<(typeof STICKY)[number], number>;

/** BENCH_SCALE_SESSIONS, read before the bench starts anything: 10,000 unless set. */
export function scaleSessionCount(env: NodeJS.ProcessEnv): number {
  const raw = env.BENCH_SCALE_SESSIONS?.trim();
  if (!raw) return DEFAULT_SESSIONS;
  if (!/^[1-9]\d{2,5}$/.test(raw)) throw new Error(`BENCH_SCALE_SESSIONS must be a whole number from 100 to 999999, got "${raw}"`);
  return Number(raw);
}

interface Opened {
  sessionId: string;
  address: Address;
}

export async function benchScale(env: BenchEnvironment, chain: LocalChain, tokens: ChainTokens, count: number): Promise<Row[]> {
  const db = await env.database();
  const proxy = await startRpcProxy(chain.rpcUrl);
  const workerMetricsPort = await freePort();
  const chainEnv = {
    RPC_URLS_BASE_TESTNET: proxy.url,
    CHAIN_ID_BASE_TESTNET: String(chain.chainId),
    TOKEN_USDC_BASE_TESTNET: `${tokens.usdc}:6`,
    TOKEN_USDT_BASE_TESTNET: `${tokens.usdt}:6`,
  };
  const processes: ServiceProcess[] = [];
  progress('scale: starting the API and the signer here, the worker and the indexer as processes');
  const service = await startBenchService(env, db, {
    name: 'scale',
    chainEnv,
    separateWorkers: true,
    // The test-mode cap (1,000 by default) would refuse the sessions past it: room for them and the timed ones.
    apiEnv: { MAX_OPEN_SESSIONS_TEST: String(2 * count) },
    merchant: { supportedTokens: { USDC: ['base'], USDT: ['base'] } },
  });
  try {
    const worker = startServiceProcess('bin/worker.ts', {
      ...service.workerEnv,
      LOG_LEVEL: 'warn',
      WORKER_METRICS_PORT: String(workerMetricsPort),
    });
    processes.push(worker);
    const indexer = startServiceProcess('bin/indexer.ts', {
      ...service.workerEnv,
      LOG_LEVEL: 'info',
      INDEXER_START_BLOCK_BASE_TESTNET: ((await chain.blockNumber()) + 1n).toString(),
    });
    processes.push(indexer);
    const workerMetrics = `http://127.0.0.1:${workerMetricsPort}/metrics`;
    await Promise.all([
      waitFor(
        'the worker serving metrics',
        () =>
          fetch(workerMetrics).then(
            (r) => (r.ok ? true : undefined),
            () => undefined,
          ),
        START_LIMIT_MS,
      ),
      indexer.waitForLine((line) => line.includes('"indexers started"'), START_LIMIT_MS),
    ]);

    const openStarted = performance.now();
    const { opened, selectMs } = await openSessions(service, count);
    const openSeconds = (performance.now() - openStarted) / 1000;
    const afterOpen = await stickyCounters(workerMetrics);
    const rssOpen = { worker: rssOf(worker), indexer: rssOf(indexer) };
    progress(
      `scale: ${count.toLocaleString('en')} sessions open in ${openSeconds.toFixed(0)} s; worker RSS ${mib(rssOpen.worker)}, indexer RSS ${mib(rssOpen.indexer)}; cache ${describeSticky(afterOpen)}`,
    );

    // The blocks go on while the latencies are timed, as a live chain would.
    proxy.resetCalls();
    // Sessions paid into can no longer change their choice, so those chosen again are others.
    const paid = distinct(opened, BLOCKS / 2);
    const mining = mineBlocks(chain, tokens, paid);
    const gets = await timeGets(service, opened);
    const afterGets = await stickyCounters(workerMetrics);
    progress(`scale: get-session ${latencySummary(gets)}; cache ${describeSticky(delta(afterGets, afterOpen))}`);
    const fresh = await timeNewCustomers(service);
    const afterFresh = await stickyCounters(workerMetrics);
    progress(`scale: select-payment, new sessions ${latencySummary(fresh)}; cache ${describeSticky(delta(afterFresh, afterGets))}`);
    const again = await timeChoosingAgain(
      service,
      opened.filter((session) => !paid.includes(session)),
    );
    const afterAgain = await stickyCounters(workerMetrics);
    progress(
      `scale: select-payment again on sessions opened earlier ${latencySummary(again)}; cache ${describeSticky(delta(afterAgain, afterFresh))}`,
    );
    const lastBlock = await mining;
    await waitFor('the indexer at the last block', async () => {
      const [cursor] = await db.sql<
        { block_number: bigint }[]
      >`select block_number from indexer_cursors where chain = 'base' and network = 'testnet'`;
      return cursor && cursor.block_number >= lastBlock ? true : undefined;
    });
    const calls = proxy.totalCalls();
    const methods = [...proxy.calls.entries()].map(([method, n]) => `${method} ${n}`).join(', ');
    const [{ deposits } = { deposits: 0 }] = await db.sql<{ deposits: number }[]>`select count(*)::int as deposits from deposits`;
    if (deposits !== BLOCKS / 2) throw new Error(`scale: the indexer recorded ${deposits} deposits, expected ${BLOCKS / 2}`);
    const rssEnd = { worker: rssOf(worker), indexer: rssOf(indexer) };
    const sessions = `${count.toLocaleString('en')} open sessions`;
    return [
      {
        benchmark: `scale: opening ${count.toLocaleString('en')} sessions`,
        figure: `${(count / openSeconds).toFixed(0)} sessions/s (${openSeconds.toFixed(0)} s); select-payment ${latencySummary(selectMs)}`,
        detail: `${OPENERS} customers at once, each creating a session and choosing USDC on base through the API: one worker, one indexer; ${unavailable} select-payment requests answered 503 in the whole run (the update's 15 s deadline), each retried`,
      },
      {
        benchmark: `scale: memory with ${sessions}`,
        figure: `worker RSS ${mib(rssOpen.worker)}, indexer RSS ${mib(rssOpen.indexer)} once open; ${mib(rssEnd.worker)} and ${mib(rssEnd.indexer)} at the end`,
        detail: 'bin/worker.ts and bin/indexer.ts as processes of their own (VmRSS); the end is after the timed requests and blocks below',
      },
      {
        benchmark: `scale: worker cache with ${sessions}`,
        figure: describeSticky(afterAgain),
        detail: `Core's sticky cache metrics over the whole run: cached workflows at the end, hits, misses (a task for a workflow not in the cache: a full replay), forced evictions (maxCachedWorkflows is the SDK default, from the heap limit)`,
      },
      {
        benchmark: `scale: get-session with ${sessions}`,
        figure: `${latencySummary(gets)} (n = ${gets.length})`,
        detail: `${GET_CONNECTIONS} connections, random open sessions; cache during it: ${describeSticky(delta(afterGets, afterOpen))}`,
      },
      {
        benchmark: `scale: select-payment with ${sessions}, new sessions`,
        figure: `${latencySummary(fresh)} (n = ${fresh.length})`,
        detail: `${PROBE_CUSTOMERS} customers at once, each creating ${PROBE_SESSIONS_PER_CUSTOMER} sessions and choosing USDC on base; cache during it: ${describeSticky(delta(afterFresh, afterGets))}`,
      },
      {
        benchmark: `scale: select-payment with ${sessions}, choosing again`,
        figure: `${latencySummary(again)} (n = ${again.length})`,
        detail: `${PROBE_CUSTOMERS} customers at once choosing USDT on base for random sessions opened during the fill; cache during it: ${describeSticky(delta(afterAgain, afterFresh))}`,
      },
      {
        benchmark: `scale: indexer with ${sessions}`,
        figure: `${(calls / BLOCKS).toFixed(2)} RPC calls per block`,
        detail: `${BLOCKS} blocks mined one per base block time (${CHAIN_FACTS.base.averageBlockTimeSeconds} s) during the timed requests, the indexer polling at its default; ${BLOCKS / 2} deposits to random open sessions, all found: ${methods}`,
      },
    ];
  } finally {
    await Promise.allSettled(processes.map((p) => p.stop('SIGTERM')));
    await service.stop();
    await proxy.close();
  }
}

/** 503s answered to select-payment, each retried at once as the hosted page lets the customer do. */
let unavailable = 0;

/** select-payment until it answers other than 503; the time of the answered request. */
async function choose(service: BenchService, sessionId: string, token: 'USDC' | 'USDT'): Promise<{ address: Address; ms: number }> {
  for (;;) {
    const started = performance.now();
    try {
      const selected = await service.post('/checkout/sessions/select-payment', { session_id: sessionId, token, chain: 'base' });
      return { address: selected.deposit_address as Address, ms: performance.now() - started };
    } catch (error) {
      if (!(error instanceof BenchHttpError && error.status === 503)) throw error;
      unavailable++;
    }
  }
}

async function createAndChoose(service: BenchService, label: string, token: 'USDC' | 'USDT'): Promise<Opened & { ms: number }> {
  const created = await service.post('/checkout/sessions', {
    merchant_id: service.merchant.id,
    transaction_id: `bench-scale-${label}-${randomBytes(4).toString('hex')}`,
    amount_usd: 10,
    webhook_url: 'https://merchant.example/webhooks',
  });
  const sessionId = created.session_id as string;
  return { sessionId, ...(await choose(service, sessionId, token)) };
}

async function openSessions(service: BenchService, count: number): Promise<{ opened: Opened[]; selectMs: number[] }> {
  const opened: Opened[] = [];
  const selectMs: number[] = [];
  let next = 0;
  let lastReport = performance.now();
  progress(`scale: opening ${count.toLocaleString('en')} sessions, ${OPENERS} customers at once`);
  await Promise.all(
    Array.from({ length: OPENERS }, async () => {
      while (next < count) {
        const label = String(next++);
        const { sessionId, address, ms } = await createAndChoose(service, label, 'USDC');
        opened.push({ sessionId, address });
        selectMs.push(ms);
        if (opened.length % PROGRESS_EVERY === 0) {
          const now = performance.now();
          const rate = PROGRESS_EVERY / ((now - lastReport) / 1000);
          progress(
            `scale: ${opened.length.toLocaleString('en')} / ${count.toLocaleString('en')} open (${rate.toFixed(0)} sessions/s, select-payment ${latencySummary(selectMs.slice(-PROGRESS_EVERY))}, ${unavailable} 503s so far, load ${(loadavg()[0] ?? 0).toFixed(1)})`,
          );
          lastReport = now;
        }
      }
    }),
  );
  return { opened, selectMs };
}

const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)] as T;

function distinct<T>(items: T[], count: number): T[] {
  const chosen = new Set<T>();
  while (chosen.size < Math.min(count, items.length)) chosen.add(pick(items));
  return [...chosen];
}

async function timeGets(service: BenchService, opened: Opened[]): Promise<number[]> {
  progress(`scale: timing ${GETS.toLocaleString('en')} get-session requests over ${GET_CONNECTIONS} connections`);
  const samples: number[] = [];
  await Promise.all(
    Array.from({ length: GET_CONNECTIONS }, async () => {
      while (samples.length < GETS) {
        const started = performance.now();
        await service.get(`/checkout/sessions/${pick(opened).sessionId}`);
        samples.push(performance.now() - started);
      }
    }),
  );
  return samples;
}

async function timeNewCustomers(service: BenchService): Promise<number[]> {
  progress(`scale: timing select-payment for ${PROBE_CUSTOMERS} new customers at once`);
  const samples: number[] = [];
  await Promise.all(
    Array.from({ length: PROBE_CUSTOMERS }, async (_, who) => {
      for (let round = 0; round < PROBE_SESSIONS_PER_CUSTOMER; round++)
        samples.push((await createAndChoose(service, `probe-${who}-${round}`, 'USDC')).ms);
    }),
  );
  return samples;
}

/** Choosing USDT instead on sessions opened during the fill, distinct ones, most long out of any recent use. */
async function timeChoosingAgain(service: BenchService, opened: Opened[]): Promise<number[]> {
  progress(`scale: timing select-payment again on sessions opened earlier, ${PROBE_CUSTOMERS} customers at once`);
  const queue = distinct(opened, PROBE_CUSTOMERS * PROBE_SESSIONS_PER_CUSTOMER);
  const samples: number[] = [];
  await Promise.all(
    Array.from({ length: PROBE_CUSTOMERS }, async () => {
      for (let session = queue.pop(); session; session = queue.pop()) samples.push((await choose(service, session.sessionId, 'USDT')).ms);
    }),
  );
  return samples;
}

/** One block per base block time, a deposit to the next of `paid` in every other one; the last block's number. */
async function mineBlocks(chain: LocalChain, tokens: ChainTokens, paid: Opened[]): Promise<bigint> {
  const blockMs = CHAIN_FACTS.base.averageBlockTimeSeconds * 1000;
  // Not a Hardhat account: test deposit addresses come from the Hardhat mnemonic's keys, so one may be a session's.
  const unwatched = `0x${randomBytes(20).toString('hex')}` as Address;
  let last = 0n;
  for (let i = 0; i < BLOCKS; i++) {
    const started = performance.now();
    const to = i % 2 === 0 ? (paid[i / 2] as Opened).address : unwatched;
    last = (await chain.transfer(tokens.usdc, PAYER, to, 1_000_000n)).blockNumber;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, blockMs - (performance.now() - started))));
  }
  return last;
}

function rssOf(process: ServiceProcess): number {
  const status = readFileSync(`/proc/${process.child.pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
  if (kib === undefined) throw new Error(`no VmRSS for process ${process.child.pid}`);
  return Number(kib) * 1024;
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/** Core's sticky cache series, summed over their labels (Prometheus text from the worker's metrics endpoint). */
async function stickyCounters(url: string): Promise<Sticky> {
  const text = await (await fetch(url)).text();
  const sums = Object.fromEntries(STICKY.map((name) => [name, 0])) as Sticky;
  for (const line of text.split('\n')) {
    const match = /^(?:temporal_)?([a-z_]+?)(?:_total)?(?:\{[^}]*\})? ([0-9.e+-]+)$/.exec(line);
    const name = match?.[1] as (typeof STICKY)[number] | undefined;
    if (name && name in sums) sums[name] += Number(match?.[2]);
  }
  return sums;
}

function delta(after: Sticky, before: Sticky): Sticky {
  return Object.fromEntries(
    STICKY.map((name) => [name, name === 'sticky_cache_size' ? after[name] : after[name] - before[name]]),
  ) as Sticky;
}

function describeSticky(s: Sticky): string {
  return `${s.sticky_cache_size} cached, ${s.sticky_cache_hit} hits, ${s.sticky_cache_miss} misses, ${s.sticky_cache_total_forced_eviction} forced evictions`;
}
