// Reconciliation's comparison: every reconciled account is reported with its ledger and on-chain balance, an
// account the ledger never posted to holds zero, and only the accounts that disagree are differences.
import { describe, expect, it } from 'vitest';
import { ACCOUNT, ASSET, treasuryFunded, treasuryOpening, isBalanced } from '../../../domain/ledger/ledger';
import { differences, RECONCILED_ACCOUNTS, reconcileBalances } from '../../../domain/ledger/reconciliation';

const usdc = { account: ACCOUNT.treasury, asset: ASSET.usdcSolana };
const sol = { account: ACCOUNT.treasury, asset: ASSET.solSolana };
const deposits = { account: ACCOUNT.deposits, asset: ASSET.usdcSolana };

describe('reconcileBalances and differences', () => {
  it('reports nothing when the ledger and the chain agree', () => {
    const ledger = [
      { ...usdc, amount: 5_000_000n },
      { ...sol, amount: 1_000n },
    ];
    const observed = [
      { ...usdc, amount: 5_000_000n },
      { ...sol, amount: 1_000n },
      { ...deposits, amount: 0n },
    ];
    const balances = reconcileBalances(RECONCILED_ACCOUNTS, ledger, observed);
    expect(balances).toEqual([
      { ...usdc, ledger: 5_000_000n, observed: 5_000_000n },
      { ...sol, ledger: 1_000n, observed: 1_000n },
      { ...deposits, ledger: 0n, observed: 0n },
    ]);
    expect(differences(balances)).toEqual([]);
  });

  it('reports each account that differs with observed minus ledger, an unposted account holding zero', () => {
    const ledger = [
      { ...usdc, amount: 5_000_000n },
      { ...sol, amount: 1_000n },
    ];
    const observed = [
      { ...usdc, amount: 7_500_000n },
      { ...sol, amount: 900n },
      { ...deposits, amount: 42n },
    ];
    expect(differences(reconcileBalances(RECONCILED_ACCOUNTS, ledger, observed))).toEqual([
      { ...usdc, ledger: 5_000_000n, observed: 7_500_000n, difference: 2_500_000n },
      { ...sol, ledger: 1_000n, observed: 900n, difference: -100n },
      { ...deposits, ledger: 0n, observed: 42n, difference: 42n },
    ]);
  });

  it('refuses to call an account that was not read on chain zero', () => {
    expect(() =>
      reconcileBalances(
        RECONCILED_ACCOUNTS,
        [],
        [
          { ...usdc, amount: 1n },
          { ...sol, amount: 1n },
        ],
      ),
    ).toThrow(/deposits:solana usdc:solana/);
  });
});

describe('treasury funding postings', () => {
  it('a top-up debits the treasury and credits its funding per asset; a withdrawal the reverse', () => {
    const posting = treasuryFunded('live', 'SiG', { [ASSET.usdcSolana]: 3n, [ASSET.solSolana]: -2n });
    expect(posting).toEqual({
      groupId: 'treasury-funding:SiG',
      mode: 'live',
      reference: 'treasury-funding:SiG',
      entries: [
        { account: ACCOUNT.treasury, asset: ASSET.usdcSolana, amount: 3n },
        { account: ACCOUNT.treasuryFunding, asset: ASSET.usdcSolana, amount: -3n },
        { account: ACCOUNT.treasury, asset: ASSET.solSolana, amount: -2n },
        { account: ACCOUNT.treasuryFunding, asset: ASSET.solSolana, amount: 2n },
      ],
    });
    expect(posting && isBalanced(posting)).toBe(true);
  });

  it('a transaction or opening that changes nothing posts nothing; an opening is keyed on mode and chain', () => {
    expect(treasuryFunded('test', 'SiG', { [ASSET.usdcSolana]: 0n })).toBeUndefined();
    expect(treasuryOpening('test', 'GeNeSiS', {})).toBeUndefined();
    expect(treasuryOpening('test', 'GeNeSiS', { [ASSET.solSolana]: 5n })?.groupId).toBe('treasury-opening:test:GeNeSiS');
  });
});
