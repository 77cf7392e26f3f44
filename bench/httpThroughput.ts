// API throughput against its yardsticks on the same machine: create-session through the API process against a
// bare loop of client.workflow.start on the same Temporal dev server, and get-session through the API against
// a bare Koa route running the same SQL. The ratios say what the API itself costs.
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { Client, Connection } from '@temporalio/client';
import { createApiKey } from '../db/repositories/apiKeys';
import { insertMerchant } from '../db/repositories/merchants';
import { ALL_TOKEN_CHAIN_PAIRS } from '../domain/chains/chains';
import { freePort } from '../toolchain/ports';
import { CHECKOUT_SESSION_WORKFLOW } from '../workflows/messages';
import { ExtTransactionIdAttribute, MerchantIdAttribute } from '../workflows/searchAttributes';
import { sessionRecord } from '../test/support/sessionRecords';
import { startServiceProcess, type ServiceProcess } from '../test/support/serviceProcess';
import type { BenchEnvironment } from './environment';
import { median, percentile, progress, type Row } from './report';

/**
 * Counted runs per side, each after one warm-up run that is not counted: until V8 has compiled a process's hot
 * code, its throughput is still rising (measured here: the bare route's first three runs of 10,000 gets at 4,854,
 * 7,299 and 7,634 per second; the API's at 4,065, 4,785 and 5,051), and the smaller process warms up sooner.
 */
const RUNS = 5;
const runName = (run: number) => (run === 0 ? 'warm-up run (not counted)' : `run ${run}/${RUNS}`);
const CONNECTIONS = 16;
const CREATES_PER_RUN = 600;
const GETS_PER_RUN = 20_000;
const RUN_TIMEOUT_S = 60;
const HALF_LOAD_SECONDS = 5;

interface Sample {
  perSecond: number;
  p50: number;
  p99: number;
}

async function cannon(options: autocannon.Options): Promise<Sample> {
  // autocannon ends a run of `amount` requests at its next sample tick, so its duration is rounded up to the
  // sample interval: at the default second, 2,000 gets done in 1.1 s count as 1,000 per second.
  const result = await autocannon({ connections: CONNECTIONS, timeout: 10, duration: RUN_TIMEOUT_S, sampleInt: 10, ...options });
  const ok = result['2xx'];
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(
      `${options.url}: ${result.non2xx} non-2xx answers (${JSON.stringify(result.statusCodeStats)}) and ${result.errors} errors`,
    );
  }
  return { perSecond: ok / result.duration, p50: result.latency.p50, p99: result.latency.p99 };
}

const summary = (samples: Sample[]) => ({
  perSecond: median(samples.map((s) => s.perSecond)),
  p50: median(samples.map((s) => s.p50)),
  p99: median(samples.map((s) => s.p99)),
});
/** A side's runs without the first, its warm-up. */
const counted = (runs: Sample[]) => summary(runs.slice(1));
const fmt = (s: Sample) => `${Math.round(s.perSecond)} req/s, p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms`;

