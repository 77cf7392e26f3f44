// A foreign deposit address: a holder of the worker's database credentials writes the deposit_addresses row of a fresh
// session itself, naming a busy third party's EVM address (or a forwarder address of a factory of its own), so that
// the strangers' transfers the indexer records there back a payout from the treasury for money the service never
// received. The signer re-derives the address from its own seed or its own configured factory before it trusts it
// (docs/settlement.md#deposit-addresses-only-the-services-own): nothing is paid, no payout row, the treasury unchanged.
// The same row written as the worker's code writes it (the signer's address) pays, so the refusal is the address's.
import { randomBytes } from 'node:crypto';
import { MockActivityEnvironment } from '@temporalio/testing';
import { generateKeyPairSigner } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { setDepositVerdict } from '../../db/repositories/deposits';
import { setSettlementWallet } from '../../db/repositories/merchants';
import { insertSessionRecord } from '../../db/repositories/sessions';
import { insertPendingSettlement } from '../../db/repositories/settlements';
import { depositSalt } from '../../domain/addresses/depositSalt';
import { evmForwarderAddress, NO_DEPOSIT_FORWARDERS, type EvmForwarderContracts } from '../../domain/addresses/depositForwarder';
import { depositSeed } from '../../domain/addresses/depositSeed';
import { deriveDepositAddresses } from '../../domain/addresses/hdDerivation';
import { WorkflowFailure } from '../../domain/session/workflowFailures';
import { TREASURY_PROVIDER } from '../../domain/settlement/settlementRoute';
import { paymentIdForSession } from '../../domain/wire/ids';
import { markConfirmed, upsertDeposits } from '../../indexers/core/depositStore';
import { createTreasuryPayout, type PayoutOutcome, type PayoutRequest } from '../../signer/payouts/treasuryPayout';
import { createTestMerchant } from '../support/factories';
import { sessionRecord } from '../support/sessionRecords';
import { usePayoutFixture, type PayoutFixture } from '../activities/settlement/payoutFixture';

let f: PayoutFixture;
usePayoutFixture((fixture) => (f = fixture));

const AMOUNT = 5_000_000n;
const testSeed = depositSeed({ mode: 'test' });
/** The forwarder contracts the signer is configured with, and an attacker's factory cloning the same implementation. */
const OWN: EvmForwarderContracts = {
  factory: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  implementation: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
};
const FOREIGN_FACTORY = '0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0';
const signerForwarders = { ...NO_DEPOSIT_FORWARDERS, test: { evm: OWN, tron: undefined } };

async function payOnce(deps: Parameters<typeof createTreasuryPayout>[0], request: PayoutRequest): Promise<PayoutOutcome> {
  const pay = createTreasuryPayout(deps);
  return new MockActivityEnvironment({ scheduledTimestampMs: Date.now() }).run<[PayoutRequest], PayoutOutcome, typeof pay>(pay, request);
}

const ledgerEntries = async () => Number((await f.db.sql<[{ n: number }]>`select count(*)::int as n from ledger_entries`)[0].n);
const payoutRows = async (paymentId: string) =>
  Number((await f.db.sql<[{ n: number }]>`select count(*)::int as n from payouts where payment_id = ${paymentId}`)[0].n);

type EvmRow = { address: (index: number, sessionId: string) => string; scheme: 'hd' | 'forwarder'; factory: string | null };

/**
 * A fresh session of a merchant with a fresh settlement wallet (the API's rows), whose deposit_addresses row, USDC-on-base
 * payment and settlement the worker's role writes, with the EVM address `evm` gives; a stranger's transfer of the
 * session's amount to that address, recorded by the indexer at full depth and credited by the workflow.
 */
