// Tron's held-inventory withdrawal on the signer (signer/inventory/tronInventoryWithdrawal.ts), pass after pass as
// the inventory_withdrawal_<id> workflow drives it, against the loopback stand-in of java-tron's HTTP API playing the
// collector: refused, with nothing written ahead, until the collector's owner set its rebalanceAddress to the signer's,
// and above what the ledger or the collector holds; then written ahead, signed once, solidified and posted.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTronWalletApi } from '../../../activities/http/tronWalletApi';
import { findChainIntent } from '../../../db/repositories/chainIntents';
import { insertInventoryWithdrawal } from '../../../db/repositories/inventoryWithdrawals';
import { postLedger, unbalancedLedgerGroups } from '../../../db/repositories/ledger';
import { ACCOUNT, tokenAsset } from '../../../domain/ledger/ledger';
import { createTronInventoryWithdrawal } from '../../../signer/inventory/tronInventoryWithdrawal';
import { startTronSweepStandIn, stopTronSweepStandIn, tronAddress, type TronSweepStandIn } from '../sweeps/tronSweepFixture';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const COLLECTOR = tronAddress();
const REBALANCE_TO = tronAddress();
const ASSET = tokenAsset('USDT', 'tron');

let s: TronSweepStandIn;

beforeAll(async () => {
  s = await startTronSweepStandIn({ factory: tronAddress(), implementation: tronAddress(), collector: COLLECTOR });
  s.node.deployCollector(COLLECTOR);
  // 7 USDT swept into the collector, as a landed sweep posts it.
  s.node.setBalance(USDT, COLLECTOR, 7_000_000n);
  await postLedger(s.db.sql, {
    groupId: 'sweep:tron:fixture:usdt:tron',
    mode: 'test',
    reference: 'sweep:tron:fixture',
    entries: [
      { account: ACCOUNT.collector('tron'), asset: ASSET, amount: 7_000_000n },
      { account: ACCOUNT.depositsOn('tron'), asset: ASSET, amount: -7_000_000n },
    ],
  });
});
afterAll(async () => stopTronSweepStandIn(s));

/** A fresh withdrawer per pass, as a signer restarted between any two passes builds it; a block after each. */
const advance = (id: string) =>
  createTronInventoryWithdrawal({
    sql: s.signer,
    api: createTronWalletApi({ fullNodeUrl: s.node.url, timeoutMs: 2_000 }),
    relayer: s.relayer,
    mode: 'test',
    expirationMs: 60_000,
    collector: COLLECTOR,
    tokens: [{ symbol: 'USDT', address: USDT, decimals: 6 }],
    feeLimitSun: 1_000_000_000n,
    rebalanceAddress: REBALANCE_TO,
  }).advance(id);

const requested = (id: string, amount: bigint, toAddress = REBALANCE_TO) =>
  insertInventoryWithdrawal(s.db.sql, { id, mode: 'test', chain: 'tron', token: 'USDT', amount, toAddress, requestedBy: 'alice' });

describe('a held-inventory withdrawal from the Tron collector', () => {
  test('is refused before anything is written ahead: the collector names no address, another row address, more than is held', async () => {
    await requested('inw_unset', 5_000_000n);
    expect(await advance('inw_unset')).toEqual({
      status: 'failed',
      reason: expect.stringContaining("refused: the collector's rebalanceAddress is T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb"),
    });
    expect(await findChainIntent(s.db.sql, 'rebalance:tron:inw_unset')).toBeUndefined();

    s.node.setRebalanceAddress(COLLECTOR, REBALANCE_TO);
    await requested('inw_elsewhere', 5_000_000n, tronAddress());
    expect(await advance('inw_elsewhere')).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining("the signer's INVENTORY_REBALANCE_ADDRESS_TRON_TEST"),
    });

    await requested('inw_ledger', 8_000_000n);
    // The chain holds 9, the ledger 7: tokens sent to the collector unswept are not withdrawn as inventory.
    s.node.setBalance(USDT, COLLECTOR, 9_000_000n);
    expect(await advance('inw_ledger')).toMatchObject({
      status: 'failed',
      reason: 'refused: the ledger holds 7000000 base units of USDT in the collector, less than 8000000',
    });
    s.node.setBalance(USDT, COLLECTOR, 4_000_000n);
    await requested('inw_chain', 5_000_000n);
    expect(await advance('inw_chain')).toMatchObject({
      status: 'failed',
      reason: 'refused: the collector holds 4000000 base units of USDT at depth, less than 5000000',
    });
    expect(await findChainIntent(s.db.sql, 'rebalance:tron:inw_chain')).toBeUndefined();
    s.node.setBalance(USDT, COLLECTOR, 7_000_000n);
  });

  test('is written ahead as the collector’s rebalance, signed once, and posted once solidified', async () => {
    await requested('inw_ok', 5_000_000n);
    let answer = await advance('inw_ok');
    expect(answer).toEqual({ status: 'pending' });
    const intent = await findChainIntent(s.db.sql, 'rebalance:tron:inw_ok');
    expect(intent?.tronCall).toMatchObject({ contract: COLLECTOR, functionSelector: 'rebalance(address,uint256)', callValue: '0' });
    for (let pass = 0; answer.status === 'pending' && pass < 10; pass++) {
      s.node.mine(1);
      answer = await advance('inw_ok');
    }
    expect(answer).toMatchObject({ status: 'sent' });
    expect(await advance('inw_ok')).toEqual(answer);
    expect([...s.node.broadcasts.values()]).toEqual([1]);
    expect(s.node.balanceOf(USDT, REBALANCE_TO)).toBe(5_000_000n);
    expect(s.node.balanceOf(USDT, COLLECTOR)).toBe(2_000_000n);
    const entries = await s.db.sql<{ group_id: string; account: string; asset: string; amount: string }[]>`
      select group_id, account, asset, amount::text from ledger_entries where reference = 'rebalance:tron:inw_ok' order by group_id, account`;
    expect(entries).toEqual([
      { group_id: 'rebalance:tron:inw_ok:gas', account: 'gas_expense:tron', asset: 'native:tron', amount: '345000' },
      { group_id: 'rebalance:tron:inw_ok:gas', account: 'relayer:tron', asset: 'native:tron', amount: '-345000' },
      { group_id: 'rebalance:tron:inw_ok:sent', account: 'collector:tron', asset: 'usdt:tron', amount: '-5000000' },
      { group_id: 'rebalance:tron:inw_ok:sent', account: 'rebalancing:tron', asset: 'usdt:tron', amount: '5000000' },
    ]);
    expect(await unbalancedLedgerGroups(s.db.sql)).toEqual([]);
  });
});
