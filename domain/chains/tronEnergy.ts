// What a Tron sweep needs of energy, and what fee limit and resources that asks of the one who pays
// (docs/settlement.md#tron-energy). The figures are measured, not guessed: test/contracts/tvmDepositContracts.test.ts
// runs the committed TVM build of DepositFactory and a token under the TVM's CREATE2 and recomputes them, so a change
// of the contracts that moves them fails there. That run counts gas on Prague's schedule, which prices an account's or
// slot's first touch (2600, 2100) far above the TVM's energy (CALL 40, SLOAD 50, no access lists), so it stands above
// what the TVM burns for the same code; the token is the test's, not Tron USDT, which is why the token's share is also
// scaled by the network's dynamic-energy ceiling and everything by a margin.

/** Energy (Prague gas) of one sweepMany, apart from what each address adds. */
export const SWEEP_MANY_BASE_ENERGY = 11_347n;
/** What one address adds to a sweepMany the first time, deploying its clone. */
export const SWEEP_FIRST_ADDRESS_ENERGY = 55_498n;
/** What one address adds to a sweepMany once its clone is deployed. */
export const SWEEP_LATER_ADDRESS_ENERGY = 14_222n;
/** One token transfer(to, amount) from a holder to an account already holding the token: an HD sweep, and each address's token call in a sweepMany. */
export const TOKEN_TRANSFER_ENERGY = 7_069n;

/** What the estimate is raised by before it becomes a fee limit or a resource check (50%). */
export const TRON_ENERGY_MARGIN_BPS = 5_000n;

/** The network's prices (getchainparameters), sun. */
export interface TronChainPrices {
  /** getEnergyFee: sun burned per unit of energy the account does not hold. */
  energyFeeSun: bigint;
  /** getTransactionFee: sun burned per byte of bandwidth the account does not hold. */
  bandwidthFeeSun: bigint;
  /**
   * getDynamicEnergyMaxFactor when getAllowDynamicEnergy is on, else 0: the most a popular contract's (USDT's) own
   * energy is raised by, in 1/10000 (34000: 3.4 times more on top).
   */
  dynamicEnergyMaxFactor: bigint;
}

/** The token's share raised by the largest dynamic-energy factor the network allows: the ceiling of what USDT may cost. */
function withTokenFactor(energy: bigint, transfers: bigint, prices: TronChainPrices): bigint {
  return energy + (TOKEN_TRANSFER_ENERGY * transfers * prices.dynamicEnergyMaxFactor) / 10_000n;
}

const larger = (a: bigint, b: bigint) => (a > b ? a : b);

/**
 * A sweepMany of `addresses` forwarders, each taken as a first sweep deploying its clone (a fee limit is a ceiling,
 * and which clones exist is the chain's to say, not the plan's), or what the node's own run of the call used
 * (`simulated`, the constant call's energy_used, which prices the real token) when that is more.
 */
export function forwarderSweepEnergy(addresses: number, prices: TronChainPrices, simulated = 0n): bigint {
  if (!Number.isInteger(addresses) || addresses < 1) throw new RangeError('a sweepMany sweeps at least one address');
  const count = BigInt(addresses);
  return larger(withTokenFactor(SWEEP_MANY_BASE_ENERGY + SWEEP_FIRST_ADDRESS_ENERGY * count, count, prices), simulated);
}

/** An HD address's transfer(collector, amount), or the node's run of it when that used more. */
export function hdTransferEnergy(prices: TronChainPrices, simulated = 0n): bigint {
  return larger(withTokenFactor(TOKEN_TRANSFER_ENERGY, 1n, prices), simulated);
}

/**
 * A collector's rebalance(token, amount): its one token transfer at least, or the node's run of the call when that
 * used more, which it does, the collector reading its balance before and after: the node's run is what prices it.
 */
export function collectorRebalanceEnergy(prices: TronChainPrices, simulated = 0n): bigint {
  return larger(withTokenFactor(TOKEN_TRANSFER_ENERGY, 1n, prices), simulated);
}

const withMargin = (value: bigint) => (value * (10_000n + TRON_ENERGY_MARGIN_BPS) + 9_999n) / 10_000n;

/** The fee limit of a call needing `energy`: all of it burned at the network's price, with the margin, never above the signer's cap. */
export function tronFeeLimitSun(energy: bigint, prices: TronChainPrices, capSun: bigint): bigint {
  const limit = withMargin(energy * prices.energyFeeSun);
  return limit < capSun ? (limit > 0n ? limit : 1n) : capSun;
}

/** The energy a fee limit was made from, uncapped: what tronFeeLimitSun would turn into that fee limit, at most. */
export function energyOfFeeLimit(feeLimitSun: bigint, prices: TronChainPrices): bigint {
  return (feeLimitSun * 10_000n) / ((10_000n + TRON_ENERGY_MARGIN_BPS) * prices.energyFeeSun);
}

/** What the relayer holds to pay a call with (getaccountresource, getaccount). */
export interface TronRelayerResources {
  /** EnergyLimit − EnergyUsed: staked and delegated (rented) energy it can spend now. */
  energyAvailable: bigint;
  /** Its TRX, sun. */
  trxBalanceSun: bigint;
  /** The most bytes one transaction may take from its staked or its free daily bandwidth. */
  bandwidthAvailable: bigint;
}

export type TronResourceVerdict =
  { kind: 'enough'; energyNeeded: bigint; burnSun: bigint } | { kind: 'short'; energyNeeded: bigint; burnSun: bigint; reason: string };

/**
 * Bandwidth of a signed TriggerSmartContract carrying `parameterHex`: raw_data's fixed fields, the 65-byte signature and
 * the 64 bytes java-tron counts for a contract's result come to under 300 bytes; the call's data adds its length.
 */
export const callBandwidthBytes = (parameterHex: string) => 300n + BigInt(Math.ceil(parameterHex.length / 2));

/**
 * Whether the relayer can pay a call needing `energy` (with the margin) and `bandwidthBytes`: the energy it holds is
 * spent first, the rest burned from its TRX at the network's price; the bytes come from its bandwidth when one source
 * covers them all, else every byte is burned. Short, the call waits rather than running out of energy on chain.
 */
export function judgeTronResources(
  need: { energy: bigint; bandwidthBytes: bigint },
  held: TronRelayerResources,
  prices: TronChainPrices,
): TronResourceVerdict {
  const energyNeeded = withMargin(need.energy);
  const unheld = energyNeeded > held.energyAvailable ? energyNeeded - held.energyAvailable : 0n;
  const bandwidthSun = need.bandwidthBytes <= held.bandwidthAvailable ? 0n : need.bandwidthBytes * prices.bandwidthFeeSun;
  const burnSun = unheld * prices.energyFeeSun + bandwidthSun;
  if (burnSun <= held.trxBalanceSun) return { kind: 'enough', energyNeeded, burnSun };
  return {
    kind: 'short',
    energyNeeded,
    burnSun,
    reason:
      `the relayer holds ${held.energyAvailable} energy and ${held.trxBalanceSun} sun; the sweep needs ${energyNeeded} energy, ` +
      `so ${burnSun} sun to burn: stake or rent energy, or send it TRX`,
  };
}
