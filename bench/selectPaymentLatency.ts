// select-payment latency, the moment a customer waits for a deposit address: customers at once, each choosing a pair
// for sessions as the hosted page does. The pairs alternate between the three chain families (an EVM and a Tron
// address come from xpubs on the session worker, a Solana one from the signer's pool), on their test networks' contracts:
// choosing a pair reads no chain, so no chain runs here. The clock covers the select-payment request alone, client
// side over loopback HTTP. Two runs: the merchant's server creates the sessions first and the customers choose once
// the hosted page is open, as a checkout goes (the figure bench/RESULTS.md gives first); and each customer's session
// created and chosen at once, the select racing the workflow's first task, the worst a page that chooses for the
// customer could see. Side by side with the first run, the same customers send the session's Update through the
// Temporal client, without the API and HTTP, and then a bare Update (bareUpdateWorkflow.ts): what the Update alone
// costs on this machine, the floor select-payment's own work stands on.
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { QueryDefinition } from '@temporalio/common';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { Chain, TokenSymbol } from '../domain/chains/chains';
import { getStateQuery, selectPaymentUpdate } from '../workflows/messages';
import { SESSION_QUEUE_POLLING } from '../worker/createWorker';
import { RECOVERY_OPTIONS } from '../worker/recoveryOptions';
import { bareChooseUpdate, bareReadyQuery, bareUpdateWorkflow } from './bareUpdateWorkflow';
import { startBenchService, type BenchService } from './benchService';
import type { BenchEnvironment } from './environment';
import { latencySummary, progress, type Row } from './report';

export const SELECT_PAYMENT_CUSTOMERS = 20;
const SESSIONS_PER_CUSTOMER = 5;
const PAIRS: readonly { token: TokenSymbol; chain: Chain }[] = [
  { token: 'USDC', chain: 'base' },
  { token: 'USDC', chain: 'solana' },
  { token: 'USDT', chain: 'tron' },
];

type Pair = (typeof PAIRS)[number];
type Sample = { chain: Chain; ms: number; sessionId: string };

/** A customer's browser between the redirect and the click on a pair. */
const PAGE_OPEN_MS = 2_000;

const createSession = async (service: BenchService, label: string) =>
  (
    await service.post('/checkout/sessions', {
      merchant_id: service.merchant.id,
      transaction_id: `bench-select-${label}-${randomBytes(4).toString('hex')}`,
      amount_usd: 10,
      webhook_url: 'https://merchant.example/webhooks',
    })
  ).session_id as string;

/** One customer's choice, the clock around `send` alone. */
async function timed(sessionId: string, pair: Pair, send: () => Promise<unknown>): Promise<Sample> {
  const started = performance.now();
  await send();
  return { chain: pair.chain, ms: performance.now() - started, sessionId };
}

const choose = (service: BenchService, sessionId: string, pair: Pair) =>
  timed(sessionId, pair, () => service.post('/checkout/sessions/select-payment', { session_id: sessionId, ...pair }));

/** The session workflow's Update as the API sends it, from the Temporal client: no HTTP, authentication or read-model lookup. */
const chooseWithoutApi = (service: BenchService, sessionId: string, pair: Pair) =>
  timed(sessionId, pair, () => service.temporal.workflow.getHandle(sessionId).executeUpdate(selectPaymentUpdate, { args: [pair] }));

const chooseBare = (service: BenchService, workflowId: string, pair: Pair) =>
  timed(workflowId, pair, () => service.temporal.workflow.getHandle(workflowId).executeUpdate(bareChooseUpdate, { args: [pair] }));

/**
 * Each page open: a query is answered once its workflow's first task has run, as a customer's page would be, and
 * the customer takes PAGE_OPEN_MS more to choose.
 */
async function pagesOpen<R>(service: BenchService, workflowIds: readonly string[], query: QueryDefinition<R, []>): Promise<void> {
  await Promise.all(workflowIds.map((workflowId) => service.temporal.workflow.getHandle(workflowId).query(query)));
  await new Promise((resolve) => setTimeout(resolve, PAGE_OPEN_MS));
}

