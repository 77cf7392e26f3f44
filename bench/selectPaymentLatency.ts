// select-payment latency, the moment a customer waits for a deposit address: customers at once, each choosing a pair
// for sessions as the hosted page does. The pairs alternate between the three chain families (an EVM and a Tron
// address come from xpubs on the session worker, a Solana one from the signer's pool), on their test networks' contracts:
// choosing a pair reads no chain, so no chain runs here. The clock covers the select-payment request alone, client
// side over loopback HTTP. Two runs: the merchant's server creates the sessions first and the customers choose once
// the hosted page is open, as a checkout goes (the figure); and each customer's session created and chosen
// at once, the select racing the workflow's first task, the worst a page that chooses for the customer could see.
import { randomBytes } from 'node:crypto';
import type { Chain, TokenSymbol } from '../domain/chains';
import { getStateQuery } from '../workflows/messages';
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

async function choose(service: BenchService, sessionId: string, pair: Pair): Promise<Sample> {
  const started = performance.now();
  await service.post('/checkout/sessions/select-payment', { session_id: sessionId, ...pair });
  return { chain: pair.chain, ms: performance.now() - started, sessionId };
}

const eventMs = (time: { seconds?: unknown; nanos?: number | null } | null | undefined) => Number(time?.seconds ?? 0) * 1000 + (time?.nanos ?? 0) / 1e6;

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
  const byFamily = PAIRS.map(({ token, chain }) => `${token} on ${chain} ${latencySummary(samples.filter((s) => s.chain === chain).map((s) => s.ms))}`);
  return [
    { benchmark: title, figure: `${latencySummary(samples.map((s) => s.ms))} (n = ${samples.length})`, detail },
    { benchmark: '… per pair', figure: byFamily.join('; '), detail: "a Solana address comes from the pool the signer keeps ahead of the index sequence; a miss would add a signer activity" },
  ];
}

export async function benchSelectPayment(env: BenchEnvironment): Promise<Row[]> {
  const db = await env.database();
  progress('select-payment latency: starting the workers (bundles the workflows), the signer and the API');
  const service = await startBenchService(env, db, {
    name: 'select-payment',
    // TRON's test network has no Tether token (domain/tokenContracts.ts), so a contract address stands in for one.
    chainEnv: { TOKEN_USDT_TRON_TESTNET: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t:6' },
    merchant: { supportedTokens: { USDC: ['base', 'solana'], USDT: ['tron'] } },
  });
  try {
    // One of each family first, alone, so one-time costs (the first workflow task, the signer's first call) stay out.
    for (const [index, pair] of PAIRS.entries()) await choose(service, await createSession(service, `warm-${index}`), pair);
    const total = SELECT_PAYMENT_CUSTOMERS * SESSIONS_PER_CUSTOMER;
    progress(`select-payment latency: ${total} sessions created, then ${SELECT_PAYMENT_CUSTOMERS} customers at once choosing`);
    const opened = await Promise.all(Array.from({ length: total }, (_, i) => createSession(service, `open-${i}`)));
    // A query is answered once the workflow's first task has run: every page is then open, as a customer's would be.
    await Promise.all(opened.map((sessionId) => service.temporal.workflow.getHandle(sessionId).query(getStateQuery)));
    await new Promise((resolve) => setTimeout(resolve, PAGE_OPEN_MS));
    const onOpenPages = await customersAtOnce((who, round) => choose(service, opened[who * SESSIONS_PER_CUSTOMER + round] as string, pairFor(who, round)));
    progress(`select-payment latency: ${SELECT_PAYMENT_CUSTOMERS} customers at once, each creating and choosing at once`);
    const atOnce = await customersAtOnce(async (who, round) => choose(service, await createSession(service, `${who}-${round}`), pairFor(who, round)));
    const firstTaskWaits = await Promise.all(atOnce.map((sample) => firstTaskWait(service, sample.sessionId)));
    return [
      ...rows(
        'select-payment (POST /checkout/sessions/select-payment)',
        onOpenPages,
        `${SELECT_PAYMENT_CUSTOMERS} customers at once, each choosing a pair on ${SESSIONS_PER_CUSTOMER} sessions one after another, the pairs spread evenly over base, solana and tron: the update through the session workflow, the deposit address and the quote; the ${total} sessions created by the merchant first, ${PAGE_OPEN_MS / 1000} s before, as a hosted page opens`,
      ),
      ...rows(
        'select-payment right after create-session',
        atOnce,
        `the same, but each customer creates its session and chooses at once (create-session's own time not counted): the update waits for the workflow's first task, and the creates load the machine too`,
      ),
      {
        benchmark: '… first workflow task waiting for a poller',
        figure: latencySummary(firstTaskWaits),
        detail: "from each of those sessions' histories, scheduled → started: the worker's pollers on the normal queue's partitions (worker/createWorker.ts)",
      },
    ];
  } finally {
    await service.stop();
  }
}
