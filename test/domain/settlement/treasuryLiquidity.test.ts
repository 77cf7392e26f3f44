// The treasury pays a payout only with enough USDC beyond what signed payouts already claim, and enough SOL for
// every in-flight payout's fee and rent while staying rent-exempt; otherwise it says by how much it is short.
import { describe, expect, it } from 'vitest';
import { judgeLiquidity, LAMPORTS_PER_SIGNATURE } from '../../../domain/settlement/treasuryLiquidity';

const needs = {
  amount: 10_000_000n,
  reservedUsdc: 0n,
  payoutsInFlight: 0,
  merchantAccountExists: true,
  tokenAccountRent: 2_039_280n,
  walletRent: 890_880n,
};
const enoughSol = LAMPORTS_PER_SIGNATURE + 890_880n;

describe('treasury liquidity', () => {
  it('pays with exactly enough, and is short by one base unit less', () => {
    expect(judgeLiquidity({ usdcBaseUnits: 10_000_000n, lamports: enoughSol }, needs)).toEqual({ kind: 'sufficient' });
    expect(judgeLiquidity({ usdcBaseUnits: 9_999_999n, lamports: enoughSol }, needs)).toEqual({
      kind: 'short',
      usdcShortfall: 1n,
      lamportsShortfall: 0n,
    });
    expect(judgeLiquidity({ usdcBaseUnits: 10_000_000n, lamports: enoughSol - 1n }, needs)).toEqual({
      kind: 'short',
      usdcShortfall: 0n,
      lamportsShortfall: 1n,
    });
  });

  it('counts USDC already claimed by signed payouts that have not landed', () => {
    expect(
      judgeLiquidity({ usdcBaseUnits: 15_000_000n, lamports: 10n ** 9n }, { ...needs, reservedUsdc: 6_000_000n, payoutsInFlight: 1 }),
    ).toEqual({
      kind: 'short',
      usdcShortfall: 1_000_000n,
      lamportsShortfall: 0n,
    });
  });

  it('needs the rent of the merchant account it creates, and of every in-flight payout that may create one', () => {
    const missing = { ...needs, merchantAccountExists: false };
    expect(judgeLiquidity({ usdcBaseUnits: 10_000_000n, lamports: enoughSol }, missing)).toEqual({
      kind: 'short',
      usdcShortfall: 0n,
      lamportsShortfall: 2_039_280n,
    });
    expect(judgeLiquidity({ usdcBaseUnits: 10_000_000n, lamports: enoughSol + 2_039_280n }, missing)).toEqual({ kind: 'sufficient' });
    const crowded = { ...needs, payoutsInFlight: 2 };
    expect(judgeLiquidity({ usdcBaseUnits: 10_000_000n, lamports: enoughSol }, crowded)).toEqual({
      kind: 'short',
      usdcShortfall: 0n,
      lamportsShortfall: 2n * (LAMPORTS_PER_SIGNATURE + 2_039_280n),
    });
  });
});
