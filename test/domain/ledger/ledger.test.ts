// The posting rules of a payout: each group balances per asset, a payout's life (reserve, then sent or released)
// leaves nothing in flight, and amounts that cannot be money are refused. A Solana deposit, its payout and its
// sweep leave the deposit account at zero and the treasury holding the difference.
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT,
  ASSET,
  assetDecimals,
  depositCredited,
  depositSettled,
  evmSweepLanded,
  hdGasToppedUp,
  hdSweepGasPaid,
  isBalanced,
  payoutChainCosts,
  payoutConfirmed,
  payoutReleased,
  payoutReserved,
  refundOnlyDepositReceived,
  relayerFunded,
  relayerGasPaid,
  sumByAsset,
  sweepLanded,
  transferBurned,
  transferReceived,
  transferChainCosts,
  type LedgerEntry,
} from '../../../domain/ledger/ledger';

const payout = {
  paymentId: 'pay_01J0000000000000000000000A',
  mode: 'test' as const,
  merchantId: 'mer_01J0000000000000000000000B',
  amount: 12_345_678n,
};

function balances(entries: LedgerEntry[]): Record<string, bigint> {
  const out: Record<string, bigint> = {};
  for (const e of entries) {
    const key = `${e.account} ${e.asset}`;
    out[key] = (out[key] ?? 0n) + e.amount;
    if (out[key] === 0n) delete out[key];
  }
  return out;
}

describe('payout postings', () => {
  it('reserve moves what the merchant is owed into flight; sent takes it out of the treasury', () => {
    const reserve = payoutReserved(payout);
    const sent = payoutConfirmed(payout);
    expect(reserve.entries).toEqual([
      { account: ACCOUNT.merchantPayable(payout.merchantId), asset: ASSET.usdcSolana, amount: 12_345_678n },
      { account: ACCOUNT.payoutsInFlight, asset: ASSET.usdcSolana, amount: -12_345_678n },
    ]);
    expect([reserve, sent].every(isBalanced)).toBe(true);
    expect(balances([...reserve.entries, ...sent.entries])).toEqual({
      [`merchant_payable:${payout.merchantId} usdc:solana`]: 12_345_678n,
      'treasury:solana usdc:solana': -12_345_678n,
    });
  });

  it('a failed payout releases the reservation: the merchant is owed again, nothing in flight', () => {
    const released = payoutReleased(payout);
    expect(isBalanced(released)).toBe(true);
    expect(balances([...payoutReserved(payout).entries, ...released.entries])).toEqual({});
  });

  it('chain costs: the fee is gas, a created account is rent, both paid by the treasury in SOL', () => {
    const costs = payoutChainCosts(payout, { feeLamports: 5_000n, rentLamports: 2_039_280n });
    expect(costs?.entries).toEqual([
      { account: ACCOUNT.gasExpense, asset: ASSET.solSolana, amount: 5_000n },
      { account: ACCOUNT.accountRent, asset: ASSET.solSolana, amount: 2_039_280n },
      { account: ACCOUNT.treasury, asset: ASSET.solSolana, amount: -2_044_280n },
    ]);
    expect(costs && isBalanced(costs)).toBe(true);
    expect(payoutChainCosts(payout, { feeLamports: 5_000n, rentLamports: 0n })?.entries).toHaveLength(2);
    expect(payoutChainCosts(payout, { feeLamports: 0n, rentLamports: 0n })).toBeUndefined();
  });

  it('group ids derive from the payment, so posting twice names the same group', () => {
    expect(payoutReserved(payout).groupId).toBe(`payout:${payout.paymentId}:reserve`);
    expect(payoutReserved(payout).groupId).toBe(payoutReserved({ ...payout }).groupId);
    expect(new Set([payoutReserved(payout), payoutConfirmed(payout), payoutReleased(payout)].map((p) => p.groupId)).size).toBe(3);
  });

  it('refuses amounts that are not money moved', () => {
    expect(() => payoutReserved({ ...payout, amount: 0n })).toThrow(RangeError);
    expect(() => payoutConfirmed({ ...payout, amount: -1n })).toThrow(RangeError);
    expect(() => payoutChainCosts(payout, { feeLamports: -1n, rentLamports: 0n })).toThrow(RangeError);
  });

  it('a group that does not sum to zero per asset is not balanced, even if the assets together do', () => {
    const mixed = {
      groupId: 'g',
      mode: 'test' as const,
      reference: 'r',
      entries: [
        { account: 'a', asset: ASSET.usdcSolana, amount: 5n },
        { account: 'b', asset: ASSET.solSolana, amount: -5n },
      ],
    };
    expect(isBalanced(mixed)).toBe(false);
    expect(sumByAsset(mixed.entries)).toEqual(
      new Map([
        [ASSET.usdcSolana, 5n],
        [ASSET.solSolana, -5n],
      ]),
    );
    expect(isBalanced({ groupId: 'g', mode: 'test' as const, reference: 'r', entries: [] })).toBe(false);
  });
});

