// A merchant's monthly statement from its ledger entries: each kind of posting lands on its line, and the lines add up.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  merchantStatement,
  statementCsv,
  statementMonth,
  usdcDecimal,
  type StatementEntry,
} from '../../../domain/settlement/merchantStatement';

const P = 'payout:pay_01J0000000000000000000000A';
const entries: StatementEntry[] = [
  { groupId: 'deposit:solana:sig1:0:settled', account: 'payable', amount: -10_000_000n },
  { groupId: 'deposit:base:0xab:3:settled', account: 'payable', amount: -5_000_000n },
  { groupId: `${P}:fee`, account: 'payable', amount: 250_000n },
  { groupId: `${P}:netted`, account: 'payable', amount: 2_000_000n },
  { groupId: `${P}:reserve`, account: 'payable', amount: 7_750_000n },
  { groupId: `${P}:2:release`, account: 'payable', amount: -7_750_000n },
  { groupId: `${P}:2:reserve`, account: 'payable', amount: 7_750_000n },
  { groupId: 'refund:ref_1:reserve', account: 'receivable', amount: 2_000_000n },
  { groupId: 'refund:ref_2:reserve', account: 'receivable', amount: 1_000_000n },
  { groupId: 'refund:ref_2:release', account: 'receivable', amount: -1_000_000n },
  { groupId: `${P}:netted`, account: 'receivable', amount: -2_000_000n },
];

describe('merchant statement', () => {
  it('puts each posting on its line: received, fees, netting, paid out, refunds charged, and what is held', () => {
    expect(merchantStatement('2026-11', -1_000_000n, entries)).toEqual({
      month: '2026-11',
      openingHeld: 1_000_000n,
      received: 15_000_000n,
      fees: 250_000n,
      netted: 2_000_000n,
      paidOut: 7_750_000n,
      refunds: 2_000_000n,
      other: 0n,
      closingHeld: 6_000_000n,
    });
  });

  it('always adds up: a posting of no known kind is other', () => {
    const withRemedy = [...entries, { groupId: 'settlement-remedy:x', account: 'payable' as const, amount: 300_000n }];
    expect(merchantStatement('2026-11', 0n, withRemedy)).toMatchObject({ other: -300_000n, closingHeld: 4_700_000n });
    const groups = fc.constantFrom('deposit:solana:s:0:settled', `${P}:fee`, `${P}:netted`, `${P}:reserve`, `${P}:release`, 'x:y');
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
        fc.array(
          fc.record({
            groupId: groups,
            account: fc.constant('payable' as const),
            amount: fc.bigInt({ min: -(10n ** 9n), max: 10n ** 9n }),
          }),
        ),
        (opening, list) => {
          const s = merchantStatement('2026-11', opening, list);
          return s.closingHeld === s.openingHeld + s.received - s.fees - s.netted - s.paidOut + s.other;
        },
      ),
    );
  });

  it('reads a month as its UTC bounds, and nothing else', () => {
    expect(statementMonth('2026-11')).toEqual({ start: new Date('2026-11-01T00:00:00Z'), end: new Date('2026-12-01T00:00:00Z') });
    expect(statementMonth('2026-12')?.end).toEqual(new Date('2027-01-01T00:00:00Z'));
    for (const bad of ['2026-13', '2026-00', '2026-1', '26-11', '2026-11-01', '1999-12', '']) expect(statementMonth(bad)).toBeUndefined();
  });

  it('writes CSV, one line per amount in USDC with six decimals', () => {
    const csv = statementCsv('mer_1', 'live', merchantStatement('2026-11', -1_000_000n, entries));
    expect(csv.split('\r\n')).toEqual([
      'merchant_id,mode,month,line,amount_usdc',
      'mer_1,live,2026-11,held_at_start,1.000000',
      'mer_1,live,2026-11,received,15.000000',
      'mer_1,live,2026-11,fees,0.250000',
      'mer_1,live,2026-11,netted_for_refunds,2.000000',
      'mer_1,live,2026-11,paid_out,7.750000',
      'mer_1,live,2026-11,other,0.000000',
      'mer_1,live,2026-11,held_at_end,6.000000',
      'mer_1,live,2026-11,refunds_charged,2.000000',
      '',
    ]);
    expect(usdcDecimal(-1n)).toBe('-0.000001');
  });
});
