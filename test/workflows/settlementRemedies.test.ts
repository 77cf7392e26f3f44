// What follows a settlement that paid nothing, through the real session and settlement workflows, the signer and the
// local Solana chain: a refused payout posts no merchant payable and fails the session; once the operator fixed the
// cause, `settlement resettle` settles it again, moving the session from failed to completed with its webhook, and
// asking again changes nothing. A payout that landed and failed fails the session with its webhook instead of
// ending its workflow in an error, and is paid again only by an operator's `settlement repay --confirm`, under a new
// payout generation, once.
import { createSolanaRpc, generateKeyPairSigner, type Address } from '@solana/kit';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SignerDeps } from '../../signer/activities';
import { repayPayment, resettlePayment } from '../../bin/admin/settlementRemedies';
import { loadChainsConfig } from '../../config/chains';
import { loadConfig } from '../../config/env';
import { findSessionById } from '../../db/repositories/sessions';
import { setSettlementWallet } from '../../db/repositories/merchants';
import { paymentIdForSession } from '../../domain/wire/ids';
import { startLocalSolana, type LocalSolana } from '../../toolchain/localSolana/localSolana';
import { associatedTokenAccount } from '../../toolchain/localSolana/splToken';
import { depositConfirmedSignal, depositDetectedSignal, selectPaymentUpdate } from '../../workflows/messages';
import type { checkoutSession } from '../../workflows/checkoutSession';
import { signerDepsFromConfig } from '../../signer/worker';
import { createWorkflowHarness, deposit, indexerRecords, waitForState, type WorkflowHarness } from '../support/workflowHarness';

let h: WorkflowHarness;
let solana: LocalSolana;
let signer: SignerDeps;

beforeAll(async () => {
  [h, solana] = await Promise.all([createWorkflowHarness(), startLocalSolana({ port: 0, treasuryUsdc: 100_000_000n })]);
  const env = { ...solana.env, ...solana.signerEnv, SOLANA_PAYOUT_MEMO: 'false', DATABASE_URL: h.db.urlAs('checkout_signer') };
  signer = await signerDepsFromConfig(loadConfig(env, 'dev'), loadChainsConfig(env));
});
beforeEach(() => h.freshEnvironment());
afterAll(async () => {
  await signer?.treasuries?.test?.sql.end({ timeout: 5 });
  await solana?.stop();
  await h?.teardown();
});

async function usdcBalance(owner: Address): Promise<bigint> {
  const rpc = createSolanaRpc(solana.rpcUrl);
  const account = await associatedTokenAccount(owner, solana.usdcMint);
  if (!(await rpc.getAccountInfo(account, { encoding: 'base64' }).send()).value) return 0n;
  return BigInt((await rpc.getTokenAccountBalance(account).send()).value.amount);
}

/** A test session paid in full in USDC on base, as the indexer reports it; `beforeDeposit` runs once it has a payment. */
async function pay(amountUsdCents: string, beforeDeposit: (paymentId: string, amount: bigint) => Promise<void> = async () => undefined) {
  const record = await h.record({ amountUsdCents, supportedTokens: { USDC: ['base'] } });
  const handle = await h.start(record);
  const instructions = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
  const paymentId = paymentIdForSession(record.sessionId);
  await beforeDeposit(paymentId, BigInt(instructions.amount_base_units));
  const paid = deposit({ chain: 'base', amount: instructions.amount_base_units, toAddress: instructions.deposit_address });
  await indexerRecords(h.db.sql, record.sessionId, paid);
  await handle.signal(depositDetectedSignal, paid);
  const confirmations = instructions.confirmations_required;
  await indexerRecords(h.db.sql, record.sessionId, paid, { confirmations });
  await handle.signal(depositConfirmedSignal, { ...paid, confirmations });
  const state = await waitForState(handle, (s) => s.status === 'completed' || s.status === 'failed', 60_000);
  return { record, handle, state, paymentId, txHash: paid.txHash };
}

