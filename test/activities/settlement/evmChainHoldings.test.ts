// Reconciliation of an EVM chain's accounts beyond the collector, against a local Hardhat chain: deposits:<chain>
// per token with the balances of the mode's deposit addresses that may hold it (a deposit that arrived and was never
// posted is reported), deposit_gas:<chain> with the coin at the HD addresses the relayer topped up, and relayer:<chain>
// with the relayer's coin once the signer has recorded its address.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Address } from 'viem';
import { reconcileLedger, type TreasuryView } from '../../../activities/settlement/ledgerReconciliation';
import { insertChainIntent } from '../../../db/repositories/chainIntents';
import { postLedger } from '../../../db/repositories/ledger';
import { insertSessionRecord } from '../../../db/repositories/sessions';
import { hdGasToppedUp, relayerFunded } from '../../../domain/ledger/ledger';
import { creditedAndSettled } from '../../support/depositPostings';
import { markConfirmed, upsertDeposits } from '../../../indexers/core/depositStore';
import { createLocalChain, type LocalChain } from '../../../toolchain/localChain/localChain';
import { createTestMerchant } from '../../support/factories';
import { sessionRecord } from '../../support/sessionRecords';
import { createPayoutFixture, type PayoutFixture } from './payoutFixture';

let f: PayoutFixture;
let chain: LocalChain;
let view: TreasuryView;
let usdc: Address;
let merchantId: string;

beforeAll(async () => {
  [f, chain] = await Promise.all([createPayoutFixture(), createLocalChain()]);
  usdc = await chain.deployToken({ symbol: 'USDC', decimals: 6 });
  const treasury = await f.treasury({ usdc: 0n });
  ({
    merchant: { id: merchantId },
  } = await createTestMerchant(f.db.sql));
  view = {
    mode: 'test',
    rpc: f.rpc,
    treasury: treasury.treasury.address,
    usdcMint: f.usdc.address,
    evmChains: [{ chain: 'base', client: chain.publicClient, tokens: [{ symbol: 'USDC', address: usdc }], confirmations: 1 }],
  };
});
afterAll(async () => {
  await chain?.stop();
  await f?.stop();
});

const randomAddress = () => privateKeyToAccount(generatePrivateKey()).address;

/** The run's rows for base's accounts. */
async function baseRows() {
  const run = await reconcileLedger(view, f.worker);
  const onBase = (b: { account: string }) => b.account.endsWith(':base');
  return {
    balances: run.balances.filter(onBase).map((b) => ({ account: b.account, asset: b.asset, ledger: b.ledger, observed: b.observed })),
    differences: run.differences.filter(onBase).map((d) => ({ account: d.account, asset: d.asset, difference: d.difference })),
  };
}

/** A test session, and the indexer's confirmed row of a transfer to its deposit address. */
async function deposit(sessionId: string, to: Address, amount: bigint) {
  const sent = await chain.mint(usdc, to, amount);
  const ref = { chain: 'base' as const, txHash: sent.hash, logIndex: sent.logIndex };
  await upsertDeposits(f.db.sql, { chain: 'base', network: 'testnet' }, [
    {
      ...ref,
      sessionId,
      token: 'USDC',
      amount,
      fromAddress: '0x00',
      toAddress: to,
      blockNumber: sent.blockNumber,
      blockHash: sent.blockHash,
    },
  ]);
  await markConfirmed(f.db.sql, ref, sent.blockHash, 64);
  return ref;
}

