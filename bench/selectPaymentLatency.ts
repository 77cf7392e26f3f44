// select-payment latency, the moment a customer waits for a deposit address: customers at once, each creating a
// session through the API and then choosing a pair, as the hosted page does. The pairs alternate between the three
// chain families (an EVM and a Tron address come from xpubs on the session worker, a Solana one from the signer),
// on their test networks' contracts: choosing a pair reads no chain, so no chain runs here. The clock covers the
// select-payment request alone, client side over loopback HTTP.
import { randomBytes } from 'node:crypto';
import type { Chain, TokenSymbol } from '../domain/chains';
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

type Sample = { chain: Chain; ms: number };

async function customer(service: BenchService, pair: (typeof PAIRS)[number], label: string): Promise<Sample> {
  const created = await service.post('/checkout/sessions', {
    merchant_id: service.merchant.id,
    transaction_id: `bench-select-${label}-${randomBytes(4).toString('hex')}`,
    amount_usd: 10,
    webhook_url: 'https://merchant.example/webhooks',
  });
  const started = performance.now();
  await service.post('/checkout/sessions/select-payment', { session_id: created.session_id, ...pair });
  return { chain: pair.chain, ms: performance.now() - started };
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
    for (const [index, pair] of PAIRS.entries()) await customer(service, pair, `warm-${index}`);
    const total = SELECT_PAYMENT_CUSTOMERS * SESSIONS_PER_CUSTOMER;
    progress(`select-payment latency: ${SELECT_PAYMENT_CUSTOMERS} customers at once, ${total} sessions in all`);
    const samples: Sample[] = [];
    await Promise.all(
      Array.from({ length: SELECT_PAYMENT_CUSTOMERS }, async (_, who) => {
        for (let round = 0; round < SESSIONS_PER_CUSTOMER; round++) {
          samples.push(await customer(service, PAIRS[(who + round) % PAIRS.length] as (typeof PAIRS)[number], `${who}-${round}`));
        }
      }),
    );
    const byFamily = PAIRS.map(({ token, chain }) => `${token} on ${chain} ${latencySummary(samples.filter((s) => s.chain === chain).map((s) => s.ms))}`);
    return [
      {
        benchmark: 'select-payment (POST /checkout/sessions/select-payment)',
        figure: `${latencySummary(samples.map((s) => s.ms))} (n = ${samples.length})`,
        detail: `${SELECT_PAYMENT_CUSTOMERS} customers at once, each creating ${SESSIONS_PER_CUSTOMER} sessions one after another and choosing a pair for each, the pairs spread evenly over base, solana and tron: the update through the session workflow, the deposit address and the quote`,
      },
      { benchmark: '… per pair', figure: byFamily.join('; '), detail: 'a Solana address is the signer worker\'s derivation, one activity more on its own task queue' },
    ];
  } finally {
    await service.stop();
  }
}
