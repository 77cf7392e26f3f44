// Issue 13 items 3 and 5: a credited payment is settled from the Solana USDC treasury by the signer, through the
// settle_<pay_id> child workflow, on the local litesvm chain behind its JSON-RPC endpoint and a real Postgres: the
// merchant's USDC balance rises by exactly the amount, once, and the settlement names the payout's signature. A
// signer without a test treasury still settles the same session simulated, paying nothing.
import { createSolanaRpc, generateKeyPairSigner, type Address, type Signature } from '@solana/kit';
import type { WorkflowHandle } from '@temporalio/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SignerDeps } from '../../activities/signer';
import { loadChainsConfig } from '../../config/chains';
import { loadConfig } from '../../config/env';
import { setSettlementWallet } from '../../db/repositories/merchants';
import { paymentIdForSession } from '../../domain/ids';
import { startLocalSolana, type LocalSolana } from '../../toolchain/localSolana/localSolana';
import { associatedTokenAccount } from '../../toolchain/localSolana/splToken';
import { depositConfirmedSignal, depositDetectedSignal, selectPaymentUpdate } from '../../workflows/messages';
import type { checkoutSession } from '../../workflows/checkoutSession';
import { signerDepsFromConfig } from '../../worker/createSignerWorker';
import { createWorkflowHarness, deposit, indexerRecords, waitForState, type WorkflowHarness } from '../support/workflowHarness';

let h: WorkflowHarness;
let solana: LocalSolana;
let signer: SignerDeps;

beforeAll(async () => {
  [h, solana] = await Promise.all([createWorkflowHarness(), startLocalSolana({ port: 0 })]);
  // The signer as it starts in production, from its environment: the local treasury key, the worker's role, no memo.
  const env = { ...solana.env, ...solana.signerEnv, SOLANA_PAYOUT_MEMO: 'false', DATABASE_URL: h.db.urlAs('checkout_worker') };
  signer = await signerDepsFromConfig(loadConfig(env, 'signer'), loadChainsConfig(env));
});
beforeEach(() => h.freshEnvironment());
afterAll(async () => {
  await signer?.treasuries?.test?.sql.end({ timeout: 5 });
  await solana?.stop();
  await h?.teardown();
});

const rpc = () => createSolanaRpc(solana.rpcUrl);

async function usdcBalance(owner: Address): Promise<bigint> {
  const account = await associatedTokenAccount(owner, solana.usdcMint);
  if (!(await rpc().getAccountInfo(account, { encoding: 'base64' }).send()).value) return 0n;
  return BigInt((await rpc().getTokenAccountBalance(account).send()).value.amount);
}

/** A fresh settlement wallet for the harness's merchant, so each test reads a balance nobody else touched. */
async function freshWallet(): Promise<Address> {
  const wallet = (await generateKeyPairSigner()).address;
  await setSettlementWallet(h.db.sql, h.merchant.merchant.id, wallet);
  return wallet;
}

/** A test session paid in full in USDC on base, as the indexer reports it; resolves once it completed. */
async function payInUsdcOnBase(amountUsdCents: string) {
  const record = await h.record({ amountUsdCents });
  const handle: WorkflowHandle<typeof checkoutSession> = await h.start(record);
  const instructions = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
  const paid = deposit({ amount: instructions.amount_base_units, toAddress: instructions.deposit_address });
  await indexerRecords(h.db.sql, record.sessionId, paid);
  await handle.signal(depositDetectedSignal, paid);
  await indexerRecords(h.db.sql, record.sessionId, paid, { confirmations: 64 });
  await handle.signal(depositConfirmedSignal, { ...paid, confirmations: 64 });
  const state = await waitForState(handle, (s) => s.status === 'completed' || s.status === 'failed', 60_000);
  return { record, state, paymentId: paymentIdForSession(record.sessionId) };
}

describe('settlement through the Solana treasury', () => {
  it('pays a test-mode session from the treasury: exactly the amount, once, referenced by the payout signature', async () => {
    const wallet = await freshWallet();
    await h.withWorker(
      async () => {
        const { state, paymentId } = await payInUsdcOnBase('2550');
        expect(state.status).toBe('completed');
        expect(state.settlement).toMatchObject({ provider: 'solana-treasury', amountUsdc: '25500000' });
        const signature = state.settlement!.reference;
        const { value } = await rpc().getSignatureStatuses([signature as Signature], { searchTransactionHistory: true }).send();
        expect(value[0]).toMatchObject({ err: null });
        expect(await usdcBalance(wallet)).toBe(25_500_000n);

        expect(await h.db.sql`select amount_base_units::text as amount, merchant_wallet as wallet, signature, status from payouts where payment_id = ${paymentId}`).toEqual([
          { amount: '25500000', wallet, signature, status: 'confirmed' },
        ]);
        expect(await h.db.sql`select provider, status, reference, amount_usdc_base_units::text as amount from settlements where payment_id = ${paymentId}`).toEqual([
          { provider: 'solana-treasury', status: 'settled', reference: signature, amount: '25500000' },
        ]);
      },
      {},
      {},
      signer,
    );
  });

  it('settles the same session simulated when the signer holds no test treasury, paying nothing', async () => {
    const wallet = await freshWallet();
    await h.withWorker(async () => {
      const { state, paymentId } = await payInUsdcOnBase('1200');
      expect(state.status).toBe('completed');
      expect(state.settlement).toMatchObject({ provider: 'simulated', reference: `sim_${paymentId}`, amountUsdc: '12000000' });
      expect(await h.db.sql`select provider, status from settlements where payment_id = ${paymentId}`).toEqual([{ provider: 'simulated', status: 'settled' }]);
      expect(await h.db.sql`select count(*)::int as n from payouts where payment_id = ${paymentId}`).toEqual([{ n: 0 }]);
      expect(await usdcBalance(wallet)).toBe(0n);
    });
  });
});
