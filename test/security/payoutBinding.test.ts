// Attacks on the treasury payout from the two places the signer's inputs come from: a Temporal client, which writes
// settle_<pay_id>'s input and so the payout request (merchant, mode, amount) the signer is asked to pay, and the
// database rows it reads: the worker's role writes the workflow's verdicts and may not write payouts at all, and a payouts
// row altered by any other means is checked again at signing. The signer pays only the payment's
// own merchant, exactly what the credited deposits owe, to that merchant's settlement wallet as it stands when it signs
// (docs/settlement.md#paid-only-on-the-indexers-facts).
import { MockActivityEnvironment } from '@temporalio/testing';
import { expect, it } from 'vitest';
import { createTreasuryPayout, recordPayout, type PayoutOutcome, type PayoutRequest } from '../../signer/payouts/treasuryPayout';
import { WorkflowFailure } from '../../domain/session/workflowFailures';
import { usePayoutFixture, type PayoutFixture } from '../activities/settlement/payoutFixture';

let f: PayoutFixture;
usePayoutFixture((fixture) => (f = fixture));

const refused = (reason: RegExp) => ({ type: WorkflowFailure.PayoutRefused, nonRetryable: true, message: expect.stringMatching(reason) });

/** One payout pass in an activity context, as the signer worker runs it. */
async function payOnce(deps: Parameters<typeof createTreasuryPayout>[0], request: PayoutRequest): Promise<PayoutOutcome> {
  const pay = createTreasuryPayout(deps);
  return new MockActivityEnvironment({ scheduledTimestampMs: Date.now() }).run<[PayoutRequest], PayoutOutcome, typeof pay>(pay, request);
}

const ledgerEntries = async () => Number((await f.db.sql<[{ n: number }]>`select count(*)::int as n from ledger_entries`)[0].n);
const payoutRows = async (paymentId: string) =>
  Number((await f.db.sql<[{ n: number }]>`select count(*)::int as n from payouts where payment_id = ${paymentId}`)[0].n);

it("refuses settle_<victim's payment> started with the attacker's merchant id: nothing paid, no row, the ledger unchanged", async () => {
  const deps = await f.treasury({ usdc: 50_000_000n });
  const victim = await f.payment(5_000_000n);
  const attacker = await f.payment(1_000_000n);
  const before = await ledgerEntries();
  await expect(payOnce(deps, { ...victim.request, merchantId: attacker.request.merchantId })).rejects.toMatchObject(
    refused(
      new RegExp(
        `^payment ${victim.request.paymentId} belongs to merchant ${victim.request.merchantId}, not to ${attacker.request.merchantId}`,
      ),
    ),
  );
  f.chain.produce();
  expect(await f.usdcBalance(attacker.wallet)).toBeUndefined();
  expect(await f.usdcBalance(victim.wallet)).toBeUndefined();
  expect(await payoutRows(victim.request.paymentId)).toBe(0);
  expect(await ledgerEntries()).toBe(before);
  // The victim's own settlement still pays the victim.
  await f.payUntilConfirmed(deps, victim.request);
  expect(await f.usdcBalance(victim.wallet)).toBe(5_000_000n);
});