/** Sessions the merchant created, their pages open. */
async function openSessions(service: BenchService, count: number): Promise<string[]> {
  const opened = await Promise.all(Array.from({ length: count }, () => createSession(service, 'open')));
  await pagesOpen(service, opened, getStateQuery);
  return opened;
}

/** A worker of the bare Update's workflow, tuned as the session worker is, on its own task queue. */
async function startBareUpdateWorker(env: BenchEnvironment, namespace: string) {
  const connection = await NativeConnection.connect({ address: env.temporalAddress });
  const taskQueue = `bench-bare-update-${randomBytes(4).toString('hex')}`;
  const worker = await Worker.create({
    connection,
    namespace,
    taskQueue,
    workflowsPath: fileURLToPath(new URL('./bareUpdateWorkflow.ts', import.meta.url)),
    ...SESSION_QUEUE_POLLING,
    ...RECOVERY_OPTIONS,
  });
  const running = worker.run();
  return {
    taskQueue,
    async stop() {
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

/** Workflows of the bare Update, opened as the merchant's sessions are. */
async function openBareWorkflows(service: BenchService, taskQueue: string, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => `bench-bare-${i}-${randomBytes(4).toString('hex')}`);
  await Promise.all(ids.map((workflowId) => service.temporal.workflow.start(bareUpdateWorkflow, { workflowId, taskQueue })));
  await pagesOpen(service, ids, bareReadyQuery);
  return ids;
}

const eventMs = (time: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  Number(time?.seconds ?? 0) * 1000 + (time?.nanos ?? 0) / 1e6;

/** How long the session's first workflow task waited for a worker to poll it. */
async function firstTaskWait(service: BenchService, sessionId: string): Promise<number> {
  const events = (await service.temporal.workflow.getHandle(sessionId).fetchHistory()).events ?? [];
  const scheduled = events.find((e) => e.workflowTaskScheduledEventAttributes);
  const started = events.find((e) => e.workflowTaskStartedEventAttributes);
  if (!scheduled || !started) throw new Error(`session ${sessionId}: its history has no first workflow task`);
  return eventMs(started.eventTime) - eventMs(scheduled.eventTime);
}

/** Every customer's rounds side by side, one after another within a customer; `pick` chooses for (customer, round). */
async function customersAtOnce(pick: (who: number, round: number) => Promise<Sample>): Promise<Sample[]> {
  const samples: Sample[] = [];
  await Promise.all(
    Array.from({ length: SELECT_PAYMENT_CUSTOMERS }, async (_, who) => {
      for (let round = 0; round < SESSIONS_PER_CUSTOMER; round++) samples.push(await pick(who, round));
    }),
  );
  return samples;
}

const pairFor = (who: number, round: number) => PAIRS[(who + round) % PAIRS.length] as Pair;

function rows(title: string, samples: Sample[], detail: string): Row[] {
  const byFamily = PAIRS.map(
    ({ token, chain }) => `${token} on ${chain} ${latencySummary(samples.filter((s) => s.chain === chain).map((s) => s.ms))}`,
  );
  return [
    { benchmark: title, figure: `${latencySummary(samples.map((s) => s.ms))} (n = ${samples.length})`, detail },
    {
      benchmark: '… per pair',
      figure: byFamily.join('; '),
      detail: 'a Solana address comes from the pool the signer keeps ahead of the index sequence; a miss would add a signer activity',
    },
  ];
}

export async function benchSelectPayment(env: BenchEnvironment): Promise<Row[]> {
  const db = await env.database();
  progress('select-payment latency: starting the workers (bundles the workflows), the signer and the API');
  const service = await startBenchService(env, db, {
    name: 'select-payment',
    // TRON's test network has no Tether token (domain/chains/tokenContracts.ts), so a contract address stands in for one.
    chainEnv: { TOKEN_USDT_TRON_TESTNET: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t:6' },
    merchant: { supportedTokens: { USDC: ['base', 'solana'], USDT: ['tron'] } },
    // Nothing is paid here, only chosen: no indexer runs, yet the pairs are offered as if one watched them.
    indexed: { testnet: ['base', 'solana', 'tron'], mainnet: [] },
  });
  let bare: Awaited<ReturnType<typeof startBareUpdateWorker>> | undefined;
  try {
    bare = await startBareUpdateWorker(env, service.namespace);
    // One of each family first, alone, so one-time costs (the first workflow task, the signer's first call) stay out.
    for (const [index, pair] of PAIRS.entries()) await choose(service, await createSession(service, `warm-${index}`), pair);
    const [warmBare] = await openBareWorkflows(service, bare.taskQueue, 1);
    await chooseBare(service, warmBare as string, PAIRS[0] as Pair);
    const total = SELECT_PAYMENT_CUSTOMERS * SESSIONS_PER_CUSTOMER;
    progress(`select-payment latency: ${total} sessions created, then ${SELECT_PAYMENT_CUSTOMERS} customers at once choosing`);
    const opened = await openSessions(service, total);
    const onOpenPages = await customersAtOnce((who, round) =>
      choose(service, opened[who * SESSIONS_PER_CUSTOMER + round] as string, pairFor(who, round)),
    );
    progress(
      `select-payment latency: the same customers sending the session's Update without the API, on ${total} sessions opened the same way`,
    );
    const reopened = await openSessions(service, total);
    const withoutApi = await customersAtOnce((who, round) =>
      chooseWithoutApi(service, reopened[who * SESSIONS_PER_CUSTOMER + round] as string, pairFor(who, round)),
    );
    progress(`select-payment latency: the same customers sending a bare Update to ${total} workflows opened the same way`);
    const bareOpened = await openBareWorkflows(service, bare.taskQueue, total);
    const bareUpdates = await customersAtOnce((who, round) =>
      chooseBare(service, bareOpened[who * SESSIONS_PER_CUSTOMER + round] as string, pairFor(who, round)),
    );
    progress(`select-payment latency: ${SELECT_PAYMENT_CUSTOMERS} customers at once, each creating and choosing at once`);
    const atOnce = await customersAtOnce(async (who, round) =>
      choose(service, await createSession(service, `${who}-${round}`), pairFor(who, round)),
    );
    const firstTaskWaits = await Promise.all(atOnce.map((sample) => firstTaskWait(service, sample.sessionId)));
    return [
      ...rows(
        'select-payment (POST /checkout/sessions/select-payment)',
        onOpenPages,
        `${SELECT_PAYMENT_CUSTOMERS} customers at once, each choosing a pair on ${SESSIONS_PER_CUSTOMER} sessions one after another, the pairs spread evenly over base, solana and tron: the update through the session workflow, the deposit address and the quote; the ${total} sessions created by the merchant first, ${PAGE_OPEN_MS / 1000} s before, as a hosted page opens`,
      ),
      {
        benchmark: "… the session's Update without the API, side by side",
        figure: `${latencySummary(withoutApi.map((s) => s.ms))} (n = ${withoutApi.length})`,
        detail: `the same ${SELECT_PAYMENT_CUSTOMERS} customers and rounds right after, on sessions opened the same way, the session workflow's select-payment Update sent with the Temporal client: no HTTP, authentication or read-model lookup`,
      },
      {
        benchmark: '… a bare Update, side by side',
        figure: `${latencySummary(bareUpdates.map((s) => s.ms))} (n = ${bareUpdates.length})`,
        detail: `the same customers and rounds after that, on workflows opened the same way whose Update answers at once (bench/bareUpdateWorkflow.ts: no activity, no Postgres, no HTTP), sent with the Temporal client: the Update's own cost on this machine`,
      },
      ...rows(
        'select-payment right after create-session',
        atOnce,
        `the same, but each customer creates its session and chooses at once (create-session's own time not counted): the update waits for the workflow's first task, and the creates load the machine too`,
      ),
      {
        benchmark: '… first workflow task waiting for a poller',
        figure: latencySummary(firstTaskWaits),
        detail:
          "from each of those sessions' histories, scheduled → started: the worker's pollers on the normal queue's partitions (worker/createWorker.ts)",
      },
    ];
  } finally {
    await bare?.stop();
    await service.stop();
  }
}
