import { describe, expect, it } from 'vitest';
import { relayerFunded } from '../../../domain/ledger/ledger';
import { relayerFundingOf, type LandedPayment } from '../../../domain/ledger/relayerFunding';

const RELAYER = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const OPERATOR = '0x00000000000000000000000000000000000000aa';
const HASH = `0x${'AB'.repeat(32)}`;

const topUp = (overrides: Partial<LandedPayment> = {}): LandedPayment => ({
  chain: 'base',
  txHash: HASH,
  succeeded: true,
  finality: { depth: 64n, required: 64 },
  from: OPERATOR,
  to: RELAYER.toLowerCase(),
  value: 10n ** 17n,
  ...overrides,
});

const TRON_RELAYER = 'TLsV52sRDL79HXGGm9yzwKibb6BeruhUzy';
const tronTopUp = (overrides: Partial<LandedPayment> = {}): LandedPayment => ({
  chain: 'tron',
  txHash: 'CD'.repeat(32),
  succeeded: true,
  finality: { solidified: true },
  contractType: 'TransferContract',
  from: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  to: TRON_RELAYER,
  value: 100_000_000n,
  ...overrides,
});

describe('relayerFundingOf', () => {
  it('posts the value an EVM transaction sent the relayer, its address compared without case, keyed on the lowercase hash', () => {
    expect(relayerFundingOf('live', RELAYER, topUp())).toEqual({
      posting: relayerFunded('live', 'base', HASH.toLowerCase(), 10n ** 17n),
    });
    expect(relayerFundingOf('live', RELAYER, topUp({ finality: { depth: 200n, required: 64 } }))).toHaveProperty('posting');
  });

  it("posts a solidified TransferContract's amount in sun", () => {
    expect(relayerFundingOf('test', TRON_RELAYER, tronTopUp())).toEqual({
      posting: relayerFunded('test', 'tron', 'cd'.repeat(32), 100_000_000n),
    });
  });

  it.each([
    ['a failed transaction', topUp({ succeeded: false }), /failed on base: it moved no coin$/],
    ['one not deep enough yet', topUp({ finality: { depth: 63n, required: 64 } }), /has 63 of the 64 confirmations base needs/],
    [
      'a payment to another address',
      topUp({ to: OPERATOR }),
      new RegExp(`does not pay the live relayer on base \\(${RELAYER}\\): it pays ${OPERATOR}$`),
    ],
    ['a contract creation', topUp({ to: undefined }), /it pays no one \(a contract creation\)$/],
    ['a payment of nothing', topUp({ value: 0n }), /pays the live relayer on base nothing$/],
    ["the relayer's own transaction", topUp({ from: RELAYER.toLowerCase(), to: OPERATOR }), /was sent by the live relayer on base/],
  ])('refuses %s', (_, payment, message) => {
    const decision = relayerFundingOf('live', RELAYER, payment);
    expect(decision).toEqual({ refused: expect.stringMatching(message) as string });
    expect((decision as { refused: string }).refused).toMatch(new RegExp(`^transaction ${HASH} `));
  });

  it.each([
    ['an unsolidified transfer', tronTopUp({ finality: { solidified: false } }), /is not solidified on tron yet/],
    ['a contract call', tronTopUp({ contractType: 'TriggerSmartContract' }), /is a TriggerSmartContract, not a TRX transfer/],
    ['a transfer to another account, compared as written', tronTopUp({ to: TRON_RELAYER.toLowerCase() }), /does not pay the test relayer/],
  ])('refuses %s on Tron', (_, payment, message) => {
    expect(relayerFundingOf('test', TRON_RELAYER, payment)).toEqual({ refused: expect.stringMatching(message) as string });
  });
});