const webhookEvents = async (sessionId: string) =>
  (await h.db.sql<{ event: string }[]>`select event from webhook_deliveries where session_id = ${sessionId} order by status_version`).map(
    (r) => r.event,
  );

describe('a settlement refused before any payout', () => {
  it('posts nothing owed, fails the session, and is settled again by resettle once the cause is fixed, once', async () => {
    const merchantId = h.merchant.merchant.id;
    await setSettlementWallet(h.db.sql, merchantId, 'not-a-solana-wallet');
    await h.withWorker(
      async () => {
        const { record, state, paymentId, txHash } = await pay('1500');
        expect(state.status).toBe('failed');
        expect(state.failureReason).toBe(`merchant ${merchantId} has no valid Solana settlement wallet`);
        // The signer refused: no payout, and nothing posted as owed to the merchant; the deposit waits pending for it.
        const deposit = `deposit:base:${txHash}:0`;
        const owners = () =>
          h.db.sql`select account, asset, sum(amount)::text as amount from ledger_entries where reference = ${deposit}
                   group by account, asset having sum(amount) <> 0 order by account, asset`;
        expect(await h.db.sql`select count(*)::int as n from payouts where payment_id = ${paymentId}`).toEqual([{ n: 0 }]);
        expect(await owners()).toEqual([
          { account: 'deposits:base', asset: 'usdc:base', amount: '15000000' },
          { account: 'merchant_pending:base', asset: 'usdc:base', amount: '-15000000' },
        ]);
        const handle = h.env.client.workflow.getHandle<typeof checkoutSession>(record.sessionId);
        await handle.result();

        const wallet = (await generateKeyPairSigner()).address;
        await setSettlementWallet(h.db.sql, merchantId, wallet);
        const deps = { sql: h.db.sql, client: h.env.client, operator: 'alice' };
        expect(await resettlePayment(deps, paymentId)).toMatchObject({ kind: 'started', sessionId: record.sessionId });
        const settled = await handle.result();
        expect(settled).toMatchObject({ status: 'completed', settlement: { provider: 'solana-treasury', amountUsdc: '15000000' } });
        expect(settled.transitions.at(-1)).toMatchObject({ status: 'completed', reason: 'settlement started again by alice' });
        expect(await usdcBalance(wallet)).toBe(15_000_000n);
        expect((await findSessionById(h.db.sql, record.sessionId))?.status).toBe('completed');
        expect(await webhookEvents(record.sessionId)).toEqual(['payment.confirming', 'payment.failed', 'payment.completed']);
        const [completed] = await h.db.sql<
          { body: string }[]
        >`select body from webhook_deliveries where session_id = ${record.sessionId} and event = 'payment.completed'`;
        expect(JSON.parse(completed!.body).settlement).toMatchObject({
          reference: settled.settlement!.reference,
          amount_usdc: '15.000000',
        });
        // The deposit is owed to the merchant in USDC now, posted with the payout's reservation.
        expect(await owners()).toEqual([
          { account: 'cross_chain_clearing', asset: 'usdc:base', amount: '-15000000' },
          { account: 'cross_chain_clearing', asset: 'usdc:solana', amount: '15000000' },
          { account: 'deposits:base', asset: 'usdc:base', amount: '15000000' },
          { account: `merchant_payable:${merchantId}`, asset: 'usdc:solana', amount: '-15000000' },
        ]);

        // Asked again: already settled, nothing started, nothing paid twice.
        expect(await resettlePayment(deps, paymentId)).toMatchObject({ kind: 'already_settled', provider: 'solana-treasury' });
        expect(await usdcBalance(wallet)).toBe(15_000_000n);
      },
      {},
      {},
      signer,
    );
  });
});

