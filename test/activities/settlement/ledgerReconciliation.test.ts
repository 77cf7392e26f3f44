// Reconciliation against the local Solana chain. The treasury's opening (funded at genesis) is
// recorded once; a payout keeps ledger and chain equal (USDC sent, fee and rent); USDC sent to the treasury
// outside the service, USDC in a deposit account and a ledger group without chain counterpart are each reported
// as a difference, and recording the top-up from its landed transaction removes that one.
import { generateKeyPairSigner, type Address } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcileLedger, type TreasuryView } from '../../../activities/settlement/ledgerReconciliation';
import { FundingRefused, recordTreasuryFunding, recordTreasuryOpening } from '../../../activities/settlement/treasuryFunding';
import type { TreasuryPayoutDeps } from '../../../signer/payouts/treasuryPayout';
import { postLedger } from '../../../db/repositories/ledger';
import { setMerchantFee } from '../../../db/repositories/merchants';
import { insertSessionRecord } from '../../../db/repositories/sessions';
import { ACCOUNT, ASSET } from '../../../domain/ledger/ledger';
import { createTestMerchant } from '../../support/factories';
import { sessionRecord } from '../../support/sessionRecords';
import { mintTo } from '../../../toolchain/localSolana/splToken';
import { createPayoutFixture, type PayoutFixture } from './payoutFixture';

let f: PayoutFixture;
let treasury: TreasuryPayoutDeps;
let view: TreasuryView;

const differencesNow = async () =>
  (await reconcileLedger(view, f.worker)).differences.map((d) => ({ account: d.account, asset: d.asset, difference: d.difference }));

beforeAll(async () => {
  f = await createPayoutFixture();
  treasury = await f.treasury({ usdc: 50_000_000n });
  view = { mode: 'test', rpc: f.rpc, treasury: treasury.treasury.address, usdcMint: f.usdc.address };
});
afterAll(() => f?.stop());

