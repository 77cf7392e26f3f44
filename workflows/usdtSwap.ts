// USDT→USDC swaps in a chain's DepositCollector (docs/settlement.md#usdt-swaps). swapUsdt runs on the schedule
// swap_usdt_<chain>_<mode> (worker/transferSchedules.ts): it asks the signer to start a swap of the collector's USDT
// when it holds enough and the pool quotes near 1:1, or finds the one in flight, and follows it until it is final.
// The USDC it brings leaves with the chain's next CCTP transfer (transfer_usdc_<chain>_<mode>).
import { sleep, workflowInfo } from '@temporalio/workflow';
import type { CctpSourceChain } from '../domain/cctp/domains';
import type { Mode } from '../domain/wire/session';
import { transfers } from './sessionActivities';

export interface SwapUsdtInput {
  mode: Mode;
  chain: CctpSourceChain;
}

export type SwapUsdtResult =
  | { kind: 'no_route' }
  | { kind: 'idle' | 'waiting_price'; reason: string }
  | { kind: 'swapped'; swapId: string; amountOut: string }
  | { kind: 'failed'; swapId: string; reason: string };

/** Blocks on the chain: the swap waits for its confirmations. */
const SWAP_POLL = '5 seconds';

export async function swapUsdt({ mode, chain }: SwapUsdtInput): Promise<SwapUsdtResult> {
  const signer = transfers(mode);
  const started = await signer.startUsdtSwap({ mode, chain, runKey: workflowInfo().workflowId });
  if (started.status === 'no_route') return { kind: 'no_route' };
  if (started.status === 'idle' || started.status === 'waiting_price') return { kind: started.status, reason: started.reason };
  const { swapId } = started;
  for (;;) {
    const swap = await signer.advanceUsdtSwap({ mode, chain, swapId });
    if (swap.status === 'no_route') return { kind: 'no_route' };
    if (swap.status === 'swapped') return { kind: 'swapped', swapId, amountOut: swap.amountOut };
    if (swap.status === 'failed') return { kind: 'failed', swapId, reason: swap.reason };
    await sleep(SWAP_POLL);
  }
}
