// Whether the treasury can pay a payout now (docs/settlement.md#r7-short-liquidity-waits): enough USDC for this
// payout on top of the payouts already signed and not yet landed, and enough SOL for the fees and account rent of all
// of them while the treasury itself stays rent-exempt (a fee payer that would drop below that is refused by the
// cluster). Short is a state to wait in, never a failure.

/** The base fee per signature; payouts carry one signature and no priority fee. */
export const LAMPORTS_PER_SIGNATURE = 5_000n;

export interface TreasuryFunds {
  usdcBaseUnits: bigint;
  lamports: bigint;
}

export interface PayoutNeeds {
  amount: bigint;
  /** USDC of other payouts signed from this treasury that have not landed: already spoken for. */
  reservedUsdc: bigint;
  /** How many such payouts: each may still spend a fee and a token account's rent. */
  payoutsInFlight: number;
  merchantAccountExists: boolean;
  /** Rent-exempt minimum of a 165-byte token account. */
  tokenAccountRent: bigint;
  /** Rent-exempt minimum of the treasury wallet itself (a data-less system account). */
  walletRent: bigint;
}

export type LiquidityVerdict = { kind: 'sufficient' } | { kind: 'short'; usdcShortfall: bigint; lamportsShortfall: bigint };

export function judgeLiquidity(funds: TreasuryFunds, needs: PayoutNeeds): LiquidityVerdict {
  const usdcNeeded = needs.amount + needs.reservedUsdc;
  const ownLamports = LAMPORTS_PER_SIGNATURE + (needs.merchantAccountExists ? 0n : needs.tokenAccountRent);
  const othersLamports = BigInt(needs.payoutsInFlight) * (LAMPORTS_PER_SIGNATURE + needs.tokenAccountRent);
  const lamportsNeeded = ownLamports + othersLamports + needs.walletRent;
  const usdcShortfall = usdcNeeded > funds.usdcBaseUnits ? usdcNeeded - funds.usdcBaseUnits : 0n;
  const lamportsShortfall = lamportsNeeded > funds.lamports ? lamportsNeeded - funds.lamports : 0n;
  return usdcShortfall === 0n && lamportsShortfall === 0n ? { kind: 'sufficient' } : { kind: 'short', usdcShortfall, lamportsShortfall };
}
