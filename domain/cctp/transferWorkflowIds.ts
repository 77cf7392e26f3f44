// The Temporal ids of the CCTP transfer workflows (workflows/cctpTransfer.ts), apart from the transfer's decisions
// so the workflow bundle imports nothing but these strings.
import type { Mode } from '../wire/session';
import type { CctpSourceChain } from './domains';

/** One workflow per transfer, ever. */
export const transferWorkflowId = (transferId: string) => `transfer_${transferId}`;

/** The Schedule that starts a chain's transfers (worker/transferSchedules.ts); each run's id starts with it. */
export const transferScheduleId = (chain: CctpSourceChain, mode: Mode) => `transfer_usdc_${chain}_${mode}`;
