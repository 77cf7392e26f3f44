// A swap of a DepositCollector's USDT to USDC on a CCTP chain (docs/settlement.md#usdt-swaps): its stages, its chain
// intent's id, and the decisions before it is written. I/O is in signer/swaps/.
import { createHash } from 'node:crypto';

/** swapping: the row and its intent exist; swapped: the swap is final; failed: it reverted (the USDT stayed). */
export type SwapStage = 'swapping' | 'swapped' | 'failed';

/** Uniswap's 0.01% tier, where stablecoin pairs trade. */
export const DEFAULT_SWAP_POOL_FEE = 100;
export const SWAP_POOL_FEES = [100, 500, 3000, 10_000] as const;
/** How far below 1:1 a quote may be before the swap waits: 0.5%. */
export const DEFAULT_SWAP_MAX_DEVIATION_BPS = 50;

export const swapIntentId = (swapId: string) => `swap:${swapId}`;

/** The swap a scheduled run starts: derived from the run's key, so a retried start finds it instead of making another. */
export function swapIdFor(runKey: string): string {
  return `sw_${createHash('sha256').update(`usdt-swap:${runKey}`).digest('hex').slice(0, 26)}`;
}

export type SwapStartVerdict = { start: true; amountIn: bigint } | { start: false; reason: string };

/** The whole USDT balance, once it reaches the minimum (the transfer minimum, in USDT's base units). */
export function judgeSwapStart(input: { balance: bigint; minimum: bigint }): SwapStartVerdict {
  if (input.balance === 0n || input.balance < input.minimum) {
    return { start: false, reason: `the collector holds ${input.balance} USDT base units, below the minimum of ${input.minimum}` };
  }
  return { start: true, amountIn: input.balance };
}

export type SwapPriceVerdict = { swap: true; minOut: bigint } | { swap: false; reason: string; deviationBps: number };

/** `amount` of a token with `from` decimals, as base units of one with `to` decimals at 1:1 (rounded down). */
export function atPar(amount: bigint, from: number, to: number): bigint {
  return to >= from ? amount * 10n ** BigInt(to - from) : amount / 10n ** BigInt(from - to);
}

/**
 * The quoter's answer for selling `amountIn`, judged against 1:1: within `maxDeviationBps` below par the swap goes
 * ahead with the quote itself as its minimum out (the pool cannot hand back less than it just quoted without the
 * price moving, and then the swap reverts and is tried again); further below, it waits. A quote above par is a
 * gain and goes ahead too. The collector's own floor (maxSwapDeviationBps on chain) is the last word.
 */
export function judgeSwapQuote(input: {
  amountIn: bigint;
  quotedOut: bigint;
  decimalsIn: number;
  decimalsOut: number;
  maxDeviationBps: number;
}): SwapPriceVerdict {
  const par = atPar(input.amountIn, input.decimalsIn, input.decimalsOut);
  if (input.quotedOut <= 0n || par <= 0n)
    return { swap: false, reason: `the pool quotes ${input.quotedOut} for ${input.amountIn}`, deviationBps: 10_000 };
  const shortfall = par - input.quotedOut;
  // Rounded up: a deviation a hair above the ceiling is above it.
  const deviationBps = shortfall <= 0n ? 0 : Number((shortfall * 10_000n + par - 1n) / par);
  if (deviationBps > input.maxDeviationBps) {
    return {
      swap: false,
      reason: `the pool quotes ${input.quotedOut} for ${input.amountIn} (${deviationBps} bps under 1:1), beyond SWAP_MAX_DEVIATION_BPS ${input.maxDeviationBps}`,
      deviationBps,
    };
  }
  return { swap: true, minOut: input.quotedOut };
}