describe('EVM chain reconciliation', () => {
  it('compares deposits, HD gas and the relayer of each EVM chain; what arrived unposted is reported', async () => {
    expect(await baseRows()).toEqual({
      balances: [
        { account: 'deposits:base', asset: 'usdc:base', ledger: 0n, observed: 0n },
        { account: 'deposit_gas:base', asset: 'native:base', ledger: 0n, observed: 0n },
      ],
      differences: [],
    });

    const record = sessionRecord(merchantId, { createdAt: new Date(), lifetimeMinutes: 60 });
    await insertSessionRecord(f.db.sql, record, 'confirming');
    const address = randomAddress();
    const credited = await deposit(record.sessionId, address, 3_000_000n);
    for (const posting of creditedAndSettled({ ...credited, token: 'USDC', merchantId, mode: 'test', amount: 3_000_000n }))
      await postLedger(f.db.sql, posting);
    expect((await baseRows()).differences).toEqual([]);

    // A late deposit the workflow never credited: on chain, not in the ledger.
    await deposit(record.sessionId, address, 2_000_000n);
    expect((await baseRows()).differences).toEqual([{ account: 'deposits:base', asset: 'usdc:base', difference: 2_000_000n }]);

    // An HD address the relayer sent gas to, as the HD sweep records it.
    const hd = randomAddress();
    const sweepId = `sweep-hd:base:${randomBytes(8).toString('hex')}`;
    await insertChainIntent(f.db.sql, sweepId);
    await f.db.sql`
      insert into collector_sweeps (id, mode, chain, token, token_address, run_key, batch, status, kind, collector, topup_rounds, topup_wei)
      values (${sweepId}, 'test', 'base', 'USDC', ${usdc}, ${sweepId}, 0, 'submitted', 'hd', ${randomAddress()}, 1, 1000000000000000)`;
    await f.db.sql`
      insert into collector_sweep_addresses (sweep_id, address, session_id, planned_base_units) values (${sweepId}, ${hd}, ${record.sessionId}, 0)`;
    await chain.fund(hd, 1_000_000_000_000_000n);
    for (const posting of hdGasToppedUp(`topup:${sweepId}`, 'test', 'base', { sentWei: 1_000_000_000_000_000n, gasWei: 0n }))
      await postLedger(f.db.sql, posting);

    // The relayer, once the signer has recorded its address: funded outside the service until the top-up is recorded.
    const relayer = randomAddress();
    await chain.fund(relayer, 4_999_000_000_000_000_000n);
    await f.db
      .sql`insert into relayer_balances (chain, mode, address, balance_wei, observed_at) values ('base', 'test', ${relayer}, 0, now())`;
    expect((await baseRows()).differences).toEqual([
      { account: 'deposits:base', asset: 'usdc:base', difference: 2_000_000n },
      { account: 'relayer:base', asset: 'native:base', difference: 5_000_000_000_000_000_000n },
    ]);
    await postLedger(f.db.sql, relayerFunded('test', 'base', `0x${'ab'.repeat(32)}`, 5_000_000_000_000_000_000n));
    const rows = await baseRows();
    expect(rows.differences).toEqual([{ account: 'deposits:base', asset: 'usdc:base', difference: 2_000_000n }]);
    expect(rows.balances).toContainEqual({
      account: 'deposit_gas:base',
      asset: 'native:base',
      ledger: 1_000_000_000_000_000n,
      observed: 1_000_000_000_000_000n,
    });
  });

  it('does not read an address a finalized sweep emptied after its last deposit', async () => {
    const record = sessionRecord(merchantId, { createdAt: new Date(), lifetimeMinutes: 60 });
    await insertSessionRecord(f.db.sql, record, 'confirming');
    const address = randomAddress();
    await deposit(record.sessionId, address, 1_000_000n);
    const before = (await baseRows()).balances.find((b) => b.account === 'deposits:base')!.observed;
    const sweepId = `sweep:base:${randomBytes(8).toString('hex')}`;
    await insertChainIntent(f.db.sql, sweepId);
    await f.db.sql`
      insert into collector_sweeps (id, mode, chain, token, token_address, factory, run_key, batch, status, block_number)
      values (${sweepId}, 'test', 'base', 'USDC', ${usdc}, ${randomAddress()}, ${sweepId}, 0, 'finalized', ${((await chain.blockNumber()) + 1n).toString()})`;
    await f.db.sql`
      insert into collector_sweep_addresses (sweep_id, address, session_id, planned_base_units) values (${sweepId}, ${address}, ${record.sessionId}, 1000000)`;
    expect((await baseRows()).balances.find((b) => b.account === 'deposits:base')!.observed).toBe(before - 1_000_000n);
  });
});