describe('a payout that landed and failed', () => {
  it('fails the session with its webhook; the workflow completes instead of failing; repay --confirm pays it under generation 2, once', async () => {
    const wallet = (await generateKeyPairSigner()).address;
    await setSettlementWallet(h.db.sql, h.merchant.merchant.id, wallet);
    const treasury = signer.treasuries!.test!.treasury.address;
    await h.withWorker(
      async () => {
        // The payout's transaction landed and failed earlier (activities/settlement treasuryPayoutRecovery.test.ts
        // shows how on the chain): its rows say so, and the signer answers PayoutFailed from them.
        const { record, state, paymentId } = await pay('800', async (paymentId, amount) => {
          await h.db
            .sql`insert into chain_intents (id, chain, status, signature, wire_transaction, last_valid_block_height, error) values (${`payout:${paymentId}`}, 'solana', 'failed', ${`sig-${paymentId}`}, 'AA==', 1, '{"InstructionError":[1,{"Custom":1}]}')`;
          await h.db
            .sql`insert into payouts (payment_id, merchant_id, mode, amount_base_units, mint, treasury, merchant_wallet, intent_id, status, signature)
            values (${paymentId}, ${h.merchant.merchant.id}, 'test', ${amount.toString()}, ${solana.usdcMint}, ${treasury}, ${wallet}, ${`payout:${paymentId}`}, 'failed', ${`sig-${paymentId}`})`;
        });
        expect(state.status).toBe('failed');
        expect(state.transitions.at(-1)?.reason).toMatch(
          new RegExp(`^settlement failed: payout transaction sig-${paymentId} of ${paymentId} failed on chain`),
        );
        const handle = h.env.client.workflow.getHandle<typeof checkoutSession>(record.sessionId);
        expect(await handle.result()).toMatchObject({ status: 'failed' });
        expect((await findSessionById(h.db.sql, record.sessionId))?.status).toBe('failed');
        expect(await webhookEvents(record.sessionId)).toEqual(['payment.confirming', 'payment.failed']);
        const deps = { sql: h.db.sql, client: h.env.client, operator: 'alice' };
        await expect(resettlePayment(deps, paymentId)).rejects.toThrow(/settlement repay/);

        // Never without the operator's decision.
        await expect(repayPayment(deps, paymentId, false)).rejects.toThrow(/add --confirm/);
        expect(await h.db.sql`select generation, status from payouts where payment_id = ${paymentId}`).toEqual([
          { generation: 1, status: 'failed' },
        ]);

        const repaid = await repayPayment(deps, paymentId, true);
        expect(repaid).toMatchObject({
          kind: 'started',
          newGeneration: true,
          payout: { generation: 2, intentId: `payout:${paymentId}:2`, status: 'pending' },
        });
        expect(await h.db.sql`select generation, signature, repaid_by from failed_payouts where payment_id = ${paymentId}`).toEqual([
          { generation: 1, signature: `sig-${paymentId}`, repaid_by: 'alice' },
        ]);
        const settled = await handle.result();
        expect(settled).toMatchObject({ status: 'completed', settlement: { provider: 'solana-treasury', amountUsdc: '8000000' } });
        expect(await usdcBalance(wallet)).toBe(8_000_000n);
        expect(await h.db.sql`select generation, status, intent_id from payouts where payment_id = ${paymentId}`).toEqual([
          { generation: 2, status: 'confirmed', intent_id: `payout:${paymentId}:2` },
        ]);
        expect(
          (
            await h.db.sql<
              { group_id: string }[]
            >`select distinct group_id from ledger_entries where reference = ${`payout:${paymentId}:2`} order by group_id`
          ).map((r) => r.group_id),
        ).toEqual([`payout:${paymentId}:2:chain-costs`, `payout:${paymentId}:2:reserve`, `payout:${paymentId}:2:sent`]);
        expect(await webhookEvents(record.sessionId)).toEqual(['payment.confirming', 'payment.failed', 'payment.completed']);

        // Asked again: the generation is paid once; nothing new is written or started.
        expect(await repayPayment(deps, paymentId, true)).toMatchObject({ kind: 'already_settled', newGeneration: false });
        expect(await h.db.sql`select count(*)::int as n from failed_payouts where payment_id = ${paymentId}`).toEqual([{ n: 1 }]);
        expect(await usdcBalance(wallet)).toBe(8_000_000n);
      },
      {},
      {},
      signer,
    );
  });
});
