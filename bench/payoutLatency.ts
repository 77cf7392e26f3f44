// Time from a deposit's required confirmation to the merchant's payout confirmed on Solana, with every real piece:
// the local Solana chain (litesvm behind the JSON-RPC layer, a block every 400 ms slot, standing in for the test
// network) with a funded treasury, the Solana indexer following it, the session and settlement workflows on the
// Temporal dev server, and the signer worker paying from the treasury. Each session is created and paid through
// the API and a customer's real USDC transfer. The clock starts when the indexer hands the depositConfirmed signal
// to Temporal and stops at payouts.confirmed_at, when the service recorded the payout confirmed on chain.
import { randomBytes } from 'node:crypto';
import { address as solanaAddress, generateKeyPairSigner } from '@solana/kit';
import { payUsdc } from '../bin/demo/solanaWallet';
import { CHAIN_FACTS } from '../domain/chains/chains';
import { paymentIdForSession } from '../domain/wire/ids';
import { LOCAL_SOLANA_SLOT_MS } from '../toolchain/localSolana/localSolana';
import { startWebhookReceiver } from '../test/support/webhookReceiver';
import { startSolanaBenchStack } from './solanaBenchStack';
import type { BenchEnvironment } from './environment';
import { median, percentile, progress, type Row } from './report';
import { waitFor } from './waitFor';

const DEFAULT_PAYOUTS = 20;
/**
 * Deposits are sent this far apart, so their confirmations (32 slots, about 13 s, later) arrive this far apart
 * too: several deposits confirm at once while each payout is, as a rule, alone in flight. The bench counts how
 * many overlapped and says so.
 */
const SPACING_MS = 5_000;
const AMOUNT_USD = 10;
const CUSTOMER_LAMPORTS = 1_000_000_000n;

/** BENCH_PAYOUTS: how many payments to time; a positive whole number, 20 unless set. */
export function payoutCount(env: NodeJS.ProcessEnv): number {
  const raw = env.BENCH_PAYOUTS?.trim();
  if (!raw) return DEFAULT_PAYOUTS;
  if (!/^[1-9]\d{0,3}$/.test(raw)) throw new Error(`BENCH_PAYOUTS must be a whole number from 1 to 9999, got "${raw}"`);
  return Number(raw);
}

interface Timing {
  /** The indexer handed depositConfirmed to Temporal (epoch ms). */
  signalled: number;
  /** chain_intents.broadcast_at: the payout transaction was sent to the chain. */
  broadcast: number;
  /** payouts.confirmed_at: the service recorded it confirmed. */
  confirmed: number;
}

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `median ${median(sorted).toFixed(0)} ms, p90 ${percentile(sorted, 90).toFixed(0)} ms, max ${(sorted.at(-1) ?? Number.NaN).toFixed(0)} ms`;
}

/** The most payouts in flight at one moment: how far the timed windows overlapped. */
function mostInFlight(timings: Timing[]): number {
  return Math.max(...timings.map((t) => timings.filter((o) => o.signalled <= t.signalled && t.signalled < o.confirmed).length));
}

export async function benchPayoutLatency(env: BenchEnvironment, payouts: number): Promise<Row[]> {
  progress(
    'payout latency: starting the local Solana chain, the workers with the signer holding its treasury, the API and the Solana indexer',
  );
  const stack = await startSolanaBenchStack(env, { name: 'payouts' });
  // Sessions require a webhook URL; its deliveries run beside the payouts, as they do in service.
  const receiver = await startWebhookReceiver();
  const { solana, db, service, stamps } = stack;
  try {
    const customer = await generateKeyPairSigner();
    solana.airdrop(customer.address, CUSTOMER_LAMPORTS);
    const { merchant, post } = service;

    let done = 0;
    const payOne = async (index: number): Promise<Timing> => {
      await new Promise((resolve) => setTimeout(resolve, index * SPACING_MS));
      const created = await post('/checkout/sessions', {
        merchant_id: merchant.id,
        transaction_id: `bench-payout-${index}-${randomBytes(4).toString('hex')}`,
        amount_usd: AMOUNT_USD,
        webhook_url: receiver.url,
      });
      const sessionId = created.session_id as string;
      const selected = await post('/checkout/sessions/select-payment', { session_id: sessionId, token: 'USDC', chain: 'solana' });
      const amount = BigInt(selected.amount_base_units as string);
      await solana.mintUsdc(customer.address, amount);
      await payUsdc({
        rpcUrl: solana.rpcUrl,
        from: customer,
        mint: solana.usdcMint,
        decimals: solana.usdcDecimals,
        to: solanaAddress(selected.deposit_address as string),
        amount,
      });
      const paymentId = paymentIdForSession(sessionId);
      // The deposit's confirmations take about 13 s: Postgres is polled only once the timed window has begun.
      const signalled = await waitFor(`the indexer's depositConfirmed for ${sessionId}`, () => stamps.get(sessionId));
      const paid = await waitFor(`the payout of ${paymentId} confirmed`, async () => {
        const [row] = await db.sql<{ broadcast: Date; confirmed: Date }[]>`
          select i.broadcast_at as broadcast, p.confirmed_at as confirmed
          from payouts p join chain_intents i on i.id = p.intent_id
          where p.payment_id = ${paymentId} and p.status in ('confirmed', 'finalized')`;
        return row;
      });
      const timing = { signalled, broadcast: paid.broadcast.getTime(), confirmed: paid.confirmed.getTime() };
      progress(`payout ${++done}/${payouts}: ${timing.confirmed - timing.signalled} ms`);
      return timing;
    };
    const timings = await Promise.all(Array.from({ length: payouts }, (_, index) => payOne(index)));

    const confirmations = CHAIN_FACTS.solana.confirmations;
    const inFlight = mostInFlight(timings);
    const setting = `${payouts} test-mode USDC payments on solana: the local litesvm chain as its test network (${LOCAL_SOLANA_SLOT_MS} ms slots, ${confirmations} confirmations)`;
    return [
      {
        benchmark: 'deposit confirmed → payout confirmed on Solana',
        figure: `${summary(timings.map((t) => t.confirmed - t.signalled))} (n = ${payouts})`,
        detail: `${setting}; from the indexer's depositConfirmed signal to payouts.confirmed_at; deposits ${SPACING_MS / 1000} s apart, at most ${inFlight} payout${inFlight === 1 ? '' : 's'} in flight at once`,
      },
      {
        benchmark: '… of which: deposit confirmed → payout broadcast',
        figure: summary(timings.map((t) => t.broadcast - t.signalled)),
        detail:
          'the session workflow credits the deposit and starts settle_<pay_id>; the signer reserves, signs and sends (chain_intents.broadcast_at)',
      },
      {
        benchmark: '… of which: payout broadcast → payout confirmed',
        figure: summary(timings.map((t) => t.confirmed - t.broadcast)),
        detail: `the transaction lands in the next slot (within ${LOCAL_SOLANA_SLOT_MS} ms); settle_<pay_id> asks the signer again after its CONFIRMATION_POLL sleep (workflows/settlePayment.ts)`,
      },
    ];
  } finally {
    await stack.stop();
    await receiver.close();
  }
}