export async function benchHttp(env: BenchEnvironment): Promise<Row[]> {
  const db = await env.database();
  const merchant = await insertMerchant(db.sql, { name: 'Bench merchant', supportedTokens: ALL_TOKEN_CHAIN_PAIRS });
  const key = await createApiKey(db.sql, merchant.id, 'test');
  // No worker polls this queue: both sides measure starting a workflow, not running it.
  const taskQueue = `bench-${randomBytes(4).toString('hex')}`;
  const [apiPort, barePort] = await Promise.all([freePort(), freePort()]);
  const processes: ServiceProcess[] = [];
  const connection = await Connection.connect({ address: env.temporalAddress });
  try {
    const api = startServiceProcess('bin/api.ts', {
      APP_ENV: 'test',
      PORT: String(apiPort),
      DATABASE_URL: db.url,
      TEMPORAL_ADDRESS: env.temporalAddress,
      TEMPORAL_TASK_QUEUE: taskQueue,
      SESSION_TOKEN_SECRET: randomBytes(32).toString('hex'),
      TOTP_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      RATE_LIMIT_PER_MINUTE: '1000000',
      // Six runs of 600 creates leave 3,600 sessions open; the cap on open sessions is not what is measured.
      MAX_OPEN_SESSIONS_TEST: '1000000',
      LOG_LEVEL: 'warn',
    });
    const bare = startServiceProcess('bench/bareSessionServer.ts', {
      DATABASE_URL: db.url,
      PORT: String(barePort),
      BENCH_MERCHANT_ID: merchant.id,
    });
    processes.push(api, bare);
    // The API logs nothing below warn here; its readiness is the listening port answering /healthz.
    await waitForHttp(`http://127.0.0.1:${apiPort}/healthz`);
    await bare.waitForLine((line) => line.includes('bare server listening'));
    const headers = { 'content-type': 'application/json', 'x-service-user-type': 'checkout', 'x-api-key': key.raw };

    const apiCreates: Sample[] = [];
    const bareStarts: Sample[] = [];
    const client = new Client({ connection });
    for (let run = 0; run <= RUNS; run++) {
      progress(`create-session ${runName(run)}: ${CREATES_PER_RUN} requests through the API, then ${CREATES_PER_RUN} bare workflow starts`);
      apiCreates.push(
        await cannon({
          url: `http://127.0.0.1:${apiPort}`,
          amount: CREATES_PER_RUN,
          requests: [
            {
              method: 'POST',
              path: '/checkout/sessions',
              headers,
              setupRequest: (request) => ({
                ...request,
                body: JSON.stringify({
                  merchant_id: merchant.id,
                  transaction_id: `bench-${randomBytes(8).toString('hex')}`,
                  amount_usd: 25.5,
                  webhook_url: 'https://merchant.example/webhooks',
                }),
              }),
            },
          ],
        }),
      );
      bareStarts.push(await bareWorkflowStarts(client, taskQueue, merchant.id));
    }

    const sessionIds = (await db.sql<{ id: string }[]>`select id from sessions limit 500`).map((r) => r.id);
    const apiGets: Sample[] = [];
    const bareGets: Sample[] = [];
    let next = 0;
    const pick = () => sessionIds[next++ % sessionIds.length] as string;
    for (let run = 0; run <= RUNS; run++) {
      // Which side goes first alternates, so whatever else the machine is doing as it drifts weighs on both alike.
      const apiFirst = run % 2 === 0;
      progress(
        `get-session ${runName(run)}: ${GETS_PER_RUN} requests through ${apiFirst ? 'the API, then through the bare route' : 'the bare route, then through the API'}`,
      );
      const apiRun = () =>
        cannon({
          url: `http://127.0.0.1:${apiPort}`,
          amount: GETS_PER_RUN,
          requests: [{ method: 'GET', headers, setupRequest: (request) => ({ ...request, path: `/checkout/sessions/${pick()}` }) }],
        });
      const bareRun = () =>
        cannon({
          url: `http://127.0.0.1:${barePort}`,
          amount: GETS_PER_RUN,
          requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: `/sessions/${pick()}` }) }],
        });
      if (apiFirst) {
        apiGets.push(await apiRun());
        bareGets.push(await bareRun());
      } else {
        bareGets.push(await bareRun());
        apiGets.push(await apiRun());
      }
    }

    const [create, start, get, bareGet] = [counted(apiCreates), counted(bareStarts), counted(apiGets), counted(bareGets)];
    // Latency under a load the API can carry: half the rate it managed, offered at a steady pace.
    const halfRate = Math.max(1, Math.round(get.perSecond / 2));
    progress(`get-session at ${halfRate} requests per second, half the measured maximum`);
    const atHalf = await cannon({
      url: `http://127.0.0.1:${apiPort}`,
      amount: halfRate * HALF_LOAD_SECONDS,
      overallRate: halfRate,
      requests: [{ method: 'GET', headers, setupRequest: (request) => ({ ...request, path: `/checkout/sessions/${pick()}` }) }],
    });
    return [
      {
        benchmark: 'create-session, API (POST /checkout/sessions)',
        figure: fmt(create),
        detail: `${CONNECTIONS} connections, ${CREATES_PER_RUN} requests per run`,
      },
      {
        benchmark: 'bare client.workflow.start, same server',
        figure: fmt(start),
        detail: `${CONNECTIONS} concurrent loops, ${CREATES_PER_RUN} starts per run`,
      },
      {
        benchmark: 'create-session ÷ bare start',
        figure: `${((create.perSecond / start.perSecond) * 100).toFixed(0)} % of the throughput`,
        detail: 'the API writes the read model and checks auth, rate limit and idempotency around the start',
      },
      {
        benchmark: 'get-session, API (GET /checkout/sessions/:id)',
        figure: fmt(get),
        detail: `${CONNECTIONS} connections, ${GETS_PER_RUN} requests per run`,
      },
      { benchmark: 'bare Koa route, same SQL', figure: fmt(bareGet), detail: 'no auth, rate limit or logging' },
      {
        benchmark: 'get-session ÷ bare route',
        figure: `${((get.perSecond / bareGet.perSecond) * 100).toFixed(0)} % of the throughput`,
        detail: 'authentication (a cached key lookup), the rate-limit lease, validation and logging are the difference',
      },
      {
        benchmark: 'get-session at half the maximum rate',
        figure: fmt(atHalf),
        detail: `${halfRate} requests per second offered for ${HALF_LOAD_SECONDS} s over ${CONNECTIONS} connections`,
      },
    ];
  } finally {
    await Promise.allSettled(processes.map((p) => p.stop('SIGTERM')));
    await connection.close();
  }
}

async function bareWorkflowStarts(client: Client, taskQueue: string, merchantId: string): Promise<Sample> {
  const latencies: number[] = [];
  let issued = 0;
  const started = performance.now();
  const loop = async () => {
    while (issued < CREATES_PER_RUN) {
      issued++;
      const record = sessionRecord(merchantId, { createdAt: new Date(), lifetimeMinutes: 60 });
      const t0 = performance.now();
      await client.workflow.start(CHECKOUT_SESSION_WORKFLOW, {
        workflowId: record.sessionId,
        taskQueue,
        args: [record],
        typedSearchAttributes: [
          { key: MerchantIdAttribute, value: record.merchantId },
          { key: ExtTransactionIdAttribute, value: record.extTransactionId },
        ],
      });
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function waitForHttp(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