async function workerWrittenPayment(evm: EvmRow) {
  const { merchant } = await createTestMerchant(f.db.sql);
  const wallet = (await generateKeyPairSigner()).address;
  await setSettlementWallet(f.db.sql, merchant.id, wallet);
  const record = { ...sessionRecord(merchant.id, { createdAt: new Date(), lifetimeMinutes: 60 }), amountUsdCents: '500' };
  await insertSessionRecord(f.db.sql, record, 'confirming');
  const { sessionId } = record;
  const paymentId = paymentIdForSession(sessionId);

  const [{ index }] = await f.worker<[{ index: number }]>`select nextval('deposit_address_test_index_seq')::int as index`;
  const address = evm.address(index, sessionId);
  await f.worker`
    insert into deposit_addresses (session_id, mode, derivation_index, evm_address, tron_address, evm_scheme, evm_factory)
    values (${sessionId}, 'test', ${index}, ${address}, ${deriveDepositAddresses(testSeed, index).tron}, ${evm.scheme}, ${evm.factory})`;
  await f.worker`
    insert into payments (id, session_id, token, chain, deposit_address, expected_base_units, received_base_units, decimals)
    values (${paymentId}, ${sessionId}, 'USDC', 'base', ${address}, ${AMOUNT.toString()}, ${AMOUNT.toString()}, 6)`;

  const ref = { chain: 'base' as const, txHash: `0x${randomBytes(32).toString('hex')}`, logIndex: 3 };
  const blockHash = `0x${randomBytes(32).toString('hex')}`;
  await upsertDeposits(f.db.sql, { chain: 'base', network: 'testnet' }, [
    { ...ref, sessionId, token: 'USDC', amount: AMOUNT, fromAddress: '0x01', toAddress: address, blockNumber: 1n, blockHash },
  ]);
  await markConfirmed(f.db.sql, ref, blockHash, 64);
  await setDepositVerdict(f.worker, sessionId, 'testnet', ref, { credited: true, late: false });
  await insertPendingSettlement(f.worker, { paymentId, sessionId, provider: TREASURY_PROVIDER, amountUsdcBaseUnits: AMOUNT.toString() });
  return {
    request: { paymentId, merchantId: merchant.id, mode: 'test' as const, amountUsdcBaseUnits: AMOUNT.toString() },
    wallet,
    address,
  };
}

/** The payout is refused as not the service's own address, and nothing of it exists or moved. */
async function refusedUnmoved(deps: Parameters<typeof createTreasuryPayout>[0], request: PayoutRequest, reason: RegExp) {
  const treasuryBefore = await f.usdcBalance(deps.treasury.address);
  const entriesBefore = await ledgerEntries();
  await expect(payOnce(deps, request)).rejects.toMatchObject({
    type: WorkflowFailure.PayoutRefused,
    nonRetryable: true,
    message: expect.stringMatching(reason),
  });
  f.chain.produce();
  expect(await f.usdcBalance(deps.treasury.address)).toBe(treasuryBefore);
  expect(await payoutRows(request.paymentId)).toBe(0);
  expect(await ledgerEntries()).toBe(entriesBefore);
}

describe("a deposit_addresses row the worker's role wrote with an address of its choosing backs no payout", () => {
  it("a third party's busy EVM address as the session's HD address: refused; the signer's own address pays", async () => {
    const deps = await f.treasury({ usdc: 50_000_000n });
    const busy = `0x${randomBytes(20).toString('hex')}`;
    const attack = await workerWrittenPayment({ address: () => busy, scheme: 'hd', factory: null });
    await refusedUnmoved(
      deps,
      attack.request,
      new RegExp(`deposit address ${busy} is not the service's own: the signer's seed derives 0x[0-9a-fA-F]{40} at index \\d+; not paid$`),
    );
    expect(await f.usdcBalance(attack.wallet)).toBeUndefined();

    const honest = await workerWrittenPayment({
      address: (index) => deriveDepositAddresses(testSeed, index).evm,
      scheme: 'hd',
      factory: null,
    });
    await f.payUntilConfirmed(deps, honest.request);
    expect(await f.usdcBalance(honest.wallet)).toBe(AMOUNT);
  });

  it("a forwarder row naming a factory the signer was not configured with: refused; the signer's factory's address pays", async () => {
    const deps = await f.treasury({ usdc: 50_000_000n }, { depositForwarders: signerForwarders });
    const attack = await workerWrittenPayment({
      address: (_, sessionId) => evmForwarderAddress({ ...OWN, factory: FOREIGN_FACTORY }, depositSalt(sessionId)),
      scheme: 'forwarder',
      factory: FOREIGN_FACTORY,
    });
    await refusedUnmoved(
      deps,
      attack.request,
      new RegExp(`its evm row names factory ${FOREIGN_FACTORY}, not the signer's test evm deposit factory ${OWN.factory}; not paid$`),
    );
    expect(await f.usdcBalance(attack.wallet)).toBeUndefined();

    // The signer's own factory named, but an address that is not its clone for the session's salt.
    const busy = `0x${randomBytes(20).toString('hex')}`;
    const misnamed = await workerWrittenPayment({ address: () => busy, scheme: 'forwarder', factory: OWN.factory });
    await refusedUnmoved(deps, misnamed.request, /the CREATE2 address of the signer's factory with the session's salt is 0x/);

    const honest = await workerWrittenPayment({
      address: (_, sessionId) => evmForwarderAddress(OWN, depositSalt(sessionId)),
      scheme: 'forwarder',
      factory: OWN.factory,
    });
    await f.payUntilConfirmed(deps, honest.request);
    expect(await f.usdcBalance(honest.wallet)).toBe(AMOUNT);
  });
});
