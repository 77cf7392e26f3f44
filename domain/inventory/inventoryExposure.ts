// The exposure of a held pair (docs/settlement.md#held-inventory), from the ledger alone. Each deposit the treasury
// paid out against (a payout, or a refund paid in Solana USDC) left `cross_chain_clearing` short the deposit's token
// by its units; `inventory.rebalanced` closes that short once the operator's withdrawal came back to the treasury as
// USDC. So what the treasury paid out against the pair and has not got back is the clearing account's short, whether
// its units are still at deposit addresses, swept into the collector or on their way to the rebalancing address.
import type { Asset } from '../ledger/ledger';

/** Ledger balances (debits positive) of one held asset, per account. */
export interface HeldAssetBalances {
  asset: Asset;
  crossChainClearing: bigint;
  /** collector:<chain>: swept into the chain's collector (on Solana, where there is none, 0). */
  collector: bigint;
  /** rebalancing:<chain>: withdrawn to the rebalancing address, not yet back in the treasury. */
  rebalancing: bigint;
  /** deposits:<chain>: at deposit addresses, not swept. */
  deposits: bigint;
}

export interface InventoryExposure {
  asset: Asset;
  /** Paid out against the asset and not come back, in its base units; never negative. */
  exposure: bigint;
  held: bigint;
  inFlight: bigint;
  atDepositAddresses: bigint;
}

export function inventoryExposure(balances: HeldAssetBalances): InventoryExposure {
  const short = -balances.crossChainClearing;
  return {
    asset: balances.asset,
    exposure: short > 0n ? short : 0n,
    held: balances.collector,
    inFlight: balances.rebalancing,
    atDepositAddresses: balances.deposits,
  };
}