describe('deposit and sweep postings', () => {
  const deposit = {
    chain: 'solana' as const,
    token: 'USDC' as const,
    txHash: '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW',
    logIndex: 2,
    mode: 'test' as const,
    amount: 12_345_678n,
  };
  const settled = { ...deposit, merchantId: payout.merchantId, pending: 12_345_678n, merchantUnits: 12_345_678n, payable: 12_345_678n };

  it('a credited deposit is held in the deposit account and pending for the merchant, owed to it once the signer accepts', () => {
    const credited = depositCredited({ ...deposit, merchantUnits: deposit.amount });
    expect(credited.groupId).toBe(`deposit:solana:${deposit.txHash}:2`);
    expect(credited.mode).toBe('test');
    expect(credited.entries).toEqual([
      { account: 'deposits:solana', asset: ASSET.usdcSolana, amount: 12_345_678n },
      { account: 'merchant_pending:solana', asset: ASSET.usdcSolana, amount: -12_345_678n },
    ]);
    const accepted = depositSettled(settled);
    expect(accepted).toMatchObject({ groupId: `deposit:solana:${deposit.txHash}:2:settled`, reference: credited.reference });
    expect(accepted.entries).toEqual([
      { account: 'merchant_pending:solana', asset: ASSET.usdcSolana, amount: 12_345_678n },
      { account: ACCOUNT.merchantPayable(payout.merchantId), asset: ASSET.usdcSolana, amount: -12_345_678n },
    ]);
    expect([credited, accepted].every(isBalanced)).toBe(true);
    expect(() => depositCredited({ ...deposit, amount: 0n, merchantUnits: 0n })).toThrow(RangeError);
    expect(() => depositCredited({ ...deposit, merchantUnits: deposit.amount + 1n })).toThrow(RangeError);
    expect(() => depositSettled({ ...settled, merchantUnits: 0n })).toThrow(/owes the merchant nothing/);
  });

  it('splits a deposit by owner: the merchant its price, the customer the excess, the operator the rate difference', () => {
    // $100 at USDC = 0.9998 asks for 100.020005 USDC; 110.020005 arrived.
    const credited = depositCredited({ ...deposit, amount: 110_020_005n, merchantUnits: 100_020_005n });
    const accepted = depositSettled({ ...settled, pending: 100_020_005n, merchantUnits: 100_020_005n, payable: 100_000_000n });
    expect([credited, accepted].every(isBalanced)).toBe(true);
    expect(balances([...credited.entries, ...accepted.entries])).toEqual({
      'deposits:solana usdc:solana': 110_020_005n,
      [`${ACCOUNT.merchantPayable(payout.merchantId)} usdc:solana`]: -100_000_000n,
      'refund_due:solana usdc:solana': -10_000_000n,
      'operator_held:solana usdc:solana': -20_005n,
    });
  });

  it('owes the customer the pending units that no longer pay the price once a bank transfer paid part of it', () => {
    const accepted = depositSettled({ ...settled, pending: 10_000_000n, merchantUnits: 6_000_000n, payable: 6_000_000n });
    expect(isBalanced(accepted)).toBe(true);
    expect(balances(accepted.entries)).toEqual({
      'merchant_pending:solana usdc:solana': 10_000_000n,
      [`${ACCOUNT.merchantPayable(payout.merchantId)} usdc:solana`]: -6_000_000n,
      'refund_due:solana usdc:solana': -4_000_000n,
    });
  });

  it('posts a deposit that pays nothing as owed back to its sender, in its token on its chain', () => {
    const late = refundOnlyDepositReceived({
      chain: 'bsc',
      token: 'USDT',
      txHash: '0xlate',
      logIndex: 1,
      mode: 'live',
      amount: 7n * 10n ** 18n,
    });
    expect(late.groupId).toBe('deposit:bsc:0xlate:1');
    expect(late.entries).toEqual([
      { account: 'deposits:bsc', asset: 'usdt:bsc', amount: 7n * 10n ** 18n },
      { account: 'refund_due:bsc', asset: 'usdt:bsc', amount: -(7n * 10n ** 18n) },
    ]);
  });

  it('deposit, payout and sweep: the merchant is paid, the deposit account is empty, the treasury keeps the rent less the fee', () => {
    const sweep = sweepLanded('sweep:solana:01J0000000000000000000000C', 'test', {
      usdc: 12_345_678n,
      feeLamports: 10_000n,
      rentLamports: 2_039_280n,
    });
    expect(sweep.map((p) => p.groupId)).toEqual(['usdc', 'fee', 'rent'].map((s) => `sweep:solana:01J0000000000000000000000C:${s}`));
    expect(sweep.every(isBalanced)).toBe(true);
    expect(sweep.every((p) => p.mode === 'test')).toBe(true);
    const all = [
      depositCredited({ ...deposit, merchantUnits: deposit.amount }),
      depositSettled(settled),
      payoutReserved(payout),
      payoutConfirmed(payout),
      ...sweep,
    ].flatMap((p) => p.entries);
    expect(balances(all)).toEqual({
      'gas_expense:solana sol:solana': 10_000n,
      'rent_recovered:solana sol:solana': -2_039_280n,
      'treasury:solana sol:solana': 2_029_280n,
    });
  });

  it('a sweep that failed on chain posts its fee only; negative deltas are refused', () => {
    expect(sweepLanded('sweep:solana:b', 'test', { usdc: 0n, feeLamports: 5_000n, rentLamports: 0n }).map((p) => p.groupId)).toEqual([
      'sweep:solana:b:fee',
    ]);
    expect(() => sweepLanded('sweep:solana:b', 'test', { usdc: -1n, feeLamports: 0n, rentLamports: 0n })).toThrow(RangeError);
  });
});

