// A foreign watch: a holder of the worker's database credentials has a busy third-party address watched for a victim's
// session, so that the indexer records the strangers' transfers to it as the session's deposits, and the merchant is paid
// from the treasury for money the service never received. The watch is refused (it must be one of its session's deposit
// addresses, db/migrations/0007_signer_recorded_addresses.sql), and deposits recorded to such an address all the same back
// no payout: the signer counts only deposits to the session's own deposit address
// (docs/settlement.md#deposit-addresses-only-the-services-own).
import { randomBytes } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { generateKeyPairSigner } from '@solana/kit';
import { expect, it } from 'vitest';
import { setDepositVerdict } from '../../db/repositories/deposits';
import { WorkflowFailure } from '../../domain/session/workflowFailures';
import { markConfirmed, upsertDeposits } from '../../indexers/core/depositStore';
import { createTreasuryPayout, type PayoutOutcome, type PayoutRequest } from '../../signer/payouts/treasuryPayout';
import { usePayoutFixture, type PayoutFixture } from '../activities/settlement/payoutFixture';

let f: PayoutFixture;
usePayoutFixture((fixture) => (f = fixture));

async function payOnce(deps: Parameters<typeof createTreasuryPayout>[0], request: PayoutRequest): Promise<PayoutOutcome> {
  const pay = createTreasuryPayout(deps);
  return new MockActivityEnvironment({ scheduledTimestampMs: Date.now() }).run<[PayoutRequest], PayoutOutcome, typeof pay>(pay, request);
}

const sessionOf = async (paymentId: string) =>
  (await f.db.sql<[{ sessionId: string }]>`select session_id as "sessionId" from payments where id = ${paymentId}`)[0].sessionId;
const ledgerEntries = async () => Number((await f.db.sql<[{ n: number }]>`select count(*)::int as n from ledger_entries`)[0].n);

it("refuses the worker's role a watch of an address that is not the session's, on insert and by moving its own", async () => {
  const victim = await f.payment(5_000_000n);
  const sessionId = await sessionOf(victim.request.paymentId);
  const busy = (await generateKeyPairSigner()).address;
  const watch = (address: string) =>
    f.worker`insert into deposit_watches (session_id, chain, network, address, watch_until)
             values (${sessionId}, 'solana', 'testnet', ${address}, now() + interval '1 hour')
             on conflict (session_id, chain) do update set address = excluded.address`;
  await expect(watch(busy)).rejects.toMatchObject({
    code: '23514',
    message: `address ${busy} is not a deposit address of session ${sessionId}`,
  });
  // The session's own address is watched; moving that watch to the third party's is refused the same.
  await watch(victim.depositAddress);
  await expect(f.worker`update deposit_watches set address = ${busy} where session_id = ${sessionId}`).rejects.toMatchObject({
    code: '23514',
  });
  expect(await f.db.sql`select address from deposit_watches where session_id = ${sessionId}`).toEqual([{ address: victim.depositAddress }]);
});

it('pays nothing for deposits the indexer recorded to a third-party address watched for the session', async () => {
  const deps = await f.treasury({ usdc: 50_000_000n });
  // The victim's session received nothing at its own address.
  const victim = await f.payment(5_000_000n, () => []);
  const sessionId = await sessionOf(victim.request.paymentId);
  const busy = (await generateKeyPairSigner()).address;
  // A stranger's real transfer to the busy address, recorded by the indexer for the session and credited by the
  // workflow, as they would be had the watch got in (an owner's hand edit: the worker's role is refused above).
  const stranger = await f.onChainDeposit(busy, 5_000_000n);
  const ref = { chain: 'solana' as const, txHash: stranger.txHash, logIndex: stranger.logIndex };
  const blockHash = randomBytes(32).toString('hex');
  await upsertDeposits(f.db.sql, { chain: 'solana', network: 'testnet' }, [
    { ...ref, sessionId, token: 'USDC', amount: 5_000_000n, fromAddress: 'stranger', toAddress: busy, blockNumber: 1n, blockHash },
  ]);
  await markConfirmed(f.db.sql, ref, blockHash, 64);
  await setDepositVerdict(f.worker, sessionId, 'testnet', ref, { credited: true, late: false });
  const treasuryBefore = await f.usdcBalance(deps.treasury.address);
  const entriesBefore = await ledgerEntries();

  await expect(payOnce(deps, victim.request)).rejects.toMatchObject({
    type: WorkflowFailure.PayoutRefused,
    nonRetryable: true,
    message: expect.stringMatching(
      /deposits to its solana testnet deposit address add up to 0 USDC base units, less than the payout of 5000000; not paid$/,
    ),
  });
  f.chain.produce();
  expect(await f.usdcBalance(victim.wallet)).toBeUndefined();
  expect(await f.usdcBalance(deps.treasury.address)).toBe(treasuryBefore);
  expect(await f.usdcBalance(busy)).toBe(5_000_000n);
  expect(await f.db.sql`select count(*)::int as n from payouts where payment_id = ${victim.request.paymentId}`).toEqual([{ n: 0 }]);
  expect(await ledgerEntries()).toBe(entriesBefore);
});
