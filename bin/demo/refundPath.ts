// The demo's refund step (`npm run demo -- --refund`): the customer overpaid, so the service owes the excess back and
// made a refund for it by itself. The demo does what the customer does with the claim link the merchant sends them:
// reads the claim, names a wallet of their own on Solana, and watches the refund arrive from the treasury.
import { generateKeyPairSigner, type Address } from '@solana/kit';

type Json = Record<string, unknown>;

export interface RefundPathDeps {
  /** The merchant's API, as bin/demo.ts calls it (the answer's `data`). */
  api: (method: 'GET' | 'POST', path: string, body?: Json) => Promise<Json>;
  sessionId: string;
  customerUsdc: (owner: Address) => Promise<bigint>;
  formatUsdc: (baseUnits: bigint) => string;
  say: (line: string) => void;
  detail: (label: string, value: string) => void;
}

const POLL_MS = 250;

/** Claims the session's refund to a fresh wallet and waits until it is paid; answers the refund's id. */
export async function followRefundPath(deps: RefundPathDeps): Promise<string> {
  const { api, sessionId, say, detail, formatUsdc } = deps;
  const refund = await until(
    async () => {
      // The list answers { data: [refunds], has_more }: the client's `data` is the array.
      const rows = (await api('GET', `/checkout/refunds?session_id=${sessionId}`)) as unknown as Json[];
      return rows.find((r) => r.status === 'pending_claim');
    },
    30_000,
    'the overpayment refund',
  );
  say(`GET /checkout/refunds?session_id=${sessionId} → refund ${String(refund.id)} (${String(refund.source)}), ${String(refund.status)}`);
  detail(
    'owed back',
    `${String(refund.amount_usd)} USD (${String(refund.amount_base_units)} ${String(refund.token)} base units on ${String(refund.chain)})`,
  );
  const claimUrl = String(refund.claim_url);
  detail('claim link', claimUrl);

  const wallet = await generateKeyPairSigner();
  const before = await deps.customerUsdc(wallet.address);
  const claimed = await fetch(`${claimUrl}/claim`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ destination: { chain: 'solana', token: 'USDC', address: wallet.address }, acknowledged_exchange_warning: true }),
  });
  if (!claimed.ok) throw new Error(`claiming the refund answered ${claimed.status}: ${await claimed.text()}`);
  say(`the customer claims it to a wallet of their own: POST ${new URL(claimUrl).pathname}/claim → USDC on solana to ${wallet.address}`);

  const paid = await until(
    async () => {
      const current = await api('GET', `/checkout/refunds/${String(refund.id)}`);
      if (current.status === 'failed') throw new Error(`the refund failed: ${String(current.status_reason)}`);
      return current.status === 'completed' ? current : undefined;
    },
    60_000,
    'the refund to be paid',
  );
  const after = await deps.customerUsdc(wallet.address);
  say(`refund ${String(paid.id)} completed: transaction ${String(paid.transaction_hash)}`);
  detail('customer wallet received', `${formatUsdc(after - before)} USDC (fee ${String(paid.fee_usd)} USD)`);
  return String(paid.id);
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