describe('cross-chain postings: a deposit on base paid from the treasury, swept, burned and received', () => {
  const merchantId = 'mer_01J0000000000000000000000C';
  const deposit = {
    chain: 'base' as const,
    token: 'USDC' as const,
    txHash: '0xabc',
    logIndex: 3,
    mode: 'live' as const,
    amount: 5_000_000n,
  };
  /** A deposit credited and settled whole: `units` of it pay the price, worth `payable` USDC. */
  const creditedAndSettled = (
    d: typeof deposit | (Omit<typeof deposit, 'chain' | 'token'> & { chain: 'bsc'; token: 'USDT' }),
    units: bigint,
    payable: bigint,
  ) => [
    depositCredited({ ...d, merchantUnits: units }),
    depositSettled({ ...d, merchantId, pending: units, merchantUnits: units, payable }),
  ];
  const reserve = payoutReserved({ paymentId: 'pay_x', mode: 'live', merchantId, amount: 5_000_000n });
  const sent = payoutConfirmed({ paymentId: 'pay_x', mode: 'live', merchantId, amount: 5_000_000n });

  it('leaves the merchant paid, the clearing account at zero, the fee with the bridge and the gas with the relayer', () => {
    const postings = [
      relayerFunded('live', 'base', '0xfund', 10n ** 16n),
      ...creditedAndSettled(deposit, 5_000_000n, 5_000_000n),
      reserve,
      sent,
      ...evmSweepLanded('sweep:base:1', 'live', 'base', { moved: { 'usdc:base': 5_000_000n }, gasWei: 70_000n }),
      transferBurned('transfer_1', 'live', 'base', 5_000_000n),
      relayerGasPaid('burn:transfer_1', 'live', 'base', 90_000n),
      transferReceived('transfer_1', 'live', 'base', { burned: 5_000_000n, received: 4_999_500n }),
    ].filter((posting) => posting !== undefined);
    for (const posting of postings) expect(isBalanced(posting), posting.groupId).toBe(true);
    expect(balances(postings.flatMap((p) => p.entries))).toEqual({
      [`${ACCOUNT.treasury} ${ASSET.usdcSolana}`]: -500n,
      [`${ACCOUNT.bridgeFees} ${ASSET.usdcSolana}`]: 500n,
      'gas_expense:base native:base': 160_000n,
      'relayer:base native:base': 10n ** 16n - 160_000n,
      'treasury_funding:base native:base': -(10n ** 16n),
    });
  });

  it('rescales nothing itself: an 18-decimal deposit on bsc is owed in 6-decimal USDC as the caller computed', () => {
    const bsc = creditedAndSettled({ ...deposit, chain: 'bsc', token: 'USDT', amount: 5n * 10n ** 18n }, 5n * 10n ** 18n, 5_000_000n);
    expect(bsc.every(isBalanced)).toBe(true);
    expect(bsc.map((p) => p.groupId)).toEqual(['deposit:bsc:0xabc:3', 'deposit:bsc:0xabc:3:settled']);
    expect(balances(bsc.flatMap((p) => p.entries))).toMatchObject({
      'deposits:bsc usdt:bsc': 5n * 10n ** 18n,
      [`${ACCOUNT.merchantPayable(merchantId)} ${ASSET.usdcSolana}`]: -5_000_000n,
    });
    expect(assetDecimals('usdt:bsc')).toBe(18);
  });

  it("keeps a deposit's excess in its own token as owed to the customer; only the price crosses into USDC", () => {
    // $100 in USDT on bsc at 0.95: 105.263158 USDT asked for, 110.263158 arrived, 100 USDC owed to the merchant.
    const asked = 105_263_158n * 10n ** 12n;
    const excess = 5n * 10n ** 18n;
    const bsc = creditedAndSettled({ ...deposit, chain: 'bsc', token: 'USDT', amount: asked + excess }, asked, 100_000_000n);
    expect(bsc.every(isBalanced)).toBe(true);
    expect(balances(bsc.flatMap((p) => p.entries))).toEqual({
      'deposits:bsc usdt:bsc': asked + excess,
      'cross_chain_clearing usdt:bsc': -asked,
      'refund_due:bsc usdt:bsc': -excess,
      'cross_chain_clearing usdc:solana': 100_000_000n,
      [`${ACCOUNT.merchantPayable(merchantId)} ${ASSET.usdcSolana}`]: -100_000_000n,
    });
    const allRefund = depositCredited({ ...deposit, merchantUnits: 0n });
    expect(allRefund.entries).toEqual([
      { account: 'deposits:base', asset: 'usdc:base', amount: 5_000_000n },
      { account: 'refund_due:base', asset: 'usdc:base', amount: -5_000_000n },
    ]);
    expect(assetDecimals('usdc:base')).toBe(6);
    expect(assetDecimals('native:base')).toBe(18);
  });

  it("posts what the treasury's own receive cost it in SOL: the fee and the used_nonce account's rent", () => {
    const costs = transferChainCosts('tr_1', 'live', { feeLamports: 5_000n, rentLamports: 953_520n });
    expect(costs).toEqual({
      groupId: 'tr_1:chain-costs',
      mode: 'live',
      reference: 'tr_1',
      entries: [
        { account: ACCOUNT.gasExpense, asset: ASSET.solSolana, amount: 5_000n },
        { account: ACCOUNT.accountRent, asset: ASSET.solSolana, amount: 953_520n },
        { account: ACCOUNT.treasury, asset: ASSET.solSolana, amount: -958_520n },
      ],
    });
    expect(isBalanced(costs!)).toBe(true);
    expect(transferChainCosts('tr_1', 'live', { feeLamports: 0n, rentLamports: 0n })).toBeUndefined();
    expect(() => transferChainCosts('tr_1', 'live', { feeLamports: 5_000n, rentLamports: -1n })).toThrow(RangeError);
  });

  it('refuses what cannot happen: a transfer delivering more than it burned, negative sweeps', () => {
    expect(() => transferReceived('transfer_2', 'live', 'base', { burned: 10n, received: 11n })).toThrow(/more than was burned/);
    expect(() => evmSweepLanded('sweep:base:2', 'live', 'base', { moved: { 'usdc:base': -1n }, gasWei: 0n })).toThrow(RangeError);
    expect(relayerGasPaid('burn:t', 'live', 'base', 0n)).toBeUndefined();
  });
});

