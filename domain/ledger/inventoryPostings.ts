// The postings of held inventory (docs/settlement.md#held-inventory). Accounts besides ledger.ts's:
//   rebalancing:<chain>           held tokens withdrawn from the chain's collector to its rebalancing address, not yet
//                                 back in the treasury as USDC
//   exchange_difference:<chain>   what turning them into USDC cost (positive) or gained (negative) against one USDC
//                                 per token unit: the exchange's price and fees, and the transfer back
import type { Chain } from '../chains/chains';
import type { Mode } from '../wire/session';
import { ACCOUNT, ASSET, assetDecimals, tokenAsset, type Asset, type LedgerEntry, type LedgerPosting } from './ledger';
import type { InventoryPair } from '../inventory/inventoryCaps';

export const INVENTORY_ACCOUNT = {
  rebalancing: (chain: Chain) => `rebalancing:${chain}`,
  exchangeDifference: (chain: Chain) => `exchange_difference:${chain}`,
} as const;

/** The chain intent of an inventory withdrawal: written ahead, as every transaction the service signs. */
export const inventoryWithdrawalIntentId = (chain: Chain, withdrawalId: string): string => `rebalance:${chain}:${withdrawalId}`;

function positive(amount: bigint, what: string): bigint {
  if (amount <= 0n) throw new RangeError(`${what} must be positive, got ${amount}`);
  return amount;
}

/** The withdrawal is final on its chain: `amount` left the collector for the rebalancing address. */
export function inventoryWithdrawn(withdrawal: { withdrawalId: string; mode: Mode; pair: InventoryPair }, amount: bigint): LedgerPosting {
  const { chain } = withdrawal.pair;
  const asset = tokenAsset(withdrawal.pair.token, chain);
  const moved = positive(amount, 'a withdrawn amount');
  const intentId = inventoryWithdrawalIntentId(chain, withdrawal.withdrawalId);
  return {
    groupId: `${intentId}:sent`,
    mode: withdrawal.mode,
    reference: intentId,
    entries: [
      { account: INVENTORY_ACCOUNT.rebalancing(chain), asset, amount: moved },
      { account: ACCOUNT.collector(chain), asset, amount: -moved },
    ],
  };
}

/** Token base units as USDC micro-units, one for one: bsc's 18 decimals truncated to 6. */
export function usdcWorth(asset: Asset, amount: bigint): bigint {
  const shift = assetDecimals(asset) - 6;
  return shift >= 0 ? amount / 10n ** BigInt(shift) : amount * 10n ** BigInt(-shift);
}

export const inventoryRebalancedGroupId = (chain: Chain, signature: string): string => `inventory-rebalanced:${chain}:${signature}`;

/**
 * USDC for everything in `rebalancing:<chain>` reached the treasury in the Solana transaction `signature`: each held
 * asset leaves `rebalancing:<chain>` and closes the short `cross_chain_clearing` took when the treasury paid out
 * against it; in Solana USDC the treasury gains what arrived, the clearing account gives back the tokens' worth at
 * one for one, and the difference is `exchange_difference:<chain>`'s.
 */
export function inventoryRebalanced(
  mode: Mode,
  chain: Chain,
  signature: string,
  amounts: { inFlight: ReadonlyArray<{ asset: Asset; amount: bigint }>; receivedUsdc: bigint },
): LedgerPosting {
  const closing = amounts.inFlight.filter((held) => held.amount !== 0n);
  if (closing.length === 0) throw new RangeError(`nothing is in flight in ${INVENTORY_ACCOUNT.rebalancing(chain)}`);
  const received = positive(amounts.receivedUsdc, 'the USDC received');
  const worth = closing.reduce((sum, held) => sum + usdcWorth(held.asset, positive(held.amount, 'an amount in flight')), 0n);
  const entries: LedgerEntry[] = closing.flatMap((held) => [
    { account: ACCOUNT.crossChainClearing, asset: held.asset, amount: held.amount },
    { account: INVENTORY_ACCOUNT.rebalancing(chain), asset: held.asset, amount: -held.amount },
  ]);
  entries.push(
    { account: ACCOUNT.treasury, asset: ASSET.usdcSolana, amount: received },
    { account: ACCOUNT.crossChainClearing, asset: ASSET.usdcSolana, amount: -worth },
  );
  if (worth !== received)
    entries.push({ account: INVENTORY_ACCOUNT.exchangeDifference(chain), asset: ASSET.usdcSolana, amount: worth - received });
  const groupId = inventoryRebalancedGroupId(chain, signature);
  return { groupId, mode, reference: groupId, entries };
}