describe('ledger reconciliation', () => {
  it('reports a treasury funded outside the service until its opening is recorded, once per chain', async () => {
    expect(await differencesNow()).toEqual([
      { account: ACCOUNT.treasury, asset: ASSET.usdcSolana, difference: 50_000_000n },
      { account: ACCOUNT.treasury, asset: ASSET.solSolana, difference: 1_000_000_000n },
    ]);
    const opening = await recordTreasuryOpening(view, f.db.sql, 'chain-1');
    expect(opening?.groupId).toBe('treasury-opening:test:chain-1');
    expect(await recordTreasuryOpening(view, f.db.sql, 'chain-1')).toBeUndefined();
    expect(await differencesNow()).toEqual([]);
  });

  it('stays at no difference through a payout: the USDC sent, its fee and the rent of the account it created', async () => {
    // A deposit on the chain: the credited deposit the payout settles is in the deposit account the reconciliation reads.
    const { request } = await f.payment(4_000_000n, async (owner) => [
      { amount: 4_000_000n, ...(await f.onChainDeposit(owner, 4_000_000n)) },
    ]);
    await f.payUntilConfirmed(treasury, request);
    const run = await reconcileLedger(view, f.worker);
    expect(run.differences).toEqual([]);
    expect(run.balances.find((b) => b.account === ACCOUNT.treasury && b.asset === ASSET.usdcSolana)).toMatchObject({
      ledger: 46_000_000n,
      observed: 46_000_000n,
    });
    expect(run.balances.find((b) => b.account === ACCOUNT.treasury && b.asset === ASSET.solSolana)!.observed).toBeLessThan(1_000_000_000n);
  });

  it("stays at no difference through a payout with the operator's fee: the fee stays in the treasury as operator_revenue", async () => {
    const { request } = await f.payment(4_000_000n, async (owner) => [
      { amount: 4_000_000n, ...(await f.onChainDeposit(owner, 4_000_000n)) },
    ]);
    await setMerchantFee(f.db.sql, request.merchantId, { bps: 250, fixedCents: 0n });
    const treasuryUsdc = async () =>
      (await reconcileLedger(view, f.worker)).balances.find((b) => b.account === ACCOUNT.treasury && b.asset === ASSET.usdcSolana)!;
    const before = await treasuryUsdc();
    await f.payUntilConfirmed(treasury, request);
    expect(await differencesNow()).toEqual([]);
    // 2.5 % of 4 USDC kept: the treasury is out 3.9 USDC, on chain as in the ledger.
    expect(await treasuryUsdc()).toMatchObject({ ledger: before.ledger - 3_900_000n, observed: before.observed - 3_900_000n });
    expect(
      await f.db.sql`select coalesce(sum(amount), 0)::text as revenue from ledger_entries
        where account = ${ACCOUNT.operatorRevenue} and group_id = ${`payout:${request.paymentId}:fee`}`,
    ).toEqual([{ revenue: '-100000' }]);
  });

  it('reports USDC sent to the treasury without a funding record, and none once the transaction is recorded', async () => {
    const topUp = await mintTo(f.chain, f.usdc, treasury.treasury.address, 7_250_000n);
    f.chain.produce();
    expect(await differencesNow()).toEqual([{ account: ACCOUNT.treasury, asset: ASSET.usdcSolana, difference: 7_250_000n }]);

    const posting = await recordTreasuryFunding(view, f.db.sql, topUp.signature);
    expect(posting.entries).toEqual([
      { account: ACCOUNT.treasury, asset: ASSET.usdcSolana, amount: 7_250_000n },
      { account: ACCOUNT.treasuryFunding, asset: ASSET.usdcSolana, amount: -7_250_000n },
    ]);
    await recordTreasuryFunding(view, f.db.sql, topUp.signature);
    expect(await differencesNow()).toEqual([]);
    expect(await f.ledgerImbalances()).toEqual([]);
  });

  it('refuses to record a payout, a transaction that did not touch the treasury, or one that never landed', async () => {
    const { request } = await f.payment(1_000_000n, async (owner) => [
      { amount: 1_000_000n, ...(await f.onChainDeposit(owner, 1_000_000n)) },
    ]);
    await f.payUntilConfirmed(treasury, request);
    const payout = (await f.intentOf(request.paymentId)).signature as string;
    await expect(recordTreasuryFunding(view, f.db.sql, payout)).rejects.toThrow(
      new FundingRefused(`transaction ${payout} is the service's own (payout:${request.paymentId}): the ledger already records it`),
    );
    const elsewhere = await mintTo(f.chain, f.usdc, (await generateKeyPairSigner()).address, 1n);
    f.chain.produce();
    await expect(recordTreasuryFunding(view, f.db.sql, elsewhere.signature)).rejects.toThrow(/did not change the test treasury/);
    await expect(recordTreasuryFunding(view, f.db.sql, '1'.repeat(64))).rejects.toThrow(/is not confirmed on the test network/);
    await expect(recordTreasuryFunding(view, f.db.sql, 'not a signature')).rejects.toThrow(FundingRefused);
    expect(await differencesNow()).toEqual([]);
  });

  it("reports USDC in a session's Solana deposit account that the ledger has not recorded, and an injected ledger group", async () => {
    const { merchant } = await createTestMerchant(f.db.sql);
    const record = sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 });
    await insertSessionRecord(f.db.sql, record, 'awaiting_payment');
    const owner: Address = (await generateKeyPairSigner()).address;
    await f.db.sql`insert into deposit_addresses (session_id, mode, derivation_index, evm_address, tron_address, solana_address)
                   values (${record.sessionId}, 'test', 900001, '0x0', 'T0', ${owner})`;
    await mintTo(f.chain, f.usdc, owner, 3_000_000n);
    f.chain.produce();
    expect(await differencesNow()).toEqual([{ account: ACCOUNT.deposits, asset: ASSET.usdcSolana, difference: 3_000_000n }]);

    await postLedger(f.worker, {
      groupId: 'injected',
      mode: 'test',
      reference: 'test:injected',
      entries: [
        { account: ACCOUNT.deposits, asset: ASSET.usdcSolana, amount: 3_000_000n },
        { account: ACCOUNT.treasury, asset: ASSET.usdcSolana, amount: -1n },
        { account: ACCOUNT.treasuryFunding, asset: ASSET.usdcSolana, amount: -2_999_999n },
      ],
    });
    const run = await reconcileLedger(view, f.worker);
    expect(run.differences.map((d) => ({ account: d.account, difference: d.difference }))).toEqual([
      { account: ACCOUNT.treasury, difference: 1n },
    ]);
    // The other mode's ledger and chain are its own: nothing of test mode shows there.
    expect((await reconcileLedger({ ...view, mode: 'live' }, f.worker)).balances.filter((b) => b.account === ACCOUNT.deposits)).toEqual([
      { account: ACCOUNT.deposits, asset: ASSET.usdcSolana, ledger: 0n, observed: 0n },
    ]);
  });
});