describe('an HD deposit address swept by its own key, its gas topped up by the relayer', () => {
  it("moves the relayer's coin to the address's gas, spends it on the transfer, and leaves the unspent rest with the address", () => {
    const postings = [
      relayerFunded('live', 'base', '0xfund', 10n ** 16n),
      ...hdGasToppedUp('topup:base:1', 'live', 'base', { sentWei: 60_000n, gasWei: 21_000n }),
      ...evmSweepLanded('sweep-hd:base:1', 'live', 'base', { moved: { 'usdc:base': 5_000_000n }, gasWei: 0n }),
      hdSweepGasPaid('sweep-hd:base:1', 'live', 'base', 45_000n),
    ].filter((posting) => posting !== undefined);
    for (const posting of postings) expect(isBalanced(posting), posting.groupId).toBe(true);
    expect(postings.map((p) => p.groupId)).toEqual([
      'relayer-funding:base:0xfund',
      'topup:base:1:sent',
      'topup:base:1:gas',
      'sweep-hd:base:1:usdc:base',
      'sweep-hd:base:1:gas',
    ]);
    expect(balances(postings.flatMap((p) => p.entries))).toEqual({
      'collector:base usdc:base': 5_000_000n,
      'deposits:base usdc:base': -5_000_000n,
      'deposit_gas:base native:base': 15_000n,
      'gas_expense:base native:base': 66_000n,
      'relayer:base native:base': 10n ** 16n - 81_000n,
      'treasury_funding:base native:base': -(10n ** 16n),
    });
  });

  it('posts nothing for a skipped top-up or free gas, and refuses negative amounts', () => {
    expect(hdGasToppedUp('topup:base:2', 'live', 'base', { sentWei: 0n, gasWei: 0n })).toEqual([]);
    expect(hdSweepGasPaid('sweep-hd:base:2', 'live', 'base', 0n)).toBeUndefined();
    expect(() => hdGasToppedUp('topup:base:2', 'live', 'base', { sentWei: -1n, gasWei: 0n })).toThrow(RangeError);
    expect(() => hdSweepGasPaid('sweep-hd:base:2', 'live', 'base', -1n)).toThrow(RangeError);
  });
});
