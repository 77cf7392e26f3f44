// Reconciliation of Tron's accounts through the HTTP API (the stand-in node's balances): deposits:tron per token
// with the balances of the mode's Tron deposit addresses (base58, compared as written), collector:tron with the
// collector's, deposit_gas:tron with the TRX at topped-up HD addresses, and relayer:tron with the relayer's TRX
// once the signer has recorded its address; what arrives unposted is reported.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tronRelayer } from '../../../signer/chainWrites/tronRelayer';
import { createTronWalletApi } from '../../../activities/http/tronWalletApi';
import { reconcileLedger, type TreasuryView } from '../../../activities/settlement/ledgerReconciliation';
import { observeTronRelayerBalance } from '../../../signer/sweeps/relayerBalance';
import { insertChainIntent } from '../../../db/repositories/chainIntents';
import { postLedger } from '../../../db/repositories/ledger';
import { insertSessionRecord } from '../../../db/repositories/sessions';
import { tronAddressFromEvmHex } from '../../../domain/addresses/tron';
import { hdGasToppedUp, relayerFunded } from '../../../domain/ledger/ledger';
import { creditedAndSettled } from '../../support/depositPostings';
import { markConfirmed, upsertDeposits } from '../../../indexers/core/depositStore';
import { createTestMerchant } from '../../support/factories';
import { sessionRecord } from '../../support/sessionRecords';
import { startTronWalletNode, type TronWalletNode } from '../../support/tron/tronWalletNode';
import { createPayoutFixture, TRON_TEST_USDT, type PayoutFixture } from './payoutFixture';

let f: PayoutFixture;
let node: TronWalletNode;
let view: TreasuryView;
let merchantId: string;
const collector = tronAddressFromEvmHex(`0x${randomBytes(20).toString('hex')}`);

beforeAll(async () => {
  [f, node] = await Promise.all([createPayoutFixture(), startTronWalletNode()]);
  const treasury = await f.treasury({ usdc: 0n });
  ({
    merchant: { id: merchantId },
  } = await createTestMerchant(f.db.sql));
  view = {
    mode: 'test',
    rpc: f.rpc,
    treasury: treasury.treasury.address,
    usdcMint: f.usdc.address,
    tron: { api: createTronWalletApi({ fullNodeUrl: node.url }), tokens: [{ symbol: 'USDT', address: TRON_TEST_USDT }], collector },
  };
});
afterAll(async () => {
  await node?.close();
  await f?.stop();
});

const randomTronAddress = () => tronAddressFromEvmHex(`0x${randomBytes(20).toString('hex')}`);

async function tronDifferences() {
  const run = await reconcileLedger(view, f.worker);
  return run.differences.filter((d) => d.account.endsWith(':tron')).map((d) => ({ account: d.account, difference: d.difference }));
}

/** The indexer's confirmed row of a USDT deposit of `amount` to `to`, and the stand-in's balance after it. */
async function deposit(sessionId: string, to: string, amount: bigint) {
  const txHash = node.deposit(TRON_TEST_USDT, randomTronAddress(), to, amount);
  const ref = { chain: 'tron' as const, txHash, logIndex: 0 };
  await upsertDeposits(f.db.sql, { chain: 'tron', network: 'testnet' }, [
    { ...ref, sessionId, token: 'USDT', amount, fromAddress: 'customer', toAddress: to, blockNumber: node.head(), blockHash: 'ab' },
  ]);
  await markConfirmed(f.db.sql, ref, 'ab', 19);
  return ref;
}

describe('Tron reconciliation', () => {
  it('compares deposits:tron, collector:tron, deposit_gas:tron with HD addresses and relayer:tron with the recorded relayer', async () => {
    expect(await tronDifferences()).toEqual([]);
    const record = sessionRecord(merchantId, { createdAt: new Date(), lifetimeMinutes: 60 });
    await insertSessionRecord(f.db.sql, record, 'confirming');
    const address = randomTronAddress();
    const credited = await deposit(record.sessionId, address, 3_000_000n);
    for (const posting of creditedAndSettled({ ...credited, token: 'USDT', merchantId, mode: 'test', amount: 3_000_000n }))
      await postLedger(f.db.sql, posting);
    expect(await tronDifferences()).toEqual([]);

    // An HD address the relayer topped up with TRX, as the Tron HD sweep records and posts it.
    const hd = randomTronAddress();
    const sweepId = `sweep-hd:tron:${randomBytes(8).toString('hex')}`;
    await insertChainIntent(f.db.sql, sweepId);
    await f.db.sql`
      insert into collector_sweeps (id, mode, chain, token, token_address, run_key, batch, status, kind, collector, topup_rounds, topup_wei)
      values (${sweepId}, 'test', 'tron', 'USDT', ${TRON_TEST_USDT}, ${sweepId}, 0, 'submitted', 'hd', ${collector}, 1, 30000000)`;
    await f.db.sql`
      insert into collector_sweep_addresses (sweep_id, address, session_id, planned_base_units) values (${sweepId}, ${hd}, ${record.sessionId}, 0)`;
    node.setTrx(hd, 30_000_000n);
    for (const posting of hdGasToppedUp(`topup:${sweepId}`, 'test', 'tron', { sentWei: 30_000_000n, gasWei: 0n }))
      await postLedger(f.db.sql, posting);
    expect(await tronDifferences()).toEqual([]);

    // The relayer that sent the top-up, funded outside the service: compared once a sweep run has recorded it.
    const relayer = tronRelayer(randomBytes(32).toString('hex'));
    node.setTrx(relayer.address, 70_000_000n);
    expect(await tronDifferences()).toEqual([]);
    await observeTronRelayerBalance({ sql: f.signer, api: createTronWalletApi({ fullNodeUrl: node.url }), relayer, mode: 'test' });
    expect(await tronDifferences()).toEqual([{ account: 'relayer:tron', difference: 100_000_000n }]);
    await postLedger(f.db.sql, relayerFunded('test', 'tron', randomBytes(32).toString('hex'), 100_000_000n));
    const run = await reconcileLedger(view, f.worker);
    expect(run.balances).toContainEqual({ account: 'relayer:tron', asset: 'native:tron', ledger: 70_000_000n, observed: 70_000_000n });

    node.setBalance(TRON_TEST_USDT, collector, 1_500_000n);
    await deposit(record.sessionId, address, 2_000_000n);
    expect(await tronDifferences()).toEqual([
      { account: 'deposits:tron', difference: 2_000_000n },
      { account: 'collector:tron', difference: 1_500_000n },
    ]);
  });
});