it('refuses a payout larger than the credited deposits owe: an overpayment beyond the price, or a deposit the workflow did not credit', async () => {
  const deps = await f.treasury({ usdc: 50_000_000n });
  // A $10 session paid 12 USDC: the merchant is owed its price, the 2 USDC beyond it are the customer's.
  const overpaid = await f.payment(10_000_000n, () => [{ amount: 12_000_000n }]);
  await expect(payOnce(deps, { ...overpaid.request, amountUsdcBaseUnits: '12000000' })).rejects.toMatchObject(
    refused(/the indexer's credited deposits owe 10000000 USDC base units at the quoted price, the payout asks for 12000000; not paid$/),
  );
  // A late deposit to the same address, kept for a refund (not credited), pays nothing to the merchant.
  const late = await f.payment(5_000_000n, () => [{ amount: 5_000_000n }, { amount: 5_000_000n, logIndex: 2, credited: false }]);
  await expect(payOnce(deps, { ...late.request, amountUsdcBaseUnits: '10000000' })).rejects.toMatchObject(
    refused(/owe 5000000 USDC base units at the quoted price, the payout asks for 10000000/),
  );
  f.chain.produce();
  expect(await f.usdcBalance(overpaid.wallet)).toBeUndefined();
  expect(await f.usdcBalance(late.wallet)).toBeUndefined();
  expect(await payoutRows(overpaid.request.paymentId)).toBe(0);
  // What is owed is paid.
  await f.payUntilConfirmed(deps, overpaid.request);
  expect(await f.usdcBalance(overpaid.wallet)).toBe(10_000_000n);
});

it('pays nothing to a wallet written into a pending payout row before it was signed', async () => {
  const deps = await f.treasury({ usdc: 50_000_000n });
  const { request, wallet } = await f.payment(3_000_000n);
  const attacker = await f.payment(1_000_000n);
  await recordPayout(deps, request);
  // The worker's role may not write payouts; a row altered all the same (a hand edit, the signer's own role) is caught at signing.
  await expect(f.worker`update payouts set merchant_wallet = ${attacker.wallet} where payment_id = ${request.paymentId}`).rejects.toThrow(
    /permission denied/,
  );
  await f.db.sql`update payouts set merchant_wallet = ${attacker.wallet} where payment_id = ${request.paymentId}`;
  await expect(payOnce(deps, request)).rejects.toMatchObject(
    refused(new RegExp(`pays wallet ${attacker.wallet}, but merchant ${request.merchantId}'s settlement wallet is ${wallet}; not signed$`)),
  );
  f.chain.produce();
  expect(await f.usdcBalance(attacker.wallet)).toBeUndefined();
  expect((await f.intentOf(request.paymentId)).status).toBe('prepared');
  // The operator puts the merchant's wallet back into the row, and the payout is signed to it.
  await f.db.sql`update payouts set merchant_wallet = ${wallet} where payment_id = ${request.paymentId}`;
  await f.payUntilConfirmed(deps, request);
  expect(await f.usdcBalance(wallet)).toBe(3_000_000n);
  expect(await f.usdcBalance(attacker.wallet)).toBeUndefined();
});

it("pays nothing when a pending payout is handed to the attacker's merchant and wallet, and Temporal asks for it", async () => {
  const deps = await f.treasury({ usdc: 50_000_000n });
  const { request } = await f.payment(2_000_000n);
  const attacker = await f.payment(1_000_000n);
  await recordPayout(deps, request);
  await f.db.sql`
    update payouts set merchant_id = ${attacker.request.merchantId}, merchant_wallet = ${attacker.wallet}
    where payment_id = ${request.paymentId}`;
  await expect(payOnce(deps, { ...request, merchantId: attacker.request.merchantId })).rejects.toMatchObject(
    refused(new RegExp(`names merchant ${attacker.request.merchantId}, but its payment belongs to ${request.merchantId}; not signed$`)),
  );
  f.chain.produce();
  expect(await f.usdcBalance(attacker.wallet)).toBeUndefined();
  // Nor can the role move the session itself to the attacker's merchant, which the binding is read from.
  const [session] = await f.db.sql<[{ sessionId: string }]>`select session_id as "sessionId" from payments where id = ${request.paymentId}`;
  await expect(f.worker`update sessions set merchant_id = ${attacker.request.merchantId} where id = ${session.sessionId}`).rejects.toThrow(
    /permission denied/,
  );
  await expect(f.worker`update sessions set amount_usd_cents = 100000 where id = ${session.sessionId}`).rejects.toThrow(
    /permission denied/,
  );
});

it('signs nothing for an amount written into a pending payout row beyond what the deposits owe', async () => {
  const deps = await f.treasury({ usdc: 50_000_000n });
  const { request, wallet } = await f.payment(4_000_000n);
  await recordPayout(deps, request);
  await expect(f.worker`update payouts set amount_base_units = 40000000 where payment_id = ${request.paymentId}`).rejects.toThrow(
    /permission denied/,
  );
  await f.db.sql`update payouts set amount_base_units = 40000000 where payment_id = ${request.paymentId}`;
  await expect(payOnce(deps, { ...request, amountUsdcBaseUnits: '40000000' })).rejects.toMatchObject(
    refused(/add up to 4000000 USDC base units, less than the payout of 40000000; not paid$/),
  );
  f.chain.produce();
  expect(await f.usdcBalance(wallet)).toBeUndefined();
  expect((await f.intentOf(request.paymentId)).status).toBe('prepared');
  // The row put back, the payment is paid what it is owed.
  await f.db.sql`update payouts set amount_base_units = 4000000 where payment_id = ${request.paymentId}`;
  await f.payUntilConfirmed(deps, request);
  expect(await f.usdcBalance(wallet)).toBe(4_000_000n);
});
