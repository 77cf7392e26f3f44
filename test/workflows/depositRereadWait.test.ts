// A payout whose deposit re-read node has not caught up waits: the signer's DepositRereadPending is retryable, so the
// payout activity's retry policy asks again, the settlement workflow sees nothing of it, and the session completes
// once the node agrees. A refusal (PayoutRefused) would have failed the settlement at the first answer. A payout held
// above its merchant's daily limit (PayoutAwaitingApproval) waits the same way until an operator approves it.
import { generateKeyPairSigner, type Address } from '@solana/kit';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SignerDeps } from '../../signer/activities';
import type { VerifyDailyLimit, VerifyDepositBacking } from '../../signer/payouts/treasuryPayout';
import { loadChainsConfig } from '../../config/chains';
import { loadConfig } from '../../config/env';
import { setSettlementWallet } from '../../db/repositories/merchants';
import { WorkflowFailure } from '../../domain/session/workflowFailures';
import { startLocalSolana, type LocalSolana } from '../../toolchain/localSolana/localSolana';
import { depositConfirmedSignal, depositDetectedSignal, selectPaymentUpdate } from '../../workflows/messages';
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

/** A test session of 12 USD paid in USDC on base, as the indexer reports it; resolves once it closed. */
async function paidSession() {
  const record = await h.record({ amountUsdCents: '1200', mode: 'test', supportedTokens: { USDC: ['base'] } });
  const handle = await h.start(record);
  const instructions = await handle.executeUpdate(selectPaymentUpdate, { args: [{ token: 'USDC', chain: 'base' }] });
  const paid = deposit({ chain: 'base', amount: instructions.amount_base_units, toAddress: instructions.deposit_address });
  const confirmations = instructions.confirmations_required;
  await indexerRecords(h.db.sql, record.sessionId, paid, { mode: 'test' });
  await handle.signal(depositDetectedSignal, paid);
  await indexerRecords(h.db.sql, record.sessionId, paid, { mode: 'test', confirmations });
  await handle.signal(depositConfirmedSignal, { ...paid, confirmations });
  return waitForState(handle, (s) => s.status === 'completed' || s.status === 'failed', 60_000);
}

describe('a deposit re-read that has to wait', () => {
  it('is retried by the payout activity until the node agrees, and the session completes', { timeout: 120_000 }, async () => {
    const wallet: Address = (await generateKeyPairSigner()).address;
    await setSettlementWallet(h.db.sql, h.merchant.merchant.id, wallet);
    const treasury = signer.treasuries!.test!;
    let asked = 0;
    // The node trails the indexer's for the first two attempts, as a re-read one block behind answers.
    const trailing: VerifyDepositBacking = async (request, amount) => {
      asked += 1;
      if (asked <= 2)
        throw ApplicationFailure.retryable(
          `payment ${request.paymentId}: the node shows 63 confirmations; waiting`,
          WorkflowFailure.DepositRereadPending,
        );
      return treasury.verifyDepositBacking(request, amount);
    };
    await h.withWorker(
      async () => {
        const state = await paidSession();
        expect(state.status).toBe('completed');
        expect(state.settlement).toMatchObject({ provider: 'solana-treasury', amountUsdc: '12000000' });
      },
      {},
      {},
      { ...signer, treasuries: { test: { ...treasury, verifyDepositBacking: trailing } } },
    );
    expect(asked).toBe(3);
  });
});

describe("a payout held above its merchant's daily limit", () => {
  it(
    "is retried by the payout activity until an operator's approval lets it through, and the session completes",
    { timeout: 120_000 },
    async () => {
      const wallet: Address = (await generateKeyPairSigner()).address;
      await setSettlementWallet(h.db.sql, h.merchant.merchant.id, wallet);
      const treasury = signer.treasuries!.test!;
      let asked = 0;
      // Held for the first two attempts, as the signer answers until the approval is written.
      const held: VerifyDailyLimit = async (tx, request, amount) => {
        asked += 1;
        if (asked <= 2)
          throw ApplicationFailure.retryable(
            `payment ${request.paymentId}: above the daily limit; it waits for an operator`,
            WorkflowFailure.PayoutAwaitingApproval,
          );
        return treasury.verifyDailyLimit(tx, request, amount);
      };
      await h.withWorker(
        async () => {
          const state = await paidSession();
          expect(state.status).toBe('completed');
          expect(state.settlement).toMatchObject({ provider: 'solana-treasury', amountUsdc: '12000000' });
        },
        {},
        {},
        { ...signer, treasuries: { test: { ...treasury, verifyDailyLimit: held } } },
      );
      expect(asked).toBe(3);
    },
  );
});
