// What an EVM chain intent may call, rebuilt from the row it belongs to (docs/settlement.md#a-stored-call-is-signed-only-as-its-row-implies).
// An intent's `call` is signed as stored, first and on every replacement; only the signer's role writes it, but a row
// changed all the same (a hand edit, a restored backup, the signer's credentials elsewhere) would have the relayer or a
// deposit address sign whatever it says. So before each pass the call is compared with what its sweep or transfer
// row implies: a forwarder sweep calls its factory's sweepMany with its addresses' salts and its token, an HD sweep
// sends its planned amount of its token to its collector, an HD top-up sends the relayer's coin to the swept address
// alone, a CCTP burn burns the transfer's amount under its max fee and speed on the configured collector, a swap sells
// its amount of its token in its pool for at least its minimum on the configured collector.
import { decodeFunctionData, encodeFunctionData, erc20Abi, type Address, type Hex } from 'viem';
import * as depositCollector from '../../contracts/artifacts/depositCollector';
import * as depositFactory from '../../contracts/artifacts/depositFactory';
import { finalityThreshold, type CctpSpeed } from '../cctp/finality';

/** As chain_intents.call holds it: value in wei, as a decimal string. */
export interface EvmCall {
  to: string;
  data: string;
  value: string;
}

const sameHex = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function wei(value: string): bigint | undefined {
  try {
    return BigInt(value);
  } catch {
    return undefined;
  }
}

/** Why the stored call is not `expected`, field by field; undefined when it is. */
export function evmCallDifference(stored: EvmCall | null, expected: EvmCall): string | undefined {
  if (!stored) return 'it holds no call';
  const differences: string[] = [];
  if (!sameHex(stored.to, expected.to)) differences.push(`it calls ${stored.to}, not ${expected.to}`);
  if (!sameHex(stored.data, expected.data)) differences.push(`its data is not the one its row implies`);
  if (wei(stored.value) !== BigInt(expected.value)) differences.push(`it sends ${stored.value} wei, not ${expected.value}`);
  return differences.length === 0 ? undefined : differences.join('; ');
}

/**
 * A forwarder sweep's call: sweepMany(salts, token) on its factory, nothing sent. The salts are compared as a set:
 * the sweep's rows are read back in address order, not in the batch's.
 */
export function forwarderSweepCallDifference(
  stored: EvmCall | null,
  sweep: { factory: string; tokenAddress: string; salts: readonly string[] },
): string | undefined {
  if (!stored) return 'it holds no call';
  const differences: string[] = [];
  if (!sameHex(stored.to, sweep.factory)) differences.push(`it calls ${stored.to}, not the sweep's factory ${sweep.factory}`);
  if (wei(stored.value) !== 0n) differences.push(`it sends ${stored.value} wei, not 0`);
  let args: readonly unknown[] | undefined;
  try {
    const decoded = decodeFunctionData({ abi: depositFactory.abi, data: stored.data as Hex });
    if (decoded.functionName === 'sweepMany') args = decoded.args;
  } catch {
    args = undefined;
  }
  if (!args) differences.push("its data is not the factory's sweepMany");
  else {
    const [salts, token] = args as [readonly string[], string];
    const planned = new Set(sweep.salts.map((s) => s.toLowerCase()));
    const called = new Set(salts.map((s) => s.toLowerCase()));
    if (planned.size !== called.size || [...called].some((s) => !planned.has(s)))
      differences.push("it sweeps other salts than the sweep's addresses'");
    if (!sameHex(token, sweep.tokenAddress)) differences.push(`it sweeps ${token}, not the sweep's token ${sweep.tokenAddress}`);
  }
  return differences.length === 0 ? undefined : differences.join('; ');
}

/** An HD sweep's transfer: its planned amount of its token to its collector, nothing sent. */
export function hdSweepTransferCall(sweep: { tokenAddress: string; collector: string; plannedBaseUnits: bigint }): EvmCall {
  return {
    to: sweep.tokenAddress,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [sweep.collector as Address, sweep.plannedBaseUnits] }),
    value: '0',
  };
}

/** An HD sweep's top-up: the relayer's coin to the swept address, and no call; how much is the plan's estimate of the transfer's cost. */
export function hdTopUpCallDifference(stored: EvmCall | null, sweptAddress: string): string | undefined {
  if (!stored) return 'it holds no call';
  const differences: string[] = [];
  if (!sameHex(stored.to, sweptAddress)) differences.push(`it pays ${stored.to}, not the swept address ${sweptAddress}`);
  if (stored.data !== '0x') differences.push('it carries call data; a top-up sends coin only');
  if (wei(stored.value) === undefined) differences.push(`its value ${stored.value} is not an amount of wei`);
  return differences.length === 0 ? undefined : differences.join('; ');
}

/** A CCTP burn: the transfer's amount of USDC burned from the collector under its max fee, at its speed's finality. */
export function cctpBurnCall(burn: { collector: string; usdc: string; amount: bigint; maxFee: bigint; speed: CctpSpeed }): EvmCall {
  return {
    to: burn.collector,
    data: encodeFunctionData({
      abi: depositCollector.abi,
      functionName: 'burn',
      args: [burn.usdc as Address, burn.amount, burn.maxFee, finalityThreshold(burn.speed)],
    }),
    value: '0',
  };
}

/** A USDT swap: the swap's amount of its token sold on the configured collector in its pool, for at least its minimum out. */
export function usdtSwapCall(swap: { collector: string; tokenIn: string; poolFee: number; amountIn: bigint; minOut: bigint }): EvmCall {
  return {
    to: swap.collector,
    data: encodeFunctionData({
      abi: depositCollector.abi,
      functionName: 'swap',
      args: [swap.tokenIn as Address, swap.poolFee, swap.amountIn, swap.minOut],
    }),
    value: '0',
  };
}
