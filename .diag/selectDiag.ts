import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { installWorkerRuntime } from '../observability/temporalRuntime';
import { startBenchEnvironment } from '../bench/environment';
import { startBenchService } from '../bench/benchService';

installWorkerRuntime({ logger: pino({ level: 'warn' }), metricsBindAddress: undefined });
const env = await startBenchEnvironment();
const db = await env.database();
const service = await startBenchService(env, db, {
  name: 'diag', chainEnv: { TOKEN_USDT_TRON_TESTNET: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t:6' },
  merchant: { supportedTokens: { USDC: ['base', 'solana'], USDT: ['tron'] } },
});
const PAIRS = [{ token: 'USDC', chain: 'base' }, { token: 'USDC', chain: 'solana' }, { token: 'USDT', chain: 'tron' }];
type S = { id: string; chain: string; t0: number; t1: number; c0: number };
async function cycle(pair: (typeof PAIRS)[number], label: string): Promise<S> {
  const c0 = Date.now();
  const created = await service.post('/checkout/sessions', { merchant_id: service.merchant.id, transaction_id: `d-${label}-${randomBytes(4).toString('hex')}`, amount_usd: 10, webhook_url: 'https://merchant.example/webhooks' });
  const t0 = Date.now();
  await service.post('/checkout/sessions/select-payment', { session_id: created.session_id, ...pair });
  return { id: created.session_id as string, chain: pair.chain, t0, t1: Date.now(), c0 };
}
for (const [i, p] of PAIRS.entries()) await cycle(p, `w${i}`);
const single: S[] = [];
for (const [i, p] of PAIRS.entries()) single.push(await cycle(p, `s${i}`));
const samples: S[] = [];
const N = Number(process.env.N ?? 20);
if (process.env.PRE) {
  const made: { id: string; pair: (typeof PAIRS)[number] }[][] = [];
  for (let who = 0; who < N; who++) { made.push([]); for (let r = 0; r < 5; r++) { const pair = PAIRS[(who + r) % 3]!; const c = await service.post('/checkout/sessions', { merchant_id: service.merchant.id, transaction_id: `p-${who}-${r}-${randomBytes(4).toString('hex')}`, amount_usd: 10, webhook_url: 'https://merchant.example/webhooks' }); made[who]!.push({ id: c.session_id as string, pair }); } }
  await new Promise((r) => setTimeout(r, 3000));
  await Promise.all(made.map(async (list) => { for (const { id, pair } of list) { const t0 = Date.now(); await service.post('/checkout/sessions/select-payment', { session_id: id, ...pair }); samples.push({ id, chain: pair.chain, t0, t1: Date.now(), c0: t0 }); } }));
} else await Promise.all(Array.from({ length: N }, async (_, who) => { for (let r = 0; r < 5; r++) samples.push(await cycle(PAIRS[(who + r) % 3]!, `${who}-${r}`)); }));
const show = async (s: S) => {
  const h = await service.temporal.workflow.getHandle(s.id).fetchHistory();
  const lines = (h.events ?? []).map((e) => {
    const t = Number(e.eventTime!.seconds) * 1000 + Math.floor((e.eventTime!.nanos ?? 0) / 1e6);
    return `${String(t - s.t0).padStart(6)} ${String(e.eventType)}`;
  });
  console.log(`--- ${s.chain} create ${s.t0 - s.c0} ms, select ${s.t1 - s.t0} ms\n${lines.join('\n')}`);
};
for (const s of single) await show(s);
const sorted = [...samples].sort((a, b) => (a.t1 - a.t0) - (b.t1 - b.t0));
const pick = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
console.log('p50', pick(0.5).t1 - pick(0.5).t0, 'p99', pick(0.99).t1 - pick(0.99).t0);
await show(pick(0.5)); await show(pick(0.95));
await service.stop(); await env.stop(); process.exit(0);
