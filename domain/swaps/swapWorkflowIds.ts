// The Temporal ids of the USDT swap runs (workflows/usdtSwap.ts), apart from the swap's decisions so the workflow
// bundle imports nothing but these strings.
import type { CctpSourceChain } from '../cctp/domains';
import type { Mode } from '../wire/session';

/** The Schedule that swaps a chain's collector USDT (worker/transferSchedules.ts); each run's id starts with it. */
export const swapScheduleId = (chain: CctpSourceChain, mode: Mode) => `swap_usdt_${chain}_${mode}`;
